#include "protobuf/leaves.h"

#include "core/export.h"

namespace logscope::protobuf {

std::string leaf_text(const Leaf& leaf) {
  switch (leaf.type) {
    case LeafType::Unsigned: return std::to_string(leaf.u);
    case LeafType::Signed:
    case LeafType::Enum: return std::to_string(leaf.i);
    case LeafType::Float: return format_f32(leaf.f);
    case LeafType::Double: return format_f64(leaf.d);
    case LeafType::Bool: return leaf.u ? "true" : "false";
  }
  return "";
}

double leaf_number(const Leaf& leaf) {
  switch (leaf.type) {
    case LeafType::Unsigned:
    case LeafType::Bool: return static_cast<double>(leaf.u);
    case LeafType::Signed:
    case LeafType::Enum: return static_cast<double>(leaf.i);
    case LeafType::Float: return leaf.f;
    case LeafType::Double: return leaf.d;
  }
  return 0;
}

}  // namespace logscope::protobuf
