#include "mcap/decompress.h"

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

Decompressed failed(DecompressStatus status, std::string error) {
  Decompressed d;
  d.status = status;
  d.error = std::move(error);
  return d;
}

}  // namespace

// MCAP's limits and statuses around the one decompressor (core/decompress.h): its format-neutral
// codes become MCAP's stable statuses (the problem codes mcap.chunk.*).
Decompressed decompress_chunk(const std::string& compression, std::string_view compressed, uint64_t uncompressed_size) {
  if (!compression.empty() && compression != "zstd" && compression != "lz4")
    return failed(DecompressStatus::Unsupported, "compression \"" + compression + "\" is not one this reader knows (none, zstd, lz4)");
  if (compression.empty()) {
    if (uncompressed_size != compressed.size())
      return failed(DecompressStatus::SizeMismatch, "an uncompressed chunk states " + std::to_string(uncompressed_size) +
                                                        " bytes of records but holds " + std::to_string(compressed.size()));
    Decompressed d;
    d.bytes.assign(compressed.begin(), compressed.end());
    return d;
  }
  if (uncompressed_size > kMaxChunkUncompressed)
    return failed(DecompressStatus::TooLarge, "the chunk states " + std::to_string(uncompressed_size) + " uncompressed bytes, over the " +
                                                  std::to_string(kMaxChunkUncompressed >> 20) + " MiB this reader decompresses");
  uint64_t bound = max_expansion(compression, compressed.size());
  if (uncompressed_size > bound)
    return failed(DecompressStatus::Implausible, "the chunk states " + std::to_string(uncompressed_size) + " uncompressed bytes; " +
                                                     std::to_string(compressed.size()) + " bytes of " + compression + " make at most " +
                                                     std::to_string(bound));
  static thread_local ChunkDecompressor decompressor;
  static thread_local ByteBuffer buffer;
  logscope::DecompressStatus status = decompressor.decompress(compression, reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size(),
                                                              static_cast<uint32_t>(uncompressed_size), &buffer);
  if (!status.ok)
    return failed(status.code == "chunk.size_mismatch" ? DecompressStatus::SizeMismatch : DecompressStatus::Failed, status.message);
  Decompressed d;
  d.bytes.assign(buffer.data(), buffer.data() + buffer.size());
  return d;
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
