// The chunk pipeline (chunk_pipeline.h): grouped reads, claiming by worker threads or the
// decompression offload, decoding of each chunk's span, and the whole-file walk built on it.
#include "rosbag/chunk_pipeline.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "core/parallel.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define LOGSCOPE_ROSBAG_THREADS 0
#else
#define LOGSCOPE_ROSBAG_THREADS 1
#include <thread>
#endif

namespace logscope::rosbag {
namespace {


// Chunks are read in groups of consecutive chunks of at least this many bytes: few large reads
// (FileReaderSync costs ~1 ms per call) that also bypass the CLI's and the browser's block cache.
constexpr uint64_t kGroupBytes = 8u << 20;
// Below this file size, decompression threads are not started unless asked for.
constexpr uint64_t kThreadedBytes = 1u << 20;

std::string at_byte(uint64_t offset) { return "chunk at byte " + std::to_string(offset); }

ChunkLoad load_for(ChunkWalk walk) {
  ChunkLoad load;
  load.lz4_only = walk == ChunkWalk::Lz4Checksums;
  return load;
}

// Parses the chunk record at the start of [base, base+len), decompresses it and indexes its
// records. Touches only `out`: runs on worker threads.
void decode_span(const uint8_t* base, size_t len, uint64_t file_offset, bool trailer_complete, ChunkDecompressor& decompressor,
                 LoadedChunk* out, const ChunkLoad& load) {
  RecordFrame frame;
  std::string_view header;
  std::string why;
  if (parse_record(base, len, 0, &frame, &header, &why) != FrameStatus::Ok) {
    out->read_ok = false;
    out->span_short = true;
    out->read_error = at_byte(file_offset) + " is unreadable: " + why;
    return;
  }
  int op = -1;
  bool have_size = false;
  std::string_view compression;
  bool fields_ok = for_each_field(header, [&](std::string_view name, std::string_view value) {
    if (name == "op" && value.size() == 1) op = static_cast<uint8_t>(value[0]);
    else if (name == "compression") compression = value;
    else if (name == "size" && value.size() == 4) out->uncompressed_size = load_u32(value.data()), have_size = true;
  });
  if (!fields_ok || op != kOpChunk) {
    out->read_ok = false;
    out->read_error = "chunk info points at byte " + std::to_string(file_offset) + ", which holds no chunk record";
    out->read_code = "rosbag.chunk_info.bad_pos";
    return;
  }
  (void)have_size;
  out->header_ok = true;
  out->compression.assign(compression.data(), compression.size());
  out->compressed_size = frame.data_len;
  out->header_len = frame.header_len;
  out->trailer = base + frame.end();
  out->trailer_size = len - static_cast<size_t>(frame.end());
  out->trailer_offset = file_offset + frame.end();
  out->trailer_complete = trailer_complete;
  const uint8_t* data = base + frame.data_offset();
  if (load.lz4_only && compression != "lz4") {
    out->status.ok = true;  // no frame checksum to verify here
    return;
  }
  if (compression == "none") {
    out->status = with_bag_code(check_chunk_sizes(compression, frame.data_len, out->uncompressed_size));
    out->data = data;
    out->size = frame.data_len;
  } else {
    out->status = with_bag_code(decompressor.decompress(compression, data, frame.data_len, out->uncompressed_size, &out->buffer, load.verify));
    out->data = out->buffer.data();
    out->size = out->buffer.size();
  }
  if (!out->status.ok) {
    out->data = nullptr;
    out->size = 0;
    return;
  }
  if (load.lz4_only) return;
  index_chunk_records(out->data, out->size, &out->records, load.keep);
  auto& messages = out->records.messages;
  if (load.start_ns > 0 || load.end_ns < UINT64_MAX)
    messages.erase(std::remove_if(messages.begin(), messages.end(),
                                  [&](const ChunkMessage& m) { return m.time_ns < load.start_ns || m.time_ns > load.end_ns; }),
                   messages.end());
  auto by_time = [](const ChunkMessage& a, const ChunkMessage& b) { return a.time_ns < b.time_ns; };
  if (load.sort && !std::is_sorted(messages.begin(), messages.end(), by_time)) std::stable_sort(messages.begin(), messages.end(), by_time);
}

// Hands the compressed bytes of a chunk record in [base, base+len) to the decompressor's offload
// (browser helper workers), so they are decompressed while this thread works on other chunks.
// Returns the bytes handed on (what decompress() will be asked for), or nothing.
struct Prefetch {
  const uint8_t* data = nullptr;
  size_t size = 0;
};
Prefetch prefetch_span(const uint8_t* base, size_t len, ChunkDecompressor& decompressor, const ChunkLoad& load) {
  RecordFrame frame;
  std::string_view header;
  std::string why;
  if (parse_record(base, len, 0, &frame, &header, &why) != FrameStatus::Ok) return {};
  int op = -1;
  uint32_t size = 0;
  std::string_view compression;
  bool fields_ok = for_each_field(header, [&](std::string_view name, std::string_view value) {
    if (name == "op" && value.size() == 1) op = static_cast<uint8_t>(value[0]);
    else if (name == "compression") compression = value;
    else if (name == "size" && value.size() == 4) size = load_u32(value.data());
  });
  const uint8_t* data = base + frame.data_offset();
  if (load.lz4_only && compression != "lz4") return {};
  if (fields_ok && op == kOpChunk && decompressor.prefetch(compression, data, frame.data_len, size, load.verify))
    return {data, static_cast<size_t>(frame.data_len)};
  return {};
}

void reset(LoadedChunk* c) {
  c->data = nullptr;
  c->size = 0;
  c->records.messages.clear();
  c->records.connections.clear();
  c->records.other_records = 0;
  c->records.complete = true;
  c->records.stop_reason.clear();
  c->status = DecompressStatus();
  c->read_ok = true;
  c->read_error.clear();
  c->read_code = "rosbag.chunk.unreadable";
  c->header_ok = false;
  c->compression.clear();
  c->uncompressed_size = c->compressed_size = c->header_len = 0;
  c->trailer = nullptr;
  c->trailer_size = 0;
  c->trailer_offset = 0;
  c->trailer_complete = false;
  c->raw.reset();
  c->span_short = false;
}

// Reads one chunk record on its own: its framing first, then exactly its bytes.
std::shared_ptr<ByteBuffer> read_single(ByteSource& source, uint64_t pos, std::string* why) {
  RecordFrame frame;
  std::string header;
  FrameStatus status = read_record(source, pos, &frame, &header, why);
  if (status != FrameStatus::Ok) {
    if (status == FrameStatus::AtEnd) *why = "it lies past the end of the file";
    return nullptr;
  }
  auto buffer = std::make_shared<ByteBuffer>();
  buffer->resize(static_cast<size_t>(frame.end() - pos));
  if (source.read(pos, buffer->data(), buffer->size()) != buffer->size()) {
    *why = "the file could not be read here";
    return nullptr;
  }
  return buffer;
}

}  // namespace

// ChunkPipeline (chunk_pipeline.h): the reading, claiming and decoding behind take().
struct ChunkPipeline::Impl {
 public:
  Impl(ByteSource& source, const Bag& bag, std::vector<size_t> order, const ChunkLoad& load, unsigned threads)
      : source_(source), mapped_(source.mapped_data()), bag_(bag), order_(std::move(order)), load_(load) {
    positions_.reserve(bag.chunks.size());
    for (const Chunk& c : bag.chunks) positions_.push_back(c.pos);
    std::sort(positions_.begin(), positions_.end());
    // Unasked, a small file gets no threads: starting them costs more than its chunks do.
    unsigned n = threads ? threads : source.size() < kThreadedBytes ? 1 : worker_count();
#if LOGSCOPE_ROSBAG_THREADS
    if (n > 1 && order_.size() > 1 && !decompress_offload())  // an offload's helpers stand in for threads
      for (unsigned i = 0; i + 1 < n; ++i) workers_.emplace_back([this] { work(); });  // the caller is the n-th
#endif
    window_ = load.read_ahead ? kGroupBytes * 2 : 0;  // 0: one chunk queued at a time
    (void)n;
    // A remote file then fetches the coming chunks several at once, not one round trip each
    // (not for a caller that stops after a message or few: the Data tab's page, an image).
    if (!mapped_ && load.read_ahead && bag.encryptor.empty() && order_.size() > 1) {
      std::vector<ByteRange> ranges;
      ranges.reserve(order_.size());
      for (size_t i : order_) {
        const Chunk& c = bag.chunks[i];
        uint64_t end = span_end(c);
        if (end > c.pos && end - c.pos <= kMaxChunkSpan) ranges.push_back({c.pos, end - c.pos});
      }
      planned_ = std::make_unique<PlannedReads>(source, std::move(ranges));
    }
  }
  ~Impl() {
#if LOGSCOPE_ROSBAG_THREADS
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto& t : workers_) t.join();
#endif
  }

  std::unique_ptr<LoadedChunk> take() {
    std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
    for (;;) {
      fill();
      lock.lock();
      if (jobs_.empty()) return nullptr;
      if (jobs_.front()->done) break;
      if (decompress_offload()) {
        Job* job = claim_with_offload();
        lock.unlock();
        run(*job, main_decompressor_);
        continue;
      }
      if (next_claim_ < taken_ + jobs_.size()) {
        // Decode here rather than wait: the front job if nobody has started it, else the next one.
        Job* job = jobs_[next_claim_ - taken_].get();
        ++next_claim_;
        lock.unlock();
        run(*job, main_decompressor_);
        continue;
      }
      Job* front = jobs_.front().get();
      done_.wait(lock, [&] { return front->done; });
      break;
    }
    std::unique_ptr<Job> owned = std::move(jobs_.front());
    jobs_.pop_front();
    ++taken_;
    queued_bytes_ -= owned->bytes;
    lock.unlock();
    std::unique_ptr<LoadedChunk> result = std::move(owned->result);
    if (result->span_short && owned->grouped) {
      // The chunk did not fit where the next chunk starts (damage, or positions out of order):
      // read its record alone.
      std::string why;
      auto raw = read_single(source_, bag_.chunks[owned->chunk_index].pos, &why);
      reset(result.get());
      result->chunk_index = owned->chunk_index;
      if (!raw) {
        result->read_ok = false;
        result->read_error = at_byte(bag_.chunks[owned->chunk_index].pos) + " is unreadable: " + why;
      } else {
        result->raw = raw;
        decode_span(raw->data(), raw->size(), bag_.chunks[owned->chunk_index].pos, false, main_decompressor_, result.get(), load_);
      }
    }
    return result;
  }

  void recycle(std::unique_ptr<LoadedChunk> chunk) {
    if (!chunk) return;
    chunk->raw.reset();
    std::lock_guard<std::mutex> lock(mutex_);
    if (pool_.size() < 64) pool_.push_back(std::move(chunk));
  }

 private:
  struct Job {
    size_t chunk_index = 0;
    std::shared_ptr<const ByteBuffer> raw;  // the read holding the bytes; null when they are mapped
    const uint8_t* base = nullptr;          // the bytes: raw's data, or the mapping at the group
    size_t begin = 0, end = 0;              // this chunk's span within `base`
    uint64_t offset = 0;
    uint64_t bytes = 0;
    bool grouped = false;
    bool trailer_complete = false;
    bool read_ok = true;
    std::string read_error;
    std::unique_ptr<LoadedChunk> result;
    bool done = false;
    // With an offload (claim_with_offload): started on this thread, or handed to a helper.
    bool claimed = false;
    const uint8_t* offload_data = nullptr;
    size_t offload_size = 0;
  };

  // No threads (wasm), but helper workers behind the offload: this thread keeps the first chunk
  // nobody has started for itself and hands the ones after it to the helpers while they have
  // room. It collects the front chunk once its helper is done and meanwhile decodes its own, so
  // helpers and this thread share the work whatever each chunk costs. Called with the lock held;
  // the front job is not done.
  Job* claim_with_offload() {
    // The first chunk neither started here nor handed on, near the front: decoding further ahead
    // would only hold more decoded chunks in memory while the helpers catch up.
    constexpr size_t kOwnAhead = 4;
    Job* own = nullptr;
    for (size_t k = 0; k < jobs_.size() && k < kOwnAhead; ++k)
      if (!jobs_[k]->claimed && !jobs_[k]->offload_data) {
        own = jobs_[k].get();
        break;
      }
    for (auto& job : jobs_) {
      if (job.get() == own || job->claimed || job->offload_data || !job->read_ok || !job->base) continue;
      Prefetch handed = prefetch_span(job->base + job->begin, job->end - job->begin, main_decompressor_, load_);
      if (!handed.data) {
        if (decompress_offload()->free_slots() == 0) break;  // the helpers are full
        continue;                                             // not for a helper (none, damaged)
      }
      job->offload_data = handed.data;
      job->offload_size = handed.size;
    }
    Job* front = jobs_.front().get();
    bool front_waits = front->offload_data && !main_decompressor_.prefetched_ready(front->offload_data, front->offload_size);
    Job* job = front_waits && own ? own : front;
    job->claimed = true;
    return job;
  }

  // Where chunk `i`'s bytes end: at the next chunk in the file (so its IndexData records come
  // along in the same read), or at index_pos / the end of the file for the last one.
  uint64_t span_end(const Chunk& c) const { return chunk_span_end(bag_, positions_, c); }

  std::shared_ptr<ByteBuffer> buffer_for(size_t size) {
    // A pooled buffer that no chunk holds any more (only the pool references it).
    for (auto& b : raw_pool_)
      if (b.use_count() == 1) {
        b->resize(size);
        return b;
      }
    auto b = std::make_shared<ByteBuffer>();
    b->resize(size);
    if (raw_pool_.size() < 8) raw_pool_.push_back(b);
    return b;
  }

  void push(std::unique_ptr<Job> job) {
    std::lock_guard<std::mutex> lock(mutex_);
    queued_bytes_ += job->bytes;
    jobs_.push_back(std::move(job));
  }

  // Reads groups ahead until the window is full (caller's thread only).
  void fill() {
    bool pushed = false;
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (next_ >= order_.size() || (queued_bytes_ >= window_ && !jobs_.empty())) break;
      }
      size_t first = next_;
      const Chunk& c = bag_.chunks[order_[first]];
      ++next_;
      auto job = std::make_unique<Job>();
      job->chunk_index = order_[first];
      job->offset = c.pos;
      if (!bag_.encryptor.empty()) {
        job->read_ok = false;  // encrypted: reported once by the bag, not per chunk
        push(std::move(job));
        pushed = true;
        continue;
      }
      uint64_t end = span_end(c);
      bool alone = end <= c.pos || end - c.pos > kMaxChunkSpan || (c.header_read && c.header_ok && c.record_end() > end);
      if (alone) {
        std::string why;
        auto raw = read_single(source_, c.pos, &why);
        if (!raw) {
          job->read_ok = false;
          job->read_error = at_byte(c.pos) + " is unreadable: " + why;
        } else {
          job->end = raw->size();
          job->bytes = raw->size();
          job->base = raw->data();
          job->raw = std::move(raw);
        }
        push(std::move(job));
        pushed = true;
        continue;
      }
      // Extend the group over the chunks that follow it both in order and in the file.
      std::vector<std::pair<size_t, uint64_t>> members{{order_[first], end}};
      while (load_.read_ahead && next_ < order_.size() && end - c.pos < kGroupBytes) {
        const Chunk& n = bag_.chunks[order_[next_]];
        uint64_t n_end = span_end(n);
        if (n.pos != end || n_end <= n.pos || n_end - n.pos > kMaxChunkSpan || (n.header_read && n.header_ok && n.record_end() > n_end))
          break;
        members.emplace_back(order_[next_], n_end);
        end = n_end;
        ++next_;
      }
      // A mapped file is read in place; otherwise one large read for the group.
      std::shared_ptr<const ByteBuffer> shared;
      const uint8_t* base;
      size_t got;
      if (mapped_) {
        uint64_t from = std::min(c.pos, source_.size()), to = std::min(end, source_.size());
        base = mapped_ + from;
        got = static_cast<size_t>(to - from);  // short, like a read, where the file ends early
      } else {
        auto raw = buffer_for(static_cast<size_t>(end - c.pos));
        got = source_.read(c.pos, raw->data(), raw->size());
        base = raw->data();
        shared = std::move(raw);
      }
      uint64_t begin = c.pos;
      for (size_t k = 0; k < members.size(); ++k) {
        auto member = k == 0 ? std::move(job) : std::make_unique<Job>();
        const Chunk& m = bag_.chunks[members[k].first];
        member->chunk_index = members[k].first;
        member->offset = m.pos;
        member->grouped = true;
        member->raw = shared;
        member->base = base;
        member->begin = static_cast<size_t>(std::min<uint64_t>(m.pos - begin, got));
        member->end = static_cast<size_t>(std::min<uint64_t>(members[k].second - begin, got));
        member->trailer_complete = member->end == members[k].second - begin;
        member->bytes = members[k].second - m.pos;
        push(std::move(member));
      }
      pushed = true;
    }
#if LOGSCOPE_ROSBAG_THREADS
    if (pushed && !workers_.empty()) work_ready_.notify_all();
#else
    (void)pushed;
#endif
  }

  void run(Job& job, ChunkDecompressor& decompressor) {
    std::unique_ptr<LoadedChunk> out;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!pool_.empty()) {
        out = std::move(pool_.back());
        pool_.pop_back();
      }
    }
    if (!out) out = std::make_unique<LoadedChunk>();
    reset(out.get());
    out->chunk_index = job.chunk_index;
    out->read_ok = job.read_ok;
    out->read_error = job.read_error;
    if (job.read_ok) {
      out->raw = job.raw;
      decode_span(job.base + job.begin, job.end - job.begin, job.offset, job.trailer_complete, decompressor, out.get(), load_);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    job.result = std::move(out);
    job.done = true;
    done_.notify_all();
  }

#if LOGSCOPE_ROSBAG_THREADS
  void work() {
    ChunkDecompressor decompressor;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_ready_.wait(lock, [&] { return stopping_ || next_claim_ < taken_ + jobs_.size(); });
      if (stopping_) return;
      Job* job = jobs_[next_claim_ - taken_].get();
      ++next_claim_;
      lock.unlock();
      run(*job, decompressor);
      lock.lock();
    }
  }
  std::vector<std::thread> workers_;
  std::condition_variable work_ready_;
  bool stopping_ = false;
#endif

  ByteSource& source_;
  std::unique_ptr<PlannedReads> planned_;
  const uint8_t* mapped_;  // the whole file in memory (mmap): groups are not read, only pointed at
  const Bag& bag_;
  std::vector<size_t> order_;
  ChunkLoad load_;
  std::vector<uint64_t> positions_;
  uint64_t window_ = 0;
  size_t next_ = 0;  // next position in order_ to read (caller's thread)
  ChunkDecompressor main_decompressor_;
  std::vector<std::shared_ptr<ByteBuffer>> raw_pool_;  // caller's thread

  std::mutex mutex_;
  std::condition_variable done_;
  std::deque<std::unique_ptr<Job>> jobs_;  // read, not yet taken; jobs_[0] has sequence number taken_
  uint64_t taken_ = 0;
  uint64_t next_claim_ = 0;
  uint64_t queued_bytes_ = 0;
  std::vector<std::unique_ptr<LoadedChunk>> pool_;
};

ChunkPipeline::ChunkPipeline(ByteSource& source, const Bag& bag, std::vector<size_t> order, const ChunkLoad& load, unsigned threads)
    : impl_(std::make_unique<Impl>(source, bag, std::move(order), load, threads)) {}
ChunkPipeline::~ChunkPipeline() = default;
std::unique_ptr<LoadedChunk> ChunkPipeline::take() { return impl_->take(); }
void ChunkPipeline::recycle(std::unique_ptr<LoadedChunk> chunk) { impl_->recycle(std::move(chunk)); }

// Fills the chunk's lazily read header fields from what a load found (caller's thread).
void note_chunk_header(Bag& bag, const LoadedChunk& loaded) {
  Chunk& c = bag.chunks[loaded.chunk_index];
  if (c.header_read || !loaded.header_ok) return;
  c.header_read = true;
  c.header_ok = true;
  c.compression = loaded.compression;
  c.uncompressed_size = loaded.uncompressed_size;
  c.compressed_size = loaded.compressed_size;
  c.header_len = loaded.header_len;
}

std::vector<size_t> chunks_in_file_order(const Bag& bag) {
  std::vector<size_t> order(bag.chunks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bag.chunks[a].pos < bag.chunks[b].pos; });
  return order;
}

uint64_t chunk_span_end(const Bag& bag, const std::vector<uint64_t>& sorted_positions, const Chunk& c) {
  auto it = std::upper_bound(sorted_positions.begin(), sorted_positions.end(), c.pos);
  if (it != sorted_positions.end()) return *it;
  if (bag.indexed && bag.index_pos > c.pos) return bag.index_pos;
  return bag.file_size;
}

void load_chunk_span(const uint8_t* base, size_t len, size_t chunk_index, uint64_t pos, ChunkDecompressor& decompressor, LoadedChunk* out,
                     ChunkWalk walk) {
  reset(out);
  out->chunk_index = chunk_index;
  decode_span(base, len, pos, true, decompressor, out, load_for(walk));
}

void load_chunk(ByteSource& source, const Bag& bag, size_t chunk_index, LoadedChunk* out, const std::vector<bool>* keep) {
  reset(out);
  out->chunk_index = chunk_index;
  const Chunk& chunk = bag.chunks[chunk_index];
  if (!bag.encryptor.empty()) {
    out->read_ok = false;
    return;
  }
  std::string why;
  auto raw = read_single(source, chunk.pos, &why);
  if (!raw) {
    out->read_ok = false;
    out->read_error = at_byte(chunk.pos) + " is unreadable: " + why;
    return;
  }
  out->raw = raw;
  ChunkDecompressor decompressor;
  ChunkLoad load;
  load.keep = keep;
  load.sort = true;
  decode_span(raw->data(), raw->size(), chunk.pos, false, decompressor, out, load);
}

bool for_each_chunk(ByteSource& source, Bag& bag, const std::function<void(LoadedChunk&)>& fn, const ProgressFn& progress,
                    ChunkWalk walk, unsigned threads) {
  std::vector<size_t> order = chunks_in_file_order(bag);
  if (walk == ChunkWalk::Lz4Checksums)  // a chunk whose header says it is not lz4 need not be read
    order.erase(std::remove_if(order.begin(), order.end(), [&](size_t i) { return !bag.chunks[i].may_be_lz4(); }), order.end());
  uint64_t total = bag.index_pos > bag.first_record_offset ? bag.index_pos - bag.first_record_offset : bag.file_size;
  ProgressTicker ticker(progress, total);
  ChunkPipeline pipeline(source, bag, order, load_for(walk), threads);
  for (size_t k = 0; k < order.size(); ++k) {
    auto loaded = pipeline.take();
    if (!loaded) break;
    note_chunk_header(bag, *loaded);
    fn(*loaded);
    // Bytes up to the next chunk (all of them after the last one).
    uint64_t done = k + 1 < order.size() ? bag.chunks[order[k + 1]].pos - std::min(bag.chunks[order[k + 1]].pos, bag.first_record_offset) : total;
    pipeline.recycle(std::move(loaded));
    if (!ticker.update(done)) return false;
  }
  return true;
}
}  // namespace logscope::rosbag
