// CARLA benchmark: writes a big demo log with our writer, then times the forward scan (frame
// index), show_recorder_file_info, collisions, actors blocked and the actor table.
// usage: bench_carla [size_mb=1024] [path=/tmp/logscope_bench_carla.log]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "carla/demo.h"
#include "carla/queries.h"
#include "carla/scan.h"
#include "core/byte_source.h"

using namespace logscope;
using namespace logscope::carla;

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
void line(const char* what, double seconds, uint64_t bytes) {
  std::printf("%-28s %8.3f s  %8.1f MB/s\n", what, seconds, bytes / 1e6 / seconds);
}
}  // namespace

int main(int argc, char** argv) {
  uint64_t size_mb = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  std::string path = argc > 2 ? argv[2] : "/tmp/logscope_bench_carla.log";
  auto start = std::chrono::steady_clock::now();
  std::string error;
  if (!write_demo_file(path, size_mb << 20, &error)) {
    std::fprintf(stderr, "bench_carla: %s\n", error.c_str());
    return 2;
  }
  double write_s = seconds_since(start);
  auto file = FileByteSource::open(path, &error);
  if (!file) {
    std::fprintf(stderr, "bench_carla: %s\n", error.c_str());
    return 2;
  }
  CachedByteSource cached(*file);
  uint64_t bytes = file->size();
  std::printf("file: %s, %.1f MB\n", path.c_str(), bytes / 1e6);
  line("write (demo writer)", write_s, bytes);

  start = std::chrono::steady_clock::now();
  ScanResult scan = scan_log(cached, nullptr);
  line("scan (frame index, doctor)", seconds_since(start), bytes);
  std::printf("  frames %zu, duration %.1f s, variant %s, problems %zu, index %.1f MB\n", scan.frames.size(),
              scan.frames.empty() ? 0.0 : scan.frames.back().elapsed, variant_label(scan.variant.variant).c_str(), scan.problems.size(),
              scan.frames.size() * sizeof(FrameEntry) / 1e6);

  start = std::chrono::steady_clock::now();
  std::string info = file_info_text(cached, scan, false);
  line("file_info (events only)", seconds_since(start), bytes);

  start = std::chrono::steady_clock::now();
  CollisionResult collisions = query_collisions(cached, scan, 'a', 'a', nullptr);
  line("collisions (a a)", seconds_since(start), bytes);
  std::printf("  %zu collision rows\n", collisions.rows.size());

  start = std::chrono::steady_clock::now();
  BlockedResult blocked = query_blocked(cached, scan, 30, 10, nullptr);
  line("actors blocked (30 s, 10 cm)", seconds_since(start), bytes);
  std::printf("  %zu blocked rows\n", blocked.rows.size());

  start = std::chrono::steady_clock::now();
  ActorsResult actors = query_actors(cached, scan, nullptr);
  line("actor table", seconds_since(start), bytes);
  std::printf("  %zu actors\n", actors.actors.size());
  std::remove(path.c_str());
  return 0;
}
