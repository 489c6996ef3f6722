#include "warm_up.h"

#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/format_table.h"
#include "inspector.h"

namespace logscope {
namespace {

// Opens and summarises one file through the same source stack the page uses (a cache in front).
bool open_and_summarise(const std::vector<uint8_t>& bytes) {
  MemoryByteSource memory(bytes.data(), bytes.size());
  CachedByteSource cached(memory);
  Detection detection = detect(cached);
  auto inspector = open_inspector(cached, detection);
  if (!inspector) return false;
  Report summary = inspector->summary();
  return !summary.to_json().empty() && summary.count(Severity::Error) == 0 && summary.count(Severity::Warning) == 0 && !summary.recovery.performed;
}

}  // namespace

bool warm_up_format(size_t index) {
  if (index >= formats().size()) return false;
  const FormatEntry& entry = formats()[index];
  return entry.small_demo && open_and_summarise(entry.small_demo());
}

}  // namespace logscope
