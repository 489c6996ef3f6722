// Writes CDR messages: the encapsulation header, then values aligned as the reader expects
// (docs/cdr.md). For demo files and tests; the values are the caller's, in wire order.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace logscope::cdr {

class CdrWriter {
 public:
  // XCDR `version` 1 (CDR_LE/BE, identifier 0x0000/0x0001) or 2 (CDR2_LE/BE, 0x0010/0x0011).
  explicit CdrWriter(int version = 1, bool big_endian = false) : big_endian_(big_endian), max_align_(version == 2 ? 4 : 8) {
    bytes_.push_back('\0');
    bytes_.push_back(static_cast<char>((version == 2 ? 0x10 : 0x00) | (big_endian ? 0 : 1)));
    bytes_.append(2, '\0');
  }

  template <typename T>
  void put(T value) {
    align(sizeof(T));
    char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    if (big_endian_)
      for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(raw[i], raw[sizeof(T) - 1 - i]);
    bytes_.append(raw, sizeof(T));
  }
  // uint32 length counting the NUL, the bytes, the NUL.
  void string(std::string_view s) {
    put<uint32_t>(static_cast<uint32_t>(s.size() + 1));
    bytes_.append(s.data(), s.size());
    bytes_.push_back('\0');
  }
  void sequence_length(uint32_t n) { put<uint32_t>(n); }
  void octets(std::string_view data) { bytes_.append(data.data(), data.size()); }
  // Pads the body to a multiple of 4 and records the padding in the header's options, as DDS
  // writers do.
  void pad_end() {
    size_t pad = (4 - (bytes_.size() - 4) % 4) % 4;
    bytes_.append(pad, '\0');
    bytes_[3] = static_cast<char>(pad);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  void align(size_t n) {
    if (n > max_align_) n = max_align_;
    while ((bytes_.size() - 4) % n) bytes_.push_back('\0');
  }

  std::string bytes_;
  bool big_endian_;
  size_t max_align_;
};

}  // namespace logscope::cdr
