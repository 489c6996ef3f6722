// One V2.0 chunk: decompressed by core/decompress.h (none / bz2 / lz4 frame with its content
// checksum) into a buffer bounded by the declared size, and the list of records inside it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/decompress.h"
#include "rosbag/records.h"

namespace logscope::rosbag {

// Decompression is shared with other formats (core/decompress.h); its statuses carry codes
// without a format ("chunk.lz4_checksum"): with_bag_code() names them as the bag's problems.
using logscope::ByteBuffer;
using logscope::ChunkDecompressor;
using logscope::DecompressOffload;
using logscope::DecompressStatus;
using logscope::check_chunk_sizes;
using logscope::decompress_chunk;
using logscope::decompress_offload;
using logscope::kMaxChunkUncompressed;
using logscope::set_decompress_offload;
// "chunk.lz4_checksum" -> "rosbag.chunk.lz4_checksum"; a success or a code with its format kept.
DecompressStatus with_bag_code(DecompressStatus status);

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
