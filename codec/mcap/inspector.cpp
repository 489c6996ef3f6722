// The MCAP FormatInspector: opens the index, keeps the record list and the last decompressed
// chunk; the summary and the `mcap info` text come from summary.cpp.
#include "mcap/inspector.h"

#include <algorithm>

#include "mcap/inspector_impl.h"
#include "mcap/summary.h"
#include "mcap/walk.h"

namespace logscope::mcap {

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
    std::vector<RecordFrame> listed = list_records(source_, model_.header_end, end, &all);
    out.insert(out.end(), listed.begin(), listed.end());
    records_complete_ = all;
  }
  if (model_.has_footer) out.push_back(RecordFrame{model_.footer_offset, kOpFooter, kFooterContent});
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

const LoadedChunk* McapInspector::chunk_at(size_t k, bool verify_lz4_checksum) {
  const std::vector<RecordFrame>& list = records();
  if (k >= list.size() || list[k].op != kOpChunk) return nullptr;
  if (chunk_cache_ && chunk_cache_->record == k) return chunk_cache_.get();
  // The previous chunk's buffers are reused (a pass over every chunk allocates them once).
  std::unique_ptr<LoadedChunk> loaded = chunk_cache_ ? std::move(chunk_cache_) : std::make_unique<LoadedChunk>();
  loaded->header = ChunkHeader();
  loaded->header_ok = false;
  loaded->data.status = DecompressStatus::Ok;
  loaded->data.error.clear();
  loaded->data.bytes.resize(0);
  loaded->inner.clear();
  loaded->error.clear();
  loaded->record = k;
  loaded->offset = list[k].offset;
  if (list[k].length > kMaxRecordView) {
    loaded->error = "the chunk is " + std::to_string(list[k].length) + " bytes, more than this reader holds at once";
  } else {
    std::string& bytes = chunk_read_;
    uint64_t n = list[k].content_offset() < source_.size() ? std::min(list[k].length, source_.size() - list[k].content_offset()) : 0;
    bytes.resize(static_cast<size_t>(n));
    bytes.resize(n ? source_.read(list[k].content_offset(), bytes.data(), bytes.size()) : 0);
    std::string why;
    if (bytes.size() != list[k].length) {
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
