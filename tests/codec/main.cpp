// doctest main that tells ctest when a case skipped (see skip.h).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

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

namespace {

// Counts the cases that ran. ctest runs each case alone by its name (--test-case=NAME): a name
// the discovery cut (CMake lists split at ';') would match nothing, and doctest calls that a pass.
int cases_started = 0;

struct CaseCounter : doctest::IReporter {
  explicit CaseCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { ++cases_started; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("case_counter", 1, CaseCounter);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  bool filtered = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    filtered |= arg.rfind("--test-case=", 0) == 0 || arg.rfind("-tc=", 0) == 0;
  }
  if (filtered && cases_started == 0) {
    std::fprintf(stderr, "no test case matches the --test-case filter (a ';' in a case's name cuts it in ctest)\n");
    return 1;
  }
  return test_support::skipped() ? test_support::kSkipExitCode : 0;
}
