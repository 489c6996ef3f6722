#include "bddf/model.h"

#include <algorithm>

#include "bddf/format.h"

namespace logscope::bddf {

std::string Series::channel() const {
  auto it = spec.find("bosdyn:channel");
  if (it != spec.end() && !it->second.empty()) return it->second;
  std::string out;
  for (const auto& [key, value] : spec) out += (out.empty() ? "" : ", ") + key + "=" + value;
  return out.empty() ? "(series " + std::to_string(index) + ")" : out;
}

size_t Series::pod_sample_size() const {
  if (data_type != "pod_type") return 0;
  size_t count = 1;
  for (uint32_t d : dimension) {
    if (d == 0 || count > (SIZE_MAX >> 8) / d) return 0;  // no sample size for junk dimensions
    count *= d;
  }
  return count * pod_type_size(pod_type);
}

std::string Series::type_label() const {
  if (data_type == "message_type") return type_name.empty() ? content_type : type_name;
  if (data_type == "pod_type") {
    std::string name = pod_type_name(pod_type);
    std::string label = name.rfind("TYPE_", 0) == 0 ? name.substr(5) : name;
    for (char& c : label) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (uint32_t d : dimension) label += "[" + std::to_string(d) + "]";
    return label;
  }
  if (data_type == "struct_type") return "struct";
  return described ? "(no type)" : "(undescribed)";
}

const char* block_kind_name(BlockKind kind) {
  switch (kind) {
    case BlockKind::Magic: return "magic";
    case BlockKind::FileDescriptor: return "file_descriptor";
    case BlockKind::SeriesDescriptor: return "series_descriptor";
    case BlockKind::SeriesBlockIndex: return "series_block_index";
    case BlockKind::FileIndex: return "file_index";
    case BlockKind::Descriptor: return "descriptor";
    case BlockKind::Data: return "data";
    case BlockKind::End: return "end";
    case BlockKind::Damaged: return "damaged";
  }
  return "unknown";
}

std::string Recovery::message() const {
  return "index unusable (" + reason + "); rebuilt by scanning from byte 4: recovered " +
         std::to_string(recovered_blocks) + " complete data block" + (recovered_blocks == 1 ? "" : "s") +
         "; reading stopped at byte " + std::to_string(ends_at) + ": " + ended;
}

std::string FileModel::version() const {
  return std::to_string(version_major) + "." + std::to_string(version_minor) + "." + std::to_string(version_patch);
}

uint64_t FileModel::data_block_count() const {
  uint64_t n = 0;
  for (const Series& s : series) n += s.entries.size();
  return n;
}

uint32_t FileModel::series_position(uint32_t series_index) const {
  auto it = position_of.find(series_index);
  return it == position_of.end() ? UINT32_MAX : it->second;
}

}  // namespace logscope::bddf
