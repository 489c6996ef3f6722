// A ROS 2 message type as the export's flat columns (`header.stamp.sec`, `pose.position.x`,
// `covariance[0]`), the same rules as the ROS 1 bag's (rosbag/flatten.h, docs/export.md): a
// fixed array of at most kExportArrayColumns elements is spread over `name[i]` columns, any other
// array is one column holding a JSON array. Columns depend on the definition only.
#pragma once

#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "cdr/schema.h"
#include "core/export.h"

namespace logscope::cdr {

class FlatLayout {
 public:
  explicit FlatLayout(const Schema& schema);

  static constexpr size_t kMaxFieldColumns = 4096;  // a spread array's columns at most
  static constexpr size_t kMaxColumns = 100000;     // a wider definition is refused
  bool too_wide() const { return too_wide_; }

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::string>& json_columns() const { return json_columns_; }
  const std::vector<TableWriter::Kind>& kinds() const { return kinds_; }

  // One cell per column for the message `data` (its encapsulation header included). False with
  // `error` when the bytes do not fit the definition; the half-written row must then be dropped.
  bool write_row(const uint8_t* data, size_t size, TableWriter& out, std::string* error) const;

 private:
  void add_fields(const MessageType& type, const std::string& prefix, int depth);
  void add_value(const Field& field, const std::string& name, int depth);
  size_t width(const Field& field, int depth) const;  // columns of one element

  const Schema& schema_;
  std::vector<std::string> columns_;
  std::vector<std::string> json_columns_;
  std::vector<TableWriter::Kind> kinds_;
  std::unordered_set<const Field*> spread_;
  // width() of a message type at a depth, computed once: a type holding itself twice would
  // otherwise cost 2^depth calls.
  mutable std::map<std::pair<const MessageType*, int>, size_t> widths_;
  size_t steps_ = 0;
  bool too_wide_ = false;
};

}  // namespace logscope::cdr
