// ROS bag record framing shared by V1.2 and V2.0: `u32 header_len | header | u32 data_len | data`,
// headers being repeated `u32 len | name=value` fields (spec: ../shared/spec/rosbag.md).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/byte_source.h"

namespace logscope::rosbag {

enum Op : uint8_t {
  kOpMessageDefinition = 0x01,  // V1.2 only
  kOpMessageData = 0x02,
  kOpBagHeader = 0x03,  // V1.2 "file header"
  kOpIndexData = 0x04,
  kOpChunk = 0x05,
  kOpConnection = 0x07,
  kOpChunkInfo = 0x06,
};
const char* op_name(int op);

constexpr size_t kV20VersionLineLength = 13;  // "#ROSBAG V2.0\n"
constexpr size_t kV1VersionLineLength = 16;   // "#ROSRECORD V1.2\n"
constexpr size_t kBagHeaderPaddedLength = 4096;  // header_len + data_len of the bag header record
// No honest header is this large; a bigger header_len is damage, not a reason to allocate.
constexpr uint32_t kMaxHeaderLength = 64u * 1024 * 1024;

struct Time {
  uint32_t sec = 0;
  uint32_t nsec = 0;
  uint64_t ns() const { return uint64_t{sec} * 1000000000ull + nsec; }
  // As genpy's to_sec(), so printed values round the same way as rosbag's.
  double to_sec() const { return static_cast<double>(sec) + static_cast<double>(nsec) / 1e9; }
  static Time from_ns(uint64_t ns) {
    return Time{static_cast<uint32_t>(ns / 1000000000ull), static_cast<uint32_t>(ns % 1000000000ull)};
  }
};
inline bool operator<(Time a, Time b) { return a.sec != b.sec ? a.sec < b.sec : a.nsec < b.nsec; }
inline bool operator==(Time a, Time b) { return a.sec == b.sec && a.nsec == b.nsec; }
inline bool operator<=(Time a, Time b) { return !(b < a); }

inline uint32_t load_u32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t load_u64(const void* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Calls fn(name, value) for each field; returns false when a field length runs past the header
// or a field has no '='. Allocation-free: the hot path parses every message header with it.
template <typename Fn>
bool for_each_field(std::string_view header, Fn&& fn) {
  size_t pos = 0;
  while (pos < header.size()) {
    if (header.size() - pos < 4) return false;
    uint32_t len = load_u32(header.data() + pos);
    pos += 4;
    if (len > header.size() - pos) return false;
    std::string_view field = header.substr(pos, len);
    pos += len;
    size_t eq = field.find('=');
    if (eq == std::string_view::npos) return false;
    fn(field.substr(0, eq), field.substr(eq + 1));
  }
  return true;
}

// A parsed header: fields as views into bytes owned by the caller.
class HeaderFields {
 public:
  bool parse(std::string_view header) {
    fields_.clear();
    return for_each_field(header, [&](std::string_view n, std::string_view v) { fields_.emplace_back(n, v); });
  }
  const std::vector<std::pair<std::string_view, std::string_view>>& fields() const { return fields_; }
  bool has(std::string_view name) const { return find(name) != nullptr; }
  const std::string_view* find(std::string_view name) const {
    for (const auto& f : fields_)
      if (f.first == name) return &f.second;
    return nullptr;
  }
  int op() const {
    const std::string_view* v = find("op");
    return v && v->size() == 1 ? static_cast<uint8_t>((*v)[0]) : -1;
  }
  bool u32(std::string_view name, uint32_t* out) const {
    const std::string_view* v = find(name);
    if (!v || v->size() != 4) return false;
    *out = load_u32(v->data());
    return true;
  }
  bool u64(std::string_view name, uint64_t* out) const {
    const std::string_view* v = find(name);
    if (!v || v->size() != 8) return false;
    *out = load_u64(v->data());
    return true;
  }
  bool time(std::string_view name, Time* out) const {
    const std::string_view* v = find(name);
    if (!v || v->size() != 8) return false;
    out->sec = load_u32(v->data());
    out->nsec = load_u32(v->data() + 4);
    return true;
  }
  std::string str(std::string_view name) const {
    const std::string_view* v = find(name);
    return v ? std::string(*v) : std::string();
  }

 private:
  std::vector<std::pair<std::string_view, std::string_view>> fields_;
};

// Where one record sits in the file.
struct RecordFrame {
  uint64_t offset = 0;
  uint32_t header_len = 0;
  uint32_t data_len = 0;
  uint64_t header_offset() const { return offset + 4; }
  uint64_t data_offset() const { return offset + 8 + header_len; }
  uint64_t end() const { return data_offset() + data_len; }
};

enum class FrameStatus { Ok, AtEnd, Truncated, BadHeader };

// Reads the record framing and header at `offset` (its data stays on disk). `header` receives the
// header bytes. On failure `why` says what is wrong in a sentence.
FrameStatus read_record(ByteSource& source, uint64_t offset, RecordFrame* frame, std::string* header, std::string* why);

// The same over bytes in memory (a decompressed chunk or the index section).
FrameStatus parse_record(const uint8_t* data, size_t size, size_t offset, RecordFrame* frame, std::string_view* header,
                         std::string* why);

// Appends one header field / a whole record (the writer and tests use these).
void append_field(std::string& header, std::string_view name, std::string_view value);
void append_field_u32(std::string& header, std::string_view name, uint32_t value);
void append_field_u64(std::string& header, std::string_view name, uint64_t value);
void append_field_time(std::string& header, std::string_view name, Time value);
void append_record(std::string& out, std::string_view header, std::string_view data);

std::string format_time(Time t);  // "1396293887.842738000"

}  // namespace logscope::rosbag
