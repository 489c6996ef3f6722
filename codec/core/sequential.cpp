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
}

void SequentialReader::observe_to(uint64_t offset) {
  if (offset <= consumed_) return;
  if (observer_) {
    const uint8_t* base = mapped_ ? mapped_ + consumed_ : buffer_.data() + (consumed_ - window_begin_);
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
  // Drop what was consumed, keep the rest at the front, then read whole windows behind it.
  size_t keep = static_cast<size_t>(window_end_ - consumed_);
  uint64_t read_from = window_end_;
  uint64_t want_end = std::min(end_, std::max(until, read_from + options_.window));
  size_t needed = keep + static_cast<size_t>(want_end - read_from);
  if (keep && consumed_ > window_begin_)
    std::memmove(buffer_.data(), buffer_.data() + (consumed_ - window_begin_), keep);
  window_begin_ = consumed_;
  if (buffer_.size() < needed) buffer_.resize(needed);
  size_t got = source_.read(read_from, buffer_.data() + keep, static_cast<size_t>(want_end - read_from));
  ++reads_;
  window_end_ = read_from + got;
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
  return mapped_ ? mapped_ + offset : buffer_.data() + (offset - window_begin_);
}

bool SequentialReader::skip_to(uint64_t offset) {
  offset = std::min(offset, end_);
  while (consumed_ < offset) {
    if (window_end_ <= consumed_) {
      // Nothing resident at consumed_: without an observer the skipped bytes need not be read.
      if (!observer_ && !mapped_) {
        consumed_ = window_begin_ = window_end_ = offset;
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
