// Messages in time order (iterate.h): V2.0 chunks taken from the chunk pipeline
// (chunk_pipeline.h) and merged by time, V1.x message records read where the index puts them.
#include "rosbag/iterate.h"

#include <algorithm>
#include <queue>

#include "rosbag/chunk_pipeline.h"

namespace logscope::rosbag {
namespace {

std::string at_byte(uint64_t offset) { return "chunk at byte " + std::to_string(offset); }

void report_chunk(const Bag& bag, const LoadedChunk& loaded, std::vector<Problem>* problems) {
  if (!problems) return;
  const Chunk& chunk = bag.chunks[loaded.chunk_index];
  std::string where = at_byte(chunk.pos);
  if (!loaded.read_ok) {
    if (bag.encryptor.empty())
      problems->push_back(Problem{Severity::Error, chunk.pos, loaded.read_code,
                                  loaded.read_error.empty() ? where + " could not be read" : loaded.read_error});
  } else if (!loaded.status.ok) {
    problems->push_back(Problem{Severity::Error, chunk.pos, loaded.status.code, where + ": " + loaded.status.message});
  } else if (!loaded.records.complete) {
    problems->push_back(Problem{Severity::Error, chunk.pos + 8 + loaded.header_len, "rosbag.chunk.malformed_record",
                                where + ": inner record at chunk offset " + std::to_string(loaded.records.stop_offset) + ": " +
                                    loaded.records.stop_reason});
  }
}

IterateResult iterate_v1(ByteSource& source, const Bag& bag, const IterateOptions& options,
                         const std::vector<bool>& selected, const std::function<bool(const MessageView&)>& fn,
                         std::vector<Problem>* problems, const ProgressFn& progress) {
  IterateResult result;
  // Progress in bytes of the file, as the other passes report it: the share of the messages
  // visited (they are read in time order, not the file's).
  const uint64_t n = bag.messages.size();
  ProgressTicker ticker(progress, bag.file_size, 1 << 16);
  std::string header, why;
  std::vector<uint8_t> data;
  HeaderFields fields;
  uint64_t done = 0;
  for (const MessageRef& ref : bag.messages) {
    ++done;
    if (!ticker.update(static_cast<uint64_t>(static_cast<double>(done) / static_cast<double>(n) * static_cast<double>(bag.file_size)))) {
      result.cancelled = true;
      break;
    }
    if (ref.time_ns < options.start_ns || ref.time_ns > options.end_ns) continue;
    if (!selected.empty() && (ref.conn >= selected.size() || !selected[ref.conn])) continue;
    if (result.skipped < options.skip) {  // positions are in memory: nothing to read
      ++result.skipped;
      continue;
    }
    MessageView view;
    view.conn = ref.conn;
    view.connection = bag.connection(ref.conn);
    view.time = Time::from_ns(ref.time_ns);
    uint64_t pos = ref.offset;
    if (bag.version == 101) {
      std::vector<uint8_t> head = source.read_vector(pos, 4096);
      std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
      size_t nl = text.find('\n');
      for (int k = 0; k < 2 && nl != text.npos; ++k) nl = text.find('\n', nl + 1);
      if (nl == text.npos || head.size() < nl + 13) continue;
      uint32_t len = load_u32(head.data() + nl + 9);
      data = source.read_vector(pos + nl + 13, len);
    } else {
      // An index entry may point at the MSG_DEF record that precedes the data record.
      RecordFrame frame;
      bool found = false;
      for (int hops = 0; hops < 4; ++hops) {
        if (read_record(source, pos, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header)) break;
        if (fields.op() == kOpMessageData) {
          found = true;
          break;
        }
        if (fields.op() != kOpMessageDefinition) break;
        pos = frame.end();
      }
      if (!found) {
        if (problems)
          problems->push_back(Problem{Severity::Error, ref.offset, "rosbag.index.bad_offset",
                                      "index entry points at byte " + std::to_string(ref.offset) + ", which holds no message record"});
        continue;
      }
      data = source.read_vector(frame.data_offset(), frame.data_len);
    }
    view.record_offset = pos;
    view.data = std::string_view(reinterpret_cast<const char*>(data.data()), data.size());
    ++result.messages;
    if (!fn(view)) {
      result.stopped = true;
      break;
    }
  }
  return result;
}

}  // namespace

IterateResult for_each_message(ByteSource& source, Bag& bag, const IterateOptions& options,
                               const std::function<bool(const MessageView&)>& fn, std::vector<Problem>* problems,
                               const ProgressFn& progress) {
  // Connection ids are normally 0..n-1; a bitmap keeps the per-message filter cheap.
  std::vector<bool> selected;
  if (!options.connections.empty()) {
    uint32_t max_id = *std::max_element(options.connections.begin(), options.connections.end());
    selected.assign(std::min<uint32_t>(max_id, 1u << 24) + 1, false);
    for (uint32_t id : options.connections)
      if (id < selected.size()) selected[id] = true;
  }
  if (bag.format != Format::RosbagV20) return iterate_v1(source, bag, options, selected, fn, problems, progress);

  std::vector<size_t> order;
  for (size_t i = 0; i < bag.chunks.size(); ++i) {
    const Chunk& c = bag.chunks[i];
    if (c.end.ns() < options.start_ns || c.start.ns() > options.end_ns) continue;
    if (!selected.empty() && !std::any_of(c.counts.begin(), c.counts.end(), [&](const auto& p) {
          return p.first < selected.size() && selected[p.first] && p.second > 0;
        }))
      continue;
    order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bag.chunks[a].start < bag.chunks[b].start; });
  IterateResult result;
  result.chunks_in_range = order.size();
  if (options.max_chunks && order.size() > options.max_chunks) {
    std::vector<size_t> sample;
    sample.reserve(static_cast<size_t>(options.max_chunks));
    for (uint64_t k = 0; k < options.max_chunks; ++k) sample.push_back(order[static_cast<size_t>(k * order.size() / options.max_chunks)]);
    order.swap(sample);
  }
  // Paging: whole chunks before the page are counted from their ChunkInfo, not read, as long as
  // each ends no later than every later chunk starts (then all its messages come first) and lies
  // wholly inside the time filter.
  uint64_t to_skip = options.skip;
  size_t skipped_chunks = 0;
  while (to_skip > 0 && skipped_chunks < order.size()) {
    const Chunk& c = bag.chunks[order[skipped_chunks]];
    if (skipped_chunks + 1 < order.size() && bag.chunks[order[skipped_chunks + 1]].start < c.end) break;
    if (c.start.ns() < options.start_ns || c.end.ns() > options.end_ns) break;
    uint64_t n = 0;
    for (const auto& count : c.counts)
      if (selected.empty() || (count.first < selected.size() && selected[count.first])) n += count.second;
    if (n > to_skip) break;
    to_skip -= n;
    ++skipped_chunks;
  }
  result.skipped = options.skip - to_skip;
  result.chunks_skipped = skipped_chunks;
  order.erase(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(skipped_chunks));
  // Chunk start times in delivery order, for the merge (order_ moves into the pipeline).
  std::vector<uint64_t> starts(order.size());
  for (size_t k = 0; k < order.size(); ++k) starts[k] = bag.chunks[order[k]].start.ns();
  ChunkLoad load;
  load.keep = selected.empty() ? nullptr : &selected;
  load.start_ns = options.start_ns;
  load.end_ns = options.end_ns;
  load.sort = true;
  load.verify = options.verify_checksums;
  load.read_ahead = options.read_ahead;
  // Progress in bytes of the file, as every format's passes report it (the page shows bytes, a
  // rate and the time left): a chunk counts from its record to the next chunk's (the last to the
  // index section), once it is loaded, so a read of a few topics moves with the chunks it reads.
  // (The index lists chunks in file order; where it does not, each counts an equal share.)
  bool in_file_order = true;
  for (size_t i = 1; i < bag.chunks.size() && in_file_order; ++i) in_file_order = bag.chunks[i - 1].pos < bag.chunks[i].pos;
  const uint64_t chunks_end = bag.index_pos > 0 ? bag.index_pos : bag.file_size;
  auto span_of = [&](size_t i) -> uint64_t {
    const uint64_t pos = bag.chunks[i].pos;
    if (!in_file_order) return chunks_end > bag.chunks.front().pos ? (chunks_end - bag.chunks.front().pos) / bag.chunks.size() : 0;
    const uint64_t end = i + 1 < bag.chunks.size() ? bag.chunks[i + 1].pos : chunks_end > pos ? chunks_end : bag.file_size;
    return end > pos ? end - pos : 0;
  };
  std::vector<uint64_t> spans(order.size());
  uint64_t total = 0;
  for (size_t k = 0; k < order.size(); ++k) total += spans[k] = span_of(order[k]);
  ChunkPipeline pipeline(source, bag, order, load, options.threads);
  ProgressTicker ticker(progress, total, 1 << 16);

  // Connection lookup by id without a hash per message.
  std::vector<const Connection*> by_id;
  uint32_t max_id = 0;
  for (const Connection& c : bag.connections) max_id = std::max(max_id, c.id);
  if (max_id < (1u << 20)) {
    by_id.assign(size_t{max_id} + 1, nullptr);
    for (const Connection& c : bag.connections)
      if (!by_id[c.id]) by_id[c.id] = bag.connection(c.id);
  }
  auto connection = [&](uint32_t id) -> const Connection* {
    if (id < by_id.size()) return by_id[id];
    return by_id.empty() ? bag.connection(id) : nullptr;
  };

  // Merge: a heap of (time, chunk rank) over the chunks loaded so far, used only while chunks'
  // time ranges overlap. A chunk is loaded once the earliest pending message is not earlier than
  // its start time; a sorted, non-overlapping bag keeps one chunk at a time and delivers it whole.
  struct Active {
    std::unique_ptr<LoadedChunk> chunk;
    size_t next = 0;
    size_t rank = 0;
  };
  std::vector<Active> active;
  std::vector<size_t> free_slots;
  using Entry = std::pair<std::pair<uint64_t, size_t>, size_t>;  // ((time, rank), slot)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  size_t loaded_count = 0;
  uint64_t done = 0;
  auto load_next = [&]() {
    auto chunk = pipeline.take();
    done += spans[loaded_count];
    ++loaded_count;
    if (!chunk) return;
    note_chunk_header(bag, *chunk);
    result.compressed_bytes += chunk->compressed_size;
    ++result.chunks;
    report_chunk(bag, *chunk, problems);
    if (chunk->status.checksum_verified) ++result.lz4_chunks_checked;
    if (chunk->status.code == "rosbag.chunk.lz4_checksum") ++result.lz4_checksum_failures;
    if (chunk->records.messages.empty()) {
      pipeline.recycle(std::move(chunk));
      return;
    }
    size_t slot;
    if (!free_slots.empty()) {
      slot = free_slots.back();
      free_slots.pop_back();
    } else {
      slot = active.size();
      active.emplace_back();
    }
    uint64_t first = chunk->records.messages.front().time_ns;
    active[slot] = Active{std::move(chunk), 0, loaded_count};
    heap.push({{first, loaded_count}, slot});
  };
  while (true) {
    while (loaded_count < order.size() && (heap.empty() || starts[loaded_count] <= heap.top().first.first)) load_next();
    if (heap.empty()) break;
    if (!ticker.update(done)) {
      result.cancelled = true;
      break;
    }
    size_t slot = heap.top().second;
    heap.pop();
    Active& a = active[slot];
    const LoadedChunk& loaded = *a.chunk;
    const auto& messages = loaded.records.messages;
    const uint64_t chunk_pos = bag.chunks[loaded.chunk_index].pos;
    const char* base = reinterpret_cast<const char*>(loaded.data);
    // Deliver a run from this chunk while it stays the earliest (most messages take this path).
    uint64_t limit = heap.empty() ? UINT64_MAX : heap.top().first.first;
    if (loaded_count < order.size()) limit = std::min(limit, starts[loaded_count]);
    size_t n = messages.size(), i = a.next, begin = i;
    bool stop = false;
    MessageView view;
    view.chunk_pos = chunk_pos;
    if (to_skip > 0) {  // the rest of the page's prefix, inside decoded chunks
      size_t run = i;
      while (run < n && to_skip > 0 && (run == i || messages[run].time_ns < limit)) ++run, --to_skip;
      result.skipped += run - i;
      i = a.next = run;
      if (i == n || (messages[i].time_ns >= limit)) {
        if (a.next < n) {
          heap.push({{messages[a.next].time_ns, a.rank}, slot});
        } else {
          pipeline.recycle(std::move(a.chunk));
          free_slots.push_back(slot);
        }
        continue;
      }
      begin = i;
    }
    do {
      const ChunkMessage& m = messages[i];
      view.conn = m.conn;
      view.connection = connection(m.conn);
      view.time = Time::from_ns(m.time_ns);
      view.data = std::string_view(base + m.data_offset, m.data_len);
      view.record_offset = m.record_offset;
      ++i;
      if (!fn(view)) {
        stop = true;
        break;
      }
    } while (i < n && messages[i].time_ns < limit);
    result.messages += i - begin;
    a.next = i;
    if (stop) {
      result.stopped = true;
      break;
    }
    if (a.next < n) {
      heap.push({{messages[a.next].time_ns, a.rank}, slot});
    } else {
      pipeline.recycle(std::move(a.chunk));
      free_slots.push_back(slot);
    }
  }
  for (Active& a : active) pipeline.recycle(std::move(a.chunk));
  return result;
}

}  // namespace logscope::rosbag
