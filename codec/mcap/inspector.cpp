// The MCAP FormatInspector: opens the index, keeps the record list and the last decompressed
// chunk; the summary and the `mcap info` text come from summary.cpp.
#include "mcap/inspector.h"

#include <algorithm>

#include "mcap/inspector_impl.h"
#include "mcap/summary.h"
#include "mcap/walk.h"

namespace logscope::mcap {
namespace {

constexpr uint64_t kWalkPiece = 4u << 20;  // a planned range of a walk between indexed chunks

}  // namespace

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source) { return std::make_unique<McapInspector>(source); }

const FileModel* file_model(FormatInspector& inspector) {
  auto* mcap = dynamic_cast<McapInspector*>(&inspector);
  return mcap ? &mcap->model() : nullptr;
}

McapInspector::McapInspector(ByteSource& source) : source_(source) { open_file(source_, &model_, nullptr, false, kDeferChunkIndexesAbove); }

void McapInspector::read_whole_summary(const ProgressFn& progress) {
  if (!model_.chunk_indexes_deferred) return;
  FileModel whole;
  open_file(source_, &whole, progress);
  model_ = std::move(whole);
  // Nothing was made from the first model but these (every other user reads the whole first).
  records_.reset();
  chunk_cache_.reset();
  decoders_ = PayloadDecoders();
  filled_.clear();
}

Report McapInspector::summary() { return summary_report(model_); }

Report McapInspector::info_report(const ProgressFn& progress) {
  read_whole_summary(progress);
  return summary_report(model_);
}

std::string McapInspector::info_text(const InfoOptions& options) {
  (void)options;
  read_whole_summary();
  return mcap::info_text(model_);
}

const std::vector<RecordFrame>& McapInspector::records() {
  if (records_) return *records_;
  records_.emplace();
  std::vector<RecordFrame>& out = *records_;
  if (model_.header_end > model_.header_offset || model_.has_header)
    out.push_back(RecordFrame{model_.header_offset, kOpHeader, model_.header_end - model_.header_offset - kRecordPrefix});
  uint64_t end = model_.has_footer ? model_.footer_offset : model_.file_size;
  if (model_.top_records_known) {
    out.insert(out.end(), model_.top_records.begin(), model_.top_records.end());
    records_complete_ = model_.top_records_complete;
  } else if (model_.header_end > 0) {
    bool all = true;
    std::vector<RecordFrame> chunks = indexed_chunk_frames();
    std::vector<RecordFrame> listed = chunks.empty() ? list_records(source_, model_.header_end, end, &all) : records_from_index(chunks, end, &all);
    out.insert(out.end(), listed.begin(), listed.end());
    records_complete_ = all;
  }
  if (model_.has_footer) out.push_back(RecordFrame{model_.footer_offset, kOpFooter, kFooterContent});
  return out;
}

// The top-level records where the index places every chunk: each chunk and its MessageIndex
// records come from the ChunkIndex without a read (a 100 GB file by URL would take a round trip a
// chunk), and only what lies between them is walked: the schemas and channels before the first
// chunk, DataEnd and the summary after the last, a planned read at a time. Capped as a walk is.
std::vector<RecordFrame> McapInspector::records_from_index(const std::vector<RecordFrame>& chunks, uint64_t end, bool* all) {
  std::vector<RecordFrame> out;
  *all = true;
  auto room = [&] {
    if (out.size() < kMaxListedRecords) return true;
    *all = false;
    return false;
  };
  auto walk = [&](uint64_t from, uint64_t to) {
    if (from >= to || !room()) return;
    std::vector<ByteRange> pieces;  // a remote file fetches the region a window at a time
    for (uint64_t at = from; at < to; at += kWalkPiece) pieces.push_back({at, std::min(kWalkPiece, to - at)});
    PlannedReads planned(source_, std::move(pieces));
    bool listed = true;
    std::vector<RecordFrame> found = list_records(source_, from, to, &listed);
    size_t take = std::min(found.size(), kMaxListedRecords - out.size());
    out.insert(out.end(), found.begin(), found.begin() + static_cast<std::ptrdiff_t>(take));
    *all = *all && listed && take == found.size();
  };
  std::vector<MessageIndexPlace> places;
  uint64_t at = model_.header_end;
  for (size_t i = 0; i < chunks.size() && *all; ++i) {
    walk(at, chunks[i].offset);
    if (!room()) break;
    out.push_back(chunks[i]);
    at = chunks[i].end();
    if (!message_index_places(model_.chunks[i], &places)) continue;  // walked with the next gap
    for (const MessageIndexPlace& p : places) {
      if (!room()) break;
      out.push_back(p.frame);
      at = p.frame.end();
    }
  }
  if (*all) walk(at, end);
  return out;
}

std::string McapInspector::content(const RecordFrame& frame, uint64_t limit) {
  uint64_t n = std::min(frame.length, limit);
  if (frame.content_offset() >= source_.size()) return {};
  n = std::min(n, source_.size() - frame.content_offset());  // a length past the end allocates nothing
  // Read straight into the string: a chunk is copied once, not through a vector first.
  std::string bytes(static_cast<size_t>(n), '\0');
  bytes.resize(source_.read(frame.content_offset(), bytes.data(), bytes.size()));
  return bytes;
}

std::vector<RecordFrame> McapInspector::indexed_chunk_frames() const {
  std::vector<RecordFrame> out;
  if (model_.source != SummarySource::Index || model_.chunks.empty()) return out;
  uint64_t at = model_.header_end;
  for (const ChunkInfo& c : model_.chunks) {
    // Every chunk indexed, in file order, apart, within the file: else the walk decides.
    if (!c.index_offset || c.offset < at || c.length < kRecordPrefix || c.end() > model_.file_size) return {};
    out.push_back(RecordFrame{c.offset, kOpChunk, c.length - kRecordPrefix});
    at = c.end();
  }
  return out;
}

bool McapInspector::for_each_data_record(const std::vector<RecordFrame>& chunks, const std::function<bool(const RecordFrame&)>& fn) {
  if (chunks.empty()) {
    for (const RecordFrame& f : records())
      if (!fn(f)) return false;
    return true;
  }
  uint64_t data_end = model_.has_data_end ? model_.data_end_offset
                      : model_.footer.summary_start ? model_.footer.summary_start
                      : model_.has_footer ? model_.footer_offset : model_.file_size;
  // Walks [from, to): what lies between indexed chunks (nothing, in most files).
  auto walk = [&](uint64_t from, uint64_t to) {
    if (from >= to) return true;
    bool all = true;
    for (const RecordFrame& f : list_records(source_, from, to, &all))
      if (!fn(f)) return false;
    return true;
  };
  uint64_t at = model_.header_end;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (!walk(at, chunks[i].offset) || !fn(chunks[i])) return false;
    // Its MessageIndex records follow it (their length is in the index): nothing to deliver there.
    at = chunks[i].end() + model_.chunks[i].message_index_length;
  }
  return walk(at, std::max(at, data_end));
}

const LoadedChunk* McapInspector::chunk_at(size_t k, bool verify_lz4_checksum) {
  const std::vector<RecordFrame>& list = records();
  if (k >= list.size() || list[k].op != kOpChunk) return nullptr;
  return load_chunk(list[k], verify_lz4_checksum);
}

const LoadedChunk* McapInspector::load_chunk(const RecordFrame& frame, bool verify_lz4_checksum) {
  if (frame.op != kOpChunk) return nullptr;
  if (chunk_cache_ && chunk_cache_->offset == frame.offset) return chunk_cache_.get();
  // The previous chunk's buffers are reused (a pass over every chunk allocates them once).
  std::unique_ptr<LoadedChunk> loaded = chunk_cache_ ? std::move(chunk_cache_) : std::make_unique<LoadedChunk>();
  loaded->header = ChunkHeader();
  loaded->header_ok = false;
  loaded->data.status = DecompressStatus::Ok;
  loaded->data.error.clear();
  loaded->data.bytes.resize(0);
  loaded->inner.clear();
  loaded->error.clear();
  loaded->offset = frame.offset;
  if (frame.length > kMaxRecordView) {
    loaded->error = "the chunk is " + std::to_string(frame.length) + " bytes, more than this reader holds at once";
  } else {
    std::string& bytes = chunk_read_;
    uint64_t n = frame.content_offset() < source_.size() ? std::min(frame.length, source_.size() - frame.content_offset()) : 0;
    bytes.resize(static_cast<size_t>(n));
    bytes.resize(n ? source_.read(frame.content_offset(), bytes.data(), bytes.size()) : 0);
    std::string why;
    if (bytes.size() != frame.length) {
      loaded->error = "the chunk could not be read";
    } else if (!parse_chunk_header(bytes, &loaded->header, &why)) {
      loaded->error = why;
    } else {
      loaded->header_ok = true;
      decompress_chunk(loaded->header.compression,
                       std::string_view(bytes).substr(static_cast<size_t>(loaded->header.records_offset), static_cast<size_t>(loaded->header.records_size)),
                       loaded->header.uncompressed_size, &loaded->data, verify_lz4_checksum);
      if (loaded->data.status != DecompressStatus::Ok) {
        loaded->error = loaded->data.error;
      } else {
        uint64_t bad = 0;
        for_each_inner_record(loaded->bytes(), [&](const RecordFrame& inner, std::string_view) { loaded->inner.push_back(inner); }, &why, &bad);
        if (!why.empty()) loaded->error = "the records break off at byte " + std::to_string(bad) + ": " + why;
      }
    }
  }
  chunk_cache_ = std::move(loaded);
  return chunk_cache_.get();
}

}  // namespace logscope::mcap
