// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF): the
// checksum MCAP stores for chunks, attachments, the data section and the summary (docs/mcap.md).
// zlib has the same function but the codec does not link zlib; this is the table-driven
// algorithm, eight bytes a step ("slicing by 8"), so a 10 GB data section CRC stays I/O bound.
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
