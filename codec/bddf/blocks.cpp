#include "bddf/blocks.h"

#include <climits>

#include "bddf/format.h"
#include "core/cursor.h"

namespace logscope::bddf {

FrameStatus read_frame(ByteSource& source, uint64_t offset, uint64_t limit, BlockFrame* frame, std::string* why) {
  *frame = BlockFrame{};
  frame->offset = offset;
  if (offset >= limit) return FrameStatus::AtEnd;
  uint64_t remaining = limit - offset;
  uint8_t bytes[12] = {};
  size_t want = remaining >= 12 ? 12 : static_cast<size_t>(remaining);
  size_t got = source.read(offset, bytes, want);
  if (got < 8) {
    *why = "only " + std::to_string(remaining) + " byte" + (remaining == 1 ? "" : "s") +
           " left, too few for an 8-byte block header";
    return FrameStatus::ShortHeader;
  }
  Cursor cursor(bytes, got);
  uint64_t raw = cursor.u64();
  frame->type = header_type(raw);
  frame->size_field = header_size(raw);
  if (frame->type == kEndBlock) {
    frame->length = kTrailerSize;  // the size field (24) does not describe the 32 bytes that follow
    if (remaining < kTrailerSize) {
      *why = "END block needs 40 bytes, only " + std::to_string(remaining) + " left";
      return FrameStatus::Truncated;
    }
    return FrameStatus::Ok;
  }
  uint64_t prefix = frame->type == kDataBlock ? 12 : 8;
  if (frame->size_field > remaining || prefix + frame->size_field > remaining) {
    *why = std::string(block_type_name(frame->type)) + " block declares " + std::to_string(frame->size_field) +
           " bytes, only " + std::to_string(remaining - std::min<uint64_t>(remaining, prefix)) + " follow";
    return FrameStatus::Truncated;
  }
  frame->length = prefix + frame->size_field;
  if (frame->type == kDataBlock) {
    frame->descriptor_size = cursor.u32();
    if (frame->descriptor_size > frame->size_field) frame->descriptor_too_big = true;
  }
  return FrameStatus::Ok;
}

size_t descriptor_byte_count(const BlockFrame& frame) {
  uint64_t size = frame.type == kDataBlock ? (frame.descriptor_too_big ? 0 : frame.descriptor_size)
                                           : frame.type == kDescriptorBlock ? frame.size_field : 0;
  return size > frame.length ? 0 : static_cast<size_t>(size);  // framing already bounded it by the file
}

std::string read_descriptor_bytes(ByteSource& source, const BlockFrame& frame) {
  size_t size = descriptor_byte_count(frame);
  std::string out;
  if (size == 0) return out;
  out.resize(size);
  out.resize(source.read(frame.body_offset(), out.data(), out.size()));
  return out;
}

bool parse_message(google::protobuf::MessageLite& message, const std::string& bytes) {
  // Damaged files routinely hold invalid UTF-8 in string fields; protobuf would log each one to
  // stderr. We report problems ourselves, so its log goes nowhere.
  static const bool quiet = [] {
    google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string&) {});
    return true;
  }();
  (void)quiet;
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return false;
  return message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

WalkEnd walk_blocks(ByteSource& source, uint64_t start, const std::function<bool(const WalkedBlock&)>& visit,
                    const ProgressFn& progress) {
  uint64_t size = source.size();
  ProgressTicker ticker(progress, size);
  WalkEnd end;
  uint64_t at = start;
  WalkedBlock block;
  for (;;) {
    if (!ticker.update(at)) return {"cancelled", "cancelled at byte " + std::to_string(at), at};
    std::string why;
    FrameStatus status = read_frame(source, at, size, &block.frame, &why);
    if (status == FrameStatus::AtEnd)
      return {"eof", "the file ends after the last complete block, without index or trailer", at};
    if (status == FrameStatus::ShortHeader) return {"truncated_header", "the file ends inside a block header: " + why, at};
    if (status == FrameStatus::Truncated) return {"truncated_block", "the file ends inside a block: " + why, at};
    uint8_t type = block.frame.type;
    if (type != kDataBlock && type != kDescriptorBlock && type != kEndBlock)
      return {"unknown_block_type",
              "unknown block type " + std::to_string(type) + " (size field " + std::to_string(block.frame.size_field) +
                  "); the framing cannot be followed past it",
              at};
    block.descriptor = read_descriptor_bytes(source, block.frame);
    if (!visit(block)) return {"cancelled", "stopped at byte " + std::to_string(at), at};
    if (type == kEndBlock) return {"end_block", "the file ends with its END block", at};
    at += block.frame.length;  // length >= 8, so the walk always advances
  }
}

}  // namespace logscope::bddf
