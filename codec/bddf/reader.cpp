#include "bddf/reader.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_set>

#include "bddf.pb.h"
#include "bddf/block_index.h"
#include "bddf/blocks.h"
#include "bddf/format.h"
#include "core/cursor.h"

namespace logscope::bddf {
namespace {

using bosdyn::api::DataDescriptor;
using bosdyn::api::DescriptorBlock;

template <typename MapT>
std::map<std::string, std::string> sorted(const MapT& map) {
  return std::map<std::string, std::string>(map.begin(), map.end());
}

void add(FileModel& model, Severity severity, uint64_t offset, std::string code, std::string message) {
  model.problems.push_back(Problem{severity, offset, std::move(code), std::move(message)});
}

void take_file_descriptor(FileModel& model, const bosdyn::api::FileFormatDescriptor& fd, uint64_t offset) {
  model.have_file_descriptor = true;
  model.version_major = fd.version().major_version();
  model.version_minor = fd.version().minor_version();
  model.version_patch = fd.version().patch_level();
  model.annotations = sorted(fd.annotations());
  model.checksum_type = fd.checksum_type();
  model.checksum_num_bytes = fd.checksum_num_bytes();
  if (model.version() != "1.0.0")
    add(model, Severity::Warning, offset, "bddf.header.version",
        "format version " + model.version() + " (readers know 1.0.0); reading it as 1.0.0");
  if (model.checksum_type == kChecksumSha1 && model.checksum_num_bytes != kDigestSize)
    add(model, Severity::Warning, offset, "bddf.header.checksum_size",
        "checksum_num_bytes is " + std::to_string(model.checksum_num_bytes) + " for SHA1 (expected 20)");
}

// Fills the descriptor fields of `series` from a SeriesDescriptor.
void take_series_descriptor(Series& series, const bosdyn::api::SeriesDescriptor& sd, uint64_t offset) {
  series.described = true;
  series.descriptor_series_index = sd.series_index();
  series.series_type = sd.series_identifier().series_type();
  series.spec = sorted(sd.series_identifier().spec());
  series.identifier_hash = sd.identifier_hash();
  series.computed_hash = identifier_hash(series.series_type, series.spec);
  switch (sd.DataType_case()) {
    case bosdyn::api::SeriesDescriptor::kMessageType:
      series.data_type = "message_type";
      series.content_type = sd.message_type().content_type();
      series.type_name = sd.message_type().type_name();
      series.is_metadata = sd.message_type().is_metadata();
      break;
    case bosdyn::api::SeriesDescriptor::kPodType:
      series.data_type = "pod_type";
      series.pod_type = sd.pod_type().pod_type();
      series.dimension.assign(sd.pod_type().dimension().begin(), sd.pod_type().dimension().end());
      break;
    case bosdyn::api::SeriesDescriptor::kStructType:
      series.data_type = "struct_type";
      series.struct_keys = std::map<std::string, uint64_t>(sd.struct_type().key_to_series_identifier_hash().begin(),
                                                           sd.struct_type().key_to_series_identifier_hash().end());
      break;
    default: series.data_type = ""; break;
  }
  series.annotations = sorted(sd.annotations());
  series.additional_index_names.assign(sd.additional_index_names().begin(), sd.additional_index_names().end());
  series.description = sd.description();
  series.descriptor_file_offset = offset;
}

void check_series_descriptor(FileModel& model, const Series& series) {
  uint64_t at = series.descriptor_file_offset;
  if (series.identifier_hash != series.computed_hash)
    add(model, Severity::Error, at, "bddf.series.hash_mismatch",
        "series " + std::to_string(series.index) + " (" + series.channel() + ") stores identifier hash " +
            hex_u64(series.identifier_hash) + " but its identifier hashes to " + hex_u64(series.computed_hash));
  if (series.data_type == "pod_type" && pod_type_size(series.pod_type) == 0)
    add(model, Severity::Error, at, "bddf.series.bad_pod_type",
        "series " + std::to_string(series.index) + " has POD type " + std::to_string(series.pod_type) +
            ", which has no element size");
  if (series.data_type.empty())
    add(model, Severity::Warning, at, "bddf.series.no_data_type",
        "series " + std::to_string(series.index) + " names neither a message type nor a POD type");
}

// POD blocks carry only their first sample's time, so a rate needs the sample count before the
// last block: one 12-byte header read per POD series (never a payload).
void read_last_pod_block_size(ByteSource& source, const FileModel& model, Series& series) {
  if (!series.pod_sample_size() || series.entries.size() < 2) return;
  BlockFrame frame;
  std::string why;
  if (read_frame(source, series.entries.back().file_offset, model.size, &frame, &why) == FrameStatus::Ok && frame.type == 0)
    series.last_block_payload = frame.payload_size();
}

void check_entry_order(FileModel& model, const Series& series) {
  if (series.entries.times_ascending()) return;
  int64_t before = INT64_MIN;
  for (auto it = series.entries.begin(); it != series.entries.end(); ++it) {
    if (it->timestamp_ns < before) {
      add(model, Severity::Warning, it->file_offset, "bddf.series.timestamps_out_of_order",
          "series " + std::to_string(series.index) + " (" + series.channel() + "): block " + std::to_string(it.index()) +
              " is earlier than the block before it");
      return;  // once per series is enough to say it
    }
    before = it->timestamp_ns;
  }
}

// ---- Index-first open ------------------------------------------------------------------------

// The frame of the descriptor block at `offset` within [4, limit); false with a reason when there
// is no complete descriptor block there.
bool read_descriptor_frame(ByteSource& source, uint64_t offset, uint64_t limit, BlockFrame* frame, std::string* why) {
  if (offset < kFirstBlockOffset || offset >= limit) {
    *why = "offset " + std::to_string(offset) + " is outside the blocks [4, " + std::to_string(limit) + ")";
    return false;
  }
  std::string frame_why;
  FrameStatus status = read_frame(source, offset, limit, frame, &frame_why);
  if (status != FrameStatus::Ok) {
    *why = "no complete block at " + std::to_string(offset) + ": " + frame_why;
    return false;
  }
  if (frame->type != kDescriptorBlock) {
    *why = "the block at " + std::to_string(offset) + " is a " + block_type_name(frame->type) +
           " block, not a descriptor block";
    return false;
  }
  return true;
}

// The bytes of the descriptor block at `offset` within [4, limit); false with a reason when there
// is no complete descriptor block there.
bool read_descriptor_block_bytes(ByteSource& source, uint64_t offset, uint64_t limit, BlockFrame* frame,
                                 std::string* bytes, std::string* why) {
  if (!read_descriptor_frame(source, offset, limit, frame, why)) return false;
  *bytes = read_descriptor_bytes(source, *frame);
  return true;
}

bool parse_descriptor_block(const std::string& bytes, uint64_t offset, DescriptorBlock* block, std::string* why) {
  if (parse_message(*block, bytes)) return true;
  *why = "the descriptor block at " + std::to_string(offset) + " does not parse as a DescriptorBlock";
  return false;
}

// Reads a descriptor block at `offset` within [4, limit); false with a reason when it is not one.
bool read_descriptor_block(ByteSource& source, uint64_t offset, uint64_t limit, DescriptorBlock* block,
                           BlockFrame* frame, std::string* why) {
  std::string bytes;
  return read_descriptor_block_bytes(source, offset, limit, frame, &bytes, why) &&
         parse_descriptor_block(bytes, offset, block, why);
}

// A series' block index at `offset`: read like read_descriptor_block, decoded without protobuf
// as it is read when its encoding is the plain one (block_index.h). False with an empty `why` when the block
// parses but holds another descriptor type.
bool read_block_index(ByteSource& source, uint64_t offset, uint64_t limit, PlainBlockIndex* sbi, BlockFrame* frame,
                      std::string* why) {
  if (!read_descriptor_frame(source, offset, limit, frame, why)) return false;
  size_t size = descriptor_byte_count(*frame);
  if (decode_block_index_fast(source, frame->body_offset(), size, sbi)) return true;
  // Not the plain encoding (or cut short): protobuf parses it whole and says what is wrong.
  std::string bytes(size, '\0');
  bytes.resize(size ? source.read(frame->body_offset(), bytes.data(), size) : 0);
  DescriptorBlock block;
  if (!parse_descriptor_block(bytes, offset, &block, why)) return false;
  if (block.DescriptorType_case() != DescriptorBlock::kSeriesBlockIndex) return false;
  block_index_from_message(block.series_block_index(), sbi);
  return true;
}

// Tries the trailer's index. On failure returns false with the reason and the problem code; the
// caller then scans. Problems that do not stop index use are added to the model directly.
bool open_from_index(ByteSource& source, FileModel& model, std::string* reason, std::string* code, uint64_t* at) {
  uint64_t limit = model.size - kTrailerSize;  // blocks end where the trailer starts
  uint64_t index_offset = model.trailer.index_offset;
  *at = model.size - 32;
  DescriptorBlock block;
  BlockFrame frame;
  std::string why;
  if (!read_descriptor_block(source, index_offset, limit, &block, &frame, &why)) {
    *reason = "the trailer's index offset " + std::to_string(index_offset) + " points nowhere: " + why;
    *code = "bddf.index.bad_offset";
    return false;
  }
  // The SDK writes an empty file's FileIndex as an empty DescriptorBlock (the oneof unset): 0 series.
  bool empty_index = block.DescriptorType_case() == DescriptorBlock::DESCRIPTORTYPE_NOT_SET && frame.size_field == 0;
  if (block.DescriptorType_case() != DescriptorBlock::kFileIndex && !empty_index) {
    *reason = "the trailer's index offset " + std::to_string(index_offset) + " points at a descriptor block that is not a FileIndex";
    *code = "bddf.index.not_file_index";
    return false;
  }
  if (frame.offset + frame.length != limit)
    add(model, Severity::Warning, frame.offset + frame.length, "bddf.index.gap",
        std::to_string(limit - frame.offset - frame.length) + " bytes between the FileIndex block and the trailer");
  const auto& file_index = block.file_index();
  model.have_file_index = true;
  model.file_index_offsets.assign(file_index.series_block_index_offsets().begin(), file_index.series_block_index_offsets().end());
  model.file_index_hashes.assign(file_index.series_identifier_hashes().begin(), file_index.series_identifier_hashes().end());
  for (const auto& id : file_index.series_identifiers())
    model.file_index_identifiers.emplace_back(id.series_type(), sorted(id.spec()));
  size_t count = model.file_index_identifiers.size();
  if (model.file_index_offsets.size() != count || model.file_index_hashes.size() != count)
    add(model, Severity::Error, index_offset, "bddf.index.count_mismatch",
        "the FileIndex lists " + std::to_string(count) + " identifiers, " + std::to_string(model.file_index_offsets.size()) +
            " block-index offsets and " + std::to_string(model.file_index_hashes.size()) + " hashes");
  count = std::min(count, model.file_index_offsets.size());
  // The block indexes sit together before the FileIndex: one read for all of them, where each
  // would otherwise be its own (a browser read costs milliseconds however small).
  if (count > 0) {
    uint64_t first = *std::min_element(model.file_index_offsets.begin(), model.file_index_offsets.begin() + count);
    if (first >= kFirstBlockOffset && first < index_offset) source.will_read(first, index_offset - first);
  }

  model.series.resize(count);
  // Every series has its own block index and descriptor. An index listing one block for many
  // series would have us parse and hold it once per listing: memory and time far beyond the file.
  std::unordered_set<uint64_t> sbi_offsets_seen, descriptor_offsets_seen;
  for (size_t i = 0; i < count; ++i) {
    Series& series = model.series[i];
    series.index = static_cast<uint32_t>(i);
    uint64_t sbi_offset = model.file_index_offsets[i];
    PlainBlockIndex sbi;
    if (!sbi_offsets_seen.insert(sbi_offset).second) {
      *reason = "the block index of series " + std::to_string(i) + " at " + std::to_string(sbi_offset) +
                " is unusable: an earlier series lists the same block index";
      *code = "bddf.index.bad_series_index";
      *at = sbi_offset;
      return false;
    }
    if (!read_block_index(source, sbi_offset, limit, &sbi, &frame, &why)) {
      *reason = "the block index of series " + std::to_string(i) + " at " + std::to_string(sbi_offset) + " is unusable: " +
                (why.empty() ? "not a SeriesBlockIndex" : why);
      *code = "bddf.index.bad_series_index";
      // A listed offset past the end of the file is the FileIndex's fault: point at the FileIndex.
      *at = sbi_offset < model.size ? sbi_offset : index_offset;
      return false;
    }
    DescriptorBlock sd_block;
    why.clear();
    if (!read_descriptor_block(source, sbi.descriptor_file_offset, limit, &sd_block, &frame, &why) ||
        sd_block.DescriptorType_case() != DescriptorBlock::kSeriesDescriptor) {
      *reason = "the descriptor of series " + std::to_string(i) + " at " + std::to_string(sbi.descriptor_file_offset) +
                " is unusable: " + (why.empty() ? "not a SeriesDescriptor" : why);
      *code = "bddf.index.bad_descriptor_offset";
      *at = sbi_offset;
      return false;
    }
    if (!descriptor_offsets_seen.insert(sbi.descriptor_file_offset).second) {
      *reason = "the descriptor of series " + std::to_string(i) + " at " + std::to_string(sbi.descriptor_file_offset) +
                " is unusable: an earlier series lists the same descriptor";
      *code = "bddf.index.bad_descriptor_offset";
      *at = sbi_offset;
      return false;
    }
    take_series_descriptor(series, sd_block.series_descriptor(), sbi.descriptor_file_offset);
    series.has_block_index = true;
    series.block_index_file_offset = sbi_offset;
    series.total_bytes = sbi.total_bytes;
    if (sbi.series_index != i || series.descriptor_series_index != i)
      add(model, Severity::Warning, sbi_offset, "bddf.index.series_index_mismatch",
          "series " + std::to_string(i) + " of the FileIndex: its block index says series " + std::to_string(sbi.series_index) +
              ", its descriptor says " + std::to_string(series.descriptor_series_index));
    // Entries: bounded by what the parsed message holds, which the block size bounded. They move
    // into the series as decoded; one outside the data area is dropped.
    auto outside = [&](uint64_t offset) { return offset < kFirstBlockOffset || offset >= index_offset || index_offset - offset < 12; };
    if (!sbi.entries.empty() && (outside(sbi.entries.min_offset()) || outside(sbi.entries.max_offset()))) {
      BlockEntries kept;
      for (auto it = sbi.entries.begin(); it != sbi.entries.end(); ++it) {
        if (outside(it->file_offset)) {
          add(model, Severity::Error, sbi_offset, "bddf.index.entry_out_of_bounds",
              "series " + std::to_string(i) + " lists a block at " + std::to_string(it->file_offset) +
                  ", outside the data area [4, " + std::to_string(index_offset) + "); entry skipped");
          continue;
        }
        kept.push_back(it->timestamp_ns, it->file_offset, it.extra().data(), it.extra().size());
      }
      sbi.entries = std::move(kept);
    }
    series.entries = std::move(sbi.entries);
    // File index vs descriptor: same identifier, and hashes that match it.
    const auto& listed = model.file_index_identifiers[i];
    if (listed.first != series.series_type || listed.second != series.spec)
      add(model, Severity::Error, index_offset, "bddf.index.identifier_mismatch",
          "series " + std::to_string(i) + ": the FileIndex identifier differs from the series descriptor's");
    if (i < model.file_index_hashes.size()) {
      uint64_t computed = identifier_hash(listed.first, listed.second);
      if (model.file_index_hashes[i] != computed)
        add(model, Severity::Error, index_offset, "bddf.index.hash_mismatch",
            "series " + std::to_string(i) + ": the FileIndex hash " + hex_u64(model.file_index_hashes[i]) +
                " does not match its identifier (" + hex_u64(computed) + ")");
    }
  }
  return true;
}

// ---- Recovery scan ---------------------------------------------------------------------------

// A descriptor block larger than this is not read whole by the scan when it is a series block
// index in the plain encoding (300 MB at 100 GB): that is checked a window at a time.
constexpr uint64_t kScanHeldDescriptor = 1u << 20;

void scan_blocks(ByteSource& source, FileModel& model, std::vector<BlockRef>& blocks) {
  WalkEnd end = walk_blocks(
      source, kFirstBlockOffset,
      [&](const WalkedBlock& walked) {
        const BlockFrame& frame = walked.frame;
        BlockRef ref;
        ref.offset = frame.offset;
        if (frame.type == kEndBlock) {
          ref.kind = BlockKind::End;
          blocks.push_back(ref);
          return true;
        }
        if (frame.type == kDescriptorBlock) {
          DescriptorBlock block;
          ref.kind = BlockKind::Descriptor;
          std::string read_whole;  // a large block the walk passed over, when it is not a plain index
          if (walked.body_skipped) {
            PlainBlockIndex checked;
            if (decode_block_index_fast(source, frame.body_offset(), frame.size_field, &checked, /*keep_entries=*/false)) {
              ref.kind = BlockKind::SeriesBlockIndex;
              blocks.push_back(ref);
              return true;
            }
            read_whole = read_descriptor_bytes(source, frame);
          }
          if (!parse_message(block, walked.body_skipped ? read_whole : walked.descriptor)) {
            add(model, Severity::Error, frame.offset, "bddf.block.bad_descriptor",
                "descriptor block of " + std::to_string(frame.size_field) + " bytes does not parse; skipped");
          } else if (block.DescriptorType_case() == DescriptorBlock::kFileDescriptor) {
            ref.kind = BlockKind::FileDescriptor;
            if (!model.have_file_descriptor) take_file_descriptor(model, block.file_descriptor(), frame.offset);
          } else if (block.DescriptorType_case() == DescriptorBlock::kSeriesDescriptor) {
            ref.kind = BlockKind::SeriesDescriptor;
            uint32_t series_index = block.series_descriptor().series_index();
            uint32_t position = model.series_position(series_index);
            if (position != UINT32_MAX && model.series[position].described) {
              add(model, Severity::Error, frame.offset, "bddf.series.duplicate",
                  "a second descriptor for series " + std::to_string(series_index) + "; the first one is kept");
            } else {
              if (position == UINT32_MAX) {
                position = static_cast<uint32_t>(model.series.size());
                model.series.emplace_back();
                model.series.back().index = position;
                model.position_of[series_index] = position;
              }
              take_series_descriptor(model.series[position], block.series_descriptor(), frame.offset);
            }
            ref.series = position;
          } else if (block.DescriptorType_case() == DescriptorBlock::kSeriesBlockIndex) {
            ref.kind = BlockKind::SeriesBlockIndex;
          } else if (block.DescriptorType_case() == DescriptorBlock::kFileIndex) {
            ref.kind = BlockKind::FileIndex;
          }
          blocks.push_back(ref);
          return true;
        }
        // Data block.
        ref.kind = BlockKind::Data;
        DataDescriptor descriptor;
        if (frame.descriptor_too_big) {
          add(model, Severity::Error, frame.offset, "bddf.data.descriptor_too_big",
              "data block's descriptor size " + std::to_string(frame.descriptor_size) + " exceeds its block size " +
                  std::to_string(frame.size_field) + "; block skipped");
        } else if (!parse_message(descriptor, walked.descriptor)) {
          add(model, Severity::Error, frame.offset, "bddf.data.bad_descriptor", "data block's DataDescriptor does not parse; block skipped");
        } else {
          uint32_t position = model.series_position(descriptor.series_index());
          if (position == UINT32_MAX) {
            add(model, Severity::Error, frame.offset, "bddf.data.unknown_series",
                "data block of series " + std::to_string(descriptor.series_index()) + ", which no descriptor before it declares");
            position = static_cast<uint32_t>(model.series.size());
            model.series.emplace_back();
            model.series.back().index = position;
            model.series.back().descriptor_series_index = descriptor.series_index();
            model.position_of[descriptor.series_index()] = position;
          }
          Series& series = model.series[position];
          series.entries.push_back(to_ns(descriptor.timestamp().seconds(), descriptor.timestamp().nanos()), frame.offset,
                                   descriptor.additional_indexes().data(), static_cast<size_t>(descriptor.additional_indexes_size()));
          series.total_bytes += frame.payload_size();
          ++model.recovery.recovered_blocks;
          return true;  // a series entry: the block table has it from the series
        }
        blocks.push_back(ref);  // a data block no series lists
        return true;
      },
      nullptr, [](const BlockFrame& frame) { return frame.size_field > kScanHeldDescriptor; });
  model.recovery.ends_at = end.at;
  model.recovery.end_code = end.code;
  model.recovery.ended = end.words;
  if (end.code == "truncated_block" || end.code == "truncated_header") {
    add(model, Severity::Error, end.at, "bddf.file." + end.code, end.words);
  } else if (end.code == "unknown_block_type") {
    add(model, Severity::Error, end.at, "bddf.block.unknown_type", end.words);
  }
  if (end.at < model.size && end.code != "end_block") {
    BlockRef tail;
    tail.offset = end.at;
    tail.kind = BlockKind::Damaged;
    blocks.push_back(tail);
  }
}

void read_trailer(ByteSource& source, FileModel& model) {
  if (model.size < kFirstBlockOffset + kTrailerSize) return;
  uint8_t bytes[kTrailerSize];
  if (source.read(model.size - kTrailerSize, bytes, kTrailerSize) != kTrailerSize) return;
  Trailer& t = model.trailer;
  t.readable = true;
  Cursor cursor(bytes, sizeof bytes);
  t.header_raw = cursor.u64();
  t.index_offset = cursor.u64();
  std::memcpy(t.digest, cursor.bytes(kDigestSize).data(), kDigestSize);
  t.end_magic = cursor.string(4);
  t.present = t.end_magic == std::string(kEndMagic, 4) && header_type(t.header_raw) == kEndBlock;
}

}  // namespace

FileModel open_file_model(ByteSource& source) {
  FileModel model;
  model.size = source.size();
  char magic[4] = {};
  model.magic_ok = source.read(0, magic, 4) == 4 && std::memcmp(magic, kMagic, 4) == 0;
  if (!model.magic_ok) {
    add(model, Severity::Error, 0, "bddf.header.bad_magic", "the file does not start with \"BDDF\"");
    // Nothing else is read: the block table is not the one an index would imply (a file index at
    // 0 and an END block 40 bytes before the end, before the start of a file under 40 bytes).
    model.set_blocks_besides_entries({BlockRef{0, BlockKind::Magic}});
    return model;
  }
  // The FileFormatDescriptor is the first block.
  {
    DescriptorBlock block;
    BlockFrame frame;
    std::string why;
    if (read_descriptor_block(source, kFirstBlockOffset, model.size, &block, &frame, &why) &&
        block.DescriptorType_case() == DescriptorBlock::kFileDescriptor) {
      take_file_descriptor(model, block.file_descriptor(), kFirstBlockOffset);
    } else {
      add(model, Severity::Error, kFirstBlockOffset, "bddf.header.no_file_descriptor",
          "the first block is not a FileFormatDescriptor" + (why.empty() ? std::string() : ": " + why));
    }
  }
  read_trailer(source, model);
  std::string reason, code;
  uint64_t at = 0;
  if (model.trailer.present) {
    if (header_size(model.trailer.header_raw) != kEndBlockSizeField)
      add(model, Severity::Info, model.size - kTrailerSize, "bddf.trailer.end_size",
          "END block size field is " + std::to_string(header_size(model.trailer.header_raw)) + " (the SDK writes 24)");
    if (open_from_index(source, model, &reason, &code, &at)) {
      model.indexed = true;
      for (Series& series : model.series) {
        check_series_descriptor(model, series);
        check_entry_order(model, series);
        read_last_pod_block_size(source, model, series);
      }
      for (uint32_t s = 0; s < model.series.size(); ++s) model.position_of[model.series[s].descriptor_series_index] = s;
      return model;
    }
  } else if (model.size < kFirstBlockOffset + kTrailerSize) {
    reason = "no trailer: the file is only " + std::to_string(model.size) + " bytes";
    code = "bddf.trailer.missing";
    at = model.size;
  } else {
    reason = std::string("no trailer: the file does not end with ") +
             (model.trailer.end_magic != std::string(kEndMagic, 4) ? "\"FDDB\"" : "an END block header");
    code = model.trailer.end_magic != std::string(kEndMagic, 4) ? "bddf.trailer.bad_magic" : "bddf.trailer.bad_end_header";
    at = model.trailer.end_magic != std::string(kEndMagic, 4) ? model.size - 4 : model.size - kTrailerSize;
  }
  // The index is missing or unusable: forget what it said and rebuild from the blocks.
  add(model, Severity::Error, at, code, reason);
  model.have_file_index = false;
  model.file_index_offsets.clear();
  model.file_index_hashes.clear();
  model.file_index_identifiers.clear();
  model.series.clear();
  model.position_of.clear();
  model.recovery.performed = true;
  model.recovery.reason = reason;
  std::vector<BlockRef> blocks{BlockRef{0, BlockKind::Magic}};
  scan_blocks(source, model, blocks);
  model.set_blocks_besides_entries(std::move(blocks));
  for (Series& series : model.series) {
    if (series.described) check_series_descriptor(model, series);
    check_entry_order(model, series);
  }
  return model;
}

}  // namespace logscope::bddf
