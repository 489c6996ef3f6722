// The BDDF FormatInspector and the pieces it is made of (one file each: summary, checksum,
// doctor, text, tree (child_count/children/locate/spans/decode), decode, queries, file_map).
#pragma once

#include <memory>
#include <string>

#include "bddf/model.h"
#include "core/inspector.h"

namespace logscope::bddf {

// summary.cpp
Report build_summary(const FileModel& model);
Json series_json(const Series& series);
Json block_entry_json(const Series& series, size_t entry);
Json recovery_json(const Recovery& recovery);
double series_rate_hz(const Series& series);   // blocks (messages) or samples per second; 0 if unknown
uint64_t pod_sample_count(const Series& series);

// checksum.cpp
Json compute_checksum(ByteSource& source, const FileModel& model, const ProgressFn& progress);

// doctor.cpp: walks every block and checks it against the index; adds problems to `report`.
void run_doctor(ByteSource& source, const FileModel& model, Report& report, const ProgressFn& progress);
// The same check with the file's bytes pushed in (FormatInspector::check_feed); null when the
// check reads nothing (no index to hold against the blocks, no checksum).
std::unique_ptr<ByteFeed> doctor_feed(const FileModel& model);

// text.cpp
std::string render_info_text(const FileModel& model, const InfoOptions& options);

// decode.cpp: one block as JSON (descriptor, payload decoded); `max_items` caps samples/fields.
Json decode_block(ByteSource& source, const FileModel& model, uint64_t offset, size_t max_items);
// The units of decode_block's answer, and of decode()'s (which adds the node's kind and part).
ResultUnits block_units();
Json decode_pod(const Series& series, const std::vector<uint8_t>& bytes, uint64_t payload_size, size_t max_items);

// queries.cpp: the query table (blocks, extract, block).
constexpr size_t kDecodeItems = 500;  // samples / protobuf fields shown by decode() and the block query
std::vector<QuerySpec> query_table(ByteSource& source, const FileModel& model);

class BddfInspector : public FormatInspector {
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
  std::vector<QuerySpec> queries() override { return query_table(source_, model_); }

  const FileModel& model() const { return model_; }

 private:
  ByteSource& source_;
  FileModel model_;
};

}  // namespace logscope::bddf
