#include "mcap/decompress.h"

#include <lz4frame.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <memory>

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

struct ZstdContext {
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  ~ZstdContext() { ZSTD_freeDCtx(ctx); }
};

struct Lz4Context {
  LZ4F_dctx* ctx = nullptr;
  LZ4F_errorCode_t created = LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION);
  ~Lz4Context() {
    if (ctx) LZ4F_freeDecompressionContext(ctx);
  }
};

}  // namespace

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
  Decompressed d;
  d.bytes.resize(uncompressed_size);
  if (compression == "zstd") {
    static thread_local ZstdContext zstd;
    if (!zstd.ctx) return failed(DecompressStatus::Failed, "zstd: out of memory");
    size_t n = ZSTD_decompressDCtx(zstd.ctx, d.bytes.data(), d.bytes.size(), compressed.data(), compressed.size());
    if (ZSTD_isError(n)) {
      // A frame that holds more than stated fails with "Destination buffer is too small".
      std::string name = ZSTD_getErrorName(n);
      if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall)
        return failed(DecompressStatus::SizeMismatch, "the zstd data holds more than the " + std::to_string(uncompressed_size) + " bytes the chunk states");
      return failed(DecompressStatus::Failed, "zstd: " + name);
    }
    if (n != uncompressed_size)
      return failed(DecompressStatus::SizeMismatch, "the zstd data holds " + std::to_string(n) + " bytes, the chunk states " + std::to_string(uncompressed_size));
    return d;
  }
  // lz4 frames, one after another until the input ends.
  Lz4Context lz4;
  if (LZ4F_isError(lz4.created)) return failed(DecompressStatus::Failed, "lz4: cannot create a context");
  size_t produced = 0, consumed = 0, hint = 0;
  uint8_t spare[64];
  while (consumed < compressed.size()) {
    bool full = produced == d.bytes.size();
    uint8_t* dst = full ? spare : d.bytes.data() + produced;
    size_t dst_size = full ? sizeof spare : d.bytes.size() - produced;
    size_t src_size = compressed.size() - consumed;
    size_t rc = LZ4F_decompress(lz4.ctx, dst, &dst_size, compressed.data() + consumed, &src_size, nullptr);
    if (LZ4F_isError(rc)) return failed(DecompressStatus::Failed, std::string("lz4: ") + LZ4F_getErrorName(rc));
    if (full && dst_size > 0)
      return failed(DecompressStatus::SizeMismatch, "the lz4 data holds more than the " + std::to_string(uncompressed_size) + " bytes the chunk states");
    produced += dst_size;
    consumed += src_size;
    hint = rc;  // 0: a frame ended (another may follow)
    if (rc != 0 && src_size == 0 && dst_size == 0) break;  // no progress
  }
  if (hint != 0 || consumed < compressed.size()) return failed(DecompressStatus::Failed, "lz4: the data ends inside a frame");
  if (produced != d.bytes.size())
    return failed(DecompressStatus::SizeMismatch, "the lz4 data holds " + std::to_string(produced) + " bytes, the chunk states " + std::to_string(uncompressed_size));
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
