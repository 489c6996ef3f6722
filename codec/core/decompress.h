// Chunk decompression shared by the formats that compress chunks (none / bz2 / lz4 frames with
// their content checksum / zstd frames): into a buffer bounded by the declared size, with reusable
// state per thread, and handed to helper workers in the browser (DecompressOffload: bz2 and lz4).
// Status codes name no format ("chunk.lz4_checksum"); the format prefixes its own name when it
// reports one. A ROS bag's chunks are one lz4 frame or bz2; an MCAP's are lz4 frames (one after
// another) or zstd frames, whose own sizes are never trusted: only the chunk's declared size.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace logscope {

// A chunk larger than this is damage (writers close chunks at ~768 KB; `--chunksize` rarely exceeds
// a few MB); refusing it keeps a lying size field from allocating gigabytes.
constexpr uint32_t kMaxChunkUncompressed = 1024u * 1024 * 1024;

struct DecompressStatus {
  bool ok = false;
  std::string code;     // when !ok: "chunk.lz4_checksum", ...; a format names it ("rosbag.chunk....")
  std::string message;  // a sentence for the user
  bool checksum_present = false;  // lz4 frame carries a content checksum
  bool checksum_verified = false;  // ... and it matched
};

// A growable byte buffer that is never zero-filled (decompression overwrites it) and keeps its
// capacity, so a buffer reused chunk after chunk costs no allocation and no page faults.
class ByteBuffer {
 public:
  uint8_t* data() { return data_.get(); }
  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // Contents are kept only up to min(old size, n) when the capacity suffices, lost otherwise.
  void resize(size_t n, size_t capacity = 0) {
    capacity = std::max(capacity, n);
    if (capacity > capacity_) {
      // A quarter more than asked: the next chunk is rarely larger by that much, so a reused
      // buffer keeps its (already faulted-in) memory.
      capacity += capacity / 4;
      data_.reset(allocate(capacity));
      capacity_ = capacity;
    }
    size_ = n;
  }

 private:
  // Natively, buffers of 2 MB or more are 2 MB-aligned and asked to be backed by huge pages:
  // faulting an 8 MB read buffer in 4 KB at a time took ~10% of an uncompressed iteration here.
  static uint8_t* allocate(size_t capacity);
  struct Free {
    void operator()(uint8_t* bytes) const;
  };
  std::unique_ptr<uint8_t[], Free> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Decompresses chunks with reusable state: one lz4 frame context and a bz2 allocation cache per
// instance (one instance per thread). lz4 frames decode straight into `out` (its capacity leaves
// room for a whole block, so LZ4F never goes through its internal buffer); bz2 reuses its ~3.6 MB
// of tables instead of mapping and faulting them in for every chunk.
class ChunkDecompressor {
 public:
  ChunkDecompressor();
  ~ChunkDecompressor();
  ChunkDecompressor(const ChunkDecompressor&) = delete;
  ChunkDecompressor& operator=(const ChunkDecompressor&) = delete;
  // Decompresses into `out` (exactly `uncompressed_size` bytes on success): "lz4", "bz2", "zstd".
  // `verify_checksum` false skips the lz4 frame's XXH32 (it costs more than decoding an
  // incompressible chunk); every length is still bounds-checked by the decoder.
  DecompressStatus decompress(std::string_view compression, const uint8_t* data, size_t size, uint32_t uncompressed_size,
                              ByteBuffer* out, bool verify_checksum = true);
  // With an offload installed and a free slot: starts decompressing this chunk elsewhere, so a
  // later decompress() of the same bytes only collects. Returns whether it was handed on.
  bool prefetch(std::string_view compression, const uint8_t* data, size_t size, uint32_t uncompressed_size,
                bool verify_checksum = true);
  // Whether decompress() of these bytes would return without waiting: true unless they were
  // handed on and the helper has not finished them yet.
  bool prefetched_ready(const uint8_t* data, size_t size) const;
  // Results handed on but not collected are dropped (the pipeline stopped early).
  void forget_prefetched();

  struct Impl;

 private:
  struct Prefetched {
    uint64_t ticket;
    const uint8_t* data;
    size_t size;
    uint32_t uncompressed_size;
    bool verify;
  };
  std::unique_ptr<Impl> impl_;
  std::vector<Prefetched> prefetched_;
};

// Decompression that runs elsewhere while this thread parses: in the browser, helper workers
// (web/src/decompress-offload.js), since a wasm build has no threads. The chunk pipeline hints
// the chunks it will need next (ChunkDecompressor::prefetch); decompress() then collects the
// result instead of doing the work. Results are identical: the helpers run the same code.
class DecompressOffload {
 public:
  virtual ~DecompressOffload() = default;
  virtual size_t free_slots() = 0;  // how many more may be submitted now
  // Starts decompressing a copy of `data`; `ticket` names it for collect().
  virtual bool submit(uint64_t ticket, std::string_view compression, const uint8_t* data, size_t size,
                      uint32_t uncompressed_size, bool verify_checksum) = 0;
  // Whether collect() would return at once (the helper has finished).
  virtual bool ready(uint64_t ticket) = 0;
  // Waits for the result and writes it into `out` (resized to the uncompressed size).
  virtual DecompressStatus collect(uint64_t ticket, ByteBuffer* out) = 0;
  virtual void forget(uint64_t ticket) = 0;  // the result is not wanted any more
};
// One per process (a wasm instance): null natively, where the pipeline has threads.
void set_decompress_offload(DecompressOffload* offload);
DecompressOffload* decompress_offload();

// Checks a declared uncompressed size against the compressed size before anything is allocated.
DecompressStatus check_chunk_sizes(std::string_view compression, size_t size, uint32_t uncompressed_size);

// Decompresses one chunk's data into `out` (exactly `uncompressed_size` bytes on success).
DecompressStatus decompress_chunk(std::string_view compression, const uint8_t* data, size_t size,
                                  uint32_t uncompressed_size, std::vector<uint8_t>* out);

}  // namespace logscope
