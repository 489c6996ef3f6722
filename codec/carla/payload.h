// The two sides of a packet layout. A table entry writes its record's layout once, as a generic
// lambda `[](auto& io, auto& r) { io.u32(r.id), io.vec(r.location); }`: decoding calls it with a
// PayloadReader, LogWriter with a PayloadWriter, so reading and writing cannot disagree.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "carla/format.h"
#include "core/cursor.h"

namespace logscope::carla {

class PayloadReader {
 public:
  PayloadReader(const uint8_t* data, size_t size, const Variant& variant) : cursor_(data, size), variant_(variant) {}
  const Variant& variant() const { return variant_; }
  Cursor& cursor() { return cursor_; }
  bool ok() const { return cursor_.ok(); }

  void u8(uint8_t& v) { v = cursor_.u8(); }
  void u16(uint16_t& v) { v = cursor_.u16(); }
  void u32(uint32_t& v) { v = cursor_.u32(); }
  void i32(int32_t& v) { v = cursor_.i32(); }
  void u64(uint64_t& v) { v = cursor_.u64(); }
  void f32(double& v) { v = cursor_.f32(); }
  void f64(double& v) { v = cursor_.f64(); }
  void flag(bool& v) { v = cursor_.u8() != 0; }
  void vec(Vec3& v) {  // FVector in the variant's precision
    if (variant_.doubles) {
      v.x = cursor_.f64(), v.y = cursor_.f64(), v.z = cursor_.f64();
    } else {
      v.x = cursor_.f32(), v.y = cursor_.f32(), v.z = cursor_.f32();
    }
  }
  void str(std::string& s) {  // FString: u16 length + bytes
    uint16_t length = cursor_.u16();
    s = cursor_.string(length);
  }
  // A u16 count, then the elements (trusted as far as reads succeed: at most 65535 tries).
  template <typename T, typename Element>
  void list16(std::vector<T>& items, Element element) {
    uint16_t n = cursor_.u16();
    for (uint16_t i = 0; i < n && ok(); ++i) read_one(items, element);
  }
  // A u32 count (WriteStdVector), trusted only as far as the bytes left can hold `element_bytes` each.
  template <typename T, typename Element>
  void list32(std::vector<T>& items, size_t element_bytes, Element element) {
    uint32_t n = cursor_.u32();
    if (element_bytes && n > cursor_.remaining() / element_bytes) {
      cursor_.need(SIZE_MAX);  // the count claims more than the payload holds: fail the read
      return;
    }
    for (uint32_t i = 0; i < n && ok(); ++i) read_one(items, element);
  }
  // A record field the file does not hold, set when reading (the writer ignores it).
  void derived(bool& field, bool value) { field = value; }

 private:
  template <typename T, typename Element>
  void read_one(std::vector<T>& items, Element element) {
    T item{};
    element(*this, item);
    if (ok()) items.push_back(std::move(item));
  }
  Cursor cursor_;
  Variant variant_;
};

class PayloadWriter {
 public:
  PayloadWriter(std::vector<uint8_t>& out, const Variant& variant) : out_(out), variant_(variant) {}
  const Variant& variant() const { return variant_; }

  template <typename T>
  void put(T value) {
    // Little-endian host. Grow geometrically, then a fixed-size copy the compiler inlines (a
    // range insert per value costs more than the value).
    size_t at = out_.size();
    if (out_.capacity() - at < sizeof(T)) out_.reserve(std::max<size_t>(out_.capacity() * 2, 4096));
    out_.resize(at + sizeof(T));
    std::memcpy(out_.data() + at, &value, sizeof(T));
  }
  void u8(uint8_t v) { put(v); }
  void u16(uint16_t v) { put(v); }
  void u32(uint32_t v) { put(v); }
  void i32(int32_t v) { put(v); }
  void u64(uint64_t v) { put(v); }
  void f32(double v) { put(static_cast<float>(v)); }
  void f64(double v) { put(v); }
  void flag(bool v) { put<uint8_t>(v); }
  void vec(const Vec3& v) {
    if (variant_.doubles) {
      f64(v.x), f64(v.y), f64(v.z);
    } else {
      f32(v.x), f32(v.y), f32(v.z);
    }
  }
  void str(const std::string& s) {
    uint16_t n = static_cast<uint16_t>(std::min<size_t>(s.size(), 0xFFFF));
    put(n);
    out_.insert(out_.end(), s.begin(), s.begin() + n);
  }
  template <typename T, typename Element>
  void list16(const std::vector<T>& items, Element element) {
    put(static_cast<uint16_t>(items.size()));
    for (const T& item : items) element(*this, item);
  }
  template <typename T, typename Element>
  void list32(const std::vector<T>& items, size_t, Element element) {
    put(static_cast<uint32_t>(items.size()));
    for (const T& item : items) element(*this, item);
  }
  void derived(bool, bool) {}

 private:
  std::vector<uint8_t>& out_;
  Variant variant_;
};

}  // namespace logscope::carla
