#include "core/decompress.h"

#include <bzlib.h>
#include <lz4frame.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#ifndef __EMSCRIPTEN__
#include <sys/mman.h>
#endif

namespace logscope {
namespace {

// Little-endian, as every format here stores it.
uint32_t load_le32(const uint8_t* p) { return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24; }

}  // namespace

uint8_t* ByteBuffer::allocate(size_t capacity) {
#ifndef __EMSCRIPTEN__
  constexpr size_t kHugePage = 2u << 20;
  if (capacity >= kHugePage) {
    size_t rounded = (capacity + kHugePage - 1) / kHugePage * kHugePage;
    if (void* bytes = std::aligned_alloc(kHugePage, rounded)) {
      madvise(bytes, rounded, MADV_HUGEPAGE);  // a hint: without it (or THP off) the buffer still works
      return static_cast<uint8_t*>(bytes);
    }
  }
#endif
  void* bytes = std::malloc(std::max<size_t>(capacity, 1));
  if (!bytes) throw std::bad_alloc();
  return static_cast<uint8_t*>(bytes);
}

void ByteBuffer::Free::operator()(uint8_t* bytes) const { std::free(bytes); }
namespace {

DecompressStatus failure(std::string code, std::string message) {
  DecompressStatus s;
  s.code = std::move(code);
  s.message = std::move(message);
  return s;
}

DecompressStatus success(bool checksum = false) {
  DecompressStatus ok;
  ok.ok = true;
  ok.checksum_present = checksum;
  ok.checksum_verified = checksum;
  return ok;
}

}  // namespace

struct ChunkDecompressor::Impl {
  LZ4F_dctx* lz4 = nullptr;
  ZSTD_DCtx* zstd = nullptr;
  // bz2's allocations (its state and the ~3.6 MB tt table), kept for the next chunk.
  struct Allocation {
    void* ptr;
    size_t size;
    bool used;
  };
  std::vector<Allocation> bz_cache;

  ~Impl() {
    if (lz4) LZ4F_freeDecompressionContext(lz4);
    if (zstd) ZSTD_freeDCtx(zstd);
    for (auto& a : bz_cache) std::free(a.ptr);
  }
  static void* bz_alloc(void* opaque, int n, int m) {
    auto* self = static_cast<Impl*>(opaque);
    size_t size = static_cast<size_t>(n) * static_cast<size_t>(m);
    for (auto& a : self->bz_cache)
      if (!a.used && a.size == size) {
        a.used = true;
        return a.ptr;
      }
    void* p = std::malloc(size);
    if (p) self->bz_cache.push_back(Allocation{p, size, true});
    return p;
  }
  static void bz_free(void* opaque, void* p) {
    auto* self = static_cast<Impl*>(opaque);
    for (auto& a : self->bz_cache)
      if (a.ptr == p) {
        a.used = false;
        return;
      }
  }

  DecompressStatus bz2(const uint8_t* data, size_t size, uint32_t expected, ByteBuffer* out) {
    // One spare byte detects data beyond the declared size. The declared size is only a claim (a
    // few corrupt bytes may declare 1 GB): the buffer starts at what the input plausibly holds and
    // grows while the data really decompresses.
    const size_t limit = size_t{expected} + 1;
    size_t capacity = std::min(limit, std::max({size * 32, size_t{8} << 20, out->capacity()}));
    out->resize(capacity);
    bz_stream stream;
    std::memset(&stream, 0, sizeof stream);
    stream.bzalloc = &Impl::bz_alloc;
    stream.bzfree = &Impl::bz_free;
    stream.opaque = this;
    if (BZ2_bzDecompressInit(&stream, 0, 0) != BZ_OK) return failure("chunk.bz2_error", "bz2 decoder ran out of memory");
    stream.next_in = const_cast<char*>(reinterpret_cast<const char*>(data));
    stream.avail_in = static_cast<unsigned int>(size);
    stream.next_out = reinterpret_cast<char*>(out->data());
    stream.avail_out = static_cast<unsigned int>(capacity);
    int rc;
    for (;;) {
      rc = BZ2_bzDecompress(&stream);
      if (rc != BZ_OK) break;
      if (stream.avail_out == 0) {
        if (capacity == limit) break;
        size_t grown = std::min(limit, capacity * 2);  // full: double, keeping what was produced
        ByteBuffer bigger;
        bigger.resize(grown);
        std::memcpy(bigger.data(), out->data(), capacity);
        *out = std::move(bigger);
        stream.next_out = reinterpret_cast<char*>(out->data() + capacity);
        stream.avail_out = static_cast<unsigned int>(grown - capacity);
        capacity = grown;
      } else if (stream.avail_in == 0) {
        break;
      }
    }
    uint64_t produced = (uint64_t{stream.total_out_hi32} << 32) | stream.total_out_lo32;
    BZ2_bzDecompressEnd(&stream);
    out->resize(static_cast<size_t>(std::min<uint64_t>(produced, expected)));
    // bzip2 checks its own block and stream CRCs; a mismatch comes back as BZ_DATA_ERROR.
    switch (rc) {
      case BZ_STREAM_END:
        if (produced != expected)
          return failure("chunk.size_mismatch", "bz2 data decompresses to " + std::to_string(produced) +
                                                            " bytes but the chunk header declares " + std::to_string(expected));
        return success();
      case BZ_OK:
        if (produced > expected)
          return failure("chunk.size_mismatch",
                         "bz2 data decompresses to more than the " + std::to_string(expected) + " bytes the chunk header declares");
        return failure("chunk.bz2_error", "bz2 data ends before the end of its stream");
      case BZ_DATA_ERROR: return failure("chunk.bz2_error", "bz2 data is corrupt (CRC or structure error)");
      case BZ_DATA_ERROR_MAGIC: return failure("chunk.bz2_error", "bz2 data does not start with the bzip2 magic 'BZh'");
      case BZ_MEM_ERROR: return failure("chunk.bz2_error", "bz2 decoder ran out of memory");
      default: return failure("chunk.bz2_error", "bz2 decoder error " + std::to_string(rc));
    }
  }

  DecompressStatus lz4_frame(const uint8_t* data, size_t size, uint32_t expected, ByteBuffer* out, bool verify) {
    if (size < 7 || load_le32(data) != 0x184D2204u)
      return failure("chunk.lz4_error", "lz4 data does not start with the LZ4 frame magic 04 22 4d 18");
    bool checksum_present = (data[4] & 0x04) != 0;
    if (!lz4 && LZ4F_isError(LZ4F_createDecompressionContext(&lz4, LZ4F_VERSION))) {
      lz4 = nullptr;
      return failure("chunk.lz4_error", "could not create an lz4 decoder");
    }
    // Room for one more maximum-size block past the declared size: LZ4F decodes a block straight
    // into the destination only when a whole block fits, and output past `expected` is an error.
    int block_id = (data[5] >> 4) & 7;
    size_t slack = block_id >= 4 ? size_t{1} << (8 + 2 * block_id) : size_t{4} << 20;
    size_t capacity = size_t{expected} + slack;
    out->resize(expected, capacity);
    LZ4F_decompressOptions_t options;
    std::memset(&options, 0, sizeof options);
    options.stableDst = 1;
    options.skipChecksums = verify ? 0 : 1;
    size_t consumed = 0, produced = 0;
    auto fail = [&](std::string code, std::string message) {
      LZ4F_resetDecompressionContext(lz4);
      return failure(std::move(code), std::move(message));
    };
    for (;;) {
      size_t dst_size = capacity - produced, src_size = size - consumed;
      size_t rc = LZ4F_decompress(lz4, out->data() + produced, &dst_size, data + consumed, &src_size, &options);
      if (LZ4F_isError(rc)) {
        std::string name = LZ4F_getErrorName(rc);
        if (name.find("ontentChecksum") != std::string::npos)
          return fail("chunk.lz4_checksum", "lz4 frame content checksum (XXH32) does not match the decompressed data");
        return fail("chunk.lz4_error", "lz4 frame is corrupt (" + name + ")");
      }
      consumed += src_size;
      produced += dst_size;
      if (produced > expected)
        return fail("chunk.size_mismatch",
                    "lz4 data decompresses to more than the " + std::to_string(expected) + " bytes the chunk header declares");
      if (rc == 0) {
        // A frame is complete (checksum verified by LZ4F). Another may follow (MCAP writers may
        // write several); only while the output is short, so trailing bytes change nothing else.
        if (consumed >= size || produced >= expected || size - consumed < 7 || load_le32(data + consumed) != 0x184D2204u) break;
        continue;
      }
      if (src_size == 0 && dst_size == 0) {
        if (consumed >= size)
          return fail("chunk.lz4_error",
                      "lz4 frame ends early (after " + std::to_string(produced) + " of " + std::to_string(expected) + " bytes)");
        return fail("chunk.lz4_error", "lz4 decoder made no progress");
      }
    }
    if (produced != expected)
      return failure("chunk.size_mismatch", "lz4 data decompresses to " + std::to_string(produced) +
                                                       " bytes but the chunk header declares " + std::to_string(expected));
    DecompressStatus ok = success(checksum_present);
    ok.checksum_verified = checksum_present && verify;
    return ok;
  }

  // zstd frames (one or more) straight into a buffer of the declared size: a frame's own content
  // size is never used, and data that would write past the buffer is an error, not a reallocation.
  DecompressStatus zstd_frames(const uint8_t* data, size_t size, uint32_t expected, ByteBuffer* out) {
    if (!zstd && !(zstd = ZSTD_createDCtx())) return failure("chunk.zstd_error", "could not create a zstd decoder");
    out->resize(expected);
    size_t n = ZSTD_decompressDCtx(zstd, out->data(), expected, data, size);
    if (ZSTD_isError(n)) {
      if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall)
        return failure("chunk.size_mismatch", "zstd data decompresses to more than the " + std::to_string(expected) + " bytes the chunk header declares");
      return failure("chunk.zstd_error", std::string("zstd data is corrupt (") + ZSTD_getErrorName(n) + ")");
    }
    if (n != expected)
      return failure("chunk.size_mismatch",
                     "zstd data decompresses to " + std::to_string(n) + " bytes but the chunk header declares " + std::to_string(expected));
    return success();
  }
};

ChunkDecompressor::ChunkDecompressor() : impl_(std::make_unique<Impl>()) {}
ChunkDecompressor::~ChunkDecompressor() { forget_prefetched(); }

DecompressStatus check_chunk_sizes(std::string_view compression, size_t size, uint32_t uncompressed_size) {
  if (compression == "none") {
    if (size != uncompressed_size)
      return failure("chunk.size_mismatch", "uncompressed chunk holds " + std::to_string(size) +
                                                       " bytes but its header declares " + std::to_string(uncompressed_size));
    return success();
  }
  if (compression != "lz4" && compression != "bz2" && compression != "zstd")
    return failure("chunk.unknown_compression", "unknown chunk compression '" + std::string(compression) + "'");
  if (uncompressed_size > kMaxChunkUncompressed)
    return failure("chunk.size_implausible",
                   "chunk declares " + std::to_string(uncompressed_size) + " uncompressed bytes, more than logscope accepts");
  // LZ4 cannot expand more than ~255x; a larger declared size is a lie, not a reason to allocate.
  if (compression == "lz4" && uint64_t{uncompressed_size} > uint64_t{size} * 256 + 65536)
    return failure("chunk.size_mismatch", "chunk declares " + std::to_string(uncompressed_size) +
                                                     " uncompressed bytes, impossible for " + std::to_string(size) + " lz4 bytes");
  // zstd's smallest block that produces output is an RLE block: a 3-byte header and 1 byte for up
  // to 128 KiB.
  if (compression == "zstd" && uint64_t{uncompressed_size} > (uint64_t{size} / 4 + 1) * (128u << 10))
    return failure("chunk.size_implausible", "chunk declares " + std::to_string(uncompressed_size) +
                                                 " uncompressed bytes, more than " + std::to_string(size) + " zstd bytes can make");
  return success();
}

namespace {
DecompressOffload* g_offload = nullptr;
uint64_t g_next_ticket = 1;
}  // namespace

void set_decompress_offload(DecompressOffload* offload) { g_offload = offload; }
DecompressOffload* decompress_offload() { return g_offload; }

bool ChunkDecompressor::prefetch(std::string_view compression, const uint8_t* data, size_t size, uint32_t uncompressed_size,
                                 bool verify_checksum) {
  if (!g_offload || (compression != "lz4" && compression != "bz2")) return false;
  if (!check_chunk_sizes(compression, size, uncompressed_size).ok || g_offload->free_slots() == 0) return false;
  for (const Prefetched& p : prefetched_)
    if (p.data == data && p.size == size) return true;
  uint64_t ticket = g_next_ticket++;
  if (!g_offload->submit(ticket, compression, data, size, uncompressed_size, verify_checksum)) return false;
  prefetched_.push_back({ticket, data, size, uncompressed_size, verify_checksum});
  return true;
}

bool ChunkDecompressor::prefetched_ready(const uint8_t* data, size_t size) const {
  for (const Prefetched& p : prefetched_)
    if (p.data == data && p.size == size) return g_offload->ready(p.ticket);
  return true;
}

void ChunkDecompressor::forget_prefetched() {
  if (g_offload)
    for (const Prefetched& p : prefetched_) g_offload->forget(p.ticket);
  prefetched_.clear();
}

DecompressStatus ChunkDecompressor::decompress(std::string_view compression, const uint8_t* data, size_t size,
                                               uint32_t uncompressed_size, ByteBuffer* out, bool verify_checksum) {
  DecompressStatus sizes = check_chunk_sizes(compression, size, uncompressed_size);
  if (!sizes.ok) return sizes;
  for (size_t i = 0; i < prefetched_.size(); ++i) {
    const Prefetched p = prefetched_[i];
    if (p.data != data || p.size != size) continue;
    prefetched_.erase(prefetched_.begin() + static_cast<std::ptrdiff_t>(i));
    if (p.uncompressed_size == uncompressed_size && p.verify == verify_checksum) {
      DecompressStatus status = g_offload->collect(p.ticket, out);
      if (status.code != "offload.unavailable") return status;  // else: decode it here after all
    } else {
      g_offload->forget(p.ticket);
    }
    break;
  }
  if (compression == "lz4") return impl_->lz4_frame(data, size, uncompressed_size, out, verify_checksum);
  if (compression == "bz2") return impl_->bz2(data, size, uncompressed_size, out);
  if (compression == "zstd") return impl_->zstd_frames(data, size, uncompressed_size, out);
  out->resize(size);
  if (size) std::memcpy(out->data(), data, size);
  return sizes;
}

DecompressStatus decompress_chunk(std::string_view compression, const uint8_t* data, size_t size,
                                  uint32_t uncompressed_size, std::vector<uint8_t>* out) {
  DecompressStatus sizes = check_chunk_sizes(compression, size, uncompressed_size);
  if (!sizes.ok) return sizes;
  if (compression == "none") {
    out->assign(data, data + size);
    return sizes;
  }
  ChunkDecompressor decompressor;
  ByteBuffer buffer;
  DecompressStatus status = decompressor.decompress(compression, data, size, uncompressed_size, &buffer);
  if (status.ok) out->assign(buffer.data(), buffer.data() + buffer.size());
  return status;
}

}  // namespace logscope
