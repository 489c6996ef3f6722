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

namespace {

// The table an index-first open implies: the fixed blocks, each series' descriptor and block
// index, and every data block its index lists.
std::vector<BlockRef> table_from_series(const FileModel& model) {
  std::vector<BlockRef> blocks;
  size_t count = 4;
  for (const Series& series : model.series) count += 2 + series.entries.size();
  blocks.reserve(count);
  blocks.push_back(BlockRef{0, BlockKind::Magic});
  if (model.have_file_descriptor) blocks.push_back(BlockRef{kFirstBlockOffset, BlockKind::FileDescriptor});
  for (uint32_t s = 0; s < model.series.size(); ++s) {
    const Series& series = model.series[s];
    blocks.push_back(BlockRef{series.descriptor_file_offset, BlockKind::SeriesDescriptor, s});
    blocks.push_back(BlockRef{series.block_index_file_offset, BlockKind::SeriesBlockIndex, s});
    for (uint32_t e = 0; e < series.entries.size(); ++e)
      blocks.push_back(BlockRef{series.entries[e].file_offset, BlockKind::Data, s, e});
  }
  blocks.push_back(BlockRef{model.trailer.index_offset, BlockKind::FileIndex});
  blocks.push_back(BlockRef{model.size - kTrailerSize, BlockKind::End});
  std::stable_sort(blocks.begin(), blocks.end(), [](const BlockRef& a, const BlockRef& b) { return a.offset < b.offset; });
  return blocks;
}

}  // namespace

const std::vector<BlockRef>& FileModel::blocks() const {
  std::call_once(block_table_->built, [&] { block_table_->rows = table_from_series(*this); });
  return block_table_->rows;
}

void FileModel::set_blocks(std::vector<BlockRef> blocks) {
  std::stable_sort(blocks.begin(), blocks.end(), [](const BlockRef& a, const BlockRef& b) { return a.offset < b.offset; });
  block_table_ = std::make_shared<BlockTable>();
  std::call_once(block_table_->built, [&] { block_table_->rows = std::move(blocks); });
}

size_t FileModel::block_containing(uint64_t offset) const {
  const std::vector<BlockRef>& table = blocks();
  auto it = std::upper_bound(table.begin(), table.end(), offset,
                             [](uint64_t value, const BlockRef& ref) { return value < ref.offset; });
  if (it == table.begin()) return SIZE_MAX;
  return static_cast<size_t>(it - table.begin()) - 1;
}

size_t FileModel::block_at(uint64_t offset) const {
  const std::vector<BlockRef>& blocks = this->blocks();
  size_t i = block_containing(offset);
  if (i == SIZE_MAX || blocks[i].offset != offset) return SIZE_MAX;
  // Several refs may share an offset in a damaged index; return the first.
  while (i > 0 && blocks[i - 1].offset == offset) --i;
  return i;
}

}  // namespace logscope::bddf
