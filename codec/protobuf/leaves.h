// What the protobuf engine gives the formats: a message's numeric leaves, each with its path
// (`kinematic_state.joint_states[3].position.value` with a schema, `1.3[2].5` without) and its
// value, plus the order protoc prints them in, and the export's columns and rows of many
// messages (BDDF's protobuf series and MCAP's protobuf channels). Shared by the schema-free walker (raw.h, no
// libprotobuf) and the descriptor-driven one (schemas.h). See docs/protobuf.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace logscope {
class TableWriter;  // core/export.h
}

namespace logscope::protobuf {

// How a leaf's value reads: by the schema's type, or, without one, by wire type (a varint as an
// unsigned integer, a fixed32/fixed64 as its bit pattern, as `protoc --decode_raw` prints them).
// Text and Json are JSON messages' (MCAP's json channels, mcap/payload.cpp): a string, and a long
// array as one JSON cell. Protobuf's leaves are numeric only.
enum class LeafType : uint8_t { Unsigned, Signed, Float, Double, Bool, Enum, Text, Json };

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
  std::string s;     // Text (as stored), Json (its JSON text)
};

// The leaf's value as export text: integers in decimal, floats and doubles as the shortest text
// that reads back to the same value ("nan", "inf", "-inf"), bools as true/false.
std::string leaf_text(const Leaf& leaf);
// The value as a double (for sorting and plots): exact for every float, double and integer below
// 2^53; NaN for Text and Json.
double leaf_number(const Leaf& leaf);

// Orders by `key` (protoc's printing order).
inline bool leaf_key_less(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) { return a < b; }

// The export's columns of many messages: every path any of them has, in protoc's printing order
// (by key), each with its leaf type (the first seen), at most `max` paths (then capped()).
class LeafColumns {
 public:
  explicit LeafColumns(size_t max = 20000) : max_(max) {}
  void add(const std::vector<Leaf>& leaves);
  bool capped() const { return capped_; }
  size_t size() const { return by_path_.size(); }
  // The paths in protoc's order, and each one's leaf type.
  std::vector<std::string> paths() const;
  std::vector<LeafType> types() const;

 private:
  struct Column {
    std::vector<uint32_t> key;
    LeafType type;
  };
  std::vector<std::pair<std::vector<uint32_t>, std::string>> ordered() const;
  size_t max_;
  bool capped_ = false;
  std::map<std::string, Column> by_path_;
};

// Writes one leaf as a cell of its kind.
void write_leaf(const Leaf& leaf, TableWriter& out);
// The kind of column a leaf type makes, as TableWriter::kind_name names it ("number", "bool",
// "text", "json"): the columns query's.
const char* leaf_kind_name(LeafType type);

// Writes one message's leaves as the cells of `paths` (an empty cell where the message has no
// such leaf; leaves of other paths are dropped), after whatever cells the row already has.
class LeafRowWriter {
 public:
  explicit LeafRowWriter(const std::vector<std::string>& paths);
  void write(const std::vector<Leaf>& leaves, TableWriter& out);

 private:
  std::unordered_map<std::string, size_t> column_of_;
  std::vector<const Leaf*> cells_;
};

}  // namespace logscope::protobuf
