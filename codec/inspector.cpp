#include "inspector.h"

#include "core/format_table.h"

namespace logscope {

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, const Detection& detection) {
  const FormatEntry* entry = find_format(detection.family);
  if (!entry || !entry->open) return nullptr;
  return entry->open(source, detection);
}

std::unique_ptr<FormatInspector> open_folder_inspector(Folder& folder, const Detection& detection) {
  const FormatEntry* entry = find_format(detection.family);
  if (!entry || !entry->open_folder) return nullptr;
  return entry->open_folder(folder, detection);
}

}  // namespace logscope
