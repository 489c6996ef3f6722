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
uint8_t* put_varint(uint8_t* at, uint64_t v);
bool get_varint(const uint8_t*& at, const uint8_t* end, uint64_t* out);
// How many bytes put_varint writes for `v` (1 to 10).
inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) v >>= 7, ++n;
  return n;
}
// A flag and a 64-bit value in one varint-like run: the first byte holds the flag and 6 bits.
uint8_t* put_head(uint8_t* at, bool flag, uint64_t v);
bool get_head(const uint8_t*& at, const uint8_t* end, bool* flag, uint64_t* out);

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
  uint8_t* room(size_t most, bool mark);
  void commit(size_t used) { pages_.back().used += used; }

  size_t marks() const { return marks_.size(); }
  Position mark(size_t g) const { return marks_[g]; }
  // The stored bytes from `p` to the end of its page, moving `p` to the next page first when it
  // is at its page's end. `p.at += n` then steps over an entry of n bytes.
  const uint8_t* bytes_at(Position& p, const uint8_t** end) const;
  size_t memory_bytes() const;

 private:
  static constexpr size_t kPage = 256 << 10;
  struct Page {
    std::unique_ptr<uint8_t[]> bytes;
    size_t capacity = 0, used = 0;
  };
  std::vector<Page> pages_;
  std::vector<Position> marks_;
};

}  // namespace logscope::packed
