// libFuzzer harness: an arbitrary file opened as rosbag through detect + open_inspector, every
// FormatInspector entry point exercised (tests/fuzz/exercise.h) and the invariants of
// tests/fuzz/invariants.h checked. Inputs of another format stop
// after detection. Build with -DLOGSCOPE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>

#include "exercise.h"
#include "invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  logscope_fuzz::fuzz_one_input(data, size, "rosbag");
  return 0;
}
