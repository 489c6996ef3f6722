// CARLA speed on one log, one operation per run (bench/run.mjs runs each in a fresh process, so
// the peak RSS is that operation's):
//   bench_carla FILE [--op scan|file-info|collisions|blocked|actors] [--source pread|mapped]
// scan is the forward pass every CARLA view starts with (frame index, statistics, variant, doctor
// framing); the others are the official queries, each a scan plus a pass of its own.
// Prints one JSON line: seconds (the operation, the scan included), frames, the packed frame
// index's bytes, rows.
#include <cstdio>
#include <string>

#include "bench_util.h"
#include "carla/queries.h"
#include "carla/reader.h"

using namespace logscope;
using namespace logscope::carla;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_carla FILE [--op scan|file-info|collisions|blocked|actors] [--source pread|mapped]\n");
    return 2;
  }
  auto options = bench::flags(argc, argv, 2);
  std::string op = options.count("--op") ? options["--op"] : "scan";
  bench::OpenedFile file = bench::open_file(argv[1], options.count("--source") ? options["--source"] : "pread");
  ByteSource& source = *file.source;
  double t0 = bench::now(), cpu0 = bench::cpu_seconds();
  ScanResult scan = scan_log(source, nullptr);
  size_t rows = 0;
  if (op == "file-info") rows = file_info_text(source, scan, false).size();
  else if (op == "collisions") rows = query_collisions(source, scan, 'a', 'a', nullptr).rows.size();
  else if (op == "blocked") rows = query_blocked(source, scan, 30, 10, nullptr).rows.size();
  else if (op == "actors") rows = query_actors(source, scan, nullptr).actors.size();
  else if (op != "scan") {
    std::fprintf(stderr, "bench_carla: unknown --op %s\n", op.c_str());
    return 2;
  }
  double seconds = bench::now() - t0;
  bench::report(seconds, cpu0, bench::field("bytes", source.size()) + ", " + bench::field("frames", scan.frames.size()) + ", " +
                             bench::field("frame_index_bytes", scan.frames.memory_bytes()) + ", " +
                             bench::field("problems", scan.problems.size()) + ", " + bench::field("rows", rows));
  return 0;
}
