// The chunk pipeline of a V2.0 bag: chunks read in file order in large grouped reads (the caller's
// thread: a ByteSource is not thread-safe), claimed by worker threads (natively) or handed to
// decompression helpers (DecompressOffload, in the browser) to be decompressed and indexed, and
// taken back in order within a bounded read-ahead window. The message iteration (iterate.h) and
// the doctor's walk (for_each_chunk) both take their chunks from it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "rosbag/chunk.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

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

// What loading a chunk does after parsing its record header.
struct ChunkLoad {
  const std::vector<bool>* keep = nullptr;  // connections whose messages are indexed (null: all)
  uint64_t start_ns = 0, end_ns = UINT64_MAX;  // messages outside are dropped
  bool sort = false;     // messages by time (iteration), else in record order (the doctor)
  bool verify = true;    // lz4 frame content checksums
  bool lz4_only = false;  // ChunkWalk::Lz4Checksums: other chunks stay compressed, nothing is indexed
  // False for a caller that stops after a message or few (a thumbnail, one frame): a chunk is read
  // alone when it is taken, none ahead, so a stop wastes no read.
  bool read_ahead = true;
};

// Chunks of `order` delivered in that order: the caller's thread reads groups of consecutive
// chunks in single large reads while worker threads decompress and index them; the caller decodes
// a chunk itself when no worker has started it. Memory is bounded by a window of read-ahead bytes
// plus the chunks the caller still holds.
class ChunkPipeline {
 public:
  // `threads` 0: all cores (one for a file under 1 MiB). With an offload installed, its helpers
  // stand in for threads.
  ChunkPipeline(ByteSource& source, const Bag& bag, std::vector<size_t> order, const ChunkLoad& load, unsigned threads);
  ~ChunkPipeline();
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  // The next chunk in order, or null at the end.
  std::unique_ptr<LoadedChunk> take();
  // A chunk the caller is done with: its buffers are reused.
  void recycle(std::unique_ptr<LoadedChunk> chunk);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace logscope::rosbag
