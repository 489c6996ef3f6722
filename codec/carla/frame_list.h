// The scan's frame index, packed: about 3-6 bytes a frame instead of the 48 of a FrameEntry, so a
// 100 GB log (~28 million frames) keeps its index in ~150 MB, native and in WebAssembly.
// Frames go in blocks of kBlock. A block's first entry is stored in full; each later one as a
// flags byte and varints, its fields predicted from the frame before (id + 1, offset = previous
// end, elapsed = previous elapsed + duration, the same duration and packet count). What the
// prediction misses is stored, so any sequence reads back bit for bit. The bytes live in pages
// (core/paged_bytes.h: growth never copies the list) marked where each block starts, so `list[i]`
// decodes at most one block and iteration decodes each entry once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>

#include "core/paged_bytes.h"

namespace logscope::carla {

// A complete frame: FrameStart ... FrameEnd.
struct FrameEntry {
  uint64_t id = 0;
  double elapsed = 0;
  double duration = 0;
  uint64_t offset = 0;  // FrameStart packet header
  uint64_t end = 0;     // byte after the FrameEnd packet
  uint32_t packets = 0; // including FrameStart and FrameEnd
  bool has_events = false;  // EventAdd/Del/Parent/Collision with records (what `info` prints)
};

class FrameList {
 public:
  static constexpr size_t kBlock = 64;
  class const_iterator;

  FrameList() = default;
  FrameList(const FrameList& other) = default;  // copies the pages (a ScanResult is copied whole)
  FrameList(FrameList&& other) noexcept { *this = std::move(other); }
  FrameList& operator=(const FrameList& other) { return *this = FrameList(other); }
  FrameList& operator=(FrameList&& other) noexcept;  // leaves `other` empty

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  FrameEntry operator[](size_t i) const;
  FrameEntry at(size_t i) const;  // throws std::out_of_range
  FrameEntry front() const { return (*this)[0]; }
  const FrameEntry& back() const { return last_; }  // the last pushed entry; cheap
  void push_back(const FrameEntry& frame);
  void clear();
  size_t memory_bytes() const;  // bytes held: pages, block starts and the object itself

  const_iterator begin() const;
  const_iterator end() const;

  // The first index whose frame fails `before`, for a list where every frame that passes comes
  // first (as std::partition_point): by offset, elapsed time or id. Reads one entry per block
  // probed, then one block.
  template <class Before>
  size_t partition_point(Before before) const;

 private:
  friend class const_iterator;
  using Position = packed::PagedBytes::Position;
  // The longest encoded entry: flags, id and offset varints (10 each), elapsed and duration raw
  // (8 each), the length varint (10) and packets (5).
  static constexpr size_t kMaxEntryBytes = 1 + 10 + 10 + 8 + 8 + 10 + 5;

  // Decodes entries [block start, i] into *frame (i in that block); *next: where entry i + 1 starts.
  void decode_through(size_t i, FrameEntry* frame, Position* next) const;
  // Decodes the entry at *at (after `previous`, unless it starts a block) and steps *at over it.
  void decode_at(Position* at, const FrameEntry* previous, FrameEntry* frame) const;

  packed::PagedBytes bytes_;  // marked where each block starts
  size_t size_ = 0;
  FrameEntry last_;
};

// Random access over values: `*it` is a FrameEntry, decoded when read. Stepping forward reads the
// next entry from where the last one ended; a jump decodes its block from the start.
class FrameList::const_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = FrameEntry;
  using difference_type = std::ptrdiff_t;
  using pointer = const FrameEntry*;
  using reference = FrameEntry;  // by value: the list holds no FrameEntry to refer to

  const_iterator() = default;
  const_iterator(const FrameList* list, size_t index) : list_(list), index_(index) {}

  FrameEntry operator*() const;
  const FrameEntry* operator->() const {
    (void)**this;  // decodes into current_
    return &current_;
  }
  FrameEntry operator[](difference_type n) const { return *(*this + n); }
  size_t index() const { return index_; }

  const_iterator& operator++() { return ++index_, *this; }
  const_iterator operator++(int) { const_iterator old = *this; ++index_; return old; }
  const_iterator& operator--() { return --index_, *this; }
  const_iterator operator--(int) { const_iterator old = *this; --index_; return old; }
  const_iterator& operator+=(difference_type n) { return index_ += static_cast<size_t>(n), *this; }
  const_iterator& operator-=(difference_type n) { return index_ -= static_cast<size_t>(n), *this; }
  friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
  friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
  friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
    return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
  }
  friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.index_ == b.index_; }
  friend bool operator!=(const const_iterator& a, const const_iterator& b) { return a.index_ != b.index_; }
  friend bool operator<(const const_iterator& a, const const_iterator& b) { return a.index_ < b.index_; }
  friend bool operator>(const const_iterator& a, const const_iterator& b) { return a.index_ > b.index_; }
  friend bool operator<=(const const_iterator& a, const const_iterator& b) { return a.index_ <= b.index_; }
  friend bool operator>=(const const_iterator& a, const const_iterator& b) { return a.index_ >= b.index_; }

 private:
  static constexpr size_t kNone = ~size_t{0};
  const FrameList* list_ = nullptr;
  size_t index_ = 0;
  // The entry last decoded, which one it is, and where the one after it starts.
  mutable FrameEntry current_;
  mutable size_t decoded_ = kNone;
  mutable Position next_;
};

inline FrameList::const_iterator FrameList::begin() const { return const_iterator(this, 0); }
inline FrameList::const_iterator FrameList::end() const { return const_iterator(this, size_); }

template <class Before>
size_t FrameList::partition_point(Before before) const {
  // The first block whose first frame fails; the answer is in the block before it.
  size_t low = 0, high = bytes_.marks();
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    if (before((*this)[mid * kBlock])) low = mid + 1;
    else high = mid;
  }
  if (low == 0) return 0;
  size_t stop = std::min(size_, low * kBlock);
  for (const_iterator it(this, (low - 1) * kBlock); it.index() < stop; ++it)
    if (!before(*it)) return it.index();
  return stop;
}

}  // namespace logscope::carla
