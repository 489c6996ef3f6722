// doctest main that tells ctest when a case skipped (see skip.h).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "skip.h"

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  return test_support::skipped() ? test_support::kSkipExitCode : 0;
}
