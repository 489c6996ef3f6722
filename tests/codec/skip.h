// Skipped, not passed: a test that cannot run here (no real sample file, no reference reader)
// calls skip(why) and returns. The test main (main.cpp) then exits with kSkipExitCode, which ctest
// reports as "Skipped" (SKIP_RETURN_CODE in CMakeLists.txt; each doctest case is its own ctest
// test, so one skip hides nothing else).
#pragma once

#include <cstdio>
#include <string>

namespace test_support {

constexpr int kSkipExitCode = 77;

inline bool& skipped() {
  static bool flag = false;
  return flag;
}

inline void skip(const std::string& why) {
  std::printf("SKIPPED: %s\n", why.c_str());
  std::fflush(stdout);
  skipped() = true;
}

}  // namespace test_support
