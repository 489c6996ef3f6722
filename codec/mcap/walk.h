// The front-to-back walk over MCAP records shared by the scan (reader.h) and the doctor: each
// top-level record with its content, each chunk's records decompressed, damage skipped to the
// next valid record where one can be found, and the first byte not read with the reason.
// Reads in large windows (core/sequential.h); memory stays bounded by the largest record viewed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"
#include "mcap/crc32.h"
#include "mcap/decompress.h"
#include "mcap/records.h"

namespace logscope::mcap {

// Records longer than this are handed on as their first kLargeRecordPrefix bytes only (`whole`
// false): a chunk that large is not decompressed, an attachment's CRC not computed.
constexpr uint64_t kMaxRecordView = 256ull << 20;
constexpr uint64_t kLargeRecordPrefix = 64u << 10;

class RecordHandler {
 public:
  virtual ~RecordHandler() = default;
  // Every top-level record in file order. `content` is all of it when `whole`, else its start.
  virtual void record(const RecordFrame& frame, std::string_view content, bool whole) = 0;
  // After record() for a Chunk whose header parsed: its records (empty unless status is Ok).
  virtual void chunk(const RecordFrame& frame, const ChunkHeader& header, const Decompressed& records) {
    (void)frame, (void)header, (void)records;
  }
  // Whether chunk() wants the records decompressed (the framing-only walks do not).
  virtual bool wants_chunk_records() const { return true; }
};

struct WalkResult {
  uint64_t end = 0;            // the first byte not read
  bool complete = false;       // reached the end of the range on a record boundary
  bool cancelled = false;
  std::string stop_reason;     // why it stopped early (a sentence)
  uint64_t records = 0;
  uint64_t skipped_bytes = 0;  // damaged stretches passed over
  // The CRC of [0, DataEnd) when `data_crc` was given and a DataEnd was met with every byte
  // before it seen (no skip); data_crc_offset is that DataEnd's offset.
  bool data_crc_known = false;
  uint32_t data_crc = 0;
  uint64_t data_crc_offset = 0;
};

// Walks [from, end) of `source`. `data_crc`, when given, must hold the CRC of [0, from) already;
// the handler may tell it the CRC of a range ahead (Crc32Stream::known) while it sees a record.
// Problems (cuts, damaged records, resynchronisations) go to `problems` with their offsets.
WalkResult walk_records(ByteSource& source, uint64_t from, uint64_t end, RecordHandler& handler, std::vector<Problem>* problems,
                        const ProgressFn& progress, Crc32Stream* data_crc = nullptr);

// One record to `handler`, as both walks hand it on: record(), then a whole Chunk's records
// decompressed into `chunk_records` (one buffer for the pass) and chunk().
void hand_on(RecordHandler& handler, const RecordFrame& frame, std::string_view content, bool whole, Decompressed* chunk_records);

// walk_records' loop over bytes pushed in file order (the page's stream of the file): the same
// records to the same handler, the same data section CRC, for a file that needs no
// resynchronisation. It stops at the first record it cannot frame (opcode 0, a length past the
// range or over kMaxRecordView, the range ending inside a prefix): the pulled walk, which skips
// damage and says why, then reads the file itself.
class PushedWalk {
 public:
  // `data_crc`, when given, must hold the CRC of [0, from) already.
  PushedWalk(uint64_t from, uint64_t end, RecordHandler& handler, Crc32Stream* data_crc);
  // The next bytes of the file (from `from` on, in order); bytes past `end` are ignored.
  void push(const uint8_t* data, size_t size);
  // Every record of the range was handed on, none stopped the walk.
  bool complete() const { return !stopped_ && position_ == end_; }
  const std::string& stop_reason() const { return stop_reason_; }
  // As walk_records answers for the same range (complete, records, the data section CRC).
  WalkResult result() const;

 private:
  void handle(const RecordFrame& frame, const uint8_t* record);

  uint64_t position_;  // the next record's prefix
  uint64_t received_;  // offset after the last pushed byte
  uint64_t end_;
  RecordHandler& handler_;
  Crc32Stream* data_crc_;
  bool stopped_ = false;
  std::string stop_reason_;
  WalkResult result_;
  std::vector<uint8_t> held_;  // a record that straddles pushes
  Decompressed chunk_records_;  // one buffer for every chunk of the pass
};

// The next offset in (after, end) where a valid record starts, with the record after it valid too
// (or reaching `end` exactly when `end_is_boundary`); `end` when there is none. Reads at most
// `limit` bytes of the file past `after`.
uint64_t find_next_record(ByteSource& source, uint64_t after, uint64_t end, bool end_is_boundary, uint64_t limit = UINT64_MAX);

// Calls fn(frame, content) for each record of a decompressed chunk (frame offsets are within the
// records). False with `why` and `*bad_offset` when a record runs past the end.
bool for_each_inner_record(std::string_view records, const std::function<void(const RecordFrame&, std::string_view)>& fn,
                           std::string* why, uint64_t* bad_offset);

}  // namespace logscope::mcap
