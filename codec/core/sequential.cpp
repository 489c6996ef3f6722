#include "core/sequential.h"

#include <algorithm>
#include <cstring>

namespace logscope {

SequentialReader::SequentialReader(ByteSource& source, uint64_t begin, uint64_t end, Options options)
    : source_(source),
      begin_(std::min(begin, source.size())),
      end_(std::min(std::max(begin, end), source.size())),
      options_(options),
      mapped_(source.mapped_data()),
      window_begin_(begin_),
      window_end_(begin_),
      consumed_(begin_) {
  options_.window = std::max<size_t>(options_.window, 4096);
#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
  if (options_.read_ahead && !mapped_ && end_ - begin_ > options_.window) ahead_source_ = source.concurrent_source();
#endif
}

SequentialReader::~SequentialReader() {
  if (ahead_.valid()) ahead_.wait();
}

// Reads the window after the resident one on another thread (only what fill_to will ask next).
void SequentialReader::start_ahead() {
  if (!ahead_source_ || ahead_.valid() || window_end_ >= end_) return;
  ahead_offset_ = window_end_;
  ahead_length_ = static_cast<size_t>(std::min<uint64_t>(options_.window, end_ - window_end_));
  if (ahead_buffer_.size() < kAheadHead + ahead_length_) ahead_buffer_.resize(kAheadHead + ahead_length_);
  uint8_t* into = ahead_buffer_.data() + kAheadHead;
  ByteSource* source = ahead_source_;
  uint64_t offset = ahead_offset_;
  size_t length = ahead_length_;
  ahead_ = std::async(std::launch::async, [source, offset, into, length] { return source->read(offset, into, length); });
}

// Makes the background window resident if it is the one wanted: the unconsumed tail goes in
// front of it and the buffers swap. False (nothing changed) when it does not fit.
bool SequentialReader::take_ahead(uint64_t read_from, uint64_t want_end) {
  if (!ahead_.valid()) return false;
  size_t got = ahead_.get();  // also when it is not used: its buffer is ours again
  size_t keep = static_cast<size_t>(window_end_ - consumed_);
  if (ahead_offset_ != read_from || want_end > read_from + ahead_length_ || keep > kAheadHead) return false;
  size_t base = kAheadHead - keep;
  if (keep) std::memcpy(ahead_buffer_.data() + base, at(consumed_), keep);
  buffer_.swap(ahead_buffer_);
  base_ = base;
  window_begin_ = consumed_;
  window_end_ = read_from + got;
  ++reads_;
  return true;
}

void SequentialReader::observe_to(uint64_t offset) {
  if (offset <= consumed_) return;
  if (observer_) {
    const uint8_t* base = mapped_ ? mapped_ + consumed_ : at(consumed_);
    observer_(base, static_cast<size_t>(offset - consumed_));
  }
  consumed_ = offset;
}

bool SequentialReader::fill_to(uint64_t until) {
  if (mapped_) {
    window_end_ = std::max(window_end_, until);
    return true;
  }
  if (until <= window_end_) return true;
  uint64_t read_from = window_end_;
  uint64_t want_end = std::min(end_, std::max(until, read_from + options_.window));
  if (!take_ahead(read_from, want_end)) {
    // Drop what was consumed, keep the rest at the front, then read whole windows behind it.
    size_t keep = static_cast<size_t>(window_end_ - consumed_);
    size_t needed = keep + static_cast<size_t>(want_end - read_from);
    if (keep && (consumed_ > window_begin_ || base_)) std::memmove(buffer_.data(), at(consumed_), keep);
    base_ = 0;
    window_begin_ = consumed_;
    if (buffer_.size() < needed) buffer_.resize(needed);
    size_t got = source_.read_once(read_from, buffer_.data() + keep, static_cast<size_t>(want_end - read_from));
    ++reads_;
    window_end_ = read_from + got;
  }
  start_ahead();
  if (window_end_ < until) {
    error_ = "could not read byte " + std::to_string(window_end_) + " of the file";
    return false;
  }
  return true;
}

const uint8_t* SequentialReader::view(uint64_t offset, size_t length) {
  if (offset < consumed_ || offset > end_ || length > end_ - offset) return nullptr;
  if (length > options_.max_view) {
    error_ = "a record of " + std::to_string(length) + " bytes is larger than the pass handles at once";
    return nullptr;
  }
  if (!skip_to(offset)) return nullptr;
  if (!fill_to(offset + length)) return nullptr;
  return mapped_ ? mapped_ + offset : at(offset);
}

bool SequentialReader::skip_to(uint64_t offset) {
  offset = std::min(offset, end_);
  while (consumed_ < offset) {
    if (window_end_ <= consumed_) {
      // Nothing resident at consumed_: without an observer the skipped bytes need not be read.
      if (!observer_ && !mapped_) {
        consumed_ = window_begin_ = window_end_ = offset;  // (a background window no longer fits)
        return true;
      }
      if (!fill_to(std::min(offset, consumed_ + options_.window))) return false;
    }
    observe_to(std::min(offset, window_end_));
  }
  return true;
}

bool SequentialReader::drain(const std::function<bool(uint64_t done)>& keep_going) {
  while (consumed_ < end_) {
    if (keep_going && !keep_going(consumed_)) return false;
    if (!skip_to(std::min(end_, consumed_ + options_.window))) return false;
  }
  return true;
}

}  // namespace logscope

namespace logscope {

size_t SequentialByteSource::read(uint64_t offset, void* destination, size_t length) {
  if (length == 0) return 0;
  if (offset >= reader_.consumed() && offset < reader_.end()) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(length, reader_.end() - offset));
    if (const uint8_t* p = reader_.view(offset, n)) {
      std::memcpy(destination, p, n);
      if (n == length || offset + n >= size()) return n;
      return n + fallback_.read(offset + n, static_cast<uint8_t*>(destination) + n, length - n);
    }
  }
  return fallback_.read(offset, destination, length);
}

}  // namespace logscope
