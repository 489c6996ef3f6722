// ROS 2 message definitions (`ros2msg`): the text rosbag2 and the MCAP ros2 profile store, the
// root type first, then each type it uses after a line of '=' and `MSG: pkg/Type` (docs/cdr.md).
// Parsed into types whose fields say how CDR lays them out. Bad text gives an error, never a crash.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace logscope::cdr {

enum class Primitive { Bool, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64, String, WString, Message };

// Bytes of one value on the wire (strings: their length prefix); 0 for messages.
size_t primitive_size(Primitive p);
const char* primitive_name(Primitive p);

enum class ArrayKind {
  None,       // a single value
  Fixed,      // T[N]: N values, no length on the wire
  Bounded,    // T[<=N]: a sequence (uint32 length first) of at most N
  Unbounded,  // T[]: a sequence
};

struct MessageType;

struct Field {
  std::string name;
  std::string type_name;  // as written; for messages the resolved pkg/Type
  Primitive primitive = Primitive::Message;
  const MessageType* message = nullptr;  // for Primitive::Message
  ArrayKind array = ArrayKind::None;
  uint64_t array_size = 0;    // Fixed: the length; Bounded: the bound
  uint64_t string_bound = 0;  // string<=N / wstring<=N; 0: none
  std::string default_value;  // as written after the name, "" when none
  bool is_sequence() const { return array == ArrayKind::Bounded || array == ArrayKind::Unbounded; }
};

struct Constant {
  std::string type;
  std::string name;
  std::string value;
};

struct MessageType {
  std::string name;  // pkg/Type or pkg/msg/Type, as the definition names it
  std::vector<Field> fields;
  std::vector<Constant> constants;
  // A type without fields still takes one byte on the wire (rosidl adds
  // `uint8 structure_needs_at_least_one_member` when it makes the IDL).
  bool empty() const { return fields.empty(); }
};

class Schema {
 public:
  // Parses `definition` for messages of type `root_name`. Null with `error` set when the
  // definition is unusable: a line that is neither a field nor a constant, a type it does not
  // define, a service or action definition ('---'), a bad bound.
  static std::unique_ptr<Schema> parse_ros2msg(const std::string& root_name, const std::string& definition, std::string* error);

  // Parses `idl` (`ros2idl`: the root type's IDL, then each type it uses after a line of '=' and
  // `IDL: package/msg/Type`): modules, structs, typedefs of arrays, constants, enums, sequences,
  // bounded strings and arrays; annotations are read past. Null with `error` when unusable.
  static std::unique_ptr<Schema> parse_ros2idl(const std::string& root_name, const std::string& idl, std::string* error);

  const MessageType& root() const { return *root_; }
  const std::map<std::string, std::unique_ptr<MessageType>>& types() const { return types_; }

  static constexpr int kMaxDepth = 32;                       // deeper nesting is a type made of itself
  static constexpr uint64_t kMaxFixedArray = 100000000;      // T[N] beyond this is refused

 private:
  // Resolves every field's type (builtins, types of the text, builtin Time/Duration) and the root.
  bool finish(const std::string& root_name, std::string* error);

  std::map<std::string, std::unique_ptr<MessageType>> types_;
  const MessageType* root_ = nullptr;
};

}  // namespace logscope::cdr
