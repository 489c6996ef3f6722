#include "mcap/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

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
  uint32_t t[16][256];
  Tables() {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t c = b;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
      t[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; ++b)
      for (int k = 1; k < 16; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
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
  while (size >= 16) {
    uint32_t w0, w1, w2, w3;
    std::memcpy(&w0, data, 4);  // little-endian hosts (x86, wasm)
    std::memcpy(&w1, data + 4, 4);
    std::memcpy(&w2, data + 8, 4);
    std::memcpy(&w3, data + 12, 4);
    w0 ^= c;
    c = t[15][w0 & 0xFF] ^ t[14][(w0 >> 8) & 0xFF] ^ t[13][(w0 >> 16) & 0xFF] ^ t[12][w0 >> 24] ^
        t[11][w1 & 0xFF] ^ t[10][(w1 >> 8) & 0xFF] ^ t[9][(w1 >> 16) & 0xFF] ^ t[8][w1 >> 24] ^
        t[7][w2 & 0xFF] ^ t[6][(w2 >> 8) & 0xFF] ^ t[5][(w2 >> 16) & 0xFF] ^ t[4][w2 >> 24] ^
        t[3][w3 & 0xFF] ^ t[2][(w3 >> 8) & 0xFF] ^ t[1][(w3 >> 16) & 0xFF] ^ t[0][w3 >> 24];
    data += 16;
    size -= 16;
  }
  while (size--) c = (c >> 8) ^ t[0][(c ^ *data++) & 0xFF];
  state_ = c;
}

#endif

void Crc32::append(uint32_t crc, uint32_t length) {
  state_ = ~static_cast<uint32_t>(crc32_combine(~state_, crc, static_cast<z_off_t>(length)));
}

void Crc32Stream::known(uint64_t from, uint64_t length, uint32_t crc) {
  if (waiting_ || from < offset_ || length == 0 || length > kMaxKnownLength) return;
  waiting_ = true;
  known_from_ = from;
  known_end_ = from + length;
  known_crc_ = crc;
}

void Crc32Stream::update(const uint8_t* data, size_t size) {
  while (size > 0) {
    size_t n = size;
    if (waiting_ && offset_ >= known_from_) {
      n = static_cast<size_t>(std::min<uint64_t>(size, known_end_ - offset_));  // passed over, not hashed
    } else {
      if (waiting_) n = static_cast<size_t>(std::min<uint64_t>(size, known_from_ - offset_));
      crc_.update(data, n);
    }
    data += n;
    size -= n;
    offset_ += n;
    if (waiting_ && offset_ == known_end_) {
      crc_.append(known_crc_, static_cast<uint32_t>(known_end_ - known_from_));
      waiting_ = false;
    }
  }
}

bool Crc32Stream::value(uint32_t* crc) const {
  if (waiting_ && offset_ > known_from_) return false;
  *crc = crc_.value();
  return true;
}

}  // namespace logscope::mcap
