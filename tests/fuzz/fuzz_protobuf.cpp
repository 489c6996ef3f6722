// libFuzzer harness: the protobuf engine (codec/protobuf) on untrusted bytes.
// Input layout by the first byte: 'D' the rest is a FileDescriptorSet, 'P' the rest is .proto
// text; anything else: the rest is a payload, decoded without a schema and as each message type
// of a fixed schema (every scalar kind, nesting, packed and repeated fields, a map, an enum and
// a recursive type), the type chosen by the first byte.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "protobuf/raw.h"
#include "protobuf/schemas.h"

namespace {

const char* kSchema = R"(syntax = "proto3";
package fz;
enum Kind { KIND_NONE = 0; KIND_A = 1; KIND_B = 2; }
message Scalars {
  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4; sint32 s32 = 5; sint64 s64 = 6;
  fixed32 f32 = 7; fixed64 f64 = 8; sfixed32 sf32 = 9; sfixed64 sf64 = 10; float fl = 11; double db = 12;
  bool b = 13; string s = 14; bytes by = 15; Kind kind = 16;
}
message Tree {
  repeated Tree children = 1;
  repeated double values = 2;
  repeated int32 ids = 3 [packed = false];
  map<string, Scalars> named = 4;
  map<int64, Kind> kinds = 5;
  Scalars scalars = 6;
  oneof pick { string label = 7; Tree only = 8; }
}
)";

const logscope::protobuf::Schemas* fixed_schema() {
  static std::shared_ptr<const logscope::protobuf::Schemas> schemas = [] {
    std::string error;
    auto loaded = logscope::protobuf::load_proto_sources({{"fz.proto", kSchema}}, &error);
    if (!loaded) __builtin_trap();  // the harness's own schema must compile
    return loaded;
  }();
  return schemas.get();
}

// Leaf paths are unique within a message (the export keys its columns by them).
void check_unique(const std::vector<logscope::protobuf::Leaf>& leaves) {
  std::set<std::string> seen;
  for (const auto& leaf : leaves)
    if (!seen.insert(leaf.path).second) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string error;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] == 'D' || data[0] == 'P') {
    auto schemas = data[0] == 'D' ? logscope::protobuf::load_descriptor_set(rest, &error)
                                  : logscope::protobuf::load_proto_sources({{"in.proto", std::string(rest)}}, &error);
    if (!schemas) {
      if (error.empty()) __builtin_trap();  // a refusal always says why
      return 0;
    }
    schemas->description();
    return 0;
  }
  const uint8_t* payload = data + 1;
  size_t payload_size = size - 1;
  std::vector<logscope::protobuf::Leaf> leaves;
  std::vector<logscope::protobuf::RawField> fields;
  bool parsed = logscope::protobuf::parse_raw_fields(payload, payload_size, logscope::protobuf::kParseRecursionLimit, &fields);
  if (logscope::protobuf::raw_message_leaves(payload, payload_size, &leaves, &error) != parsed) __builtin_trap();
  check_unique(leaves);
  const char* type = data[0] & 1 ? "fz.Tree" : "fz.Scalars";
  leaves.clear();
  if (fixed_schema()->numeric_leaves(type, payload, payload_size, &leaves, &error)) check_unique(leaves);
  else if (error.empty()) __builtin_trap();
  fixed_schema()->message_json(type, payload, payload_size).dump();
  return 0;
}
