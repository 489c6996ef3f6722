// ROS1 message definitions (the text embedded in each connection: the main type, then dependent
// types after `====` lines headed `MSG: pkg/Type`) and a bounded decoder of serialized messages
// into Json. Bad definitions or data give an error string, never a crash.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace logscope::rosbag {

enum class Primitive { Bool, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64, String, Time, Duration, Message };

struct MessageSpec;

struct FieldSpec {
  std::string name;
  std::string type_name;  // as written (after resolution for messages: pkg/Type)
  Primitive primitive = Primitive::Message;
  const MessageSpec* message = nullptr;  // for Primitive::Message
  int64_t array = 0;  // 0: scalar, -1: variable length, N: fixed length N
};

struct ConstantSpec {
  std::string type;
  std::string name;
  std::string value;
};

struct MessageSpec {
  std::string name;  // pkg/Type
  std::vector<FieldSpec> fields;
  std::vector<ConstantSpec> constants;
  // Serialized size when it never varies (no strings, no variable arrays), else -1.
  int64_t fixed_size = -1;
};

struct DecodeOptions {
  size_t array_preview = 16;   // arrays longer than this show their first elements and their length
  size_t bytes_preview = 64;   // uint8[]/char[] show this many bytes as hex
  // uint8[]/char[] whole as {"length", "raw": the bytes themselves}, not hex: for the views, which
  // read them (a 640 x 480 frame spent half its codec time in hex and back) and never print them.
  bool raw_bytes = false;
};

class MessageSchema {
 public:
  // Parses `definition` for messages of type `root_type`. Null with `error` set when the definition
  // is unusable (an unknown field type, a bad line).
  static std::unique_ptr<MessageSchema> parse(const std::string& root_type, const std::string& definition, std::string* error);

  const MessageSpec& root() const { return *root_; }
  const std::map<std::string, std::unique_ptr<MessageSpec>>& types() const { return types_; }

  // Decodes one serialized message. On inconsistent data returns what was decoded and sets `error`
  // (e.g. "field 'ranges': array of 4000000000 float32 needs 16000000000 bytes, 812 remain").
  Json decode(const uint8_t* data, size_t size, const DecodeOptions& options, std::string* error) const;
  // True when decode() would succeed, without building anything (the doctor's walk over every
  // message). Fixed-size parts are skipped in one step; lengths are checked against the bytes left.
  bool validate(const uint8_t* data, size_t size) const;

 private:
  std::map<std::string, std::unique_ptr<MessageSpec>> types_;
  const MessageSpec* root_ = nullptr;
};

// The JSON shapes of the decoder, shared with tests/reference/rosbag_reference.py:
//   time/duration -> {"secs": s, "nsecs": n}
//   uint8[]/char[] -> {"length": N, "hex": "<first bytes_preview bytes>"}
//   arrays longer than array_preview -> {"length": N, "first": [first array_preview elements]}

}  // namespace logscope::rosbag
