// A bounds-checked little-endian reader over bytes already in memory.
// Failure is sticky, like a stream: once a read runs past the end, every later read yields
// zero and ok() stays false, so a parser checks ok() once per record instead of per field.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace logscope {

class Cursor {
 public:
  Cursor(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  Cursor(std::string_view bytes) : data_(reinterpret_cast<const uint8_t*>(bytes.data())), size_(bytes.size()) {}

  bool ok() const { return ok_; }
  size_t position() const { return pos_; }
  size_t size() const { return size_; }
  size_t remaining() const { return ok_ ? size_ - pos_ : 0; }
  bool at_end() const { return pos_ >= size_; }
  const uint8_t* data() const { return data_; }
  const uint8_t* here() const { return data_ + pos_; }

  // True when n more bytes are there; otherwise marks the cursor failed.
  bool need(size_t n) {
    if (!ok_ || n > size_ - pos_) {
      ok_ = false;
      return false;
    }
    return true;
  }
  void skip(size_t n) {
    if (need(n)) pos_ += n;
  }
  void seek(size_t position) {
    if (position > size_) ok_ = false;
    else pos_ = position;
  }

  template <typename T>
  T read() {
    T value{};
    if (need(sizeof(T))) {
      std::memcpy(&value, data_ + pos_, sizeof(T));  // host is little-endian (x86, wasm)
      pos_ += sizeof(T);
    }
    return value;
  }
  uint8_t u8() { return read<uint8_t>(); }
  uint16_t u16() { return read<uint16_t>(); }
  uint32_t u32() { return read<uint32_t>(); }
  uint64_t u64() { return read<uint64_t>(); }
  int32_t i32() { return read<int32_t>(); }
  int64_t i64() { return read<int64_t>(); }
  float f32() { return read<float>(); }
  double f64() { return read<double>(); }

  // A view of the next n bytes (empty and failed when they are not there).
  std::string_view bytes(size_t n) {
    if (!need(n)) return {};
    std::string_view view(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return view;
  }
  std::string string(size_t n) { return std::string(bytes(n)); }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace logscope
