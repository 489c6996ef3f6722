// One V2.0 chunk: decompression (none / bz2 / lz4 frame with its content checksum) into a buffer
// bounded by the declared size, and the list of records inside it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rosbag/records.h"

namespace logscope::rosbag {

// A chunk larger than this is damage (writers close chunks at ~768 KB; `--chunksize` rarely exceeds
// a few MB); refusing it keeps a lying size field from allocating gigabytes.
constexpr uint32_t kMaxChunkUncompressed = 1024u * 1024 * 1024;

struct DecompressStatus {
  bool ok = false;
  std::string code;     // stable problem code when !ok (rosbag.chunk.lz4_checksum, ...)
  std::string message;  // a sentence for the user
  bool checksum_present = false;  // lz4 frame carries a content checksum
  bool checksum_verified = false;  // ... and it matched
};

// Decompresses one chunk's data into `out` (exactly `uncompressed_size` bytes on success).
DecompressStatus decompress_chunk(std::string_view compression, const uint8_t* data, size_t size,
                                  uint32_t uncompressed_size, std::vector<uint8_t>* out);

// A message inside a decompressed chunk; offsets are into the chunk's uncompressed bytes.
struct ChunkMessage {
  uint64_t time_ns = 0;
  uint32_t conn = 0;
  uint32_t record_offset = 0;
  uint32_t data_offset = 0;
  uint32_t data_len = 0;
};

struct ChunkConnectionRecord {
  uint32_t record_offset = 0;
  uint32_t conn = 0;
};

// The records found in a decompressed chunk. Parsing stops at the first malformed record
// (`complete` false; `stop_offset`/`stop_reason` say where and why).
struct ChunkRecords {
  std::vector<ChunkMessage> messages;  // in record order
  std::vector<ChunkConnectionRecord> connections;
  uint32_t other_records = 0;
  bool complete = true;
  uint32_t stop_offset = 0;
  std::string stop_reason;
};

// `keep` filters messages by connection id (null = keep all).
void index_chunk_records(const uint8_t* data, size_t size, ChunkRecords* out, const std::vector<bool>* keep = nullptr);

}  // namespace logscope::rosbag
