// ULog's layout (PX4's "ULog File Format", docs/ulog.md): the 16-byte header, the 3-byte message
// header, the message types, the base types, and message formats ('F': "name:type field;...")
// with their fields laid out (nested types, arrays, char[N], padding).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace logscope::ulog {

constexpr char kMagic[] = {'U', 'L', 'o', 'g', 0x01, 0x12, 0x35};
constexpr size_t kMagicSize = 7;
constexpr size_t kHeaderSize = 16;      // magic, version, timestamp (µs)
constexpr size_t kMessageHeader = 3;    // uint16_t msg_size, uint8_t msg_type
constexpr size_t kFlagBitsSize = 40;    // compat[8], incompat[8], appended_offsets[3]
constexpr uint8_t kIncompatDataAppended = 0x01;  // incompat_flags[0] bit 0
constexpr uint8_t kCompatDefaultParameters = 0x01;  // compat_flags[0] bit 0
constexpr uint8_t kSyncMagic[8] = {0x2F, 0x73, 0x13, 0x20, 0x25, 0x0C, 0xBB, 0x12};

// The start of a ULog file: the magic and a version byte (0 and 1 are written by PX4).
bool looks_like_ulog(std::string_view head);
// Why `head` nearly is a ULog ("" when it is not at all, or is one): a cut magic or header.
std::string diagnose_ulog_head(std::string_view head, uint64_t size);

// The message types, by their letter.
bool known_message_type(uint8_t type);
std::string type_name(uint8_t type);  // "data", "format", ...

enum class BaseType : uint8_t { Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float, Double, Bool, Char, Nested };
// The base type named `name` ("uint8_t", "float", ...); Nested for any other name.
BaseType base_type(std::string_view name);
size_t base_size(BaseType type);

struct Field {
  std::string type;       // as written: "float", "vehicle_status_s" is written "vehicle_status"
  std::string name;
  BaseType base = BaseType::Nested;
  uint32_t array = 0;     // 0: a scalar; N: type[N]
  int nested = -1;        // index into FormatSet::formats when base is Nested and known
  uint32_t offset = 0;    // within the message
  uint32_t size = 0;      // the whole field, every element
  bool padding() const { return name.rfind("_padding", 0) == 0; }
  uint32_t count() const { return array ? array : 1; }
};

struct Format {
  std::string name;
  std::vector<Field> fields;
  uint32_t size = 0;         // every field
  uint32_t data_size = 0;    // without the padding fields at the end, which the logger may leave out
  bool resolved = false;     // every nested type known and sizes computed
  std::string error;         // why it is not
  int timestamp_field = -1;  // the uint64_t "timestamp" field, if any
  uint64_t offset = 0;       // of its 'F' message
};

// Parses "name:type field;type[N] field;" into `out` (sizes not yet known). False with `error`.
bool parse_format(std::string_view text, Format* out, std::string* error);

// Every format of a file, by name, with their sizes resolved once all are known.
struct FormatSet {
  std::vector<Format> formats;
  std::map<std::string, size_t, std::less<>> by_name;
  // Adds (or replaces) a format; sizes are resolved again by resolve().
  void add(Format format);
  // Computes offsets and sizes of every format through its nested types (cycles and unknown
  // types make a format unresolved, with its error).
  void resolve();
  const Format* find(std::string_view name) const;
};

// One leaf column of a flattened message, as pyulog's ulog2csv names it: arrays as name[i],
// nested types as a.b, char[N] as one text column `name`, padding fields left out.
struct Leaf {
  std::string name;
  BaseType base = BaseType::UInt8;
  uint32_t offset = 0;
  uint32_t chars = 0;  // a char[N] string: N; else 0
};
// The leaves of `format` in the file's field order; false (with `error`) past `max_leaves`.
bool flatten(const FormatSet& set, const Format& format, std::vector<Leaf>* out, std::string* error, size_t max_leaves = 20000);

// A typed value as text and JSON-ready pieces (info values, parameters, decoded fields).
std::string char_string(const uint8_t* data, size_t size);  // up to the first NUL
double scalar_as_double(BaseType type, const uint8_t* data);

}  // namespace logscope::ulog
