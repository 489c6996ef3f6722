// Helpers shared by the codec tests.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "skip.h"
#include "test_paths.h"

namespace test_support {

// ../shared/samples beside the checkout; tests that need it are skipped (skip.h) when it is absent.
inline std::string samples_dir() { return LOGSCOPE_SAMPLES; }

inline bool have_samples() {
  struct stat info;
  bool present = ::stat(LOGSCOPE_SAMPLES, &info) == 0 && S_ISDIR(info.st_mode);
  if (!present) skip(std::string(LOGSCOPE_SAMPLES) + " is absent: this comparison with real files did not run");
  return present;
}

inline std::string sample(const std::string& relative) { return samples_dir() + "/" + relative; }

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A fresh scratch directory for a test's generated files, in the build's own folder (the plain
// and the sanitizer builds' suites may run at the same time), and this process's own: ctest runs
// a file's test cases as processes side by side, and two of them writing one file raced (a BDDF
// demo read while the other process rewrote it: a checksum mismatch). Removed when the process ends.
inline std::string scratch_dir(const std::string& name) {
  static const std::string mine = [] {
    std::string dir = std::string(LOGSCOPE_SCRATCH_DIR) + "/process-" + std::to_string(::getpid());
    static struct Remove {
      std::string dir;
      ~Remove() { (void)!std::system(("rm -rf '" + dir + "'").c_str()); }
    } remove{dir};
    return dir;
  }();
  std::string dir = mine + "/" + name;
  std::string command = "mkdir -p '" + dir + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  return dir;
}

// True when some problem in the list carries this stable code.
template <typename ProblemList>
bool has_code(const ProblemList& problems, const std::string& code) {
  for (const auto& p : problems)
    if (p.code == code) return true;
  return false;
}

// Local-time output (CARLA's Date:, rosbag info's start/end) is compared in UTC.
inline void use_utc() {
  ::setenv("TZ", "UTC", 1);
  ::tzset();
}

// Runs the CLI and returns its stdout; `status` gets the exit status.
inline std::string run_cli(const std::string& arguments, int* status = nullptr) {
  std::string command = std::string(LOGSCOPE_CLI) + " " + arguments + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  int raw = ::pclose(pipe);
  if (status) *status = WEXITSTATUS(raw);
  return out;
}

}  // namespace test_support
