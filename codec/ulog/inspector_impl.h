// The FormatInspector of ULog files. Members are split over inspector.cpp (summary, info, check,
// the message walk from a checkpoint), tree.cpp (tree, locate, spans, decode), queries.cpp (the
// query table), plot_queries.cpp (columns, plot), operations.cpp (export) and file_map.cpp.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/inspector.h"
#include "ulog/model.h"
#include "ulog/reader.h"

namespace logscope::ulog {

class UlogInspector : public FormatInspector {
 public:
  explicit UlogInspector(ByteSource& source);

  Report summary() override;
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
  ExportResult export_rows(const std::string& topic, const ExportRequest& request, ExportSink& sink, const ProgressFn& progress) override;

  const FileModel& model() const { return model_; }

 private:
  // Messages from message number `first` on (over every section, in file order), from the
  // checkpoint before it: `fn` gets each with its number and returns false to stop.
  using MessageFn = std::function<bool(uint64_t index, const RawMessage& msg)>;
  void walk_from(uint64_t first, const MessageFn& fn);
  // The number of the message holding `offset`, if one does.
  std::optional<uint64_t> message_at(uint64_t offset);
  TreeNode message_node(uint64_t index, const RawMessage& msg);
  // The subscription a data message with `msg_id` at `offset` belongs to (the latest one declared before it).
  const Subscription* subscription_for(uint16_t msg_id, uint64_t offset) const;
  Json message_json(const RawMessage& msg);
  // A source name "topic" or "topic:multi_id" (multi_id 0 by default): false with `error`.
  bool parse_source(const std::string& source, std::string* topic, uint8_t* multi_id, std::string* error) const;

  Json params_query(QueryArgs& args);
  Json messages_query(QueryArgs& args);
  Json info_multiple_query(QueryArgs& args);
  Json timeline_query(QueryArgs& args);
  Json decoded_query(QueryArgs& args, const ProgressFn& progress);
  Json gps_track_query(QueryArgs& args, const ProgressFn& progress);
  Json columns_query(QueryArgs& args);
  Json plot_query(QueryArgs& args, const ProgressFn& progress);

  ByteSource& source_;
  FileModel model_;
};

}  // namespace logscope::ulog
