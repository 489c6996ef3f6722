// Extract and repair for MCAP: a new, indexed MCAP (chunks with message indexes, chunk,
// attachment and metadata indexes, statistics, summary offsets, every CRC) from any MCAP logscope
// can read, finished or not, damaged or not. One forward walk (walk.h) resynchronises past damaged
// records and chunks (never stopping at the first bad one); repair is an extract that keeps every
// complete message, attachment and metadata record. What the input loses is listed with offsets.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/extract.h"

namespace logscope::mcap {

struct McapExtractOptions {
  // Channels by topic or by id (decimal); empty = every channel. A name matching none is an error.
  std::vector<std::string> channels;
  TimeBound from, to;        // inclusive log_time bounds; relative ones count from the file's start
  std::string compression;   // "none", "lz4", "zstd"; "" = the input's first chunk's (zstd when unchunked)
  bool repair = false;       // keeps everything; says "repair" in the library field
  // Messages are held back up to this many bytes so that they go out in log_time order (writers
  // interleave channels' chunks a little).
  size_t reorder_window = 32u << 20;
  // Records (by offset) whose content is not trusted, with the reason: repair after a line-ending
  // restoration keeps the framing of a record it could not restore but none of its messages.
  std::map<uint64_t, std::string> distrusted;
};

// Streams the selected messages into `out` in bounded memory (one input chunk, one output chunk,
// the reorder window, the indexes).
ExtractResult extract_mcap(ByteSource& source, OutputSink& out, const McapExtractOptions& options, const ProgressFn& progress = nullptr);

}  // namespace logscope::mcap
