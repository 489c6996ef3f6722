// Extract and repair for ROS bags: a new V2.0 bag (chunks, only the connections used, a complete
// index) from any bag logscope can read, indexed or not, whole or truncated. Repair is an extract
// that keeps everything complete; what the damaged input loses is listed with byte offsets.
#pragma once

#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/extract.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

struct BagExtractOptions {
  std::vector<std::string> topics;  // empty = every topic
  TimeBound from, to;               // inclusive bounds; relative ones count from the bag's start
  std::string compression;          // none, lz4, bz2; "" = the input's (none for V1.x inputs)
  size_t chunk_threshold = 768 * 1024;
  // V1.x inputs are read in file order; up to this many bytes of messages are held back so that
  // they go out in time order (a recorder writes them nearly so).
  size_t reorder_window = 32u << 20;
};

// Streams the messages in time order into `out` (bounded memory: one chunk in, one chunk out;
// V1.x: one pass in file order with a reorder window, see extract_v1.h).
// `out` must support patch() (the bag header's index_pos is known only at the end).
ExtractResult extract_bag(ByteSource& source, Format format, OutputSink& out, const BagExtractOptions& options,
                          const ProgressFn& progress = nullptr);

}  // namespace logscope::rosbag
