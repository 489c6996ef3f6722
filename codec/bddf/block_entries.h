// A series' block index entries, packed. A 100 GB file lists 16.5 million blocks: as structs they
// took 24 bytes each (400 MB), more than the page's worker may hold. Packed as differences from
// the entry before (times as the change of the interval, so a steady rate costs one byte) they
// take 3-5 bytes. Every 64th entry is stored whole, so entry i decodes from at most 64 entries;
// going through them in order costs one decode each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "core/paged_bytes.h"

namespace logscope::bddf {

// One data block of a series, as its index (or a recovery scan) lists it.
struct BlockEntry {
  int64_t timestamp_ns = 0;
  uint64_t file_offset = 0;  // offset of the block header
  uint32_t extra_count = 0;  // additional indexes: BlockEntries::extra(i)
};

class BlockEntries {
 public:
  class iterator;

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  BlockEntry operator[](size_t i) const;
  BlockEntry front() const { return (*this)[0]; }
  BlockEntry back() const { return last_; }
  std::vector<int64_t> extra(size_t i) const;  // entry i's additional indexes
  iterator begin() const;
  iterator end() const;
  iterator at(size_t i) const;  // an iterator at entry i (i <= size())

  void push_back(int64_t timestamp_ns, uint64_t file_offset, const int64_t* extra = nullptr, size_t extra_count = 0);
  void clear() { *this = BlockEntries(); }

  // Facts kept while appending, so nobody walks 16 million entries to learn them.
  bool times_ascending() const { return times_ascending_; }      // never earlier than the entry before
  bool offsets_ascending() const { return offsets_ascending_; }  // never before the entry before
  uint64_t min_offset() const { return min_offset_; }            // UINT64_MAX when empty
  uint64_t max_offset() const { return max_offset_; }            // 0 when empty
  // The first entry at or after `t` / after `t`, by binary search; only when times_ascending().
  size_t lower_bound_time(int64_t t) const;
  size_t upper_bound_time(int64_t t) const;
  size_t memory_bytes() const;  // what the packed entries hold

 private:
  static constexpr size_t kGroup = 64;       // entries per whole-stored entry
  // What decoding entry i+1 needs of entry i.
  struct State {
    uint64_t time = 0, interval = 0, offset = 0;
    std::vector<int64_t> extra;
  };
  using Position = packed::PagedBytes::Position;
  static size_t decode(const uint8_t* at, const uint8_t* end, bool whole, State* state, BlockEntry* out);
  BlockEntry decode_at(size_t i, std::vector<int64_t>* extra) const;

  packed::PagedBytes bytes_;  // marked where entry g * kGroup starts
  size_t count_ = 0;
  State tail_;       // the last entry appended, for the next one's differences
  BlockEntry last_;  // the last entry, whole
  bool times_ascending_ = true, offsets_ascending_ = true;
  uint64_t min_offset_ = UINT64_MAX, max_offset_ = 0;

  friend class iterator;
};

// Goes through the entries in order, decoding each once. Input iterator: *it is the current entry.
class BlockEntries::iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = BlockEntry;
  using difference_type = std::ptrdiff_t;
  using pointer = const BlockEntry*;
  using reference = const BlockEntry&;

  const BlockEntry& operator*() const { return entry_; }
  const BlockEntry* operator->() const { return &entry_; }
  const std::vector<int64_t>& extra() const { return state_.extra; }  // the current entry's additional indexes
  size_t index() const { return index_; }
  iterator& operator++();
  bool operator==(const iterator& other) const { return index_ == other.index_; }
  bool operator!=(const iterator& other) const { return index_ != other.index_; }

 private:
  friend class BlockEntries;
  void load();
  const BlockEntries* list_ = nullptr;
  size_t index_ = 0;
  Position next_;  // where the entry after the current one starts
  State state_;
  BlockEntry entry_;
};

// The entries with from_ns <= time <= to_ns (times before 1970 left out), in time order, ties in
// index order. Straight from the packed list when it is in time order (no list of 16 million
// blocks), else gathered and sorted (as many as the span holds).
class EntriesInSpan {
 public:
  EntriesInSpan(const BlockEntries& entries, uint64_t from_ns, uint64_t to_ns);
  size_t size() const { return count_; }
  // use(i, entry) for each in order, from the `start`th, until it returns false; false then.
  template <class Use>
  bool each(Use use, size_t start = 0) const {
    if (!gathered_) {
      if (start >= count_) return true;
      BlockEntries::iterator it = entries_.at(first_ + start);
      for (size_t i = start; i < count_; ++i, ++it)
        if (!use(i, *it)) return false;
      return true;
    }
    for (size_t i = start; i < count_; ++i)
      if (!use(i, sorted_[i])) return false;
    return true;
  }

 private:
  const BlockEntries& entries_;
  bool gathered_ = false;
  size_t first_ = 0, count_ = 0;
  std::vector<BlockEntry> sorted_;
};

}  // namespace logscope::bddf
