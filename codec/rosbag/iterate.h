// Messages in time order, across overlapping or unsorted chunks, in bounded memory: chunks come
// from the chunk pipeline (chunk_pipeline.h: read serially through the ByteSource, decompressed on
// every core), are merged by time, and released once their last message is delivered.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

struct MessageView {
  uint32_t conn = 0;
  const Connection* connection = nullptr;  // null when the bag has no record of it
  Time time;
  std::string_view data;  // valid only during the callback
  uint64_t record_offset = 0;  // V2.0: offset inside the decompressed chunk; V1.x: file offset
  uint64_t chunk_pos = 0;      // V2.0: the chunk's record offset; V1.x: 0
};

struct IterateOptions {
  std::vector<uint32_t> connections;  // empty = all
  uint64_t start_ns = 0;
  uint64_t end_ns = UINT64_MAX;  // inclusive
  unsigned threads = 0;          // 0 = all cores
  // Verify lz4 frame content checksums (XXH32) while iterating. Off by default: for a barely
  // compressible chunk it costs more than decoding; the doctor (check, checksum) always verifies.
  bool verify_checksums = false;
  // Messages to pass over before the first one delivered (paging). Chunks that lie wholly before
  // the page, and overlap no later chunk, are skipped by their ChunkInfo counts without being
  // read; the rest are skipped message by message.
  uint64_t skip = 0;
  // A sample (a plot of a big range): at most this many of the chunks that hold the selected
  // connections in the range, spread evenly over them in time order; 0: every chunk. V2.0 only.
  uint64_t max_chunks = 0;
  // False when the caller stops after a message or few: chunks are read one at a time (ChunkLoad).
  bool read_ahead = true;
};

struct IterateResult {
  uint64_t messages = 0;  // delivered
  uint64_t skipped = 0;   // passed over for `skip`
  uint64_t chunks_skipped = 0;  // ... of which whole chunks counted from the index, never read
  uint64_t chunks = 0;
  uint64_t chunks_in_range = 0;  // V2.0: chunks that hold what was asked (max_chunks reads fewer)
  uint64_t compressed_bytes = 0;
  uint64_t lz4_chunks_checked = 0;  // checksums verified (verify_checksums)
  uint64_t lz4_checksum_failures = 0;
  bool stopped = false;  // the callback returned false
  bool cancelled = false;
};

// Calls `fn` for each message in time order (ties: file order). Returns false from fn to stop.
// Problems met on the way (bad chunks) are appended to `problems`; reading continues past them.
IterateResult for_each_message(ByteSource& source, Bag& bag, const IterateOptions& options,
                               const std::function<bool(const MessageView&)>& fn, std::vector<Problem>* problems,
                               const ProgressFn& progress = nullptr);

}  // namespace logscope::rosbag
