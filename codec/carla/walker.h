// Sequential access to a log through a ByteSource: a chunked window for contiguous bytes and a
// walker over the 5-byte-headed packets that never trusts a size beyond the bytes present.
#pragma once

#include <cstdint>
#include <vector>

#include "core/byte_source.h"

namespace logscope::carla {

// Serves contiguous byte ranges from a window refilled in large reads (few calls into a slow
// source). Ranges larger than `max_range` are refused so a damaged size cannot allocate gigabytes.
class ChunkReader {
 public:
  explicit ChunkReader(ByteSource& source, size_t chunk = 1 << 20, size_t max_range = 256u << 20)
      : source_(source), chunk_(chunk), max_range_(max_range) {}
  // Pointer to [offset, offset+length), valid until the next call; null when those bytes are not
  // all in the file (or the range is too large).
  const uint8_t* get(uint64_t offset, size_t length);
  uint64_t size() const { return source_.size(); }

 private:
  ByteSource& source_;
  size_t chunk_;
  size_t max_range_;
  std::vector<uint8_t> buffer_;
  uint64_t start_ = 0;
  size_t filled_ = 0;
};

struct PacketRef {
  uint8_t id = 0;
  uint32_t size = 0;    // declared payload bytes
  uint64_t offset = 0;  // of the 5-byte header
  uint64_t payload() const { return offset + 5; }
  uint64_t end() const { return offset + 5 + size; }
};

class PacketWalker {
 public:
  enum class Step { Packet, End, CutInHeader, CutInPayload };
  PacketWalker(ChunkReader& reader, uint64_t begin, uint64_t end) : reader_(reader), position_(begin), end_(end) {}
  // The next packet header. CutInHeader/CutInPayload: the bytes up to `end` do not hold a whole
  // packet at position(); `packet` then has what could be read. Never advances past `end`.
  Step next(PacketRef* packet);
  uint64_t position() const { return position_; }

 private:
  ChunkReader& reader_;
  uint64_t position_;
  uint64_t end_;
};

}  // namespace logscope::carla
