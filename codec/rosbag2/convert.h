// `logscope convert BAGFOLDER OUT.mcap`: a rosbag2 bag streamed into an MCAP of the ros2 profile
// through codec/mcap's writer (chunked with zstd or lz4, message and chunk indexes, statistics,
// every CRC), in bounded memory: one message and one open chunk at a time.
//
// One channel per (topic, type), message encoding "cdr", with the topic's offered_qos_profiles in
// its metadata. A channel's schema is its type's definition: the bag's (message_definitions), else
// one the user supplied (--msg-path, --definitions-from), as the same encoding (ros2msg, ros2idl),
// only when it parses. Types with neither are still written, as channels without a schema
// (schema id 0, which MCAP allows for encodings that need none to be read as bytes), and listed in
// `schemaless`. The log time and the publish time are the stored timestamp; sequence counts per
// channel from 1.
#pragma once

#include <string>
#include <vector>

#include "core/inspector.h"
#include "core/output_sink.h"

namespace logscope::rosbag2 {

struct ConvertOptions {
  std::string compression = "zstd";  // "zstd", "lz4" or "" (chunks stored as they are)
  uint64_t chunk_size = 4u << 20;    // uncompressed records per chunk
};

struct ConvertResult {
  bool ok = false;
  std::string error;  // why nothing usable was written (not a bag, the sink failed)
  uint64_t messages = 0, channels = 0, schemas = 0;
  uint64_t skipped = 0;  // messages left out (no topic row, damaged zstd): each in problems
  std::vector<std::string> schemaless;  // "topic (type): why"
  std::vector<Problem> problems;
  bool cancelled = false;
};

// `inspector` must be a rosbag2 inspector (its bag and the definitions handed to it are used).
ConvertResult convert_to_mcap(FormatInspector& inspector, const ConvertOptions& options, OutputSink& out, const ProgressFn& progress);

}  // namespace logscope::rosbag2
