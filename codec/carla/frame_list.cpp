#include "carla/frame_list.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace logscope::carla {

namespace {

// An entry's flags byte: which fields are stored after it (the others are predicted).
constexpr uint8_t kIdStored = 1 << 0;       // else previous id + 1
constexpr uint8_t kOffsetStored = 1 << 1;   // else the previous frame's end
constexpr int kElapsedShift = 2;            // 2 bits, a DoubleMode; predicted: previous elapsed + duration
constexpr int kDurationShift = 4;           // 2 bits, a DoubleMode; predicted: previous duration
constexpr uint8_t kPacketsStored = 1 << 6;  // else the previous packet count
constexpr uint8_t kHasEvents = 1 << 7;
// How a double is stored: as predicted (nothing), as the zigzag difference of its bits from the
// prediction's (a varint: a few ulps off is a byte or two), or as its 8 bytes.
enum DoubleMode : uint8_t { kPredicted = 0, kUlpDelta = 1, kRaw = 2 };

uint64_t bits_of(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
double double_of(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

using packed::get_varint;
using packed::put_varint;
using packed::varint_size;

// Stores `value` against `predicted`; returns the mode and advances *p past what it wrote.
DoubleMode put_double(uint8_t*& p, double value, double predicted) {
  // A NaN prediction is not trusted to carry the same payload on reading (WebAssembly leaves
  // the payload of an operation's NaN open).
  if (predicted != predicted) {
    std::memcpy(p, &value, 8);
    p += 8;
    return kRaw;
  }
  uint64_t delta = bits_of(value) - bits_of(predicted);
  if (delta == 0) return kPredicted;
  uint64_t zigzag = packed::zigzag(delta);
  if (varint_size(zigzag) < 8) {
    p = put_varint(p, zigzag);
    return kUlpDelta;
  }
  std::memcpy(p, &value, 8);
  p += 8;
  return kRaw;
}
bool get_double(const uint8_t*& p, const uint8_t* end, unsigned mode, double predicted, double* value) {
  if (mode == kPredicted) {
    *value = predicted;
  } else if (mode == kUlpDelta) {
    uint64_t zigzag;
    if (!get_varint(p, end, &zigzag)) return false;
    *value = double_of(bits_of(predicted) + packed::unzigzag(zigzag));
  } else {
    if (end - p < 8) return false;
    std::memcpy(value, p, 8);
    p += 8;
  }
  return true;
}

// Writes `f` predicted from `prev`, or in full without one (a block's first entry); returns the end.
uint8_t* encode(uint8_t* p, const FrameEntry* prev, const FrameEntry& f) {
  uint8_t* flags = p++;
  unsigned bits = f.has_events ? kHasEvents : 0;
  if (!prev || f.id != prev->id + 1) bits |= kIdStored, p = put_varint(p, f.id);
  if (!prev || f.offset != prev->end) bits |= kOffsetStored, p = put_varint(p, f.offset);
  if (prev) {
    bits |= put_double(p, f.elapsed, prev->elapsed + prev->duration) << kElapsedShift;
    bits |= put_double(p, f.duration, prev->duration) << kDurationShift;
  } else {
    std::memcpy(p, &f.elapsed, 8), std::memcpy(p + 8, &f.duration, 8), p += 16;
    bits |= kRaw << kElapsedShift | kRaw << kDurationShift;
  }
  if (!prev || f.packets != prev->packets) bits |= kPacketsStored, p = put_varint(p, f.packets);
  p = put_varint(p, f.end - f.offset);  // wraps for an end before the offset, and back on reading
  *flags = static_cast<uint8_t>(bits);
  return p;
}

// Reads the entry at `p` (before `end`) after `prev` (ignored where the flags say a field is
// stored); false when the bytes end first, which only a bug can cause: the list wrote them.
bool decode(const uint8_t*& p, const uint8_t* end, const FrameEntry& prev, FrameEntry* f) {
  if (p >= end) return false;
  unsigned bits = *p++;
  uint64_t v = 0;
  FrameEntry out;
  out.has_events = (bits & kHasEvents) != 0;
  if (!(bits & kIdStored)) out.id = prev.id + 1;
  else if (!get_varint(p, end, &out.id)) return false;
  if (!(bits & kOffsetStored)) out.offset = prev.end;
  else if (!get_varint(p, end, &out.offset)) return false;
  if (!get_double(p, end, (bits >> kElapsedShift) & 3, prev.elapsed + prev.duration, &out.elapsed) ||
      !get_double(p, end, (bits >> kDurationShift) & 3, prev.duration, &out.duration))
    return false;
  if (!(bits & kPacketsStored)) out.packets = prev.packets;
  else if (get_varint(p, end, &v)) out.packets = static_cast<uint32_t>(v);
  else return false;
  if (!get_varint(p, end, &v)) return false;
  out.end = out.offset + v;
  *f = out;
  return true;
}

}  // namespace

void FrameList::decode_at(Position* at, const FrameEntry* previous, FrameEntry* frame) const {
  const uint8_t* end;
  const uint8_t* start = bytes_.bytes_at(*at, &end);
  const uint8_t* p = start;
  if (!decode(p, end, previous ? *previous : FrameEntry(), frame)) *frame = FrameEntry();
  at->at += static_cast<uint32_t>(p - start);
}

void FrameList::decode_through(size_t i, FrameEntry* frame, Position* next) const {
  *next = bytes_.mark(i / kBlock);
  decode_at(next, nullptr, frame);
  for (size_t k = i - i % kBlock; k < i; ++k) decode_at(next, frame, frame);
}

FrameList& FrameList::operator=(FrameList&& other) noexcept {
  bytes_ = std::move(other.bytes_);
  other.bytes_ = packed::PagedBytes();
  size_ = std::exchange(other.size_, 0);
  last_ = std::exchange(other.last_, FrameEntry());
  return *this;
}

FrameEntry FrameList::operator[](size_t i) const {
  if (i + 1 == size_) return last_;
  FrameEntry f;
  Position next;
  decode_through(i, &f, &next);
  return f;
}

FrameEntry FrameList::at(size_t i) const {
  if (i >= size_) throw std::out_of_range("FrameList::at: index " + std::to_string(i) + " of " + std::to_string(size_));
  return (*this)[i];
}

void FrameList::push_back(const FrameEntry& frame) {
  bool block_start = size_ % kBlock == 0;
  uint8_t* start = bytes_.room(kMaxEntryBytes, block_start);
  bytes_.commit(static_cast<size_t>(encode(start, block_start ? nullptr : &last_, frame) - start));
  last_ = frame;
  ++size_;
}

void FrameList::clear() { *this = FrameList(); }

size_t FrameList::memory_bytes() const { return sizeof *this + bytes_.memory_bytes(); }

FrameEntry FrameList::const_iterator::operator*() const {
  if (decoded_ == index_) return current_;
  if (decoded_ + 1 == index_ && index_ % kBlock != 0) list_->decode_at(&next_, &current_, &current_);  // the next entry of its block
  else list_->decode_through(index_, &current_, &next_);
  decoded_ = index_;
  return current_;
}

}  // namespace logscope::carla
