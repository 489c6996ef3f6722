#include "helper_input.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

namespace logscope {

std::vector<uint8_t>& helper_input() {
  static std::vector<uint8_t> bytes;
  return bytes;
}

namespace {

emscripten::val helper_input_view(double size) {
  std::vector<uint8_t>& bytes = helper_input();
  bytes.resize(static_cast<size_t>(size));
  return emscripten::val(emscripten::typed_memory_view(bytes.size(), bytes.data()));
}

}  // namespace
}  // namespace logscope

EMSCRIPTEN_BINDINGS(logscope_helper_input) { emscripten::function("helperInput", &logscope::helper_input_view); }
