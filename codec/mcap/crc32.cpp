#include "mcap/crc32.h"

#include <cstring>

#ifdef LOGSCOPE_CRC32_FROM_ZLIB
#include <zlib.h>
#endif

namespace logscope::mcap {

#ifdef LOGSCOPE_CRC32_FROM_ZLIB

// zlib's running value is the final form (inverted); state_ holds it before the final XOR.
void Crc32::update(const uint8_t* data, size_t size) {
  state_ = ~static_cast<uint32_t>(crc32_z(~state_, data, size));
}

#else

namespace {

// tables[0] is the byte-at-a-time table; tables[k][b] is the CRC of byte b followed by k zero bytes.
struct Tables {
  uint32_t t[8][256];
  Tables() {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t c = b;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
      t[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; ++b)
      for (int k = 1; k < 8; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
};

const Tables& tables() {
  static const Tables instance;
  return instance;
}

}  // namespace

void Crc32::update(const uint8_t* data, size_t size) {
  const auto& t = tables().t;
  uint32_t c = state_;
  while (size >= 8) {
    uint32_t lo, hi;
    std::memcpy(&lo, data, 4);  // little-endian hosts (x86, wasm)
    std::memcpy(&hi, data + 4, 4);
    lo ^= c;
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
        t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    data += 8;
    size -= 8;
  }
  while (size--) c = (c >> 8) ^ t[0][(c ^ *data++) & 0xFF];
  state_ = c;
}

#endif

}  // namespace logscope::mcap
