// ROS bag speed: writes big bags with our writer in /tmp, then times open-to-summary and a full
// time-ordered iteration, next to the figures of other readers on this kind of machine.
// usage: bench_rosbag [SIZE_MB (default 1024)] [BZ2_SIZE_MB (default 128)] [TINY_MESSAGES_MB (default 260)]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/parallel.h"
#include "rosbag/demo.h"
#include "rosbag/inspector.h"
#include "rosbag/inspector_impl.h"

using namespace logscope;
using namespace logscope::rosbag;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void bench(const std::string& label, const std::string& path, uint64_t bytes, const DemoOptions& options, const char* peers) {
  std::string error;
  double t0 = now();
  if (!write_demo_file(path, bytes, options, &error)) {
    std::printf("%s: write failed: %s\n", label.c_str(), error.c_str());
    return;
  }
  double written = now() - t0;
  auto file = FileByteSource::open(path, &error);
  uint64_t size = file->size();
  CachedByteSource cached(*file);
  t0 = now();
  auto inspector = open_inspector(cached, detect(cached).format);
  Report summary = inspector->summary();
  double open_s = now() - t0;
  auto* bag = dynamic_cast<BagInspector*>(inspector.get());
  uint64_t messages = 0, payload = 0;
  t0 = now();
  for_each_message(cached, bag->bag(), IterateOptions(), [&](const MessageView& v) {
    ++messages;
    payload += v.data.size();
    return true;
  }, nullptr);
  double iterate_s = now() - t0;
  double mb = static_cast<double>(size) / 1e6;
  std::printf("%-22s %8.0f MB  write %6.2f s (%5.0f MB/s)  open+summary %7.4f s  iterate %6.2f s (%6.0f MB/s, %5.2f M msg/s)  %llu msgs\n",
              label.c_str(), mb, written, mb / written, open_s, iterate_s, mb / iterate_s, static_cast<double>(messages) / iterate_s / 1e6,
              static_cast<unsigned long long>(summary.details.find("messages")->as_uint()));
  std::printf("%-22s peers: %s\n", "", peers);
  std::remove(path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t mb = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  uint64_t bz2_mb = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 128;
  uint64_t tiny_mb = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 260;  // ~5 M 4-byte messages
  std::printf("bench_rosbag: %u worker threads\n", worker_count());
  DemoOptions options;
  options.compression = "lz4";
  bench("lz4", "/tmp/logscope_bench_lz4.bag", mb << 20, options,
        "open 0.04 s (C++ rosbag_storage), 0.12-0.15 s (rosbag.js); iterate 1 GB lz4 0.78 s");
  options.compression = "none";
  bench("uncompressed", "/tmp/logscope_bench_none.bag", mb << 20, options, "iterate 1 GB uncompressed 0.34 s");
  options.compression = "bz2";
  bench("bz2", "/tmp/logscope_bench_bz2.bag", bz2_mb << 20, options, "bz2 ~14 MB/s single core");
  options.compression = "none";
  options.tiny = true;
  bench("tiny messages", "/tmp/logscope_bench_tiny.bag", tiny_mb << 20, options, "5 M tiny messages: 4.6 s (C++), 12.8 s (rosbag.js)");
  return 0;
}
