// The CARLA FormatInspector. Members are split over inspector.cpp (check, file_map), summary.cpp
// (summary) and tree.cpp (tree, spans, decode); it hands the rest to summary.h, doctor.h, tree.h
// and queries.h. Every answer starts from one forward scan, kept (scan()).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "carla/decode.h"
#include "carla/doctor.h"
#include "carla/model.h"
#include "carla/queries.h"
#include "carla/reader.h"
#include "carla/scanner.h"
#include "carla/walker.h"
#include "core/inspector.h"

namespace logscope::carla {

// Node ids: "header", "f<frame index>", "tail", "p<packet offset>", "r<packet offset>.<record index>".
class CarlaInspector : public FormatInspector {
 public:
  explicit CarlaInspector(ByteSource& source) : source_(source) {}

  Report summary() override;

  Report check(const ProgressFn& progress) override;
  std::unique_ptr<ByteFeed> check_feed() override;

  std::string info_text(const InfoOptions& options) override {
    const ScanResult& s = scan(nullptr);
    return file_info_text(source_, s, options.all);
  }

  Json checksum(const ProgressFn&) override { return checksum_json(); }

  // The scan pushed in by the page (scanner.h); null once a scan is kept.
  std::unique_ptr<ByteFeed> scan_feed() override {
    if (scan_ && !scan_->cancelled) return nullptr;
    return carla::scan_feed(source_, [this](ScanResult&& scanned) { scan_ = std::move(scanned); });
  }

  uint64_t child_count(const std::string& id) override;
  std::vector<TreeNode> children(const std::string& id, uint64_t first, uint64_t count) override;
  std::vector<std::string> locate(uint64_t offset) override;
  std::vector<Span> spans(uint64_t offset, uint64_t length) override;
  Json decode(const std::string& id) override;
  FileMap file_map(bool full_check, const ProgressFn& progress) override;
  std::vector<QuerySpec> queries() override {
    return query_table(source_, [this](const ProgressFn& progress) -> const ScanResult& { return scan(progress); });
  }
  // Export (operations.cpp).
  ExportResult export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                           const ProgressFn& progress) override;

 private:
  Json node_json(const std::string& id);  // decode() before it is typed
  const ScanResult& scan(const ProgressFn& progress) {
    if (!scan_ || scan_->cancelled) scan_ = scan_log(source_, progress);
    return *scan_;
  }

  ByteSource& source_;
  std::optional<ScanResult> scan_;
};

}  // namespace logscope::carla
