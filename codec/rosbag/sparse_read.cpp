// Sparse reads of a V2.0 bag (sparse_read.h): per chunk in time order, its record header (one
// small read), then the IndexData records between its end and the next chunk (one read), then
// each message record the merge reaches (its framing, then its data).
#include "rosbag/sparse_read.h"

#include <algorithm>
#include <memory>
#include <queue>

#include "rosbag/chunk_pipeline.h"
#include "rosbag/reader.h"
#include "rosbag/records.h"

namespace logscope::rosbag {
namespace {

// IndexData between a chunk and the next: 12 bytes a message plus a header per connection. More
// than this is no index of an honest chunk (a 4 GiB chunk of 12-byte messages needs less).
constexpr uint64_t kMaxIndexSpan = 64u << 20;

// Ties in time go as for_each_message's merge takes them: by the chunk's rank in start-time
// order, then in record order.
struct Entry {
  uint64_t time_ns;
  size_t rank;      // the chunk's in `order`
  uint32_t offset;  // of the message record in the chunk's data
  uint32_t extent;  // to the next record the chunk's IndexData lists (or its data's end)
  uint32_t conn;
  size_t chunk;
  bool operator>(const Entry& o) const {
    if (time_ns != o.time_ns) return time_ns > o.time_ns;
    if (rank != o.rank) return rank > o.rank;
    return offset > o.offset;
  }
};

}  // namespace

SparseResult sparse_messages(ByteSource& source, Bag& bag, const IterateOptions& options,
                             const std::function<bool(const MessageView&)>& fn, const ProgressFn& progress, bool times_only) {
  SparseResult result;
  std::vector<bool> selected;
  for (uint32_t id : options.connections) {
    if (id >= (1u << 24)) continue;
    if (id >= selected.size()) selected.resize(size_t{id} + 1, false);
    selected[id] = true;
  }
  auto is_selected = [&](uint32_t id) { return options.connections.empty() || (id < selected.size() && selected[id]); };
  std::vector<size_t> order;
  for (size_t i = 0; i < bag.chunks.size(); ++i) {
    const Chunk& c = bag.chunks[i];
    if (c.end.ns() < options.start_ns || c.start.ns() > options.end_ns) continue;
    if (std::any_of(c.counts.begin(), c.counts.end(), [&](const auto& p) { return is_selected(p.first) && p.second > 0; })) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bag.chunks[a].start < bag.chunks[b].start; });
  std::vector<uint64_t> positions;
  positions.reserve(bag.chunks.size());
  for (const Chunk& c : bag.chunks) positions.push_back(c.pos);
  std::sort(positions.begin(), positions.end());

  // The chunk's own records then: the doctor names the disagreement (rosbag.index_data.*), a
  // view reads on as it would have without this shortcut.
  auto unusable = [&](const Chunk& c, const std::string& why) {
    (void)c, (void)why;
    result.usable = false;
    return result;
  };

  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> pending;
  ProgressTicker ticker(progress, bag.file_size, 1);  // in bytes of the file, as every pass reports
  // Listing times reads every chosen chunk's head, then its IndexData: two plans, so that a remote
  // file fetches them a window at a time, not two round trips a chunk. The heads are the first
  // half of the progress.
  auto done_at = [&](uint64_t pos) { return times_only ? bag.file_size / 2 + pos / 2 : pos; };
  std::unique_ptr<PlannedReads> planned;
  if (times_only) {
    std::vector<ByteRange> heads, spans;
    for (size_t index : order) plan_chunk_head(bag, index, &heads);
    {
      PlannedReads reading_heads(source, std::move(heads));  // ended before the next plan starts
      for (size_t index : order) {
        if (!ticker.update(bag.chunks[index].pos / 2)) {
          result.cancelled = true;
          return result;
        }
        if (!read_chunk_header(source, &bag, index)) break;  // the walk below says so
        const Chunk& c = bag.chunks[index];
        const uint64_t from = c.record_end(), to = chunk_span_end(bag, positions, c);
        if (to > from && to - from <= kMaxIndexSpan) spans.push_back({from, to - from});
      }
    }
    planned = std::make_unique<PlannedReads>(source, std::move(spans));
  }
  size_t next = 0;
  std::string header_bytes, why;
  HeaderFields fields;
  for (;;) {
    // A chunk may hold the next message while it starts no later than the earliest one pending.
    while (next < order.size() && (pending.empty() || bag.chunks[order[next]].start.ns() <= pending.top().time_ns)) {
      if (!ticker.update(done_at(bag.chunks[order[next]].pos))) {
        result.cancelled = true;
        return result;
      }
      const size_t rank = next, index = order[next++];
      // Compressed: only the whole chunk holds its messages (their times are in its IndexData).
      if (!read_chunk_header(source, &bag, index) || (!times_only && bag.chunks[index].compression != "none")) {
        result.usable = false;
        return result;
      }
      const Chunk& c = bag.chunks[index];
      const uint64_t from = c.record_end(), to = chunk_span_end(bag, positions, c);
      if (to <= from || to - from > kMaxIndexSpan) return unusable(c, "no IndexData records follow it");
      std::vector<uint8_t> span = source.read_vector(from, static_cast<size_t>(to - from));
      result.bytes_read += span.size();
      // Per connection the ChunkInfo counts, to compare with what its IndexData lists.
      std::vector<std::pair<uint32_t, uint64_t>> listed;
      const uint64_t data_size = c.compression == "none" ? c.compressed_size : c.uncompressed_size;
      // Every record's offset, all connections: where each selected one ends at the latest.
      std::vector<uint32_t> starts;
      std::vector<Entry> found;
      size_t at = 0;
      while (at < span.size()) {
        RecordFrame frame;
        std::string_view header;
        if (parse_record(span.data(), span.size(), at, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header) ||
            fields.op() != kOpIndexData)
          break;  // the next record is no IndexData (a chunk the index does not list, or damage)
        uint32_t version = 0, conn = 0, count = 0;
        if (!fields.u32("ver", &version) || version != 1 || !fields.u32("conn", &conn) || !fields.u32("count", &count) ||
            uint64_t{count} * 12 != frame.data_len)
          return unusable(c, "an IndexData record at byte " + std::to_string(from + at) + " is malformed");
        listed.emplace_back(conn, count);
        const bool selected = is_selected(conn);
        const uint8_t* data = span.data() + frame.data_offset();
        for (uint32_t k = 0; k < count; ++k, data += 12) {
          const uint32_t offset = load_u32(data + 8);
          if (!times_only) starts.push_back(offset);
          if (!selected) continue;
          Time t{load_u32(data), load_u32(data + 4)};
          if (offset >= data_size) return unusable(c, "an IndexData entry points past its data");
          if (t.ns() >= options.start_ns && t.ns() <= options.end_ns) found.push_back(Entry{t.ns(), rank, offset, 0, conn, index});
        }
        at = static_cast<size_t>(frame.end());
      }
      std::sort(starts.begin(), starts.end());
      for (Entry& e : found) {
        auto next = std::upper_bound(starts.begin(), starts.end(), e.offset);
        e.extent = static_cast<uint32_t>(std::min<uint64_t>((next == starts.end() ? data_size : *next) - e.offset, UINT32_MAX));
        pending.push(e);
      }
      for (const auto& counted : c.counts) {
        const uint32_t conn = counted.first;
        if (!is_selected(conn)) continue;
        auto it = std::find_if(listed.begin(), listed.end(), [conn](const auto& p) { return p.first == conn; });
        if (it == listed.end() || it->second != counted.second)
          return unusable(c, "its IndexData lists " + std::to_string(it == listed.end() ? 0 : it->second) + " messages of connection " +
                                 std::to_string(conn) + ", its ChunkInfo " + std::to_string(counted.second));
      }
    }
    if (pending.empty()) return result;
    const Entry e = pending.top();
    pending.pop();
    const Chunk& c = bag.chunks[e.chunk];
    MessageView view;
    view.conn = e.conn;
    view.connection = bag.connection(e.conn);
    view.time = Time::from_ns(e.time_ns);
    view.record_offset = e.offset;
    view.chunk_pos = c.pos;
    if (times_only) {  // the index's word for it: no data
      ++result.delivered;
      if (!fn(view)) {
        result.stopped = true;
        return result;
      }
      continue;
    }
    RecordFrame frame;
    const uint64_t record = c.data_offset() + e.offset;
    // Its framing and data in one read, not its header's block then the rest: each read of a
    // file in the browser costs 1-2 ms whatever its size.
    source.will_read(record, e.extent);
    if (read_record(source, record, &frame, &header_bytes, &why) != FrameStatus::Ok || !fields.parse(header_bytes) ||
        fields.op() != kOpMessageData || frame.end() > c.record_end())
      return unusable(c, "its IndexData points at byte " + std::to_string(e.offset) + " of its data, which holds no message record");
    uint32_t conn = 0;
    Time time;
    if (!fields.u32("conn", &conn) || !fields.time("time", &time) || conn != e.conn || time.ns() != e.time_ns)
      return unusable(c, "the message at byte " + std::to_string(e.offset) + " of its data is not the one its IndexData lists");
    std::vector<uint8_t> data = source.read_vector(frame.data_offset(), frame.data_len);
    result.bytes_read += frame.end() - record;
    if (data.size() != frame.data_len) return unusable(c, "the message at byte " + std::to_string(e.offset) + " of its data cannot be read");
    view.data = std::string_view(reinterpret_cast<const char*>(data.data()), data.size());
    ++result.delivered;
    if (!fn(view)) {
      result.stopped = true;
      return result;
    }
  }
}

}  // namespace logscope::rosbag
