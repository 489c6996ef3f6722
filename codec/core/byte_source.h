// ByteSource: the only way the codec sees a file. Random access by (offset, length)
// into caller memory, so a 10 GB file never has to be in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace logscope {

// [offset, offset + length) of a file.
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Copies up to `length` bytes at `offset` into `destination` and returns how many were copied.
  // A short count means end of file or an unreadable range; it never throws.
  virtual size_t read(uint64_t offset, void* destination, size_t length) = 0;
  // The same, for bytes a pass reads once, in order (SequentialReader's windows): a cache need not
  // keep them. Wrappers hand it on.
  virtual size_t read_once(uint64_t offset, void* destination, size_t length) { return read(offset, destination, length); }

  // Convenience: reads [offset, offset+length) clipped to the file into a new buffer.
  std::vector<uint8_t> read_vector(uint64_t offset, size_t length);
  // The whole source as one pointer when it is already in memory (memory, mmap): passes then
  // read it without copying. Null for sources that must be read (files, the browser, caches).
  virtual const uint8_t* mapped_data() const { return nullptr; }
  // A source of the same bytes whose read() may run on another thread while this one is used
  // (pread on the same file), or null. Lets a pass read its next window in the background
  // (SequentialReader). Wrappers that keep state (caches, counters) hand on their inner file's.
  virtual ByteSource* concurrent_source() { return nullptr; }
  // A hint: [offset, offset+length) will be read soon, in pieces (an index spread over several
  // records). A cache may fetch it in one call; other sources ignore it.
  virtual void will_read(uint64_t offset, uint64_t length) { (void)offset, (void)length; }
  // A hint: the next read that is not cached starts a run of adjacent reads of about `length`
  // bytes (a blob in SQLite's overflow pages, whose place only SQLite knows). A cache fetches that
  // much at once, instead of one block and then a run doubling from it. 0 drops the hint.
  virtual void expect_run(uint64_t length) { (void)length; }
  // A hint: a pass will read these ranges next, in this order (the chunks a plot samples, every
  // chunk of an export). A source that pays per request (a remote file) fetches the coming ones
  // several at once as the pass reaches them; others ignore it. Empty: the pass is over.
  virtual void will_read_ranges(std::vector<ByteRange> ranges) { (void)ranges; }
};

// Announces a pass's ranges for its lifetime (ByteSource::will_read_ranges), and ends the plan
// however the pass ends.
class PlannedReads {
 public:
  PlannedReads(ByteSource& source, std::vector<ByteRange> ranges) : source_(source) { source_.will_read_ranges(std::move(ranges)); }
  ~PlannedReads() { source_.will_read_ranges({}); }
  PlannedReads(const PlannedReads&) = delete;
  PlannedReads& operator=(const PlannedReads&) = delete;

 private:
  ByteSource& source_;
};

// Reads a native file with pread.
class FileByteSource : public ByteSource {
 public:
  // Returns null and sets `error` (e.g. "No such file or directory") when the file cannot be opened.
  static std::unique_ptr<FileByteSource> open(const std::string& path, std::string* error);
  ~FileByteSource() override;
  uint64_t size() const override { return size_; }
  size_t read(uint64_t offset, void* destination, size_t length) override;
  ByteSource* concurrent_source() override { return this; }

 private:
  FileByteSource(int fd, uint64_t size) : fd_(fd), size_(size) {}
  int fd_;
  uint64_t size_;
};

// A view of bytes owned elsewhere (tests, decompressed chunks).
class MemoryByteSource : public ByteSource {
 public:
  MemoryByteSource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  explicit MemoryByteSource(std::vector<uint8_t> owned)
      : owned_(std::move(owned)), data_(owned_.data()), size_(owned_.size()) {}
  uint64_t size() const override { return size_; }
  size_t read(uint64_t offset, void* destination, size_t length) override;
  const uint8_t* mapped_data() const override { return data_; }

 private:
  std::vector<uint8_t> owned_;
  const uint8_t* data_;
  size_t size_;
};

// Reads through a callback (the wasm bindings hand in a JS function).
class CallbackByteSource : public ByteSource {
 public:
  using ReadFunction = std::function<size_t(uint64_t offset, void* destination, size_t length)>;
  CallbackByteSource(uint64_t size, ReadFunction read) : size_(size), read_(std::move(read)) {}
  uint64_t size() const override { return size_; }
  size_t read(uint64_t offset, void* destination, size_t length) override;

 private:
  uint64_t size_;
  ReadFunction read_;
};

// Counts what passes through, so tests can assert how much of a file an operation touched.
class CountingByteSource : public ByteSource {
 public:
  explicit CountingByteSource(ByteSource& inner) : inner_(inner) {}
  uint64_t size() const override { return inner_.size(); }
  size_t read(uint64_t offset, void* destination, size_t length) override;
  size_t read_once(uint64_t offset, void* destination, size_t length) override;
  void will_read(uint64_t offset, uint64_t length) override { inner_.will_read(offset, length); }
  void expect_run(uint64_t length) override { inner_.expect_run(length); }
  void will_read_ranges(std::vector<ByteRange> ranges) override { inner_.will_read_ranges(std::move(ranges)); }
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t read_calls() const { return read_calls_; }
  void reset() { bytes_read_ = read_calls_ = 0; }

 private:
  ByteSource& inner_;
  uint64_t bytes_read_ = 0;
  uint64_t read_calls_ = 0;
};

// A small LRU block cache with read-ahead in front of a slow source (FileReaderSync costs ~1 ms
// per call whatever its size, so many small codec reads must become few large ones).
// A miss fetches at least what the read asks for, in one call. Sequential misses double the fetch
// size up to `max_fetch`; a random miss fetches one block, so scattered small reads (a bag's chunk
// headers) stay small.
class CachedByteSource : public ByteSource {
 public:
  struct Options {
    size_t block_size = 64 * 1024;
    size_t max_fetch = 8 * 1024 * 1024;
    size_t capacity = 32 * 1024 * 1024;  // total cached bytes
    size_t preload_capacity = 0;  // preloaded bytes kept at most; 0: a quarter of `capacity`
  };
  // A local file's, in the CLI and the benchmarks that read as it does: 16 KiB blocks, as the
  // page's, so opening an indexed log reads little more than its index (with 64 KiB blocks the
  // head's block and the tail's rounding took an MCAP's open 37 KB past its summary + 64 KiB).
  static Options for_local_file() {
    Options o;
    o.block_size = 16 * 1024;
    return o;
  }
  CachedByteSource(ByteSource& inner, Options options);
  explicit CachedByteSource(ByteSource& inner) : CachedByteSource(inner, Options()) {}
  uint64_t size() const override { return inner_.size(); }
  size_t read(uint64_t offset, void* destination, size_t length) override;
  // Served from the cache where it holds the bytes (or a plan fetched them), else straight from
  // the inner source and not kept: a 357 MiB index read once would otherwise fill the cache.
  size_t read_once(uint64_t offset, void* destination, size_t length) override;
  ByteSource* concurrent_source() override { return inner_.concurrent_source(); }
  // Fetches the range in one call when it fits in half the cache and is not cached already.
  void will_read(uint64_t offset, uint64_t length) override;
  // The next miss fetches the run's length (up to `max_fetch`) at once.
  void expect_run(uint64_t length) override { expected_run_ = length; }
  // Bytes at `offset` the caller read itself, ahead of the reads that need them: the browser
  // fetches a bag's scattered chunk headers all at once (FormatInspector::info_report_reads)
  // instead of one ~1 ms call each. They are served before the cache, never evicted, and kept
  // until release_preloaded(). False (nothing kept) when they overlap ranges already preloaded
  // or would exceed the preload capacity.
  bool preload(uint64_t offset, const uint8_t* data, size_t size);
  void release_preloaded();
  size_t preloaded_bytes() const { return preloaded_bytes_; }
  size_t cached_bytes() const { return cached_bytes_; }  // in the LRU blocks, besides the preloaded
  void clear();
  // Fetches several ranges at once (a remote file's concurrent or multi-range requests) and
  // preloads what it got; what it did not get is read as before. Set by the source's owner: a
  // plan (will_read_ranges) is then followed a window at a time, at most `window_bytes` (and the
  // preload capacity) ahead. Without a fetcher, plans are ignored.
  using RangeFetcher = std::function<void(const std::vector<ByteRange>& ranges)>;
  void set_range_fetcher(RangeFetcher fetcher, uint64_t window_bytes);
  void will_read_ranges(std::vector<ByteRange> ranges) override;
  // Windows fetched for plans, and the ranges in them: what a pass cost in round trips.
  uint64_t plan_windows() const { return plan_windows_; }
  uint64_t plan_ranges_fetched() const { return plan_ranges_fetched_; }

 private:
  struct Block {
    uint64_t offset;
    std::unique_ptr<uint8_t[]> bytes;  // not a vector: zeroing megabytes the read overwrites costs as much as the read
    size_t size;
  };
  const Block* find_block(uint64_t offset);
  const Block* find_preloaded(uint64_t offset) const;
  const Block* fetch(uint64_t offset, size_t wanted);
  // At a planned range that is not preloaded: fetches the window from it. True when it did.
  bool follow_plan(uint64_t offset);
  size_t preload_cap() const { return options_.preload_capacity ? options_.preload_capacity : options_.capacity / 4; }
  bool is_small(const Block& b) const { return b.size <= kSmallBlocks * options_.block_size; }
  static constexpr size_t kSmallBlocks = 4;

  ByteSource& inner_;
  Options options_;
  std::list<Block> blocks_;  // most recently used first
  size_t cached_bytes_ = 0;
  size_t small_bytes_ = 0;  // in blocks of at most kSmallBlocks blocks (see fetch)
  uint64_t expected_run_ = 0;
  uint64_t last_miss_end_ = UINT64_MAX;
  size_t next_fetch_;
  std::map<uint64_t, Block> preloaded_;  // by offset; never overlapping
  size_t preloaded_bytes_ = 0;
  RangeFetcher fetcher_;
  uint64_t window_bytes_ = 0;
  std::vector<ByteRange> plan_;
  size_t plan_fetched_ = 0;  // ranges before this one were offered to the fetcher already
  uint64_t plan_windows_ = 0, plan_ranges_fetched_ = 0;
};

}  // namespace logscope
