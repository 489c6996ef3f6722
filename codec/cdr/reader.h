// Bounded reads of one CDR-encoded message (docs/cdr.md): the 4-byte encapsulation header, then
// values aligned to their size counted from the end of that header, with XCDR2 aligning 8-byte
// values to 4. Every read is checked against the bytes that remain; failure is sticky.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace logscope::cdr {

// What the encapsulation header (RTPS SerializedPayloadHeader: a 2-byte identifier, big-endian,
// and 2 option bytes) says about the bytes after it.
struct Encapsulation {
  uint16_t id = 0;
  uint16_t options = 0;
  bool big_endian = false;
  int version = 1;          // XCDR1 or XCDR2
  bool delimited = false;   // D_CDR2: a DHEADER before appendable types
  bool parameter_list = false;  // PL_CDR / PL_CDR2: member headers (mutable types)
  std::string name;         // "CDR_LE", "CDR2_BE", ...
  // The padding the writer says it added after the last value (the options' low 2 bits).
  unsigned padding() const { return options & 3u; }
};

// Reads the header at the start of `data`. False with `error` when it is shorter than 4 bytes or
// its identifier is none of the CDR ones.
bool parse_encapsulation(const uint8_t* data, size_t size, Encapsulation* out, std::string* error);

class CdrReader {
 public:
  // `data` is the whole message, header included; reading starts after the header.
  CdrReader(const uint8_t* data, size_t size, const Encapsulation& encapsulation)
      : data_(data), size_(size), pos_(size >= 4 ? 4 : size), swap_(encapsulation.big_endian),
        max_align_(encapsulation.version == 2 ? 4 : 8) {}

  bool ok() const { return ok_; }
  size_t position() const { return pos_; }              // in the message, header included
  size_t remaining() const { return ok_ ? size_ - pos_ : 0; }
  size_t consumed() const { return pos_ >= 4 ? pos_ - 4 : 0; }  // after the header

  // Moves to the next multiple of min(n, max alignment) counted from the origin: the end of the
  // header, or the start of a PL_CDR member's value (set_origin).
  bool align(size_t n) {
    if (n > max_align_) n = max_align_;
    size_t rel = pos_ - origin_;
    size_t pad = (n - rel % n) % n;
    return skip(pad);
  }
  bool skip(uint64_t n) {
    if (!ok_ || n > size_ - pos_) return ok_ = false;
    pos_ += static_cast<size_t>(n);
    return true;
  }
  // One aligned primitive of sizeof(T) bytes, byte-swapped from big-endian when needed.
  template <typename T>
  T read() {
    T value{};
    if (!align(sizeof(T)) || !need(sizeof(T))) return value;
    uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, data_ + pos_, sizeof(T));
    if (swap_)
      for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(bytes[i], bytes[sizeof(T) - 1 - i]);
    std::memcpy(&value, bytes, sizeof(T));  // host is little-endian (x86, wasm)
    pos_ += sizeof(T);
    return value;
  }
  // The next n bytes, unaligned (string contents, octet runs).
  std::string_view bytes(uint64_t n) {
    if (!need(n)) return {};
    std::string_view view(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(n));
    pos_ += static_cast<size_t>(n);
    return view;
  }
  size_t max_align() const { return max_align_; }
  size_t origin() const { return origin_; }
  void set_origin(size_t at) { origin_ = at; }
  // Moves to byte `at` of the message (a member found by its header); false past the end.
  bool seek(size_t at) {
    if (!ok_ || at > size_ || at < 4) return ok_ = false;
    pos_ = at;
    return true;
  }

 private:
  bool need(uint64_t n) {
    if (!ok_ || n > size_ - pos_) return ok_ = false;
    return true;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_;
  bool swap_;
  size_t max_align_;
  size_t origin_ = 4;
  bool ok_ = true;
};

}  // namespace logscope::cdr
