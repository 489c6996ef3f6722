#include "bddf/blocks.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "bddf/format.h"
#include "core/cursor.h"
#include "core/pushed_piece.h"

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

namespace {

// Whether the walk leaves this block's descriptor unread (SkipBody: descriptor blocks only).
bool skips_body(const SkipBody& skip, const BlockFrame& frame) { return frame.type == kDescriptorBlock && skip && skip(frame); }

}  // namespace

std::optional<WalkEnd> walk_one(ByteSource& source, uint64_t at, WalkedBlock& block, const std::function<bool(const WalkedBlock&)>& visit,
                                const SkipBody& skip) {
  std::string why;
  FrameStatus status = read_frame(source, at, source.size(), &block.frame, &why);
  if (status == FrameStatus::AtEnd) return WalkEnd{"eof", "the file ends after the last complete block, without index or trailer", at};
  if (status == FrameStatus::ShortHeader) return WalkEnd{"truncated_header", "the file ends inside a block header: " + why, at};
  if (status == FrameStatus::Truncated) return WalkEnd{"truncated_block", "the file ends inside a block: " + why, at};
  uint8_t type = block.frame.type;
  if (type != kDataBlock && type != kDescriptorBlock && type != kEndBlock)
    return WalkEnd{"unknown_block_type",
                   "unknown block type " + std::to_string(type) + " (size field " + std::to_string(block.frame.size_field) +
                       "); the framing cannot be followed past it",
                   at};
  block.body_skipped = skips_body(skip, block.frame);
  if (block.body_skipped) block.descriptor.clear();
  else block.descriptor = read_descriptor_bytes(source, block.frame);
  if (!visit(block)) return WalkEnd{"cancelled", "stopped at byte " + std::to_string(at), at};
  if (type == kEndBlock) return WalkEnd{"end_block", "the file ends with its END block", at};
  return std::nullopt;  // the next block is at at + block.frame.length (length >= 8: the walk advances)
}

WalkEnd walk_blocks(ByteSource& source, uint64_t start, const std::function<bool(const WalkedBlock&)>& visit,
                    const ProgressFn& progress, const SkipBody& skip) {
  ProgressTicker ticker(progress, source.size());
  uint64_t at = start;
  WalkedBlock block;
  for (;;) {
    if (!ticker.update(at)) return {"cancelled", "cancelled at byte " + std::to_string(at), at};
    if (std::optional<WalkEnd> end = walk_one(source, at, block, visit, skip)) return *end;
    at += block.frame.length;
  }
}

namespace {

// The bytes of a block the walk reads (header and descriptor), held from the block's start, seen
// as the whole file: reads elsewhere find nothing (BlockFeed gathers what walk_one reads first).
class GatheredBlock : public ByteSource {
 public:
  GatheredBlock(uint64_t file_size, uint64_t begin, const std::vector<uint8_t>& bytes) : size_(file_size), begin_(begin), bytes_(bytes) {}
  uint64_t size() const override { return size_; }
  size_t read(uint64_t offset, void* destination, size_t length) override {
    if (offset < begin_ || offset - begin_ >= bytes_.size()) return 0;
    size_t n = static_cast<size_t>(std::min<uint64_t>(length, bytes_.size() - (offset - begin_)));
    std::memcpy(destination, bytes_.data() + (offset - begin_), n);
    return n;
  }

 private:
  uint64_t size_, begin_;
  const std::vector<uint8_t>& bytes_;
};

}  // namespace

void BlockFeed::push(const uint8_t* data, size_t size) {
  if (end_ || received_ >= file_size_) return;
  PushedPiece piece(data, size, &received_, file_size_);
  while (!end_) {
    if (!piece.skip_to(position_)) return;  // the rest of a block already visited (its payload)
    // Gather the header walk_one reads (12 bytes, or what is left of the file), then the
    // descriptor its frame announces; the payload is never held.
    size_t header = static_cast<size_t>(std::min<uint64_t>(12, file_size_ - std::min(file_size_, position_)));
    if (!piece.gather(held_, header)) return;
    GatheredBlock source(file_size_, position_, held_);
    BlockFrame frame;
    std::string why;
    if (read_frame(source, position_, file_size_, &frame, &why) == FrameStatus::Ok) {
      size_t descriptor = skips_body(skip_, frame) ? 0 : descriptor_byte_count(frame);
      if (descriptor && !piece.gather(held_, static_cast<size_t>(frame.body_offset() - position_) + descriptor)) return;
    }
    WalkedBlock block;
    end_ = walk_one(source, position_, block, visit_, skip_);
    // held_ holds [position_, piece.offset()): a block shorter than the 12 header bytes gathered
    // leaves the next block's first bytes in it.
    uint64_t next = position_ + block.frame.length;
    if (piece.offset() > next) held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(next - position_));
    else PushedPiece::clear(held_);
    position_ = next;
  }
}

}  // namespace logscope::bddf
