// The map of a ULog from its pass: the header, the definitions, the data section, each appended
// section, and what a cut or a message crossing an appended offset took away.
#include "ulog/inspector_impl.h"

namespace logscope::ulog {

FileMap UlogInspector::file_map(bool full_check, const ProgressFn& progress) {
  FileMapBuilder map(model_.file_size);
  map.add(0, std::min<uint64_t>(kHeaderSize, model_.file_size), "header", "ULog header");
  if (model_.header_ok && model_.file_size > kHeaderSize) {
    map.add(kHeaderSize, 0, "descriptor", "definitions (formats, info, parameters)");
    if (model_.definitions_end) map.add(model_.definitions_end, 0, "block", "data section");
    for (size_t i = 1; i < model_.sections.size(); ++i)
      map.add(model_.sections[i].begin, 0, "block", "appended data " + std::to_string(i));
  }
  for (const auto& [from, to] : model_.damaged) map.damaged_at(from, "a message cut short");
  if (model_.recovery.performed && model_.recovery.ends_at < model_.file_size && model_.sections.size() <= 1)
    map.damaged_from(model_.recovery.ends_at, "not readable: " + model_.recovery.reason);
  if (full_check) return map.finish_checked(check(progress));
  return map.finish("scan", model_.problems);
}

}  // namespace logscope::ulog
