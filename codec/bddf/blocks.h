// Reading one block's framing and its descriptor bytes, bounded by the file, and a forward
// walk over the blocks (used by recovery and by the doctor).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>
#include <string>

#include "bddf.pb.h"
#include "core/byte_source.h"
#include "core/report.h"

namespace logscope::bddf {

struct BlockFrame {
  uint64_t offset = 0;
  uint8_t type = 0;
  uint64_t size_field = 0;
  uint64_t length = 0;           // bytes on disk: header, (descriptor length,) body
  uint32_t descriptor_size = 0;  // data blocks: the u32 before the DataDescriptor
  bool descriptor_too_big = false;  // data block whose descriptor size exceeds its size field
  uint64_t body_offset() const { return offset + 8 + (type == 0 ? 4 : 0); }
  uint64_t payload_offset() const { return body_offset() + descriptor_size; }
  uint64_t payload_size() const { return descriptor_too_big ? 0 : size_field - descriptor_size; }
};

enum class FrameStatus { Ok, AtEnd, ShortHeader, Truncated };

// Reads the header (and a data block's descriptor length) at `offset`; the block must end by
// `limit`. `why` says what is wrong when the status is not Ok.
FrameStatus read_frame(ByteSource& source, uint64_t offset, uint64_t limit, BlockFrame* frame, std::string* why);

// How many descriptor bytes a block holds: the DescriptorBlock body, or a data block's
// DataDescriptor; 0 when there are none or the framing does not bound them.
size_t descriptor_byte_count(const BlockFrame& frame);
// The descriptor bytes of a block (descriptor_byte_count of them, fewer if the read falls short).
std::string read_descriptor_bytes(ByteSource& source, const BlockFrame& frame);

// Parses protobuf bytes of any size safely (false on junk or on > 2 GB).
bool parse_message(google::protobuf::MessageLite& message, const std::string& bytes);

// A block seen by the walk, with its descriptor bytes.
struct WalkedBlock {
  BlockFrame frame;
  std::string descriptor;
  bool body_skipped = false;  // the walk's SkipBody left `descriptor` unread (empty)
};

// Which descriptor blocks a walk leaves unread, as it leaves payloads: a check skips the series
// block indexes that opening the file already decoded, a window at a time (300 MB at 100 GB).
// Null reads every one.
using SkipBody = std::function<bool(const BlockFrame&)>;

struct WalkEnd {
  std::string code;   // "end_block", "eof", "truncated_header", "truncated_block", "unknown_block_type", "cancelled"
  std::string words;  // a sentence for the user
  uint64_t at = 0;    // where reading stopped
  bool clean() const { return code == "end_block"; }
};

// Walks blocks forward from `start` until the END block, the end of the file, a cut block or an
// unknown block type. `visit` returning false stops the walk ("cancelled").
WalkEnd walk_blocks(ByteSource& source, uint64_t start, const std::function<bool(const WalkedBlock&)>& visit,
                    const ProgressFn& progress, const SkipBody& skip = nullptr);
// One step of that walk: the block at `at` is read into `block` and visited; the walk's end, or
// nothing when the next block starts at at + block.frame.length.
std::optional<WalkEnd> walk_one(ByteSource& source, uint64_t at, WalkedBlock& block, const std::function<bool(const WalkedBlock&)>& visit,
                                const SkipBody& skip = nullptr);

// The same walk from `start` over the file's bytes pushed in order from byte 0 (the page's stream
// of the file): each block's header and descriptor are gathered, its payload is dropped as it
// comes, and walk_one does the rest, so the blocks, visits and end are those of walk_blocks.
class BlockFeed {
 public:
  using Visit = std::function<bool(const WalkedBlock&)>;
  BlockFeed(uint64_t file_size, uint64_t start, Visit visit, SkipBody skip = nullptr)
      : file_size_(file_size), position_(start), visit_(std::move(visit)), skip_(std::move(skip)) {}
  // The next bytes of the file; bytes past its end are ignored.
  void push(const uint8_t* data, size_t size);
  // How the walk ended, once it has (null while bytes it needs have not come).
  const std::optional<WalkEnd>& end() const { return end_; }

 private:
  uint64_t file_size_;
  uint64_t position_;  // the block being gathered
  uint64_t received_ = 0;  // offset after the last pushed byte
  Visit visit_;
  SkipBody skip_;
  std::vector<uint8_t> held_;  // bytes from position_: the header and descriptor being gathered
  std::optional<WalkEnd> end_;
};

}  // namespace logscope::bddf
