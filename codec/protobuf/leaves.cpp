#include "protobuf/leaves.h"

#include <algorithm>
#include <cmath>

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
    case LeafType::Text:
    case LeafType::Json: return leaf.s;
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
    case LeafType::Text:
    case LeafType::Json: return std::nan("");
  }
  return 0;
}

void LeafColumns::add(const std::vector<Leaf>& leaves) {
  for (const Leaf& leaf : leaves) {
    if (by_path_.size() >= max_ && !by_path_.count(leaf.path)) {
      capped_ = true;
      continue;
    }
    by_path_.emplace(leaf.path, Column{leaf.key, leaf.type});
  }
}

std::vector<std::pair<std::vector<uint32_t>, std::string>> LeafColumns::ordered() const {
  std::vector<std::pair<std::vector<uint32_t>, std::string>> order;
  order.reserve(by_path_.size());
  for (const auto& [path, column] : by_path_) order.emplace_back(column.key, path);
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<std::string> LeafColumns::paths() const {
  std::vector<std::string> out;
  for (auto& [key, path] : ordered()) out.push_back(path);
  return out;
}

std::vector<LeafType> LeafColumns::types() const {
  std::vector<LeafType> out;
  for (auto& [key, path] : ordered()) out.push_back(by_path_.find(path)->second.type);
  return out;
}

LeafRowWriter::LeafRowWriter(const std::vector<std::string>& paths) : cells_(paths.size()) {
  for (size_t k = 0; k < paths.size(); ++k) column_of_.emplace(paths[k], k);
}

void LeafRowWriter::write(const std::vector<Leaf>& leaves, TableWriter& out) {
  std::fill(cells_.begin(), cells_.end(), nullptr);
  for (const Leaf& leaf : leaves) {
    auto it = column_of_.find(leaf.path);
    if (it != column_of_.end()) cells_[it->second] = &leaf;
  }
  for (const Leaf* leaf : cells_) {
    if (leaf) write_leaf(*leaf, out);
    else out.empty();
  }
}

void write_leaf(const Leaf& leaf, TableWriter& out) {
  switch (leaf.type) {
    case LeafType::Unsigned: out.unsigned_integer(leaf.u); break;
    case LeafType::Signed:
    case LeafType::Enum: out.integer(leaf.i); break;
    case LeafType::Float: out.f32(leaf.f); break;
    case LeafType::Double: out.f64(leaf.d); break;
    case LeafType::Bool: out.boolean(leaf.u != 0); break;
    case LeafType::Text: out.text(leaf.s); break;
    case LeafType::Json: out.json(leaf.s); break;
  }
}

const char* leaf_kind_name(LeafType type) {
  switch (type) {
    case LeafType::Bool: return TableWriter::kind_name(TableWriter::Kind::Bool);
    case LeafType::Text: return TableWriter::kind_name(TableWriter::Kind::Text);
    case LeafType::Json: return TableWriter::kind_name(TableWriter::Kind::Json);
    default: return TableWriter::kind_name(TableWriter::Kind::Number);
  }
}

}  // namespace logscope::protobuf
