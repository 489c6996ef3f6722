#include "rosbag/iterate.h"

#include <algorithm>
#include <deque>
#include <queue>

#include "core/parallel.h"

namespace logscope::rosbag {
namespace {

// Reads the compressed bytes of a chunk (serially: the ByteSource is not thread-safe).
void read_raw(ByteSource& source, const Bag& bag, size_t chunk_index, LoadedChunk* out, std::vector<uint8_t>* raw) {
  const Chunk& chunk = bag.chunks[chunk_index];
  out->chunk_index = chunk_index;
  out->read_ok = chunk.header_ok && bag.encryptor.empty();
  if (!out->read_ok) return;
  raw->resize(chunk.compressed_size);
  out->read_ok = source.read(chunk.data_offset(), raw->data(), raw->size()) == raw->size();
}

// Decompresses and indexes (runs on worker threads: touches only `out`).
void decode_raw(const Bag& bag, const std::vector<uint8_t>& raw, LoadedChunk* out, const std::vector<bool>* keep,
                uint64_t start_ns, uint64_t end_ns) {
  if (!out->read_ok) return;
  const Chunk& chunk = bag.chunks[out->chunk_index];
  out->status = decompress_chunk(chunk.compression, raw.data(), raw.size(), chunk.uncompressed_size, &out->bytes);
  if (!out->status.ok) return;
  index_chunk_records(out->bytes.data(), out->bytes.size(), &out->records, keep);
  auto& messages = out->records.messages;
  if (start_ns > 0 || end_ns < UINT64_MAX)
    messages.erase(std::remove_if(messages.begin(), messages.end(),
                                  [&](const ChunkMessage& m) { return m.time_ns < start_ns || m.time_ns > end_ns; }),
                   messages.end());
  auto by_time = [](const ChunkMessage& a, const ChunkMessage& b) { return a.time_ns < b.time_ns; };
  if (!std::is_sorted(messages.begin(), messages.end(), by_time)) std::stable_sort(messages.begin(), messages.end(), by_time);
}

void report_chunk(const Bag& bag, const LoadedChunk& loaded, std::vector<Problem>* problems) {
  if (!problems) return;
  const Chunk& chunk = bag.chunks[loaded.chunk_index];
  std::string where = "chunk at byte " + std::to_string(chunk.pos);
  if (!loaded.read_ok) {
    if (bag.encryptor.empty())
      problems->push_back(Problem{Severity::Error, chunk.pos, "rosbag.chunk.unreadable", where + " could not be read"});
  } else if (!loaded.status.ok) {
    problems->push_back(Problem{Severity::Error, chunk.pos, loaded.status.code, where + ": " + loaded.status.message});
  } else if (!loaded.records.complete) {
    problems->push_back(Problem{Severity::Error, chunk.data_offset(), "rosbag.chunk.malformed_record",
                                where + ": inner record at chunk offset " + std::to_string(loaded.records.stop_offset) + ": " +
                                    loaded.records.stop_reason});
  }
}

// Loads chunks of `order` in batches: compressed bytes read serially, decoded in parallel.
class BatchLoader {
 public:
  BatchLoader(ByteSource& source, const Bag& bag, const std::vector<size_t>& order, const std::vector<bool>* keep,
              uint64_t start_ns, uint64_t end_ns, unsigned threads)
      : source_(source), bag_(bag), order_(order), keep_(keep), start_ns_(start_ns), end_ns_(end_ns),
        threads_(threads ? threads : worker_count()) {}

  bool done() const { return next_ >= order_.size() && ready_.empty(); }
  size_t next_position() const { return next_ - ready_.size(); }
  std::unique_ptr<LoadedChunk> take() {
    if (ready_.empty()) fill();
    if (ready_.empty()) return nullptr;
    auto chunk = std::move(ready_.front());
    ready_.pop_front();
    return chunk;
  }

 private:
  void fill() {
    // Two chunks per worker keeps every core busy while bounding memory to a small window.
    size_t batch = std::min<size_t>(order_.size() - next_, std::max<unsigned>(2, threads_ * 2));
    std::vector<std::unique_ptr<LoadedChunk>> loaded(batch);
    raws_.resize(std::max(raws_.size(), batch));
    for (size_t i = 0; i < batch; ++i) {
      loaded[i] = std::make_unique<LoadedChunk>();
      read_raw(source_, bag_, order_[next_ + i], loaded[i].get(), &raws_[i]);
    }
    parallel_for(batch, [&](size_t i) { decode_raw(bag_, raws_[i], loaded[i].get(), keep_, start_ns_, end_ns_); }, threads_);
    next_ += batch;
    for (auto& l : loaded) ready_.push_back(std::move(l));
  }

  ByteSource& source_;
  const Bag& bag_;
  const std::vector<size_t>& order_;
  const std::vector<bool>* keep_;
  uint64_t start_ns_, end_ns_;
  unsigned threads_;
  size_t next_ = 0;
  std::deque<std::unique_ptr<LoadedChunk>> ready_;
  std::vector<std::vector<uint8_t>> raws_;
};

IterateResult iterate_v1(ByteSource& source, const Bag& bag, const IterateOptions& options,
                         const std::vector<bool>& selected, const std::function<bool(const MessageView&)>& fn,
                         std::vector<Problem>* problems, const ProgressFn& progress) {
  IterateResult result;
  ProgressTicker ticker(progress, bag.messages.size(), 4096);
  std::string header, why;
  std::vector<uint8_t> data;
  HeaderFields fields;
  uint64_t done = 0;
  for (const MessageRef& ref : bag.messages) {
    if (!ticker.update(++done)) {
      result.cancelled = true;
      break;
    }
    if (ref.time_ns < options.start_ns || ref.time_ns > options.end_ns) continue;
    if (!selected.empty() && (ref.conn >= selected.size() || !selected[ref.conn])) continue;
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

void load_chunk(ByteSource& source, const Bag& bag, size_t chunk_index, LoadedChunk* out, const std::vector<bool>* keep) {
  std::vector<uint8_t> raw;
  read_raw(source, bag, chunk_index, out, &raw);
  decode_raw(bag, raw, out, keep, 0, UINT64_MAX);
}

bool for_each_chunk(ByteSource& source, Bag& bag, const std::function<void(LoadedChunk&)>& fn, const ProgressFn& progress,
                    unsigned threads) {
  read_chunk_headers(source, &bag);
  std::vector<size_t> order(bag.chunks.size());
  uint64_t total = 0;
  for (size_t i = 0; i < order.size(); ++i) order[i] = i, total += bag.chunks[i].compressed_size;
  ProgressTicker ticker(progress, total);
  BatchLoader loader(source, bag, order, nullptr, 0, UINT64_MAX, threads);
  uint64_t done = 0;
  while (!loader.done()) {
    auto loaded = loader.take();
    if (!loaded) break;
    done += bag.chunks[loaded->chunk_index].compressed_size;
    fn(*loaded);
    if (!ticker.update(done)) return false;
  }
  return true;
}

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

  IterateResult result;
  read_chunk_headers(source, &bag);
  std::vector<size_t> order;
  uint64_t total = 0;
  for (size_t i = 0; i < bag.chunks.size(); ++i) {
    const Chunk& c = bag.chunks[i];
    if (c.end.ns() < options.start_ns || c.start.ns() > options.end_ns) continue;
    if (!selected.empty() && !std::any_of(c.counts.begin(), c.counts.end(), [&](const auto& p) {
          return p.first < selected.size() && selected[p.first] && p.second > 0;
        }))
      continue;
    order.push_back(i);
    total += c.compressed_size;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bag.chunks[a].start < bag.chunks[b].start; });
  BatchLoader loader(source, bag, order, selected.empty() ? nullptr : &selected, options.start_ns, options.end_ns, options.threads);
  ProgressTicker ticker(progress, total);

  // Merge: a heap of (time, chunk rank, message index) over the chunks loaded so far. A chunk is
  // loaded once the earliest pending message is not earlier than its start time.
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
    auto chunk = loader.take();
    ++loaded_count;
    if (!chunk) return;
    const Chunk& info = bag.chunks[chunk->chunk_index];
    done += info.compressed_size;
    result.compressed_bytes += info.compressed_size;
    ++result.chunks;
    report_chunk(bag, *chunk, problems);
    if (chunk->status.checksum_present) ++result.lz4_chunks_checked;
    if (chunk->status.code == "rosbag.chunk.lz4_checksum") ++result.lz4_checksum_failures;
    if (chunk->records.messages.empty()) return;
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
    while (loaded_count < order.size() &&
           (heap.empty() || bag.chunks[order[loaded_count]].start.ns() <= heap.top().first.first))
      load_next();
    if (heap.empty()) break;
    if (!ticker.update(done)) {
      result.cancelled = true;
      break;
    }
    size_t slot = heap.top().second;
    heap.pop();
    Active& a = active[slot];
    const auto& messages = a.chunk->records.messages;
    const Chunk& info = bag.chunks[a.chunk->chunk_index];
    // Deliver a run from this chunk while it stays the earliest (most messages take this path).
    uint64_t limit = heap.empty() ? UINT64_MAX : heap.top().first.first;
    if (loaded_count < order.size()) limit = std::min(limit, bag.chunks[order[loaded_count]].start.ns());
    bool stop = false;
    do {
      const ChunkMessage& m = messages[a.next];
      MessageView view;
      view.conn = m.conn;
      view.connection = bag.connection(m.conn);
      view.time = Time::from_ns(m.time_ns);
      view.data = std::string_view(reinterpret_cast<const char*>(a.chunk->bytes.data() + m.data_offset), m.data_len);
      view.record_offset = m.record_offset;
      view.chunk_pos = info.pos;
      ++result.messages;
      ++a.next;
      if (!fn(view)) {
        stop = true;
        break;
      }
    } while (a.next < messages.size() && messages[a.next].time_ns < limit);
    if (stop) {
      result.stopped = true;
      break;
    }
    if (a.next < messages.size()) {
      heap.push({{messages[a.next].time_ns, a.rank}, slot});
    } else {
      a.chunk.reset();
      free_slots.push_back(slot);
    }
  }
  return result;
}

}  // namespace logscope::rosbag
