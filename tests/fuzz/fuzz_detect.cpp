// libFuzzer harness: content detection and the JSON model. Any bytes go through detect() and,
// when a format is recognised, the index-first summary; the same bytes are parsed as JSON and a
// printed value must parse back and print identically (the CLI and the wasm surface rely on it).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  logscope::MemoryByteSource source(data, size);
  logscope::Detection detection = logscope::detect(source);
  logscope_fuzz::Consumer consume;
  consume(detection.to_json());
  if (auto inspector = logscope::open_inspector(source, detection)) consume(inspector->summary().to_json());

  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (auto parsed = logscope::Json::parse(text, &error)) {
    // What we print must parse back and print the same. (Not parse -> dump -> parse identity:
    // invalid UTF-8 in strings is printed as U+FFFD by design, so only the second round is exact.)
    for (int indent : {-1, 2}) {
      std::string dumped = parsed->dump(indent);
      auto again = logscope::Json::parse(dumped, &error);
      if (!again || again->dump(indent) != dumped) std::abort();
    }
  }
  logscope::json_escape(text);
  return 0;
}
