// SequentialReader: one front-to-back pass over a byte range in large windows.
// Whole-file passes (checksum, doctor, scans) read through it so they make a few big reads
// instead of one per record (a browser read costs ~1 ms whatever its size, and the page's reader
// streams the next window while the codec works on this one), and get pointers, not copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include "core/byte_source.h"

namespace logscope {

class SequentialReader {
 public:
  struct Options {
    size_t window = 8u << 20;        // bytes per read: at least this much, unless the range ends
    size_t max_view = 256u << 20;    // a single view larger than this is refused (hostile lengths)
    // Natively, with a source that allows it: the next window is read on another thread while
    // the pass works on this one (the browser's page does the same with its read-ahead worker).
    bool read_ahead = true;
  };
  // Every byte of [begin, end) passes the observer exactly once, in order, as the pass advances
  // (hashing beside parsing); also the bytes a forward jump skips.
  using Observer = std::function<void(const uint8_t* data, size_t size)>;

  SequentialReader(ByteSource& source, uint64_t begin, uint64_t end, Options options);
  SequentialReader(ByteSource& source, uint64_t begin, uint64_t end)
      : SequentialReader(source, begin, end, Options()) {}
  ~SequentialReader();
  SequentialReader(const SequentialReader&) = delete;
  SequentialReader& operator=(const SequentialReader&) = delete;
  void set_observer(Observer observer) { observer_ = std::move(observer); }

  // [offset, offset+length) as a pointer valid until the next call, or null when the range leaves
  // [begin, end), lies behind what was consumed, exceeds max_view or cannot be read (see error()).
  // Viewing at `offset` consumes everything before it: later views must not go back.
  const uint8_t* view(uint64_t offset, size_t length);
  // Consumes up to `offset` (the observer sees the bytes; nothing is kept). False on a read error.
  bool skip_to(uint64_t offset);
  // Consumes the rest of the range, with progress; false when cancelled or unreadable.
  bool drain(const std::function<bool(uint64_t done)>& keep_going = nullptr);

  uint64_t begin() const { return begin_; }
  uint64_t end() const { return end_; }
  uint64_t consumed() const { return consumed_; }  // bytes before this offset were handed on
  const std::string& error() const { return error_; }
  uint64_t reads() const { return reads_; }

 private:
  bool fill_to(uint64_t until);  // makes [window_begin_, until) resident
  bool take_ahead(uint64_t read_from, uint64_t want_end);  // the background window, if it fits
  void start_ahead();
  void observe_to(uint64_t offset);
  const uint8_t* at(uint64_t offset) const { return buffer_.data() + base_ + (offset - window_begin_); }

  ByteSource& source_;
  uint64_t begin_, end_;
  Options options_;
  Observer observer_;
  const uint8_t* mapped_;  // the whole source in memory (mmap, memory): no copies at all
  std::vector<uint8_t> buffer_;
  size_t base_ = 0;        // where window_begin_'s byte sits in buffer_
  uint64_t window_begin_;  // file offset of buffer_[base_]
  uint64_t window_end_;    // file offset after the last resident byte
  uint64_t consumed_;      // bytes before this were observed and may be dropped
  uint64_t reads_ = 0;
  std::string error_;
  // Read-ahead: the next window lands in ahead_buffer_ after kAheadHead bytes of room, where the
  // unconsumed tail of this window is copied before the two buffers swap.
  static constexpr size_t kAheadHead = 1u << 20;
  ByteSource* ahead_source_ = nullptr;  // set when reading ahead is allowed
  std::vector<uint8_t> ahead_buffer_;
  uint64_t ahead_offset_ = 0;
  size_t ahead_length_ = 0;
  std::future<size_t> ahead_;  // declared last: waited for before the buffers go
};

}  // namespace logscope

namespace logscope {

// A pass seen as a ByteSource, for readers written against random access (block walks): forward
// reads come from the SequentialReader's windows; anything behind them goes to `fallback`.
class SequentialByteSource : public ByteSource {
 public:
  SequentialByteSource(SequentialReader& reader, ByteSource& fallback) : reader_(reader), fallback_(fallback) {}
  uint64_t size() const override { return fallback_.size(); }
  size_t read(uint64_t offset, void* destination, size_t length) override;

 private:
  SequentialReader& reader_;
  ByteSource& fallback_;
};

}  // namespace logscope
