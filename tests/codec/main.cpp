// doctest main that tells ctest when a case skipped (see skip.h).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "skip.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOGSCOPE_TESTS_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LOGSCOPE_TESTS_UNDER_ASAN 1
#endif

#ifdef LOGSCOPE_TESTS_UNDER_ASAN
// MappedByteSource turns a SIGBUS on its own mapping into zeros and passes any other SIGBUS on to
// the handler that was there before. ASan's own SIGBUS handler would be that one and would end
// the process with a report and SIGABRT, so the tests that check "a foreign SIGBUS still kills
// with SIGBUS" see the default action, as a production binary does. ASAN_OPTIONS adds to this.
extern "C" const char* __asan_default_options() { return "handle_sigbus=0"; }
#endif

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  return test_support::skipped() ? test_support::kSkipExitCode : 0;
}
