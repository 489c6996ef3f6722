#include "bddf/read_plan.h"

#include <algorithm>

#include "bddf/format.h"

namespace logscope::bddf {
namespace {

// A DataDescriptor: series index, timestamp and additional indexes, as protobuf writes them.
constexpr uint64_t kDescriptorRoom = 32;
constexpr uint64_t kLargestEstimate = 16u << 20;

}  // namespace

SeriesReadPlan::SeriesReadPlan(ByteSource& source, const Series& series, const EntriesInSpan& blocks)
    : source_(source), blocks_(blocks) {
  uint64_t mean = series.entries.empty() ? 0 : series.total_bytes / series.entries.size();
  mean = std::min(mean, kLargestEstimate);  // an index's total is the file's word, not a fact
  estimate_ = kHeaderSize + kDescriptorLengthSize + kDescriptorRoom + 8 * series.additional_index_names.size() + mean + mean / 8;
}

SeriesReadPlan::~SeriesReadPlan() {
  if (planned_end_) source_.will_read_ranges({});
}

std::vector<ByteRange> SeriesReadPlan::window(size_t start) const {
  std::vector<ByteRange> ranges;
  uint64_t bytes = 0;
  blocks_.each(
      [&](size_t i, const BlockEntry& entry) {
        if (i - start >= kWindowBlocks || bytes >= kWindowBytes) return false;
        // A block ends at or before the next block of its series (in file order).
        if (!ranges.empty() && ranges.back().offset < entry.file_offset)
          ranges.back().length = std::min(ranges.back().length, entry.file_offset - ranges.back().offset);
        if (entry.file_offset >= source_.size()) return true;  // read as before: it says what is wrong
        ranges.push_back(ByteRange{entry.file_offset, std::min(estimate_, source_.size() - entry.file_offset)});
        bytes += estimate_;
        return true;
      },
      start);
  return ranges;
}

void SeriesReadPlan::before(size_t i) {
  if (i < planned_end_ || i >= blocks_.size()) return;
  std::vector<ByteRange> ranges = window(i);
  planned_end_ = i + std::max<size_t>(ranges.size(), 1);
  source_.will_read_ranges(std::move(ranges));
}

}  // namespace logscope::bddf
