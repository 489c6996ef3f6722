// A database compressed whole (`.db3.zstd`, compression_mode FILE) decompressed into a copy:
// SQLite reads pages at random, which a zstd stream cannot give, so the copy is what opens.
#pragma once

#include <cstdint>
#include <string>

#include "core/byte_source.h"
#include "core/output_sink.h"
#include "core/report.h"

namespace logscope::rosbag2 {

struct ZstdCopy {
  bool ok = false;
  std::string error;  // where and why the stream stopped; what was written before it stays
  uint64_t read = 0, written = 0;
  bool cancelled = false;
};

// Streams `in` through zstd into `out` in bounded memory (4 MiB reads and zstd's window, which
// libzstd caps at 128 MiB unless the frame asks for more: then it is refused). Every frame of
// the file is decompressed, one after another; a stream cut inside a frame is an error that
// names the byte.
ZstdCopy decompress_zstd_file(ByteSource& in, OutputSink& out, const ProgressFn& progress);

}  // namespace logscope::rosbag2
