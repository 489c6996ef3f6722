#include "rosbag/chunk.h"

#include <bzlib.h>
#include <lz4frame.h>

#include <algorithm>
#include <memory>

namespace logscope::rosbag {
namespace {

DecompressStatus failure(std::string code, std::string message) {
  DecompressStatus s;
  s.code = std::move(code);
  s.message = std::move(message);
  return s;
}

DecompressStatus decompress_bz2(const uint8_t* data, size_t size, uint32_t expected, std::vector<uint8_t>* out) {
  out->resize(expected);
  unsigned int produced = expected;
  // bzip2 checks its own block and stream CRCs; a mismatch comes back as BZ_DATA_ERROR.
  int rc = BZ2_bzBuffToBuffDecompress(reinterpret_cast<char*>(out->data()), &produced,
                                      const_cast<char*>(reinterpret_cast<const char*>(data)),
                                      static_cast<unsigned int>(size), 0, 0);
  switch (rc) {
    case BZ_OK:
      if (produced != expected)
        return failure("rosbag.chunk.size_mismatch", "bz2 data decompresses to " + std::to_string(produced) +
                                                          " bytes but the chunk header declares " + std::to_string(expected));
      {
        DecompressStatus ok;
        ok.ok = true;
        return ok;
      }
    case BZ_OUTBUFF_FULL:
      return failure("rosbag.chunk.size_mismatch",
                     "bz2 data decompresses to more than the " + std::to_string(expected) + " bytes the chunk header declares");
    case BZ_DATA_ERROR: return failure("rosbag.chunk.bz2_error", "bz2 data is corrupt (CRC or structure error)");
    case BZ_DATA_ERROR_MAGIC: return failure("rosbag.chunk.bz2_error", "bz2 data does not start with the bzip2 magic 'BZh'");
    case BZ_UNEXPECTED_EOF: return failure("rosbag.chunk.bz2_error", "bz2 data ends before the end of its stream");
    case BZ_MEM_ERROR: return failure("rosbag.chunk.bz2_error", "bz2 decoder ran out of memory");
    default: return failure("rosbag.chunk.bz2_error", "bz2 decoder error " + std::to_string(rc));
  }
}

struct Lz4Context {
  LZ4F_dctx* ctx = nullptr;
  Lz4Context() { LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION); }
  ~Lz4Context() { LZ4F_freeDecompressionContext(ctx); }
};

DecompressStatus decompress_lz4(const uint8_t* data, size_t size, uint32_t expected, std::vector<uint8_t>* out) {
  if (size < 7 || load_u32(data) != 0x184D2204u)
    return failure("rosbag.chunk.lz4_error", "lz4 data does not start with the LZ4 frame magic 04 22 4d 18");
  bool checksum_present = (data[4] & 0x04) != 0;
  Lz4Context context;
  if (!context.ctx) return failure("rosbag.chunk.lz4_error", "could not create an lz4 decoder");
  out->resize(expected);
  size_t consumed = 0, produced = 0;
  for (;;) {
    size_t dst_size = expected - produced, src_size = size - consumed;
    uint8_t spill[64];
    bool spilling = dst_size == 0;  // the frame still has output after the declared size
    size_t rc = LZ4F_decompress(context.ctx, spilling ? spill : out->data() + produced, spilling ? &(dst_size = sizeof spill) : &dst_size,
                                data + consumed, &src_size, nullptr);
    if (LZ4F_isError(rc)) {
      std::string name = LZ4F_getErrorName(rc);
      if (name.find("ontentChecksum") != std::string::npos)
        return failure("rosbag.chunk.lz4_checksum", "lz4 frame content checksum (XXH32) does not match the decompressed data");
      return failure("rosbag.chunk.lz4_error", "lz4 frame is corrupt (" + name + ")");
    }
    consumed += src_size;
    if (spilling && dst_size > 0)
      return failure("rosbag.chunk.size_mismatch", "lz4 data decompresses to more than the " + std::to_string(expected) +
                                                       " bytes the chunk header declares");
    produced += spilling ? 0 : dst_size;
    if (rc == 0) break;  // frame complete (checksum verified by LZ4F)
    if (src_size == 0 && dst_size == 0) {
      if (consumed >= size)
        return failure("rosbag.chunk.lz4_error", "lz4 frame ends early (after " + std::to_string(produced) + " of " +
                                                     std::to_string(expected) + " bytes)");
      return failure("rosbag.chunk.lz4_error", "lz4 decoder made no progress");
    }
  }
  if (produced != expected)
    return failure("rosbag.chunk.size_mismatch", "lz4 data decompresses to " + std::to_string(produced) +
                                                     " bytes but the chunk header declares " + std::to_string(expected));
  DecompressStatus ok;
  ok.ok = true;
  ok.checksum_present = checksum_present;
  ok.checksum_verified = checksum_present;
  return ok;
}

}  // namespace

DecompressStatus decompress_chunk(std::string_view compression, const uint8_t* data, size_t size,
                                  uint32_t uncompressed_size, std::vector<uint8_t>* out) {
  if (compression == "none") {
    if (size != uncompressed_size)
      return failure("rosbag.chunk.size_mismatch", "uncompressed chunk holds " + std::to_string(size) +
                                                       " bytes but its header declares " + std::to_string(uncompressed_size));
    out->assign(data, data + size);
    DecompressStatus ok;
    ok.ok = true;
    return ok;
  }
  if (uncompressed_size > kMaxChunkUncompressed)
    return failure("rosbag.chunk.size_implausible",
                   "chunk declares " + std::to_string(uncompressed_size) + " uncompressed bytes, more than logscope accepts");
  if (compression == "lz4") {
    // LZ4 cannot expand more than ~255x; a larger declared size is a lie, not a reason to allocate.
    if (uint64_t{uncompressed_size} > uint64_t{size} * 256 + 65536)
      return failure("rosbag.chunk.size_mismatch", "chunk declares " + std::to_string(uncompressed_size) +
                                                       " uncompressed bytes, impossible for " + std::to_string(size) + " lz4 bytes");
    return decompress_lz4(data, size, uncompressed_size, out);
  }
  if (compression == "bz2") return decompress_bz2(data, size, uncompressed_size, out);
  return failure("rosbag.chunk.unknown_compression", "unknown chunk compression '" + std::string(compression) + "'");
}

void index_chunk_records(const uint8_t* data, size_t size, ChunkRecords* out, const std::vector<bool>* keep) {
  out->messages.clear();
  out->connections.clear();
  out->other_records = 0;
  out->complete = true;
  out->stop_reason.clear();
  size_t pos = 0;
  while (pos < size) {
    RecordFrame frame;
    std::string_view header;
    std::string why;
    if (parse_record(data, size, pos, &frame, &header, &why) != FrameStatus::Ok) {
      out->complete = false;
      out->stop_offset = static_cast<uint32_t>(pos);
      out->stop_reason = why;
      return;
    }
    int op = -1;
    uint32_t conn = 0;
    bool have_conn = false, have_time = false;
    Time time;
    bool fields_ok = for_each_field(header, [&](std::string_view name, std::string_view value) {
      if (name == "op" && value.size() == 1) op = static_cast<uint8_t>(value[0]);
      else if (name == "conn" && value.size() == 4) conn = load_u32(value.data()), have_conn = true;
      else if (name == "time" && value.size() == 8)
        time = Time{load_u32(value.data()), load_u32(value.data() + 4)}, have_time = true;
    });
    if (!fields_ok) {
      out->complete = false;
      out->stop_offset = static_cast<uint32_t>(pos);
      out->stop_reason = "record header fields are malformed";
      return;
    }
    if (op == kOpMessageData && have_conn && have_time) {
      if (!keep || (conn < keep->size() && (*keep)[conn]))
        out->messages.push_back(ChunkMessage{time.ns(), conn, static_cast<uint32_t>(pos),
                                             static_cast<uint32_t>(frame.data_offset()), frame.data_len});
    } else if (op == kOpConnection && have_conn) {
      out->connections.push_back(ChunkConnectionRecord{static_cast<uint32_t>(pos), conn});
    } else {
      ++out->other_records;
    }
    pos = static_cast<size_t>(frame.end());
  }
}

}  // namespace logscope::rosbag
