// A ROS message type as flat columns (`header.stamp.secs`, `pose.position.x`, `covariance[0]`) and
// the writer of one serialized message as one row of them. The columns depend on the definition
// only, never on the data, so every row of a topic has the same columns (docs/export.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/export.h"
#include "rosbag/msgdef.h"

namespace logscope::rosbag {

class FlatLayout {
 public:
  // Columns of `schema`'s root type. A fixed-length array of at most kExportArrayColumns elements
  // (and at most kMaxFieldColumns columns in all) is spread over columns `name[i]`; any other
  // array is one column holding a JSON array.
  explicit FlatLayout(const MessageSchema& schema);

  static constexpr size_t kMaxFieldColumns = 4096;
  // A definition that flattens to more columns is refused (a hostile one could ask for millions),
  // as is one whose layout takes more than 4 times as many steps (a type made only of itself).
  static constexpr size_t kMaxColumns = 100000;
  bool too_wide() const { return too_wide_; }

  const std::vector<std::string>& columns() const { return columns_; }
  // The columns written as one JSON cell.
  const std::vector<std::string>& json_columns() const { return json_columns_; }
  // What each column holds (Number, Bool, Text or Json), by the definition: what a plot may draw.
  const std::vector<TableWriter::Kind>& kinds() const { return kinds_; }

  // Adds one cell per column for the message in `data`. The message must have passed
  // MessageSchema::validate(); false with `error` if it still does not fit (never reads past `size`).
  bool write_row(const uint8_t* data, size_t size, TableWriter& out, std::string* error) const;

 private:
  void add_fields(const MessageSpec& spec, const std::string& prefix, int depth);
  void add_value(const FieldSpec& field, const std::string& name, int depth);
  size_t columns_of(const FieldSpec& field, int depth) const;  // as a scalar (not an array)

  const MessageSchema& schema_;
  std::vector<std::string> columns_;
  std::vector<std::string> json_columns_;
  std::vector<TableWriter::Kind> kinds_;  // per column
  std::unordered_set<const FieldSpec*> spread_;  // fixed arrays spread over columns
  // columns_of() of a message type at a depth, computed once: a type that holds itself would
  // otherwise cost fields^depth calls.
  mutable std::map<std::pair<const MessageSpec*, int>, size_t> widths_;
  bool too_wide_ = false;
  // Fields visited while laying out: a type made only of itself adds no column, so the column
  // count alone would not stop its walk.
  size_t steps_ = 0;
};

}  // namespace logscope::rosbag
