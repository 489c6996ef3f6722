// What the protobuf engine gives the formats: a message's numeric leaves, each with its path
// (`kinematic_state.joint_states[3].position.value` with a schema, `1.3[2].5` without) and its
// value, plus the order protoc prints them in. Shared by the schema-free walker (raw.h, no
// libprotobuf) and the descriptor-driven one (schemas.h). See docs/protobuf.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace logscope::protobuf {

// How a leaf's value reads: by the schema's type, or, without one, by wire type (a varint as an
// unsigned integer, a fixed32/fixed64 as its bit pattern, as `protoc --decode_raw` prints them).
enum class LeafType : uint8_t { Unsigned, Signed, Float, Double, Bool, Enum };

struct Leaf {
  std::string path;
  // Per level: the field number, then the element's index + 1 (0: not indexed). Sorting by it
  // puts fields in field-number order, as protoc prints them, and elements in order.
  std::vector<uint32_t> key;
  LeafType type = LeafType::Unsigned;
  uint64_t u = 0;    // Unsigned, Bool (0/1)
  int64_t i = 0;     // Signed, Enum (the number)
  double d = 0;      // Double
  float f = 0;       // Float
};

// The leaf's value as export text: integers in decimal, floats and doubles as the shortest text
// that reads back to the same value ("nan", "inf", "-inf"), bools as true/false.
std::string leaf_text(const Leaf& leaf);
// The value as a double (for sorting and plots): exact for every float, double and integer below 2^53.
double leaf_number(const Leaf& leaf);

// Orders by `key` (protoc's printing order).
inline bool leaf_key_less(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) { return a < b; }

}  // namespace logscope::protobuf
