// A chunk's records, decompressed into a buffer of the size the chunk states (never the size a
// zstd frame or an lz4 frame claims for itself), after that size was checked against a cap and
// against what the compressed bytes can produce at most (docs/mcap.md, "Decompression"). The
// decompression itself is the codec's one decompressor (core/decompress.h); this layer adds
// MCAP's cap, its compression names ("" for none) and its statuses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/decompress.h"

namespace logscope::mcap {

// No chunk this reader accepts decompresses to more: a 10 GB file is read a chunk at a time, and
// writers make chunks of a few MB (the reference writers' default is 1 MiB to 8 MiB).
constexpr uint64_t kMaxChunkUncompressed = 256ull << 20;
// The most a compressed chunk may expand. zstd: a 4-byte RLE block (3-byte header + 1 byte) makes
// at most one 128 KiB block. lz4: each extra match-length byte adds at most 255 bytes.
uint64_t max_expansion(const std::string& compression, uint64_t compressed_size);

enum class DecompressStatus {
  Ok,
  Unsupported,    // a compression this reader does not know
  TooLarge,       // the stated size is over kMaxChunkUncompressed: nothing allocated
  Implausible,    // the stated size is more than the compressed bytes can make: nothing allocated
  Failed,         // the library reported an error (damaged data)
  SizeMismatch,   // the data decompressed to another size than stated
};

struct Decompressed {
  DecompressStatus status = DecompressStatus::Ok;
  std::string error;  // a sentence when status != Ok
  ByteBuffer bytes;   // written once, never zero-filled first
  std::string_view view() const { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }
};

// `compression`: "" (none), "zstd" or "lz4" (the lz4 frame format).
Decompressed decompress_chunk(const std::string& compression, std::string_view compressed, uint64_t uncompressed_size);
// The same into `out`, whose bytes keep their capacity: a reader going from chunk to chunk
// allocates (and the system maps) its buffer once. `verify_lz4_checksum` false skips an lz4
// frame's XXH32, as iterating a bag does (it costs more than decoding an incompressible chunk;
// every length is still bounds-checked): the doctor verifies it, and the chunk's own CRC.
void decompress_chunk(const std::string& compression, std::string_view compressed, uint64_t uncompressed_size, Decompressed* out,
                      bool verify_lz4_checksum = true);

// For the writer and tests: compress `records` with "zstd", "lz4" or "" (a copy).
std::string compress_chunk(const std::string& compression, std::string_view records);

}  // namespace logscope::mcap
