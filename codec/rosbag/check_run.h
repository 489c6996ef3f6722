// One full check of a bag (the doctor, doctor.h), in steps: started, handed every chunk in file
// order (V2.0) or every message (V1.2), then finished into the report. run_doctor pulls the chunks
// through for_each_chunk; the check feed (chunk_feeds.cpp) cuts them out of the file pushed in by
// the page. Both go through these steps, so their reports are the same.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/report.h"
#include "rosbag/chunk_pipeline.h"
#include "rosbag/decode.h"
#include "rosbag/model.h"
#include "rosbag/msgdef.h"

namespace logscope::rosbag {

// What the lz4 frame checksums said.
struct ChecksumTally {
  uint64_t checked = 0;
  uint64_t failed = 0;
  uint64_t lz4_chunks = 0;
  bool cancelled = false;

  // A chunk of the walk, as loaded: its frame's verdict when it is an lz4 chunk.
  void count(const Chunk& c, const LoadedChunk& loaded) {
    if (c.compression != "lz4") return;
    ++lz4_chunks;
    if (loaded.status.checksum_verified) ++checked;
    else if (loaded.status.code == "rosbag.chunk.lz4_checksum") ++failed, ++checked;
  }
};
Json checksum_json(const ChecksumTally& tally, const Bag& bag);

class CheckRun {
 public:
  // The summary, then the connections' checks. `source` is read for IndexData records that did
  // not come along with their chunk.
  CheckRun(ByteSource& source, Bag& bag);
  // A V2.0 chunk as loaded (decompressed and indexed), in file order.
  void chunk(LoadedChunk& loaded);
  // A message validated against its connection's definition; `where` places it for the user.
  void validate(uint32_t conn, std::string_view data, uint64_t offset, const std::function<std::string()>& where);
  Report& report() { return report_; }
  // The checks over every chunk, the per-connection counts and the refreshed summary.
  Report finish(bool cancelled);

 private:
  struct Validation {
    bool ready = false;
    const MessageSchema* schema = nullptr;
    const Connection* connection = nullptr;
    uint64_t checked = 0, failed = 0;
    uint64_t first_offset = 0;
  };
  Validation& validation_of(uint32_t id);
  void add(Severity severity, uint64_t offset, std::string code, std::string message) {
    report_.add_problem(severity, offset, std::move(code), std::move(message));
  }

  ByteSource& source_;
  Bag& bag_;
  MessageDecoder decoder_;
  Report report_;
  ChecksumTally tally_;
  std::vector<Validation> validations_;
  std::map<uint32_t, Validation> sparse_;  // ids too large for the table
  uint64_t messages_validated_ = 0, messages_failed_ = 0;
  bool chunks_walked_ = false;
};

}  // namespace logscope::rosbag
