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
  uint32_t value() const { return ~state_; }

 private:
  uint32_t state_ = 0xFFFFFFFFu;
};

inline uint32_t crc32(std::string_view bytes) {
  Crc32 c;
  c.update(bytes);
  return c.value();
}

}  // namespace logscope::mcap
