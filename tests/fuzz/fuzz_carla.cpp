// libFuzzer harness: an arbitrary file opened as carla through detect + open_inspector, every
// FormatInspector entry point exercised (tests/fuzz/exercise.h) and the invariants of
// tests/fuzz/invariants.h checked. Inputs of another format stop
// after detection. Build with -DLOGSCOPE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt).
// The same bytes also make a sequence of frame entries for the packed frame index
// (carla/frame_list.h), which must read them back bit for bit. The check with no scan kept (one
// read) must report as two passes do (carla_check_property.h).
#include <cstddef>
#include <cstdint>

#include "carla_check_property.h"
#include "exercise.h"
#include "frame_list_property.h"
#include "invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  logscope_fuzz::check_frame_list(data, size);
  logscope_fuzz::check_carla_one_read(data, size);
  logscope_fuzz::fuzz_one_input(data, size, "carla");
  return 0;
}
