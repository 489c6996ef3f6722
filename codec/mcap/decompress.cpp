#include "mcap/decompress.h"

#include <cstring>

#include <lz4frame.h>
#include <zstd.h>

#include "core/decompress.h"

namespace logscope::mcap {

uint64_t max_expansion(const std::string& compression, uint64_t compressed_size) {
  if (compression.empty()) return compressed_size;
  if (compression == "zstd") return (compressed_size / 4 + 1) * (128u << 10);
  if (compression == "lz4") return compressed_size * 256 + 1024;
  return 0;
}

namespace {

void failed(Decompressed* d, DecompressStatus status, std::string error) {
  d->status = status;
  d->error = std::move(error);
  d->bytes.resize(0);
}

}  // namespace

// MCAP's limits and statuses around the one decompressor (core/decompress.h): its format-neutral
// codes become MCAP's stable statuses (the problem codes mcap.chunk.*).
Decompressed decompress_chunk(const std::string& compression, std::string_view compressed, uint64_t uncompressed_size) {
  Decompressed d;
  decompress_chunk(compression, compressed, uncompressed_size, &d);
  return d;
}

void decompress_chunk(const std::string& compression, std::string_view compressed, uint64_t uncompressed_size, Decompressed* out,
                      bool verify_lz4_checksum) {
  out->status = DecompressStatus::Ok;
  out->error.clear();
  if (!compression.empty() && compression != "zstd" && compression != "lz4")
    return failed(out, DecompressStatus::Unsupported, "compression \"" + compression + "\" is not one this reader knows (none, zstd, lz4)");
  if (compression.empty()) {
    if (uncompressed_size != compressed.size())
      return failed(out, DecompressStatus::SizeMismatch, "an uncompressed chunk states " + std::to_string(uncompressed_size) +
                                                        " bytes of records but holds " + std::to_string(compressed.size()));
    out->bytes.resize(compressed.size());
    if (!compressed.empty()) std::memcpy(out->bytes.data(), compressed.data(), compressed.size());
    return;
  }
  if (uncompressed_size > kMaxChunkUncompressed)
    return failed(out, DecompressStatus::TooLarge, "the chunk states " + std::to_string(uncompressed_size) + " uncompressed bytes, over the " +
                                                  std::to_string(kMaxChunkUncompressed >> 20) + " MiB this reader decompresses");
  uint64_t bound = max_expansion(compression, compressed.size());
  if (uncompressed_size > bound)
    return failed(out, DecompressStatus::Implausible, "the chunk states " + std::to_string(uncompressed_size) + " uncompressed bytes; " +
                                                     std::to_string(compressed.size()) + " bytes of " + compression + " make at most " +
                                                     std::to_string(bound));
  static thread_local ChunkDecompressor decompressor;
  logscope::DecompressStatus status = decompressor.decompress(compression, reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size(),
                                                              static_cast<uint32_t>(uncompressed_size), &out->bytes, verify_lz4_checksum);
  if (!status.ok)
    return failed(out, status.code == "chunk.size_mismatch" ? DecompressStatus::SizeMismatch : DecompressStatus::Failed, status.message);
}

std::string compress_chunk(const std::string& compression, std::string_view records) {
  if (compression == "zstd") {
    std::string out(ZSTD_compressBound(records.size()), '\0');
    size_t n = ZSTD_compress(out.data(), out.size(), records.data(), records.size(), 3);
    out.resize(ZSTD_isError(n) ? 0 : n);
    return out;
  }
  if (compression == "lz4") {
    LZ4F_preferences_t prefs{};
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    std::string out(LZ4F_compressFrameBound(records.size(), &prefs), '\0');
    size_t n = LZ4F_compressFrame(out.data(), out.size(), records.data(), records.size(), &prefs);
    out.resize(LZ4F_isError(n) ? 0 : n);
    return out;
  }
  return std::string(records);
}

}  // namespace logscope::mcap
