// One piece of a file pushed in order, as a feed that parses records out of such pieces sees it
// (carla::PacketFeed, bddf::BlockFeed): bytes before the next record are dropped as they come,
// and a record's bytes that straddle pieces are gathered into a buffer held by the feed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace logscope {

class PushedPiece {
 public:
  // [data, data + size) are the file's bytes from `offset`; *received (the offset after the last
  // pushed byte) moves past them. Bytes at or past `end` are not part of the piece.
  PushedPiece(const uint8_t* data, size_t size, uint64_t* received, uint64_t end)
      : p_(data), at_(*received), e_(data + static_cast<size_t>(std::min<uint64_t>(size, end - std::min(end, *received)))) {
    *received += static_cast<uint64_t>(e_ - p_);
  }
  const uint8_t* data() const { return p_; }
  size_t left() const { return static_cast<size_t>(e_ - p_); }
  uint64_t offset() const { return at_; }  // the file offset of data()

  // Drops the bytes before `offset` (the rest of a record already handled); false when the piece
  // ends first.
  bool skip_to(uint64_t offset) {
    if (at_ < offset) advance(static_cast<size_t>(std::min<uint64_t>(left(), offset - at_)));
    return at_ >= offset;
  }
  // Moves bytes into `held` until it holds `want`; false when the piece ran out first.
  bool gather(std::vector<uint8_t>& held, size_t want) {
    if (held.size() >= want) return true;
    size_t take = std::min(want - held.size(), left());
    held.insert(held.end(), p_, p_ + take);
    advance(take);
    return held.size() >= want;
  }
  // Empties `held` once its record is handled, and gives back the room of a rare big one.
  static void clear(std::vector<uint8_t>& held) {
    if (held.capacity() > (16u << 20)) held = std::vector<uint8_t>();
    else held.clear();
  }

 private:
  void advance(size_t n) {
    p_ += n;
    at_ += n;
  }
  const uint8_t* p_;
  uint64_t at_;
  const uint8_t* e_;
};

}  // namespace logscope
