// ROS bag speed on one bag, one operation per run (bench/run.mjs runs each in a fresh process, so
// the peak RSS is that operation's; its peers run the same operations on the same file):
//   bench_rosbag FILE [--op open|info|iterate|iterate-touch] [--threads N (0 = every core)]
//                     [--source pread|mapped] [--verify 1]
// open:          open + summary(), what the page shows first (index only)
// info:          open + info_report(), the rows of `rosbag info` (adds every chunk header)
// iterate:       open, then every message in time order as a view of its bytes (nothing decoded)
// iterate-touch: the same, reading every byte of every message (a checksum), like a consumer that
//                looks at the data; peers that copy each message out do this work too
// Prints one JSON line: seconds, messages, bytes (message payload), reads (calls into the file).
#include <cstdio>
#include <cstring>
#include <string>

#include "bench_util.h"
#include "core/detect.h"
#include "rosbag/inspector.h"
#include "rosbag/iterate.h"

using namespace logscope;
using namespace logscope::rosbag;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_rosbag FILE [--op open|info|iterate|iterate-touch] [--threads N] [--source pread|mapped] [--verify 1]\n");
    return 2;
  }
  auto options = bench::flags(argc, argv, 2);
  std::string op = options.count("--op") ? options["--op"] : "iterate";
  bench::OpenedFile file = bench::open_file(argv[1], options.count("--source") ? options["--source"] : "pread");
  CountingByteSource counting(*file.source);
  double t0 = bench::now(), cpu0 = bench::cpu_seconds();
  auto inspector = open_inspector(counting, format_of(detect(counting)));
  Bag* bag = inspector ? opened_bag(*inspector) : nullptr;
  if (!bag) {
    std::fprintf(stderr, "bench_rosbag: %s is not a ROS bag\n", argv[1]);
    return 2;
  }
  uint64_t messages = 0, bytes = 0, checksum = 0;
  if (op == "open") {
    Report summary = inspector->summary();
    messages = bag->message_count();
  } else if (op == "info") {
    Report info = inspector->info_report(nullptr);
    messages = bag->message_count();
  } else if (op == "iterate" || op == "iterate-touch") {
    bool touch = op == "iterate-touch";
    IterateOptions iterate;
    iterate.threads = options.count("--threads") ? static_cast<unsigned>(std::stoul(options["--threads"])) : 0;
    iterate.verify_checksums = options.count("--verify") > 0;
    for_each_message(counting, *bag, iterate, [&](const MessageView& m) {
      ++messages;
      bytes += m.data.size();
      if (touch) {
        // Every byte, eight at a time: what a consumer that reads the data pays for it.
        uint64_t sum = 0, word;
        size_t i = 0;
        for (; i + 8 <= m.data.size(); i += 8) std::memcpy(&word, m.data.data() + i, 8), sum += word;
        for (; i < m.data.size(); ++i) sum += static_cast<uint8_t>(m.data[i]);
        checksum += sum;
      }
      return true;
    }, nullptr);
  } else {
    std::fprintf(stderr, "bench_rosbag: unknown --op %s\n", op.c_str());
    return 2;
  }
  double seconds = bench::now() - t0;
  bench::report(seconds, cpu0, bench::field("messages", messages) + ", " + bench::field("bytes", bytes) + ", " +
                             bench::field("reads", counting.read_calls()) + ", " + bench::field("checksum", checksum));
  return 0;
}
