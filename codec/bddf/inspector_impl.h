// The BDDF FormatInspector. It hands each question to its piece: summary.h, checksum.h, doctor.h,
// queries.h, and the tree (child_count/children/locate/spans/decode: tree.cpp, tree.h) and the
// map (file_map.cpp) among its members.
#pragma once

#include <memory>
#include <string>

#include "bddf/doctor.h"
#include "bddf/model.h"
#include "bddf/queries.h"
#include "core/inspector.h"
#include "core/message_source.h"

namespace logscope::bddf {

class BddfInspector : public FormatInspector, public MessageSourceOwner {
 public:
  explicit BddfInspector(ByteSource& source);
  Report summary() override;
  Report check(const ProgressFn& progress) override;
  std::string info_text(const InfoOptions& options) override;
  Json checksum(const ProgressFn& progress) override;
  std::unique_ptr<ByteFeed> checksum_feed() override;
  std::unique_ptr<ByteFeed> check_feed() override { return doctor_feed(model_); }
  uint64_t child_count(const std::string& node_id) override;
  std::vector<TreeNode> children(const std::string& node_id, uint64_t first, uint64_t count) override;
  std::vector<std::string> locate(uint64_t offset) override;
  std::vector<Span> spans(uint64_t offset, uint64_t length) override;
  Json decode(const std::string& node_id) override;
  FileMap file_map(bool full_check, const ProgressFn& progress) override;
  // The format's queries, then the views' (views.h), which read the protobuf series by name.
  std::vector<QuerySpec> queries() override;
  void set_message_schemas(std::shared_ptr<const protobuf::Schemas> schemas) override { schemas_ = std::move(schemas); }
  // Export (operations.cpp).
  ExportResult export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                           const ProgressFn& progress) override;

  const FileModel& model() const { return model_; }
  // The protobuf series as topics for the views (message_source.cpp): decoded by name with the
  // schemas given, each with a note saying how to give them when there are none.
  MessageSource* message_source() override;

 private:
  ByteSource& source_;
  FileModel model_;
  std::shared_ptr<const protobuf::Schemas> schemas_;  // the user's, for protobuf payloads by name
  std::unique_ptr<MessageSource> message_source_;
};

}  // namespace logscope::bddf
