// Opening an MCAP file into its model (model.h), index first (reader.cpp): the magic and the
// Header, the Footer at the end, then the DataEnd record and the whole summary section in one
// read. A linear scan of the data section (scan.cpp) replaces the summary when there is none, it
// has no Statistics, or it is damaged; the model says which served and why. A file cut anywhere
// or never finalised is read up to its last complete record.
#pragma once

#include <string>
#include <string_view>

#include "core/byte_source.h"
#include "core/report.h"
#include "mcap/model.h"
#include "mcap/walk.h"

namespace logscope::mcap {

// The summary section is read in one piece up to this size; a larger one is scanned instead. A
// 1 TB MCAP of 1 MiB chunks has a 141 MB summary (a chunk index per chunk): at 64 MiB it was
// scanned, a terabyte read for what its summary says (bench:scale, 2026-12-04).
constexpr uint64_t kMaxSummaryRead = 512ull << 20;
// At most this many top-level records are kept for the tree (the walk reads them all).
constexpr size_t kMaxListedRecords = 1u << 20;

// The inspector opens a file without its summary's ChunkIndex group when that group is longer
// than this (a 10 GB file of 1 MiB chunks has 1.3 MiB of chunk indexes, a 100 GB one 13.5 MiB,
// which Chromium here took 0.3 s to fetch): the first use of the chunks reads the whole summary.
constexpr uint64_t kDeferChunkIndexesAbove = 4ull << 20;

// Never fails: damage is in model->problems, and whatever is complete is kept. `force_scan`
// scans even when the summary could serve (tests compare the two). With a summary whose
// ChunkIndex group is longer than `defer_chunk_indexes_above`, where its summary offsets place
// the groups, that group is not read (model->chunk_indexes_deferred): open the file again
// without the argument to read the whole summary.
void open_file(ByteSource& source, FileModel* model, const ProgressFn& progress = nullptr, bool force_scan = false,
               uint64_t defer_chunk_indexes_above = UINT64_MAX);

// Fills the model from a walk of the data section (and what follows it up to the footer):
// schemas, channels, chunks with their message counts, attachments, metadata, counts and times.
// `reason` is why the scan replaces the summary; `index_unusable` when that is damage (a recovery)
// rather than a file written without a summary or Statistics. Used by open_file when it must.
void scan_file(ByteSource& source, FileModel* model, const std::string& reason, bool index_unusable,
               const ProgressFn& progress = nullptr);

// The handler behind scan_file (the doctor extends it): builds the model's contents from the
// records it is handed. Inner records of chunks are counted; what cannot be parsed is reported.
class ScanBuilder : public RecordHandler {
 public:
  explicit ScanBuilder(FileModel& model) : model_(model) {}
  void record(const RecordFrame& frame, std::string_view content, bool whole) override;
  void chunk(const RecordFrame& frame, const ChunkHeader& header, const Decompressed& records) override;

  bool in_summary() const { return in_summary_; }
  // Every top-level record seen, up to kMaxListedRecords (listed_all() false beyond).
  const std::vector<RecordFrame>& records() const { return records_; }
  bool listed_all() const { return listed_all_; }

 protected:
  // Hooks for the doctor: called for every parsed schema, channel and message, in or out of a chunk.
  virtual void on_schema(const Schema& schema, uint64_t offset, bool in_chunk) { (void)schema, (void)offset, (void)in_chunk; }
  virtual void on_channel(const Channel& channel, uint64_t offset, bool in_chunk) { (void)channel, (void)offset, (void)in_chunk; }
  virtual void on_message(const MessageHeader& message, uint64_t offset, bool in_chunk) { (void)message, (void)offset, (void)in_chunk; }
  virtual void on_inner_other(const RecordFrame& inner, uint64_t chunk_offset) { (void)inner, (void)chunk_offset; }

  void add_schema(const Schema& schema, uint64_t offset, bool in_chunk);
  void add_channel(const Channel& channel, uint64_t offset, bool in_chunk);
  void count_message(const MessageHeader& message);

  // The chunk the walk is in or after: listed, or the one past the list's cap; null before any.
  ChunkInfo* current_chunk() {
    if (last_chunk_ == kOverflowChunk) return &overflow_;
    return last_chunk_ < model_.chunks.size() ? &model_.chunks[last_chunk_] : nullptr;
  }
  static constexpr uint64_t kOverflowChunk = UINT64_MAX - 1;

  FileModel& model_;
  ChunkInfo overflow_;
  bool in_summary_ = false;
  std::vector<RecordFrame> records_;
  bool listed_all_ = true;
  uint64_t last_chunk_ = UINT64_MAX;  // index into model_.chunks of the chunk the walk is after
};

// The top-level records of [from, end) by their framing alone (no content read), with damage
// skipped as the scan does: the tree's list when the index served. Capped at kMaxListedRecords.
std::vector<RecordFrame> list_records(ByteSource& source, uint64_t from, uint64_t end, bool* listed_all);

// A chunk's MessageIndex records as its ChunkIndex places them: each channel's offset, and their
// total length. The records lie end to end from the chunk's end, so each one's length is the
// distance to the next; false when the offsets and the length do not fit that (then only a read
// can tell). No byte is read.
struct MessageIndexPlace {
  uint16_t channel_id = 0;
  RecordFrame frame;
  uint64_t messages() const { return (frame.length - 6) / 16; }  // channel id, entries' length, 16 bytes each
};
bool message_index_places(const ChunkInfo& c, std::vector<MessageIndexPlace>* places);

}  // namespace logscope::mcap
