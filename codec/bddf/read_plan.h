// A pass over one series' blocks (an export) tells the source which blocks it reads next
// (ByteSource::will_read_ranges), a window of them at a time, so that a remote file sends several
// in one request instead of one block a round trip. The index holds where a block starts, not its
// length: the plan takes the series' mean block (its payload bytes over its blocks, with room for
// the framing and an eighth more), never past the next block of the series. A block longer than
// that has its tail read as before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bddf/block_entries.h"
#include "bddf/model.h"
#include "core/byte_source.h"

namespace logscope::bddf {

class SeriesReadPlan {
 public:
  SeriesReadPlan(ByteSource& source, const Series& series, const EntriesInSpan& blocks);
  ~SeriesReadPlan();
  SeriesReadPlan(const SeriesReadPlan&) = delete;
  SeriesReadPlan& operator=(const SeriesReadPlan&) = delete;
  // Before the pass reads block i of `blocks`: the next window is planned when i reaches it.
  void before(size_t i);
  // The ranges planned for the window starting at `start` (tests).
  std::vector<ByteRange> window(size_t start) const;

  static constexpr size_t kWindowBlocks = 65536;
  static constexpr uint64_t kWindowBytes = 16u << 20;

 private:
  ByteSource& source_;
  const EntriesInSpan& blocks_;
  uint64_t estimate_ = 0;   // bytes planned for a block
  size_t planned_end_ = 0;  // blocks before this one are planned
};

}  // namespace logscope::bddf
