// Sequential access to a log through a ByteSource: a chunked window for contiguous bytes and a
// walker over the 5-byte-headed packets that never trusts a size beyond the bytes present.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "core/byte_source.h"
#include "core/pushed_piece.h"
#include "core/sequential.h"

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

// Whether a packet's header and `need` bytes of its payload fit in one view of at most `max_view`
// bytes. PacketStream::payload (whose reader refuses a larger view) and PacketFeed hand over only
// those; a pass that rides along a walk asks by the same rule.
inline bool fits_one_view(uint64_t need, size_t max_view) { return need <= max_view - std::min<size_t>(max_view, 5); }

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

// The packets of [begin, end) front to back, for whole-file passes (scan, queries, doctor): the
// bytes come through a SequentialReader in large windows (in place for a mapped file), and packets
// are parsed from a pointer into a span of it, with no call per packet. Same steps as PacketWalker.
class PacketStream {
 public:
  PacketStream(ByteSource& source, uint64_t begin, uint64_t end) : reader_(source, begin, end), position_(begin), end_(end) {}

  PacketWalker::Step next(PacketRef* packet) {
    *packet = PacketRef();
    packet->offset = position_;
    if (end_ - position_ >= 5 && position_ + 5 <= span_end_) {  // the common case: the header is at hand
      const uint8_t* header = span_ + (position_ - span_begin_);
      prefetch_ahead();
      packet->id = header[0];
      std::memcpy(&packet->size, header + 1, 4);
      if (packet->size <= end_ - position_ - 5) {
        position_ = packet->end();
        return PacketWalker::Step::Packet;
      }
      return PacketWalker::Step::CutInPayload;
    }
    return next_slow(packet);
  }

  // The first `length` payload bytes of `packet` (the last one next() returned), valid until the
  // next call; null when they are not all in the range or exceed the reader's largest view.
  const uint8_t* payload(const PacketRef& packet, size_t length) {
    uint64_t payload_end = packet.payload() + length;
    if (payload_end <= span_end_ && packet.offset >= span_begin_) return span_ + (packet.payload() - span_begin_);
    if (!reach(packet.offset, 5 + length)) return nullptr;
    return span_ + 5;
  }
  uint64_t position() const { return position_; }

 private:
  static constexpr uint64_t kSpan = 1u << 20;  // bytes asked of the reader at once
  PacketWalker::Step next_slow(PacketRef* packet);
  // Makes [offset, offset + max(length, kSpan clipped to the range)) the span; false when even
  // [offset, offset + length) cannot be had.
  bool reach(uint64_t offset, size_t length);

  // Asks the CPU for the cache lines a few packets ahead: each header is otherwise a cache miss
  // that the next one waits for (its offset depends on this one's size).
  void prefetch_ahead() {
    uint64_t until = std::min(span_end_, position_ + kPrefetchDistance);
    for (; prefetched_ < until; prefetched_ += 64) __builtin_prefetch(span_ + (prefetched_ - span_begin_));
  }
  static constexpr uint64_t kPrefetchDistance = 4096;

  SequentialReader reader_;
  uint64_t position_;
  uint64_t end_;
  const uint8_t* span_ = nullptr;  // bytes [span_begin_, span_end_) of the file
  uint64_t span_begin_ = 0, span_end_ = 0;
  uint64_t prefetched_ = 0;  // lines before this offset were asked for
};

// The packets of [begin, end) from bytes pushed in order (the page's stream of the file): the
// same steps as PacketStream, for a caller handed the bytes instead of reading them. A packet is
// parsed in place when its header and the payload bytes `need` asks for are in one push, and from
// a copy when they straddle pushes; the rest of a payload is dropped as it comes.
class PacketFeed {
 public:
  using Need = std::function<size_t(const PacketRef& packet)>;
  // `payload`: the first need(packet) bytes, or null when 5 + need exceeds `max_view` (as
  // PacketStream::payload refuses them).
  using Visit = std::function<void(const PacketRef& packet, const uint8_t* payload)>;
  PacketFeed(uint64_t begin, uint64_t end, size_t max_view, Need need, Visit visit)
      : position_(begin), received_(begin), end_(end), max_view_(max_view), need_(std::move(need)), visit_(std::move(visit)) {}
  // The next bytes of the range; bytes past `end` are ignored.
  void push(const uint8_t* data, size_t size);
  uint64_t received() const { return received_; }  // every byte before this came
  // True once the walk has ended (End or a cut): then `step` and `last` say how, as
  // PacketStream::next() would have. False while bytes it needs have not come.
  bool ended(PacketWalker::Step* step, PacketRef* last) const;

 private:
  void stop(PacketWalker::Step step, const PacketRef& packet);

  uint64_t position_;   // the next packet header
  uint64_t received_;   // offset after the last pushed byte
  uint64_t end_;
  size_t max_view_;
  Need need_;
  Visit visit_;
  std::vector<uint8_t> pending_;  // bytes from position_ of a packet that straddles pushes
  bool ended_ = false;
  PacketWalker::Step step_ = PacketWalker::Step::End;
  PacketRef last_;
};

}  // namespace logscope::carla
