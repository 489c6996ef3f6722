// The bag FormatInspector: opens the index, keeps the stats and the last decompressed chunk; the
// summary and `rosbag info` text come from summary.cpp, the tree from tree.cpp, the check and the
// checksum from the doctor (doctor.h), the query table from queries.cpp, the map from file_map.cpp.
#include "rosbag/inspector.h"

#include <algorithm>

#include "rosbag/doctor.h"
#include "rosbag/inspector_impl.h"
#include "rosbag/queries.h"
#include "views/views.h"

namespace logscope::rosbag {

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, Format format) {
  return std::make_unique<BagInspector>(source, format);
}

BagInspector::BagInspector(ByteSource& source, Format format) : source_(source) { open_bag(source_, format, &bag_); }

const BagStats& BagInspector::stats() {
  // Chunk headers may have become known since (an iteration, the doctor, the tree): use them.
  if (!stats_ || (!stats_->compression_read && std::all_of(bag_.chunks.begin(), bag_.chunks.end(), [](const Chunk& c) { return c.header_read; })))
    stats_ = compute_stats(source_, bag_, false, false);
  return *stats_;
}

const BagStats* BagInspector::full_stats(const ProgressFn& progress) {
  const BagStats& s = stats();
  if (s.compression_read) return &s;
  if (!read_chunk_headers(source_, &bag_, progress)) return nullptr;
  stats_ = compute_stats(source_, bag_, false, false);
  return &*stats_;
}

// Index-first: the version line, the bag header and one read of [index_pos, end) at open; no
// chunk is touched, so the compression facts are left out (details.compression_read = false).
Report BagInspector::summary() {
  Report report = summary_report(stats(), bag_);
  report.problems = bag_.problems;
  return report;
}

// The summary plus the compression facts (per-codec chunk counts, sizes, ratio), read from every
// chunk record header with progress. Cancelled: the summary as it stands.
Report BagInspector::info_report(const ProgressFn& progress) {
  const BagStats* s = full_stats(progress);
  Report report = summary_report(s ? *s : stats(), bag_);
  report.problems = bag_.problems;
  return report;
}

// A chunk record's start: its header length, the header (op, compression, size: 49 bytes with
// lz4 from rosbag's writers and ours) and its data length. A longer header is read past the range.
// 128, not more: a 100 GB bag's 155,000 headers are 19 MiB to fetch and hold, where 512 made 76.
constexpr uint64_t kChunkHeaderRead = 128;

// In file order, none running into the next chunk (small chunks lie closer than 128 bytes), one
// per position (a hostile index may name a position twice).
std::vector<ByteRange> BagInspector::info_report_reads() {
  std::vector<uint64_t> starts;
  for (const Chunk& chunk : bag_.chunks)
    if (!chunk.header_read && chunk.pos < source_.size()) starts.push_back(chunk.pos);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::vector<ByteRange> ranges;
  ranges.reserve(starts.size());
  for (size_t i = 0; i < starts.size(); ++i) {
    uint64_t end = i + 1 < starts.size() ? starts[i + 1] : source_.size();
    ranges.push_back({starts[i], std::min(kChunkHeaderRead, end - starts[i])});
  }
  return ranges;
}

std::string BagInspector::info_text(const InfoOptions& options) {
  // rosbag info prints rates whenever it has read the connection indexes: with --freq, and always
  // for an indexed V1.2 bag (its reader loads every index at open).
  if (options.freq || (bag_.version == 102 && bag_.indexed)) {
    BagStats with_rates = compute_stats(source_, bag_, true);
    return rosbag::info_text(with_rates, bag_, options.path);
  }
  // rosbag info prints the compression row: every chunk header is needed.
  return rosbag::info_text(*full_stats(nullptr), bag_, options.path);
}

Report BagInspector::check(const ProgressFn& progress) { return run_doctor(source_, bag_, progress); }
std::unique_ptr<ByteFeed> BagInspector::check_feed() { return doctor_feed(source_, bag_); }
Json BagInspector::checksum(const ProgressFn& progress) { return compute_checksum(source_, bag_, progress); }
std::unique_ptr<ByteFeed> BagInspector::checksum_feed() { return rosbag::checksum_feed(bag_); }

std::vector<QuerySpec> BagInspector::queries() {
  std::vector<QuerySpec> list = query_table(source_, bag_, decoder_);
  views::add_view_queries(list, message_source());
  return list;
}

MessageSource* BagInspector::message_source() {
  if (!message_source_) message_source_ = std::make_unique<BagMessageSource>(source_, bag_);
  return message_source_.get();
}

const LoadedChunk* BagInspector::cached_chunk(size_t index) {
  if (index >= bag_.chunks.size()) return nullptr;
  if (!chunk_cache_ || chunk_cache_->chunk_index != index) {
    read_chunk_header(source_, &bag_, index);
    chunk_cache_ = std::make_unique<LoadedChunk>();
    load_chunk(source_, bag_, index, chunk_cache_.get());
  }
  return chunk_cache_.get();
}

Bag* opened_bag(FormatInspector& inspector) {
  auto* bag = dynamic_cast<BagInspector*>(&inspector);
  return bag ? &bag->bag() : nullptr;
}

}  // namespace logscope::rosbag
