// A series' packed block entries, the block index decoded as it is read, and the file-order
// table merged from the series: each against a plain, obviously right form of the same thing.
#include <algorithm>
#include <random>
#include <tuple>

#include "bddf/block_index.h"
#include "bddf/model.h"
#include <doctest/doctest.h>

using namespace logscope;
using namespace logscope::bddf;

namespace {

struct Plain {
  int64_t time;
  uint64_t offset;
  std::vector<int64_t> extra;
};

void check_same(const BlockEntries& packed, const std::vector<Plain>& plain) {
  REQUIRE(packed.size() == plain.size());
  size_t i = 0;
  for (auto it = packed.begin(); it != packed.end(); ++it, ++i) {
    CAPTURE(i);
    REQUIRE(it.index() == i);
    CHECK(it->timestamp_ns == plain[i].time);
    CHECK(it->file_offset == plain[i].offset);
    CHECK(it->extra_count == plain[i].extra.size());
    CHECK(it.extra() == plain[i].extra);
  }
  CHECK(i == plain.size());
}

}  // namespace

TEST_CASE("block entries: packed entries read back exactly, in order and one at a time, whatever their values") {
  std::mt19937_64 random(7);
  std::vector<Plain> plain;
  BlockEntries packed;
  int64_t time = 1767225600000000000ll;
  uint64_t offset = 4;
  for (int i = 0; i < 20000; ++i) {
    Plain p;
    switch (random() % 8) {
      case 0: p.time = static_cast<int64_t>(random()); break;  // anything, negative too
      case 1: p.time = i % 2 ? INT64_MIN : INT64_MAX; break;
      default: p.time = time += 20000000 + static_cast<int64_t>(random() % 2000) - 1000; break;
    }
    p.offset = random() % 16 == 0 ? random() : offset += 500 + random() % 70000;
    size_t extras = random() % 4 == 0 ? random() % 5 : (i / 1000) % 3;
    for (size_t k = 0; k < extras; ++k) p.extra.push_back(k == 1 ? static_cast<int64_t>(random()) : i + static_cast<int64_t>(k));
    packed.push_back(p.time, p.offset, p.extra.data(), p.extra.size());
    plain.push_back(p);
  }
  check_same(packed, plain);
  for (int probe = 0; probe < 500; ++probe) {
    size_t i = random() % plain.size();
    CAPTURE(i);
    CHECK(packed[i].timestamp_ns == plain[i].time);
    CHECK(packed[i].file_offset == plain[i].offset);
    CHECK(packed.extra(i) == plain[i].extra);
    CHECK(packed.at(i)->file_offset == plain[i].offset);
  }
  CHECK(packed.back().timestamp_ns == plain.back().time);
  CHECK_FALSE(packed.times_ascending());
  CHECK_FALSE(packed.offsets_ascending());
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Plain& p : plain) lo = std::min(lo, p.offset), hi = std::max(hi, p.offset);
  CHECK(packed.min_offset() == lo);
  CHECK(packed.max_offset() == hi);
  BlockEntries copy = packed;
  check_same(copy, plain);
  copy.push_back(1, 2);
  CHECK(packed.size() == plain.size());  // the copy owns its own bytes
}

TEST_CASE("block entries: a steady series costs a few bytes an entry, and time searches equal std::lower_bound") {
  BlockEntries packed;
  std::vector<int64_t> times;
  std::mt19937_64 random(3);
  int64_t time = 1767225600000000000ll;
  uint64_t offset = 100;
  const size_t n = 200000;
  for (size_t i = 0; i < n; ++i) {
    time += 20000000 + static_cast<int64_t>(random() % 3 == 0 ? 1000 : 0);  // 50 Hz, a jitter of 1 us
    if (i % 1000 == 7) time -= 20000000;                                     // and repeated times
    offset += 560 + (i % 10 == 0 ? 65000 : 0);                              // an image every tenth block
    packed.push_back(time, offset);
    times.push_back(time);
  }
  CHECK(packed.times_ascending());
  CHECK(packed.offsets_ascending());
  MESSAGE("bytes per entry: " << static_cast<double>(packed.memory_bytes()) / n);
  CHECK(packed.memory_bytes() < n * 5);  // 24 bytes as structs
  for (int probe = 0; probe < 300; ++probe) {
    int64_t t = times[random() % n] + static_cast<int64_t>(random() % 3) - 1;
    if (probe == 0) t = INT64_MIN;
    if (probe == 1) t = INT64_MAX;
    CAPTURE(t);
    CHECK(packed.lower_bound_time(t) == static_cast<size_t>(std::lower_bound(times.begin(), times.end(), t) - times.begin()));
    CHECK(packed.upper_bound_time(t) == static_cast<size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin()));
  }
  EntriesInSpan span(packed, static_cast<uint64_t>(times[1000]), static_cast<uint64_t>(times[1500]));
  size_t seen = 0;
  span.each([&](size_t i, const BlockEntry& e) {
    CHECK(e.timestamp_ns == times[1000 + i]);
    ++seen;
    return true;
  });
  CHECK(seen == span.size());
  CHECK(span.size() >= 501);
}

TEST_CASE("block index: a large index decodes window by window, to what protobuf reads, never read whole nor kept in a cache") {
  bosdyn::api::DescriptorBlock block;
  auto* sbi = block.mutable_series_block_index();
  sbi->set_series_index(3);
  sbi->set_descriptor_file_offset(77);
  sbi->set_total_bytes(123456789);
  for (int i = 0; i < 750000; ++i) {  // ~17 MB: entries cross many 1 MiB views and 8 MiB windows
    auto* e = sbi->add_block_entries();
    e->mutable_timestamp()->set_seconds(1767225600 + i / 50);
    e->mutable_timestamp()->set_nanos((i % 50) * 20000000);
    e->set_file_offset(100 + 3000ull * i);
    for (int k = 0; k < i % 3; ++k) e->add_additional_indexes(i * 10 + k);
  }
  std::string bytes = block.SerializeAsString();
  REQUIRE(bytes.size() > 16u << 20);
  REQUIRE(bytes.size() < 24u << 20);  // three windows
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  CountingByteSource counting(memory);
  struct Largest : ByteSource {
    ByteSource& inner;
    size_t largest = 0;
    explicit Largest(ByteSource& s) : inner(s) {}
    uint64_t size() const override { return inner.size(); }
    size_t read(uint64_t offset, void* destination, size_t length) override {
      largest = std::max(largest, length);
      return inner.read(offset, destination, length);
    }
  } largest(counting);
  PlainBlockIndex streamed, parsed;
  REQUIRE(decode_block_index_fast(largest, 0, bytes.size(), &streamed));
  block_index_from_message(*sbi, &parsed);
  CHECK(streamed.series_index == 3);
  CHECK(streamed.descriptor_file_offset == 77);
  CHECK(streamed.total_bytes == 123456789);
  REQUIRE(streamed.entries.size() == parsed.entries.size());
  auto a = streamed.entries.begin();
  for (auto b = parsed.entries.begin(); b != parsed.entries.end(); ++a, ++b) {
    REQUIRE(a->timestamp_ns == b->timestamp_ns);
    REQUIRE(a->file_offset == b->file_offset);
    REQUIRE(a.extra() == b.extra());
  }
  CHECK(counting.bytes_read() == bytes.size());  // each byte once
  CHECK(largest.largest <= 8u << 20);           // in windows, not whole
  // Through the page's cache (64 MiB, 8 MiB fetches): whole windows pass through it, and only the
  // last, shorter one stays. 4 MiB windows once filled it with bytes never read again.
  CachedByteSource::Options page;
  page.block_size = 16 * 1024;
  page.capacity = 64u << 20;
  CachedByteSource cache(memory, page);
  PlainBlockIndex cached;
  REQUIRE(decode_block_index_fast(cache, 0, bytes.size(), &cached));
  CHECK(cached.entries.size() == parsed.entries.size());
  CHECK(cache.cached_bytes() <= bytes.size() - (16u << 20) + page.block_size);
  // Cut anywhere, it declines (and protobuf then says why).
  for (size_t cut : {size_t{3}, size_t{1} << 20, (size_t{1} << 20) + 7, bytes.size() - 1}) {
    MemoryByteSource part(reinterpret_cast<const uint8_t*>(bytes.data()), cut);
    CHECK_FALSE(decode_block_index_fast(part, 0, cut, &streamed));
  }
}

namespace {

// A model with series whose blocks interleave, as an index-first open leaves it.
FileModel interleaved_model(std::mt19937_64& random, int series_count, int per_series, bool shuffled) {
  FileModel model;
  model.size = 1ull << 40;
  model.have_file_descriptor = true;
  model.trailer.index_offset = model.size - 1000;
  std::vector<uint64_t> offsets;
  for (int s = 0; s < series_count; ++s) {
    Series series;
    series.index = static_cast<uint32_t>(s);
    series.descriptor_file_offset = 100 + 10 * static_cast<uint64_t>(s);
    series.block_index_file_offset = model.size - 2000 - 100 * static_cast<uint64_t>(s);
    uint64_t offset = 1000;
    std::vector<uint64_t> mine;
    for (int i = 0; i < per_series; ++i) {
      offset += 1 + random() % 5000;
      mine.push_back(random() % 50 == 0 && !offsets.empty() ? offsets[random() % offsets.size()] : offset);  // shared offsets: ties
    }
    if (random() % 2 == 0 && s > 0) mine[per_series / 2] = 100;  // an entry at a descriptor's offset
    std::sort(mine.begin(), mine.end());
    if (shuffled && s == 1) std::swap(mine[0], mine[per_series - 1]);
    for (uint64_t o : mine) series.entries.push_back(static_cast<int64_t>(o), o);
    offsets.insert(offsets.end(), mine.begin(), mine.end());
    model.series.push_back(std::move(series));
  }
  return model;
}

// The rows, plainly: every block sorted by offset, ties the blocks besides entries first, then by series and entry.
std::vector<BlockRef> plain_rows(const FileModel& model) {
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t, BlockRef>> rows;
  std::vector<BlockRef> others{BlockRef{0, BlockKind::Magic}, BlockRef{4, BlockKind::FileDescriptor}};
  for (uint32_t s = 0; s < model.series.size(); ++s) {
    others.push_back(BlockRef{model.series[s].descriptor_file_offset, BlockKind::SeriesDescriptor, s});
    others.push_back(BlockRef{model.series[s].block_index_file_offset, BlockKind::SeriesBlockIndex, s});
  }
  others.push_back(BlockRef{model.trailer.index_offset, BlockKind::FileIndex});
  others.push_back(BlockRef{model.size - 40, BlockKind::End});
  std::stable_sort(others.begin(), others.end(), [](const BlockRef& a, const BlockRef& b) { return a.offset < b.offset; });
  for (uint32_t i = 0; i < others.size(); ++i) rows.emplace_back(others[i].offset, 0, i, others[i]);
  for (uint32_t s = 0; s < model.series.size(); ++s) {
    uint32_t e = 0;
    for (const BlockEntry& entry : model.series[s].entries)
      rows.emplace_back(entry.file_offset, s + 1, e, BlockRef{entry.file_offset, BlockKind::Data, s, e}), ++e;
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a), std::get<2>(a)) < std::tie(std::get<0>(b), std::get<1>(b), std::get<2>(b));
  });
  std::vector<BlockRef> out;
  for (const auto& row : rows) out.push_back(std::get<3>(row));
  return out;
}

bool same_ref(const BlockRef& a, const BlockRef& b) {
  return a.offset == b.offset && a.kind == b.kind && a.series == b.series && a.entry == b.entry;
}

}  // namespace

TEST_CASE("block list: the merged table equals every block sorted by offset, by position and by offset, across checkpoints") {
  for (bool shuffled : {false, true}) {
    CAPTURE(shuffled);
    std::mt19937_64 random(shuffled ? 11 : 5);
    FileModel model = interleaved_model(random, 5, 6000, shuffled);
    std::vector<BlockRef> plain = plain_rows(model);
    BlockList list = model.blocks();
    REQUIRE(list.size() == plain.size());
    size_t i = 0;
    for (const BlockRef& ref : list) {
      REQUIRE_MESSAGE(same_ref(ref, plain[i]), "row " << i);
      ++i;
    }
    CHECK(i == plain.size());
    for (int probe = 0; probe < 300; ++probe) {
      size_t position = probe == 0 ? plain.size() - 1 : random() % plain.size();
      CAPTURE(position);
      BlockRef ref = list[position];
      CHECK(ref.offset == plain[position].offset);
      CHECK(same_ref(ref, plain[position]));
      BlockList::Cursor cursor = list.cursor(position);
      if (cursor.entry()) CHECK(cursor.entry()->file_offset == ref.offset);
      // By offset: the first block there, and the last one at or before it.
      uint64_t offset = probe % 2 ? plain[position].offset : plain[position].offset + 1;
      auto first = std::lower_bound(plain.begin(), plain.end(), offset, [](const BlockRef& r, uint64_t v) { return r.offset < v; });
      size_t expected_at = first != plain.end() && first->offset == offset ? static_cast<size_t>(first - plain.begin()) : SIZE_MAX;
      auto after = std::upper_bound(plain.begin(), plain.end(), offset, [](uint64_t v, const BlockRef& r) { return v < r.offset; });
      size_t expected_containing = after == plain.begin() ? SIZE_MAX : static_cast<size_t>(after - plain.begin()) - 1;
      CHECK(list.block_at(offset) == expected_at);
      CHECK(list.block_containing(offset) == expected_containing);
    }
    CHECK(list.block_containing(0) == 0);
    CHECK(list.block_at(model.size) == SIZE_MAX);
    CHECK(list.block_containing(UINT64_MAX) == plain.size() - 1);
  }
}
