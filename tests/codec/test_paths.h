// Where the codec tests find the shared samples, the CLI, the sources and their scratch folder.
// CMake writes the values into one file of the build folder (test_paths.cpp, linked into every
// test), not onto each test's command line: a clone at another path (CI's) then compiles the same
// test sources with the same command, and ccache reuses all 70 of them but that one file.
#pragma once

namespace test_paths {
extern const char* const samples;      // ../shared/samples beside the checkout
extern const char* const cli;          // the logscope CLI of this build
extern const char* const source_dir;   // the checkout
extern const char* const scratch_dir;  // per build: two builds' suites may run at once (.ci/run)
}  // namespace test_paths

#define LOGSCOPE_SAMPLES (::test_paths::samples)
#define LOGSCOPE_CLI (::test_paths::cli)
#define LOGSCOPE_SOURCE_DIR (::test_paths::source_dir)
#define LOGSCOPE_SCRATCH_DIR (::test_paths::scratch_dir)
