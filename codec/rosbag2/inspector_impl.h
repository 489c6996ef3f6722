// The rosbag2 inspector's class: summary and info in inspector.cpp, check in doctor.cpp.
#pragma once

#include <set>

#include <memory>

#include "core/inspector.h"
#include "core/message_source.h"
#include "rosbag2/bag.h"
#include "rosbag2/decode.h"

namespace logscope::rosbag2 {

struct BagTotals;

// How for_each_selected reads rows. `by_time`: in time order through timestamp_idx (where the
// database has it), for a caller that stops after a few: it reads the index there and the rows
// it hands on, not every row before the range. `without_data`: ids, topics and times only
// (BagMessage::data null), from the rows' leaf cells, never their bodies in overflow pages.
struct RowSelection {
  bool by_time = false;
  bool without_data = false;
};

class Rosbag2Inspector : public FormatInspector, public MessageSourceOwner {
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
  // The messages for the views (message_source.cpp).
  MessageSource* message_source() override;

  Bag& bag() { return *bag_; }

  // Decoding, export, plots and the decoded query (decode.h; export.cpp).
  void set_message_definitions(std::shared_ptr<const cdr::TypeLibrary> definitions) override;
  ExportResult export_rows(const std::string& topic, const ExportRequest& request, ExportSink& sink, const ProgressFn& progress) override;
  TopicDecoders& decoders();
  void add_data_queries(std::vector<QuerySpec>& list);

 private:
  Report report_of(const BagTotals& totals);
  // The messages of `topics` (every topic when empty) in [t0, t1], in stored order, the first `skip`
  // of them passed over unread (select.cpp); false when cancelled. `error`: SQLite stopped midway.
  bool for_each_selected(const std::set<std::string>& topics, uint64_t t0, uint64_t t1, uint64_t skip, const ProgressFn& progress,
                         const std::function<bool(const BagMessage&)>& visit, std::string* error, RowSelection how = {});
  const Topic* find_topic(const std::string& name) const;
  Json decoded_query(QueryArgs& args, const ProgressFn& progress);
  Json columns_query(QueryArgs& args);
  Json plot_query(QueryArgs& args, const ProgressFn& progress);
  Json timeline_query(QueryArgs& args);
  Json definitions_query();

  std::unique_ptr<Folder> owned_;
  std::unique_ptr<Bag> bag_;
  std::shared_ptr<const cdr::TypeLibrary> supplied_;
  std::unique_ptr<TopicDecoders> decoders_;
  std::unique_ptr<MessageSource> message_source_;
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
