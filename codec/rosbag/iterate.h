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
#include "rosbag/model.h"
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
  // Verify lz4 frame content checksums (XXH32) while iterating. Off by default: for a barely
  // compressible chunk it costs more than decoding; the doctor (check, checksum) always verifies.
  bool verify_checksums = false;
  // Messages to pass over before the first one delivered (paging). Chunks that lie wholly before
  // the page, and overlap no later chunk, are skipped by their ChunkInfo counts without being
  // read; the rest are skipped message by message.
  uint64_t skip = 0;
};

struct IterateResult {
  uint64_t messages = 0;  // delivered
  uint64_t skipped = 0;   // passed over for `skip`
  uint64_t chunks_skipped = 0;  // ... of which whole chunks counted from the index, never read
  uint64_t chunks = 0;
  uint64_t compressed_bytes = 0;
  uint64_t lz4_chunks_checked = 0;  // checksums verified (verify_checksums)
  uint64_t lz4_checksum_failures = 0;
  bool stopped = false;  // the callback returned false
  bool cancelled = false;
};

// A decompressed chunk and its messages (sorted by time for iteration; in record order for the
// doctor). Its bytes are owned by the chunk: a reused buffer for compressed chunks, the shared
// read buffer for uncompressed ones (no copy).
struct LoadedChunk {
  size_t chunk_index = 0;
  const uint8_t* data = nullptr;  // the chunk's records, uncompressed
  size_t size = 0;
  ChunkRecords records;
  DecompressStatus status;
  bool read_ok = true;
  std::string read_error;  // why read_ok is false ("" for an encrypted bag)
  std::string read_code = "rosbag.chunk.unreadable";  // or rosbag.chunk_info.bad_pos
  // The chunk record header as found in the bytes.
  bool header_ok = false;
  std::string compression;
  uint32_t uncompressed_size = 0;
  uint32_t compressed_size = 0;
  uint32_t header_len = 0;
  // The bytes that followed the chunk record in the same read (its IndexData records), if any.
  const uint8_t* trailer = nullptr;
  size_t trailer_size = 0;
  uint64_t trailer_offset = 0;
  bool trailer_complete = false;  // the trailer runs to the next chunk (or index_pos)

  std::string_view message_data(const ChunkMessage& m) const {
    return std::string_view(reinterpret_cast<const char*>(data + m.data_offset), m.data_len);
  }

  ByteBuffer buffer;                                // decompressed bytes of a compressed chunk
  std::shared_ptr<const ByteBuffer> raw;            // the read this chunk came from
  bool span_short = false;                          // the record did not fit the grouped read
};

// What the doctor's walk loads of each chunk: its records (the check), or only what the lz4 frame
// checksums need (the checksum: other chunks are not decompressed, no record is indexed, and a
// chunk whose header is known not to be lz4 is not read).
enum class ChunkWalk { Records, Lz4Checksums };

// Chunk indexes in file order (by position; ties in index order).
std::vector<size_t> chunks_in_file_order(const Bag& bag);

// A chunk's span: its record and the IndexData records after it, up to the next chunk in the file
// (positions sorted), or index_pos / the end of the file for the last one. Spans longer than
// kMaxChunkSpan are read only as far as their record goes.
constexpr uint64_t kMaxChunkSpan = 64u << 20;
uint64_t chunk_span_end(const Bag& bag, const std::vector<uint64_t>& sorted_positions, const Chunk& c);

// The doctor's load of chunk `chunk_index` from its whole span [base, base + len), which starts
// at file offset `pos`: decompressed with checksums verified, records indexed in record order
// (ChunkWalk::Records), or only an lz4 frame verified (ChunkWalk::Lz4Checksums).
// `out->span_short` when the chunk record does not fit the span.
void load_chunk_span(const uint8_t* base, size_t len, size_t chunk_index, uint64_t pos, ChunkDecompressor& decompressor, LoadedChunk* out,
                     ChunkWalk walk = ChunkWalk::Records);

// Fills the chunk's lazily read header fields from what a load found.
void note_chunk_header(Bag& bag, const LoadedChunk& loaded);

// Reads and decompresses one chunk (one read of its record).
void load_chunk(ByteSource& source, const Bag& bag, size_t chunk_index, LoadedChunk* out, const std::vector<bool>* keep = nullptr);

// Decompresses every chunk in file order (on every core, reading ahead in large sequential reads
// within a bounded window) and hands each to `fn` in order; the doctor's walk. Chunk headers are
// filled in from the bytes read. Returns false when cancelled.
bool for_each_chunk(ByteSource& source, Bag& bag, const std::function<void(LoadedChunk&)>& fn, const ProgressFn& progress,
                    ChunkWalk walk = ChunkWalk::Records, unsigned threads = 0);

// Calls `fn` for each message in time order (ties: file order). Returns false from fn to stop.
// Problems met on the way (bad chunks) are appended to `problems`; reading continues past them.
IterateResult for_each_message(ByteSource& source, Bag& bag, const IterateOptions& options,
                               const std::function<bool(const MessageView&)>& fn, std::vector<Problem>* problems,
                               const ProgressFn& progress = nullptr);

}  // namespace logscope::rosbag
