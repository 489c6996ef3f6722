#include "rosbag2/zstd_copy.h"

#include <memory>
#include <vector>

#include <zstd.h>

namespace logscope::rosbag2 {

ZstdCopy decompress_zstd_file(ByteSource& in, OutputSink& out, const ProgressFn& progress) {
  ZstdCopy r;
  std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
  if (!stream) {
    r.error = "zstd could not start a stream";
    return r;
  }
  ZSTD_initDStream(stream.get());
  constexpr size_t kRead = 4u << 20;
  std::vector<uint8_t> input(kRead), output(ZSTD_DStreamOutSize());
  uint64_t offset = 0, size = in.size();
  size_t pending = 0;  // ZSTD_decompressStream's last hint: 0 when a frame just ended
  // What one call put in `room`, written to the copy.
  auto emit = [&](const ZSTD_outBuffer& room) {
    if (room.pos && !out.write(output.data(), room.pos)) {
      r.error = "the copy could not be written: " + out.error();
      return false;
    }
    r.written += room.pos;
    return true;
  };
  while (offset < size) {
    if (progress && !progress(offset, size)) {
      r.cancelled = true;
      r.error = "cancelled at byte " + std::to_string(offset);
      return r;
    }
    size_t got = in.read(offset, input.data(), static_cast<size_t>(std::min<uint64_t>(kRead, size - offset)));
    if (got == 0) {
      r.error = "byte " + std::to_string(offset) + " could not be read";
      return r;
    }
    ZSTD_inBuffer piece{input.data(), got, 0};
    while (piece.pos < piece.size) {
      ZSTD_outBuffer room{output.data(), output.size(), 0};
      pending = ZSTD_decompressStream(stream.get(), &room, &piece);
      if (ZSTD_isError(pending)) {
        r.error = std::string("zstd stopped near byte ") + std::to_string(offset + piece.pos) + " of the compressed file: " +
                  ZSTD_getErrorName(pending);
        return r;
      }
      if (!emit(room)) return r;
    }
    offset += got;
    r.read = offset;
  }
  // Drain what zstd still holds for the last input (a frame that ended, hint 0, holds nothing:
  // asked again, zstd would start the next frame and hint at its header).
  while (pending != 0) {
    ZSTD_inBuffer none{nullptr, 0, 0};
    ZSTD_outBuffer room{output.data(), output.size(), 0};
    size_t hint = ZSTD_decompressStream(stream.get(), &room, &none);
    if (ZSTD_isError(hint)) {
      r.error = std::string("zstd: ") + ZSTD_getErrorName(hint);
      return r;
    }
    if (!emit(room)) return r;
    if (room.pos == 0) break;  // nothing more: the frame is incomplete
    pending = hint;
  }
  if (size == 0) {
    r.error = "the file is empty: no zstd frame";
    return r;
  }
  if (pending != 0) {
    r.error = "the file ends inside a zstd frame (" + std::to_string(size) + " bytes read, " + std::to_string(r.written) +
              " written): it was cut";
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace logscope::rosbag2
