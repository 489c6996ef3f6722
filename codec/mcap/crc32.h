// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF): the
// checksum MCAP stores for chunks, attachments, the data section and the summary (docs/mcap.md).
// Natively it is zlib's crc32 (CMakeLists.txt): 2.85 GB/s against 1.49 for the table loop below,
// and a native MCAP check spent 72 % of its time here. The wasm build keeps the loop: the page's
// view module links no zlib (its size is the first visit's), and there zlib's crc32 is no faster
// (256 MB, node: 0.93 GB/s from its -Os build, 1.11 at -O2, the loop 1.20; 2026-12-05). The loop
// is table-driven, eight bytes a step ("slicing by 8").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace logscope::mcap {

class Crc32 {
 public:
  void update(const uint8_t* data, size_t size);
  void update(std::string_view bytes) { update(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()); }
  // As if `length` bytes whose CRC is `crc` were given to update() (zlib's crc32_combine).
  void append(uint32_t crc, uint32_t length);
  uint32_t value() const { return ~state_; }

 private:
  uint32_t state_ = 0xFFFFFFFFu;
};

// The CRC of bytes given in file order from `offset` on, where one range ahead whose CRC is
// known already (an uncompressed chunk's records, whose chunk CRC the check just computed) is
// combined in when its bytes pass instead of hashed again: the data section CRC and the chunk
// CRC otherwise take every byte of such a chunk twice, and the two were 71 % of the check's time
// in wasm.
class Crc32Stream {
 public:
  Crc32Stream(Crc32 start, uint64_t offset) : crc_(start), offset_(offset) {}
  void update(const uint8_t* data, size_t size);
  // [from, from + length) has the CRC `crc`. Ignored unless those bytes are all still to come,
  // no other range waits and it is at most kMaxKnownLength (zlib's length is a 32-bit long in wasm).
  void known(uint64_t from, uint64_t length, uint32_t crc);
  static constexpr uint64_t kMaxKnownLength = 1u << 30;
  // The CRC of every byte so far; false in the middle of a known range.
  bool value(uint32_t* crc) const;

 private:
  Crc32 crc_;
  uint64_t offset_;  // of the next byte to come
  bool waiting_ = false;
  uint64_t known_from_ = 0, known_end_ = 0;
  uint32_t known_crc_ = 0;
};

inline uint32_t crc32(std::string_view bytes) {
  Crc32 c;
  c.update(bytes);
  return c.value();
}

}  // namespace logscope::mcap
