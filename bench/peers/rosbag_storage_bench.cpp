// The C++ peer: Debian's rosbag_storage (librosbag-storage-dev) on a bag, for bench/run.mjs.
// Built by bench/run.mjs with g++ when the package is there; not part of the CMake build.
//   rosbag_storage_bench open FILE      open + View over every message: count, time range, topics
//   rosbag_storage_bench iterate FILE   open, then every message in time order, its bytes copied
//                                       out (MessageInstance::write, the way to get raw bytes)
// Prints one JSON line: seconds, messages, bytes, peak RSS.
#include <rosbag/bag.h>
#include <rosbag/view.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}
long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "open") && std::strcmp(argv[1], "iterate"))) {
    std::fprintf(stderr, "usage: rosbag_storage_bench open|iterate FILE\n");
    return 2;
  }
  bool iterate = std::strcmp(argv[1], "iterate") == 0;
  try {
    double t0 = now(), cpu0 = cpu_seconds();
    rosbag::Bag bag;
    bag.open(argv[2], rosbag::bagmode::Read);
    rosbag::View view(bag);
    uint64_t messages = 0, bytes = 0;
    if (!iterate) {
      // What a summary shows: message count, time range, topics with their types.
      messages = view.size();
      std::set<std::string> topics;
      for (const rosbag::ConnectionInfo* c : view.getConnections()) topics.insert(c->topic + " " + c->datatype);
      double begin = view.getBeginTime().toSec(), end = view.getEndTime().toSec();
      bytes = topics.size();
      (void)begin;
      (void)end;
    } else {
      std::vector<uint8_t> buffer;
      for (const rosbag::MessageInstance& m : view) {
        uint32_t size = m.size();
        if (buffer.size() < size) buffer.resize(size);
        ros::serialization::OStream stream(buffer.data(), size);
        m.write(stream);
        ++messages;
        bytes += size;
      }
    }
    double seconds = now() - t0, cpu = cpu_seconds() - cpu0;
    std::printf("{\"seconds\": %.6f, \"cpu_seconds\": %.6f, \"messages\": %llu, \"bytes\": %llu, \"peak_rss_kb\": %ld}\n", seconds, cpu,
                static_cast<unsigned long long>(messages), static_cast<unsigned long long>(bytes), peak_rss_kb());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rosbag_storage: %s\n", e.what());
    return 1;
  }
  return 0;
}
