// What the native benchmark programs share: a clock, peak RSS, the file opened the way the CLI
// opens it (or another way, to compare), and one JSON line of results for bench/run.mjs.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "core/byte_source.h"
#include "core/mapped_source.h"

namespace bench {

inline double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// CPU time of the process so far (every thread, user + system), in seconds.
inline double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

inline long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// The file as a ByteSource: "mapped" (what the CLI uses for local files), "pread" (pread behind
// the CLI's block cache: how the CLI read before, and what it uses when a file cannot be mapped).
struct OpenedFile {
  std::unique_ptr<logscope::ByteSource> file;
  std::unique_ptr<logscope::CachedByteSource> cache;
  logscope::ByteSource* source = nullptr;
};

inline OpenedFile open_file(const std::string& path, const std::string& how) {
  OpenedFile out;
  std::string error;
  if (how == "mapped") {
    auto mapped = logscope::MappedByteSource::open(path, &error);
    out.source = mapped.get();
    out.file = std::move(mapped);
  } else {
    out.file = logscope::FileByteSource::open(path, &error);
    if (out.file) {
      out.cache = std::make_unique<logscope::CachedByteSource>(*out.file, logscope::CachedByteSource::for_local_file());  // as the CLI
      out.source = out.cache.get();
    }
  }
  if (!out.source) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    std::exit(2);
  }
  return out;
}

// Flags after the positional FILE: --name value pairs.
inline std::map<std::string, std::string> flags(int argc, char** argv, int first) {
  std::map<std::string, std::string> out;
  for (int i = first; i + 1 < argc; i += 2) out[argv[i]] = argv[i + 1];
  return out;
}

// One line of JSON: {"seconds": .., "cpu_seconds": .., <extra fields>, "peak_rss_kb": ..}. `extra`
// is already JSON text without braces ("" for none); `cpu_start` is cpu_seconds() at the start.
inline void report(double seconds, double cpu_start, const std::string& extra) {
  std::printf("{\"seconds\": %.6f, \"cpu_seconds\": %.6f%s%s, \"peak_rss_kb\": %ld}\n", seconds, cpu_seconds() - cpu_start,
              extra.empty() ? "" : ", ", extra.c_str(), peak_rss_kb());
}

inline std::string field(const char* name, unsigned long long value) {
  return "\"" + std::string(name) + "\": " + std::to_string(value);
}
inline std::string field(const char* name, const std::string& value) { return "\"" + std::string(name) + "\": \"" + value + "\""; }

}  // namespace bench
