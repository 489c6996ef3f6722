// Undoing a line-ending conversion (docs/mcap.md, "Line endings"): a text-mode transfer or git
// autocrlf turned every "\r\n" into "\n", which shortens the magic and removes one byte at every
// such pair anywhere in the file. Every lost byte was a "\r" directly before a "\n", so the
// candidates are the "\n"s of the damaged file. Each record's declared length says how many bytes
// it lost (the next record must start where the length ends); which of its "\n"s lost them is
// searched, depth first, with the record's own structure fed step by step to a validator
// (line_ending_steps.h: a chunk's header fields, its zstd frame through libzstd's buffer-less
// API, its lz4 frame block by block through liblz4, an uncompressed chunk's records by their
// lengths) so that a wrong early choice fails early; the chunk's CRC and the frames' checksums
// decide at the end. The search is capped; a record several restorations fit without a checksum
// to tell them apart is ambiguous, and one the search could not settle unresolved: both keep the
// file's framing (their count of "\r"s goes back, at arbitrary "\n"s) but not their content.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"

namespace logscope::mcap {

struct LineEndingLimits {
  uint64_t record_trials = 20000;      // candidate steps fed to a validator for one record
  uint64_t record_bytes = 256ull << 20;  // bytes fed to validators for one record (and at most 4 MiB + 1024 x its length)
  uint64_t file_trials = 200000;       // over the whole file
  uint64_t file_bytes = 4ull << 30;    // over the whole file
  uint64_t max_record = 64ull << 20;   // a larger record is not searched (its framing still is)
  uint64_t max_listed = 200;           // records listed one by one; more are counted
};

enum class RestoreOutcome { Restored, Ambiguous, Unresolved };

// A record that lost bytes, as found.
struct DamagedRecord {
  uint64_t offset = 0;           // in the damaged file
  uint64_t restored_offset = 0;  // in the restored file (the original's offset)
  uint8_t op = 0;
  uint64_t length = 0;           // the record's content length, as declared
  uint64_t bytes_lost = 0;
  RestoreOutcome outcome = RestoreOutcome::Restored;
  std::string how;               // what decided (Restored), or why not
  std::vector<uint64_t> inserts;  // damaged offsets of its "\n"s that get their "\r" back (at most 16 kept)
};

struct LineEndingRestoration {
  std::vector<uint64_t> inserts;          // damaged offsets before which a "\r" goes back, ascending
  std::vector<DamagedRecord> records;     // the records that lost bytes (the first max_listed)
  uint64_t damaged_records = 0;           // all of them
  uint64_t restored = 0, ambiguous = 0, unresolved = 0;
  bool complete = false;                  // framed record by record up to the closing magic (or the end)
  uint64_t framed_to = 0;                 // the damaged offset where the framing stopped
  std::string stop_reason;                // why it stopped before the end
  bool cancelled = false;
  uint64_t trials = 0;                    // candidate steps fed, over the file
  uint64_t bytes_fed = 0;                 // their bytes
};

// Frames the damaged file record by record from its shortened magic and searches each record that
// lost bytes. Reads the file once, front to back, in windows of 8 MiB (a record up to max_record).
LineEndingRestoration restore_line_endings(ByteSource& damaged, const LineEndingLimits& limits = LineEndingLimits(),
                                           const ProgressFn& progress = nullptr);

// The problems check() reports for a restoration: mcap.crlf.bytes_lost (each record that lost
// bytes, and whether repair puts them back), mcap.crlf.ambiguous, mcap.crlf.unresolved,
// mcap.crlf.unframed.
void line_ending_problems(const LineEndingRestoration& restoration, std::vector<Problem>* problems);

// The damaged file with the restoration's "\r"s back: what the original file was, where every
// record was restored.
class RestoredSource : public ByteSource {
 public:
  RestoredSource(ByteSource& damaged, std::vector<uint64_t> inserts);
  uint64_t size() const override { return damaged_.size() + inserts_.size(); }
  size_t read(uint64_t offset, void* destination, size_t length) override;
  // Where the damaged file's byte `offset` is in the restored one.
  uint64_t restored_offset(uint64_t damaged_offset) const;

 private:
  ByteSource& damaged_;
  std::vector<uint64_t> inserts_;
};

}  // namespace logscope::mcap
