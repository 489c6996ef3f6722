// A realistic demo MCAP (a ROS 2 robot: IMU and odometry as JSON, a compressed camera image and
// rosout as CDR, an attachment and metadata) written by our writer, streamed to disk in bounded
// memory: `logscope make-demo-mcap OUT --size-mb N`, the benchmarks' 1 GB inputs, the tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/output_sink.h"

namespace logscope::mcap {

struct DemoOptions {
  std::string compression = "zstd";  // "zstd", "lz4" or "" (chunks stored as they are)
  bool chunked = true;               // false: messages in the data section, no chunks
  bool summary = true;               // false: DataEnd and an empty footer only (readers must scan)
  uint64_t chunk_size = 1u << 20;    // records per chunk, as the reference writers' default
};

// About `target_bytes` of messages (at least one of each channel), then the summary.
bool write_demo(OutputSink& sink, uint64_t target_bytes, const DemoOptions& options, std::string* error);
bool write_demo_file(const std::string& path, uint64_t target_bytes, const DemoOptions& options, std::string* error);

// A tiny clean file in memory: two schemas, three channels (one without a schema), 24 messages in
// chunks of 256 bytes (several), an attachment and a metadata record. The format table's
// small_demo (zstd, chunked) and the fuzzers' seeds in each layout (tests/fuzz/tiny_files.h).
std::vector<uint8_t> tiny_file(const std::string& compression = "zstd", bool chunked = true);

}  // namespace logscope::mcap
