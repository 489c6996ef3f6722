// The inspector of a rosbag2 folder that stores MCAP (mcap_folder.h), shared by its two files:
// mcap_folder.cpp (opening, the merged summary and check, the tree, the timeline) and
// mcap_folder_data.cpp (export, plot, columns and the decoded pages across the splits).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/folder.h"
#include "core/inspector.h"
#include "core/message_source.h"
#include "rosbag2/metadata.h"

namespace logscope::rosbag2 {

struct TopicTotal {
  std::string type, encoding;
  uint64_t count = 0;
};

// Progress of one split's pass as the bag's: `before` bytes of the splits done, of `total`.
ProgressFn split_progress(const ProgressFn& progress, uint64_t before, uint64_t total);

class McapBagInspector : public FormatInspector, public MessageSourceOwner {
 public:
  explicit McapBagInspector(Folder& folder);

  Report summary() override;
  Report check(const ProgressFn& progress) override;
  std::string info_text(const InfoOptions& options) override;
  Json checksum(const ProgressFn& progress) override;

  // The tree: one node per split, the split's MCAP tree beneath ("s<i>" + "|" + its node id).
  uint64_t child_count(const std::string& node_id) override;
  std::vector<TreeNode> children(const std::string& node_id, uint64_t first, uint64_t count) override;
  std::vector<std::string> locate(uint64_t offset) override;
  std::vector<Span> spans(uint64_t offset, uint64_t length) override;
  Json decode(const std::string& node_id) override;
  FileMap file_map(bool full_check, const ProgressFn& progress) override;

  // A topic's rows from every split that holds it, in split order, as one table (mcap_folder_data.cpp).
  ExportResult export_rows(const std::string& topic, const ExportRequest& request, ExportSink& sink,
                           const ProgressFn& progress) override;
  std::vector<QuerySpec> queries() override;
  // The splits' messages for the views (mcap_folder_source.cpp).
  MessageSource* message_source() override;

 private:
  struct Split {
    std::string name;
    std::unique_ptr<ByteSource> source;
    std::unique_ptr<FormatInspector> inspector;
    // From its summary's channels table: messages per topic; a topic whose count the file does
    // not give (no statistics) is present with no count.
    std::map<std::string, std::optional<uint64_t>> topic_messages;
    std::optional<uint64_t> start_ns, end_ns;  // its messages' span
  };

  Split* route(const std::string& node_id, std::string* inner);
  Report merged(const std::vector<Report>& parts, bool checking);
  void merge_once();  // the splits' topics (topics_, Split::topic_messages) before a data query
  Json timeline(QueryArgs& args, const ProgressFn& progress);
  Json decoded(QueryArgs& args, const ProgressFn& progress);
  Json columns(QueryArgs& args, const ProgressFn& progress);
  Json plot(QueryArgs& args, const ProgressFn& progress);

  BagMetadata meta_;  // what the yaml says (empty without one)
  bool has_yaml_ = false;
  std::vector<Split> splits_;
  std::vector<Problem> problems_;
  std::map<std::string, TopicTotal> topics_;  // by name, from the last merge: the topics table's rows
  bool merged_ = false;
  std::unique_ptr<MessageSource> message_source_;
};

}  // namespace logscope::rosbag2
