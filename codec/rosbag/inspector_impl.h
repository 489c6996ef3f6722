// The FormatInspector of ROS bags. Members are split over inspector.cpp (summary, info, stats,
// chunk cache, and the check and checksum handed to the doctor, doctor.h), tree.cpp (tree, spans),
// record_view.cpp (decode) and file_map.cpp (file_map); the query table is queries.h's.
#pragma once

#include <memory>
#include <optional>

#include "core/inspector.h"
#include "core/message_source.h"
#include "rosbag/chunk_pipeline.h"
#include "rosbag/decode.h"
#include "rosbag/message_source.h"
#include "rosbag/reader.h"
#include "rosbag/summary.h"

namespace logscope::rosbag {

class BagInspector : public FormatInspector, public MessageSourceOwner {
 public:
  BagInspector(ByteSource& source, Format format);

  Report summary() override;
  Report info_report(const ProgressFn& progress) override;
  // Every chunk header not read yet.
  std::vector<ByteRange> info_report_reads() override;
  Report check(const ProgressFn& progress) override;
  // A V2.0 bag's check with the file pushed in, unless its chunks are bz2 (doctor_feed).
  std::unique_ptr<ByteFeed> check_feed() override;
  std::string info_text(const InfoOptions& options) override;
  Json checksum(const ProgressFn& progress) override;
  // The lz4 frame checksums with the file pushed in (doctor.h).
  std::unique_ptr<ByteFeed> checksum_feed() override;

  uint64_t child_count(const std::string& node_id) override;
  std::vector<TreeNode> children(const std::string& node_id, uint64_t first, uint64_t count) override;
  std::vector<std::string> locate(uint64_t offset) override;
  std::vector<Span> spans(uint64_t offset, uint64_t length) override;
  Json decode(const std::string& node_id) override;
  FileMap file_map(bool full_check, const ProgressFn& progress) override;
  std::vector<QuerySpec> queries() override;
  MessageSource* message_source() override;
  // Export (operations.cpp).
  ExportResult export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                           const ProgressFn& progress) override;

  Bag& bag() { return bag_; }

 private:
  // From the index alone (no chunk header read).
  const BagStats& stats();
  // With the compression facts: reads every chunk header not read yet. Null when cancelled.
  const BagStats* full_stats(const ProgressFn& progress);
  // The decompressed chunk `index`, kept until another one is asked for.
  const LoadedChunk* cached_chunk(size_t index);
  // The index data records after chunk `index` (chunk_index_records) that the tree shows under
  // the chunk (the ones inside its node).
  std::vector<std::pair<uint64_t, uint64_t>> chunk_index_children(size_t index);
  uint64_t chunk_extent_end(size_t index);
  TreeNode chunk_node(size_t index);
  TreeNode record_node(const std::string& id, uint64_t offset);
  Json record_json(uint64_t offset);
  Json node_json(const std::string& id);  // decode() before it is typed
  const std::vector<size_t>& chunks_by_position();
  const std::vector<uint64_t>& top_records();

  ByteSource& source_;
  Bag bag_;
  std::optional<BagStats> stats_;  // recomputed once every chunk header is known
  std::unique_ptr<LoadedChunk> chunk_cache_;
  MessageDecoder decoder_;
  std::unique_ptr<BagMessageSource> message_source_;  // made on first use
  // Caches filled on first use; what they hold follows from the opened index alone.
  std::vector<size_t> chunk_order_;  // chunk indexes sorted by position, for offset lookups
  std::optional<std::vector<uint64_t>> v1_records_;  // indexed V1.2: message record offsets, sorted
};

}  // namespace logscope::rosbag
