// The CARLA FormatInspector. Members are split over inspector.cpp (check, file_map), summary.cpp
// (summary, base_report), tree.cpp (tree, spans, decode and the packet helpers behind them) and
// queries.cpp (the query table). Every answer starts from one forward scan, kept (scan()).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "carla/decode.h"
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

  Json checksum(const ProgressFn&) override {
    Json j = Json::object();
    j["status"] = "not_applicable";
    j["message"] = "CARLA recorder logs carry no checksum";
    return j;
  }

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
  std::vector<QuerySpec> queries() override;

 private:
  Json node_json(const std::string& id);  // decode() before it is typed
  const ScanResult& scan(const ProgressFn& progress) {
    if (!scan_ || scan_->cancelled) scan_ = scan_log(source_, progress);
    return *scan_;
  }
  Report base_report(const ScanResult& s);
  // The check's report from the scan's and the second pass's findings.
  Report finish_check(Report report, std::vector<Problem> problems, bool cancelled);
  std::vector<PacketRef> frame_packets(uint64_t begin, uint64_t end, uint64_t first, uint64_t count);
  std::optional<PacketRef> packet_at(uint64_t offset);
  bool decode_at(const PacketRef& packet, DecodedPacket* out);
  TreeNode packet_node(const PacketRef& packet);
  size_t frame_containing(uint64_t offset) const;  // index, or frames.size()

  ByteSource& source_;
  std::optional<ScanResult> scan_;
};

}  // namespace logscope::carla
