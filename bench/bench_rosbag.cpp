// ROS bag speed: writes big bags with our writer in /tmp (1 GB lz4, 1 GB uncompressed, 128 MB bz2,
// 5 M tiny messages), then times, natively: open + summary() (index only), info_report() (adds every
// chunk header), and a full time-ordered iteration on every core and on one. With --peers it also
// times python3-rosbag (`rosbag info` and a read_messages(raw=True) loop) and the wasm module under
// node on the same files (tests/reference/rosbag_bench_python.py, rosbag_bench_wasm.mjs).
//
// usage: bench_rosbag [--size-mb N (1024)] [--bz2-mb N (128)] [--tiny-messages N (5000000)]
//                     [--only lz4|none|bz2|tiny] [--keep] [--peers] [--dir /tmp]
// --keep leaves the bags in place and reuses them on the next run.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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

bool exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && info.st_size > 0;
}

struct Settings {
  uint64_t size_mb = 1024, bz2_mb = 128, tiny_messages = 5000000;
  std::string only, dir = "/tmp";
  bool keep = false, peers = false;
};

// Our tiny messages take ~62 bytes each on disk (record, index entry, chunk and index overhead).
uint64_t tiny_bytes(uint64_t messages) { return messages * 62; }

double iterate(ByteSource& source, Bag& bag, unsigned threads, uint64_t* messages, uint64_t* payload, bool verify = false) {
  IterateOptions options;
  options.threads = threads;
  options.verify_checksums = verify;
  *messages = *payload = 0;
  double t0 = now();
  for_each_message(source, bag, options, [&](const MessageView& v) {
    ++*messages;
    *payload += v.data.size();
    return true;
  }, nullptr);
  return now() - t0;
}

// The checkout this file is in (the peers' scripts live in tests/reference/).
std::string source_dir() {
  std::string file = __FILE__;
  size_t slash = file.rfind("/bench/");
  return slash == std::string::npos ? "." : file.substr(0, slash);
}

void run_peers(const std::string& path) {
  std::string python = "/usr/bin/python3 " + source_dir() + "/tests/reference/rosbag_bench_python.py '" + path + "'";
  std::string wasm = "node " + source_dir() + "/tests/reference/rosbag_bench_wasm.mjs '" + path + "'";
  std::fflush(stdout);
  if (std::system(python.c_str()) != 0) std::printf("  python3-rosbag: failed (is python3-rosbag installed?)\n");
  std::fflush(stdout);
  if (std::system(wasm.c_str()) != 0) std::printf("  wasm (node): failed (build it: cmake --build build/wasm)\n");
  std::fflush(stdout);
}

void bench(const Settings& settings, const std::string& label, const std::string& name, uint64_t bytes, const DemoOptions& options,
           const char* peers) {
  std::string path = settings.dir + "/logscope_bench_" + name + ".bag";
  std::string error;
  double written = 0;
  if (!settings.keep || !exists(path)) {
    double t0 = now();
    if (!write_demo_file(path, bytes, options, &error)) {
      std::printf("%s: write failed: %s\n", label.c_str(), error.c_str());
      return;
    }
    written = now() - t0;
  }
  auto file = FileByteSource::open(path, &error);
  uint64_t size = file->size();
  double mb = static_cast<double>(size) / 1e6;
  // What the CLI does: a block cache in front of the file. The counting source shows the reads.
  CountingByteSource counting(*file);
  CachedByteSource cached(counting);
  double t0 = now();
  auto inspector = open_inspector(cached, detect(cached).format);
  Report summary = inspector->summary();
  double open_s = now() - t0;
  uint64_t open_calls = counting.read_calls(), open_bytes = counting.bytes_read();
  counting.reset();
  t0 = now();
  Report info = inspector->info_report(nullptr);
  double info_s = now() - t0;
  uint64_t info_calls = counting.read_calls();
  auto* bag = dynamic_cast<BagInspector*>(inspector.get());
  uint64_t messages = 0, payload = 0;
  // Fresh bag for each iteration: iteration must not depend on info_report having read chunk headers.
  auto fresh = open_inspector(cached, detect(cached).format);
  auto* fresh_bag = dynamic_cast<BagInspector*>(fresh.get());
  counting.reset();
  double all_s = iterate(cached, fresh_bag->bag(), 0, &messages, &payload);
  uint64_t iterate_calls = counting.read_calls();
  double one_s = iterate(cached, bag->bag(), 1, &messages, &payload);
  double verified_s = options.compression == "lz4" ? iterate(cached, bag->bag(), 0, &messages, &payload, true) : 0;
  std::printf("%-13s %7.0f MB %9llu msgs  %s\n", label.c_str(), mb, static_cast<unsigned long long>(messages),
              written > 0 ? ("(written in " + std::to_string(written).substr(0, 5) + " s)").c_str() : "(reused)");
  std::printf("  open+summary  %8.4f s  (%llu reads, %llu bytes)\n", open_s, static_cast<unsigned long long>(open_calls),
              static_cast<unsigned long long>(open_bytes));
  std::printf("  info_report   %8.4f s  (%llu more reads: every chunk header)\n", info_s, static_cast<unsigned long long>(info_calls));
  std::printf("  iterate, %u threads %6.3f s  %7.0f MB/s  %6.2f M msg/s  (%llu reads)\n", worker_count(), all_s, mb / all_s,
              static_cast<double>(messages) / all_s / 1e6, static_cast<unsigned long long>(iterate_calls));
  std::printf("  iterate, 1 thread  %6.3f s  %7.0f MB/s  %6.2f M msg/s\n", one_s, mb / one_s, static_cast<double>(messages) / one_s / 1e6);
  if (verified_s > 0)
    std::printf("  iterate, %u threads, lz4 checksums verified %6.3f s  %7.0f MB/s\n", worker_count(), verified_s, mb / verified_s);
  std::printf("  peers quoted: %s\n", peers);
  (void)summary;
  (void)info;
  if (settings.peers) run_peers(path);
  if (!settings.keep) std::remove(path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--size-mb") s.size_mb = std::strtoull(next(), nullptr, 10);
    else if (a == "--bz2-mb") s.bz2_mb = std::strtoull(next(), nullptr, 10);
    else if (a == "--tiny-messages") s.tiny_messages = std::strtoull(next(), nullptr, 10);
    else if (a == "--only") s.only = next();
    else if (a == "--dir") s.dir = next();
    else if (a == "--keep") s.keep = true;
    else if (a == "--peers") s.peers = true;
    else {
      std::fprintf(stderr, "usage: bench_rosbag [--size-mb N] [--bz2-mb N] [--tiny-messages N] [--only lz4|none|bz2|tiny] [--keep] [--peers] [--dir D]\n");
      return 2;
    }
  }
  std::printf("bench_rosbag: %u worker threads\n", worker_count());
  DemoOptions options;
  if (s.only.empty() || s.only == "lz4") {
    options.compression = "lz4";
    bench(s, "lz4", "lz4", s.size_mb << 20, options, "open 0.04 s (C++ rosbag_storage), 0.12-0.15 s (rosbag.js); iterate 1 GB lz4 0.78 s");
  }
  if (s.only.empty() || s.only == "none") {
    options.compression = "none";
    bench(s, "uncompressed", "none", s.size_mb << 20, options, "iterate 1 GB uncompressed 0.34 s");
  }
  if (s.only.empty() || s.only == "bz2") {
    options.compression = "bz2";
    bench(s, "bz2", "bz2", s.bz2_mb << 20, options, "bz2 ~14 MB/s on one core");
  }
  if (s.only.empty() || s.only == "tiny") {
    options.compression = "none";
    options.tiny = true;
    bench(s, "tiny", "tiny", tiny_bytes(s.tiny_messages), options, "5 M tiny messages: 4.6 s (C++), 12.8 s (rosbag.js)");
  }
  return 0;
}
