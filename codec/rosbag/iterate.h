// Messages in time order, across overlapping or unsorted chunks, in bounded memory: chunks are read
// serially through the ByteSource, decompressed on every core, merged by time, and released once
// their last message is delivered.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"
#include "rosbag/bag.h"
#include "rosbag/chunk.h"

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
};

struct IterateResult {
  uint64_t messages = 0;
  uint64_t chunks = 0;
  uint64_t compressed_bytes = 0;
  uint64_t lz4_chunks_checked = 0;
  uint64_t lz4_checksum_failures = 0;
  bool stopped = false;  // the callback returned false
  bool cancelled = false;
};

// A decompressed chunk and its messages sorted by time.
struct LoadedChunk {
  size_t chunk_index = 0;
  std::vector<uint8_t> bytes;
  ChunkRecords records;
  DecompressStatus status;
  bool read_ok = true;
};

// Reads and decompresses one chunk (the bag's chunk headers must have been read).
void load_chunk(ByteSource& source, const Bag& bag, size_t chunk_index, LoadedChunk* out, const std::vector<bool>* keep = nullptr);

// Decompresses every chunk in file order (in parallel batches) and hands each to `fn` in order;
// the doctor's walk. Returns false when cancelled.
bool for_each_chunk(ByteSource& source, Bag& bag, const std::function<void(LoadedChunk&)>& fn, const ProgressFn& progress,
                    unsigned threads = 0);

// Calls `fn` for each message in time order (ties: file order). Returns false from fn to stop.
// Problems met on the way (bad chunks) are appended to `problems`; reading continues past them.
IterateResult for_each_message(ByteSource& source, Bag& bag, const IterateOptions& options,
                               const std::function<bool(const MessageView&)>& fn, std::vector<Problem>* problems,
                               const ProgressFn& progress = nullptr);

}  // namespace logscope::rosbag
