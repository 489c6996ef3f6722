// Storage for packed lists of millions of entries (a BDDF series' blocks, a CARLA log's frames):
// append-only bytes in pages of up to 256 KiB, so that growing never copies what is stored (a vector's
// regrowth would hold the list twice), with marks where every group of entries starts, so that
// entry i decodes from the start of its group. Also the variable-length codings those lists share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace logscope::packed {

inline uint64_t zigzag(uint64_t v) { return (v << 1) ^ (0 - (v >> 63)); }
inline uint64_t unzigzag(uint64_t v) { return (v >> 1) ^ (0 - (v & 1)); }

// Little-endian base-128 (at most 10 bytes). get_ advances `at`; false when the bytes end first.
// Inline: a 100 GB BDDF's 16.5 million index entries pass through them; as calls, the page's
// wasm spent twice native's time on them.
inline uint8_t* put_varint(uint8_t* at, uint64_t v) {
  while (v >= 0x80) {
    *at++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *at++ = static_cast<uint8_t>(v);
  return at;
}
inline bool get_varint(const uint8_t*& at, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && at < end; shift += 7) {
    uint8_t byte = *at++;
    v |= uint64_t{byte & 0x7fu} << shift;
    if (!(byte & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}
// How many bytes put_varint writes for `v` (1 to 10).
inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) v >>= 7, ++n;
  return n;
}
// A flag and a 64-bit value in one varint-like run: the first byte holds the flag and 6 bits.
inline uint8_t* put_head(uint8_t* at, bool flag, uint64_t v) {
  uint8_t first = static_cast<uint8_t>((flag ? 1 : 0) | ((v & 0x3f) << 1));
  v >>= 6;
  if (!v) {
    *at++ = first;
    return at;
  }
  *at++ = first | 0x80;
  return put_varint(at, v);
}
inline bool get_head(const uint8_t*& at, const uint8_t* end, bool* flag, uint64_t* out) {
  if (at == end) return false;
  uint8_t first = *at++;
  *flag = first & 1;
  uint64_t v = (first >> 1) & 0x3f, rest = 0;
  if (first & 0x80) {
    if (!get_varint(at, end, &rest)) return false;
    v |= rest << 6;
  }
  *out = v;
  return true;
}

class PagedBytes {
 public:
  struct Position {
    uint32_t page = 0, at = 0;
  };

  PagedBytes() = default;
  PagedBytes(const PagedBytes& other);
  PagedBytes& operator=(const PagedBytes& other);
  PagedBytes(PagedBytes&&) = default;
  PagedBytes& operator=(PagedBytes&&) = default;

  // Where the next entry, of at most `most` bytes, is written: never across two pages. `mark`:
  // it starts a group (marks() counts them). commit() then says how many bytes it took.
  uint8_t* room(size_t most, bool mark) {
    if (mark || pages_.empty() || pages_.back().capacity - pages_.back().used < most) return room_slow(most, mark);
    return pages_.back().bytes.get() + pages_.back().used;
  }
  void commit(size_t used) { pages_.back().used += used; }

  size_t marks() const { return marks_.size(); }
  Position mark(size_t g) const { return marks_[g]; }
  // The stored bytes from `p` to the end of its page, moving `p` to the next page first when it
  // is at its page's end. `p.at += n` then steps over an entry of n bytes.
  const uint8_t* bytes_at(Position& p, const uint8_t** end) const;
  size_t memory_bytes() const;

 private:
  uint8_t* room_slow(size_t most, bool mark);  // a new page, or a mark
  static constexpr size_t kPage = 256 << 10;
  struct Page {
    std::unique_ptr<uint8_t[]> bytes;
    size_t capacity = 0, used = 0;
  };
  std::vector<Page> pages_;
  std::vector<Position> marks_;
};

}  // namespace logscope::packed
