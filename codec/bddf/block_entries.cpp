#include "bddf/block_entries.h"

#include <algorithm>
#include <cstring>

namespace logscope::bddf {
using packed::get_head;
using packed::get_varint;
using packed::put_head;
using packed::put_varint;
using packed::unzigzag;
using packed::zigzag;

// Whole: zigzag(time), offset, count, zigzag(each extra). After: head(count changed, zigzag(change
// of interval)), zigzag(offset change), [count], zigzag(each extra's change from the same one before).
size_t BlockEntries::decode(const uint8_t* at, const uint8_t* end, bool whole, State* state, BlockEntry* out) {
  const uint8_t* start = at;
  uint64_t v, count;
  if (whole) {
    uint64_t time, offset;
    if (!get_varint(at, end, &time) || !get_varint(at, end, &offset) || !get_varint(at, end, &count)) return 0;
    state->time = unzigzag(time);
    state->interval = 0;
    state->offset = offset;
    state->extra.resize(static_cast<size_t>(count));
    for (int64_t& e : state->extra) {
      if (!get_varint(at, end, &v)) return 0;
      e = static_cast<int64_t>(unzigzag(v));
    }
  } else {
    bool count_changed;
    uint64_t change, offset_change;
    if (!get_head(at, end, &count_changed, &change) || !get_varint(at, end, &offset_change)) return 0;
    state->interval += unzigzag(change);
    state->time += state->interval;
    state->offset += unzigzag(offset_change);
    if (count_changed) {
      if (!get_varint(at, end, &count)) return 0;
      state->extra.resize(static_cast<size_t>(count), 0);
    }
    for (int64_t& e : state->extra) {
      if (!get_varint(at, end, &v)) return 0;
      e = static_cast<int64_t>(static_cast<uint64_t>(e) + unzigzag(v));
    }
  }
  out->timestamp_ns = static_cast<int64_t>(state->time);
  out->file_offset = state->offset;
  out->extra_count = static_cast<uint32_t>(state->extra.size());
  return static_cast<size_t>(at - start);
}

void BlockEntries::push_back(int64_t timestamp_ns, uint64_t file_offset, const int64_t* extra, size_t extra_count) {
  bool whole = count_ % kGroup == 0;
  size_t room = 32 + 10 * extra_count;  // at most three 10-byte varints and a head, and the extras
  uint8_t* start = bytes_.room(room, whole);
  uint8_t* at = start;
  uint64_t time = static_cast<uint64_t>(timestamp_ns);
  if (whole) {
    at = put_varint(at, zigzag(time));
    at = put_varint(at, file_offset);
    at = put_varint(at, extra_count);
    for (size_t j = 0; j < extra_count; ++j) at = put_varint(at, zigzag(static_cast<uint64_t>(extra[j])));
    tail_.interval = 0;
  } else {
    uint64_t interval = time - tail_.time;
    bool count_changed = extra_count != tail_.extra.size();
    at = put_head(at, count_changed, zigzag(interval - tail_.interval));
    at = put_varint(at, zigzag(file_offset - tail_.offset));
    if (count_changed) at = put_varint(at, extra_count);
    for (size_t j = 0; j < extra_count; ++j) {
      uint64_t before = j < tail_.extra.size() ? static_cast<uint64_t>(tail_.extra[j]) : 0;
      at = put_varint(at, zigzag(static_cast<uint64_t>(extra[j]) - before));
    }
    tail_.interval = interval;
  }
  if (count_ > 0 && timestamp_ns < last_.timestamp_ns) times_ascending_ = false;
  if (count_ > 0 && file_offset < last_.file_offset) offsets_ascending_ = false;
  min_offset_ = std::min(min_offset_, file_offset);
  max_offset_ = std::max(max_offset_, file_offset);
  bytes_.commit(static_cast<size_t>(at - start));
  tail_.time = time;
  tail_.offset = file_offset;
  if (extra_count || !tail_.extra.empty()) tail_.extra.assign(extra, extra + extra_count);
  last_ = BlockEntry{timestamp_ns, file_offset, static_cast<uint32_t>(extra_count)};
  ++count_;
}

BlockEntry BlockEntries::decode_at(size_t i, std::vector<int64_t>* extra) const {
  iterator it = at(i);
  if (extra) *extra = it.extra();
  return *it;
}

BlockEntry BlockEntries::operator[](size_t i) const { return decode_at(i, nullptr); }

std::vector<int64_t> BlockEntries::extra(size_t i) const {
  std::vector<int64_t> out;
  decode_at(i, &out);
  return out;
}

BlockEntries::iterator BlockEntries::begin() const { return at(0); }

BlockEntries::iterator BlockEntries::end() const {
  iterator it;
  it.list_ = this;
  it.index_ = count_;
  return it;
}

BlockEntries::iterator BlockEntries::at(size_t i) const {
  if (i >= count_) return end();
  iterator it;
  it.list_ = this;
  it.index_ = i - i % kGroup;
  it.next_ = bytes_.mark(i / kGroup);
  it.load();
  while (it.index_ < i) ++it;
  return it;
}

void BlockEntries::iterator::load() {
  const uint8_t* end;
  const uint8_t* at = list_->bytes_.bytes_at(next_, &end);
  size_t used = decode(at, end, index_ % kGroup == 0, &state_, &entry_);
  next_.at += static_cast<uint32_t>(used);
}

BlockEntries::iterator& BlockEntries::iterator::operator++() {
  if (++index_ < list_->count_) load();
  return *this;
}

size_t BlockEntries::lower_bound_time(int64_t t) const {
  // The last group whose first entry is before t, then on in order.
  size_t lo = 0, hi = bytes_.marks();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if ((*this)[mid * kGroup].timestamp_ns < t) lo = mid + 1; else hi = mid;
  }
  iterator it = at(lo == 0 ? 0 : (lo - 1) * kGroup);
  while (it != end() && it->timestamp_ns < t) ++it;
  return it.index();
}

size_t BlockEntries::upper_bound_time(int64_t t) const {
  size_t lo = 0, hi = bytes_.marks();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if ((*this)[mid * kGroup].timestamp_ns <= t) lo = mid + 1; else hi = mid;
  }
  iterator it = at(lo == 0 ? 0 : (lo - 1) * kGroup);
  while (it != end() && it->timestamp_ns <= t) ++it;
  return it.index();
}

EntriesInSpan::EntriesInSpan(const BlockEntries& entries, uint64_t from_ns, uint64_t to_ns) : entries_(entries) {
  if (from_ns > to_ns || from_ns > static_cast<uint64_t>(INT64_MAX)) return;
  int64_t from = static_cast<int64_t>(from_ns), to = static_cast<int64_t>(std::min<uint64_t>(to_ns, INT64_MAX));
  if (entries.times_ascending()) {
    first_ = entries.lower_bound_time(from);
    count_ = entries.upper_bound_time(to) - first_;
    return;
  }
  gathered_ = true;
  for (const BlockEntry& e : entries)
    if (e.timestamp_ns >= from && e.timestamp_ns <= to) sorted_.push_back(e);
  std::stable_sort(sorted_.begin(), sorted_.end(), [](const BlockEntry& a, const BlockEntry& b) { return a.timestamp_ns < b.timestamp_ns; });
  count_ = sorted_.size();
}

size_t BlockEntries::memory_bytes() const { return bytes_.memory_bytes(); }

}  // namespace logscope::bddf
