// The rosbag2 inspector's class: summary and info in inspector.cpp, check in doctor.cpp.
#pragma once

#include <memory>

#include "core/inspector.h"
#include "rosbag2/bag.h"

namespace logscope::rosbag2 {

struct BagTotals;

class Rosbag2Inspector : public FormatInspector {
 public:
  Rosbag2Inspector(Folder& folder, std::unique_ptr<Folder> owned);

  Report summary() override;
  // The summary with exact per-topic counts where summary() took metadata.yaml's (its `later`).
  Report info_report(const ProgressFn& progress) override;
  Report check(const ProgressFn& progress) override;
  std::string info_text(const InfoOptions& options) override;
  Json checksum(const ProgressFn& progress) override;
  uint64_t child_count(const std::string& node_id) override;
  std::vector<TreeNode> children(const std::string& node_id, uint64_t first, uint64_t count) override;
  std::vector<std::string> locate(uint64_t offset) override;
  std::vector<Span> spans(uint64_t offset, uint64_t length) override;
  Json decode(const std::string& node_id) override;
  FileMap file_map(bool full_check, const ProgressFn& progress) override;
  std::vector<QuerySpec> queries() override;

  Bag& bag() { return *bag_; }

 private:
  Report report_of(const BagTotals& totals);
  std::unique_ptr<Folder> owned_;
  std::unique_ptr<Bag> bag_;
};

// One row of the topic table: the databases' counts merged by topic name, or the yaml's for
// files that cannot be read (a .db3.zstd).
struct TopicRow {
  std::string name, type, serialization_format;
  uint64_t count = 0;
  std::optional<int64_t> first_ns, last_ns;
};
struct BagTotals {
  std::vector<TopicRow> topics;
  uint64_t messages = 0;
  std::optional<int64_t> start_ns, end_ns;
  bool from_yaml = false;  // no database could be read: the yaml's numbers
};
// Exact: reads the per-topic stats on first use.
BagTotals bag_totals(const Bag& bag);
// The summary's: see inspector.cpp.
BagTotals first_view_totals(Bag& bag, bool* counts_from_yaml);

}  // namespace logscope::rosbag2
