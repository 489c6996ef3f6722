// The MCAP doctor (doctor.cpp, doctor_index.cpp): one walk of every record with the checks of
// `mcap doctor` and every CRC, problems with byte offsets and stable codes (docs/mcap.md).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/inspector.h"
#include "core/json.h"
#include "core/report.h"
#include "mcap/model.h"
#include "mcap/reader.h"
#include "mcap/walk.h"

namespace logscope::mcap {

// How many stored CRCs of each kind there were, how many were checked and how many matched.
struct CrcTally {
  uint64_t total = 0;     // records that carry the field
  uint64_t present = 0;   // non-zero (0 means "not computed" in MCAP)
  uint64_t checked = 0;   // present and verified (an unreadable chunk cannot be checked)
  uint64_t mismatched = 0;
};

struct CheckResult {
  Report report;
  bool cancelled = false;
  CrcTally chunks, attachments;
  // The data section CRC: stored (0 = absent), whether it could be computed, and its value.
  bool data_crc_stored_known = false;  // a DataEnd was found
  uint32_t data_crc_stored = 0;
  bool data_crc_computed_known = false;
  uint32_t data_crc_computed = 0;
  std::string data_crc_why;  // why it could not be computed
  // The summary CRC from the footer.
  uint32_t summary_crc_stored = 0;
  bool summary_crc_computed_known = false;
  uint32_t summary_crc_computed = 0;
};

// Walks the whole file and checks it against itself and against `model` (the opened index).
CheckResult run_doctor(ByteSource& source, const FileModel& model, const ProgressFn& progress);

// run_doctor in two halves around its walk, for a walk that is pulled (walk_records) or pushed
// (PushedWalk, doctor_feed.cpp). `source` is read for the few bytes around the walk (the header's
// and the summary's CRCs); `model` must outlive the pass.
class DoctorPass {
 public:
  DoctorPass(ByteSource& source, const FileModel& model);
  ~DoctorPass();
  bool walks() const;  // false without a Header: finish(WalkResult{}) answers at once
  uint64_t from() const;
  uint64_t end() const;
  RecordHandler& handler();
  std::vector<Problem>* problems();
  Crc32Stream* data_crc();  // null when the data section CRC cannot be computed (line endings damaged)
  CheckResult finish(const WalkResult& walk);  // once

 private:
  struct State;
  const FileModel& model_;
  std::unique_ptr<State> state_;
};

// check()'s report from a finished pass: the CRC tallies in its details and the chunk_crcs fact.
Report check_report(CheckResult result);

// The check (`checksum` false: check()'s report JSON) or the checksum (checksum()'s JSON) with
// the file pushed in (FormatInspector::check_feed, checksum_feed); null without a Header. A
// file the pushed walk cannot frame makes the feed incomplete: the caller then pulls the check.
std::unique_ptr<ByteFeed> doctor_feed(ByteSource& source, const FileModel& model, bool checksum);

// {"status": "valid"|"mismatch"|"none"|"cancelled", "message", "data_section_crc": {...},
//  "summary_crc": {...}, "chunk_crcs": {...}, "attachment_crcs": {...}} from a check's tallies.
Json checksum_json(const CheckResult& result);

// The index checks (doctor_index.cpp): what the summary says against what the walk found.
struct WalkFindings {
  // Chunks as the walk found them, with the MessageIndex records that follow each.
  struct Chunk {
    ChunkInfo info;
    bool header_ok = false;
    std::vector<RecordFrame> message_indexes;  // the run of MessageIndex records after it
    std::vector<uint16_t> index_channels;      // their channel ids, in the same order
  };
  std::vector<Chunk> chunks;
  std::vector<std::pair<uint64_t, ChunkIndex>> chunk_indexes;  // (record offset, record)
  std::vector<std::pair<uint64_t, AttachmentIndex>> attachment_indexes;
  std::vector<std::pair<uint64_t, MetadataIndex>> metadata_indexes;
  std::map<uint64_t, uint64_t> attachments;  // offset -> record length, as found
  std::map<uint64_t, uint64_t> metadata;     // offset -> record length
  // A schema as compared: its data by size and CRC, so 65,535 large schemas are not all kept.
  struct SchemaDigest {
    std::string name, encoding;
    uint64_t size = 0;
    uint32_t crc = 0;
    bool operator!=(const SchemaDigest& o) const { return name != o.name || encoding != o.encoding || size != o.size || crc != o.crc; }
  };
  std::map<uint16_t, SchemaDigest> summary_schemas;
  std::map<uint16_t, Channel> summary_channels;
  std::map<uint16_t, uint64_t> summary_schema_at, summary_channel_at;
  std::map<uint16_t, SchemaDigest> data_schemas;
  std::map<uint16_t, Channel> data_channels;
  std::vector<RecordFrame> summary_frames;   // after DataEnd, in file order
  uint64_t summary_begin = 0;                // the first byte after DataEnd (0: no DataEnd)
};
void check_index(const FileModel& seen, const FileModel& opened, const WalkFindings& found, std::vector<Problem>* problems);

}  // namespace logscope::mcap
