// BDDF speed figures: writing the demo file, index-first open (bytes read), extraction,
// checksum and the full doctor. Usage: bench_bddf [SIZE_MB] (default 200).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bddf/demo.h"
#include "bddf/inspector_impl.h"
#include "core/byte_source.h"

using namespace logscope;

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

int main(int argc, char** argv) {
  uint64_t size_mb = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200;
  std::string path = "/tmp/logscope_bench_bddf.bddf";
  auto t0 = std::chrono::steady_clock::now();
  std::string error;
  if (!bddf::write_demo_file(path, size_mb << 20, &error)) {
    std::fprintf(stderr, "bench_bddf: %s\n", error.c_str());
    return 1;
  }
  double write_s = seconds_since(t0);
  auto file = FileByteSource::open(path, &error);
  if (!file) return 1;
  double mb = static_cast<double>(file->size()) / (1 << 20);
  std::printf("write demo:   %.1f MiB in %.2f s = %.0f MiB/s (writer + SHA1 + payload generation)\n", mb, write_s, mb / write_s);

  CountingByteSource counting(*file);
  t0 = std::chrono::steady_clock::now();
  bddf::BddfInspector inspector(counting);
  Report report = inspector.summary();
  double open_s = seconds_since(t0);
  std::printf("open+summary: %.1f ms, %llu bytes read in %llu calls = %.4f%% of the file, %llu data blocks\n", open_s * 1e3,
              static_cast<unsigned long long>(counting.bytes_read()), static_cast<unsigned long long>(counting.read_calls()),
              100.0 * static_cast<double>(counting.bytes_read()) / static_cast<double>(file->size()),
              static_cast<unsigned long long>(inspector.model().data_block_count()));

  counting.reset();
  t0 = std::chrono::steady_clock::now();
  Json args = Json::object();
  args["t0_ns"] = inspector.model().series[0].entries.front().timestamp_ns + 60000000000ll;
  args["t1_ns"] = inspector.model().series[0].entries.front().timestamp_ns + 120000000000ll;
  Json hits = inspector.query("extract", args, nullptr);
  std::printf("extract 60 s: %.2f ms, %llu blocks, %llu bytes read\n", seconds_since(t0) * 1e3,
              hits.find("total")->as_uint(), static_cast<unsigned long long>(counting.bytes_read()));

  CachedByteSource cached(*file);
  bddf::BddfInspector cached_inspector(cached);
  t0 = std::chrono::steady_clock::now();
  Json checksum = cached_inspector.checksum(nullptr);
  double sha_s = seconds_since(t0);
  std::printf("checksum:     %s in %.2f s = %.0f MiB/s\n", checksum.find("status")->as_string().c_str(), sha_s, mb / sha_s);
  t0 = std::chrono::steady_clock::now();
  Report checked = cached_inspector.check(nullptr);
  double check_s = seconds_since(t0);
  std::printf("check:        %zu problems in %.2f s = %.0f MiB/s (checksum + block walk)\n", checked.problems.size(), check_s,
              mb / check_s);
  std::remove(path.c_str());
  return 0;
}
