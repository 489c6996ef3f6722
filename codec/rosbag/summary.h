// The facts of `rosbag info`, computed from the bag's index alone, and their renderings: the
// `rosbag info` text (row for row, same number formats) and the report for --json and the web UI.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

struct CompressionStats {
  std::string name;
  uint64_t chunks = 0;
  uint64_t uncompressed = 0;
  uint64_t compressed = 0;
};

struct TopicStats {
  std::string topic;
  std::string type;  // of the topic's first connection, as rosbag shows it
  uint64_t messages = 0;
  uint64_t connections = 0;
  bool has_frequency = false;
  double frequency = 0;  // median, Hz
};

struct BagStats {
  bool empty = true;  // no connections and no chunks: rosbag shows only path, version, size
  std::string version;  // "2.0", "1.2", "1.2 (unindexed)"
  Time start, end;      // true first and last message times (min / max over chunks)
  Time rosbag_start, rosbag_end;  // what rosbag prints: first chunk's start, last chunk's end
  uint64_t messages = 0;
  uint64_t chunk_count = 0;
  bool compression_read = true;  // false: some chunk headers are not read yet (summary() reads none)
  std::vector<CompressionStats> compressions;  // rosbag's order: most chunks first
  std::vector<std::pair<std::string, std::string>> types;  // (type, md5), sorted
  std::vector<TopicStats> topics;                          // sorted by topic
};

// The facts from the index alone. With `read_compression`, every chunk record header not read yet
// is read (one small read per chunk, with progress) for the compression facts; without it those
// facts cover only chunks whose headers are already known (compression_read says whether all are).
// With `frequencies`, the index data records after each chunk (per-message times) are read as
// `rosbag info --freq` does.
BagStats compute_stats(ByteSource& source, Bag& bag, bool frequencies, bool read_compression = true,
                       const ProgressFn& progress = nullptr);

std::string info_text(const BagStats& stats, const Bag& bag, const std::string& path);
Report summary_report(const BagStats& stats, const Bag& bag);

// Formatting helpers matching rosbag's Python.
std::string rosbag_size(double bytes);
std::string rosbag_time(double secs);
std::string rosbag_duration(double secs);
std::string rosbag_frequency(double hz);

}  // namespace logscope::rosbag
