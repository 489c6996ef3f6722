// A few messages of a V2.0 bag read one record at a time (WalkOptions::read_ahead false: a
// thumbnail, the frame at a clicked time, a scan): an uncompressed chunk's IndexData records say
// where each message lies, so a 921 KB camera frame is read alone, not its 4 MiB chunk. A
// compressed chunk has to be read whole: then the caller iterates as usual.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"
#include "rosbag/iterate.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

struct SparseResult {
  // False: some chunk in the way is compressed, or its index records disagree with its ChunkInfo
  // or its messages (some real bags' IndexData are, rosbag.index_data.count_mismatch); `delivered`
  // messages were handed on before that, in the iteration's order, and the caller iterates the
  // rest (IterateOptions::skip = delivered).
  bool usable = true;
  uint64_t delivered = 0;
  bool stopped = false;    // fn returned false
  bool cancelled = false;
  uint64_t bytes_read = 0;  // index records and message records
};

// The messages of `options.connections` in [start_ns, end_ns], in time order as for_each_message hands
// them on (ties across chunks by the chunks' start times), read through the IndexData of each chunk that may hold the
// next one. `times_only`: no message is read, each view's data is empty (its connection, time and
// place are the index's), and compressed chunks serve as well. V2.0 only. An index that disagrees with its chunk or its ChunkInfo is no problem here
// (the doctor names it): the caller reads the chunk, whose records win.
SparseResult sparse_messages(ByteSource& source, Bag& bag, const IterateOptions& options,
                             const std::function<bool(const MessageView&)>& fn, const ProgressFn& progress, bool times_only = false);

}  // namespace logscope::rosbag
