// The file-order block table (model.h's BlockList): the blocks that are not series entries,
// merged by offset with every series' entries as a cursor goes, with checkpoints every few
// thousand rows, made as far as a position or an offset asks, so a row near the start never
// costs a pass over all of them.
#include <algorithm>
#include <functional>

#include "bddf/format.h"
#include "bddf/model.h"

namespace logscope::bddf {
namespace {

using HeapItem = std::pair<uint64_t, uint32_t>;  // (offset, stream): the smallest on top, then stream order
constexpr auto kHeapOrder = std::greater<HeapItem>();
constexpr size_t kMinSpacing = 4096;

// The blocks an index-first open implies besides the entries: the magic, the file descriptor,
// each series' descriptor and block index, the FileIndex and the END block.
std::vector<BlockRef> others_from_series(const FileModel& model) {
  std::vector<BlockRef> blocks;
  blocks.reserve(4 + 2 * model.series.size());
  blocks.push_back(BlockRef{0, BlockKind::Magic});
  if (model.have_file_descriptor) blocks.push_back(BlockRef{kFirstBlockOffset, BlockKind::FileDescriptor});
  for (uint32_t s = 0; s < model.series.size(); ++s) {
    blocks.push_back(BlockRef{model.series[s].descriptor_file_offset, BlockKind::SeriesDescriptor, s});
    blocks.push_back(BlockRef{model.series[s].block_index_file_offset, BlockKind::SeriesBlockIndex, s});
  }
  blocks.push_back(BlockRef{model.trailer.index_offset, BlockKind::FileIndex});
  blocks.push_back(BlockRef{model.size - kTrailerSize, BlockKind::End});
  return blocks;
}

void sort_by_offset(std::vector<BlockRef>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const BlockRef& a, const BlockRef& b) { return a.offset < b.offset; });
}

void build(const FileModel& model, BlockTable& table) {
  if (!table.given) table.others = others_from_series(model);
  sort_by_offset(table.others);
  size_t entries = 0;
  bool in_file_order = true;
  for (const Series& s : model.series) {
    entries += s.entries.size();
    in_file_order = in_file_order && s.entries.offsets_ascending();
  }
  if (in_file_order) {
    table.merged = true;
    table.size = table.others.size() + entries;
    table.spacing = std::max(kMinSpacing, 64 * (model.series.size() + 1));
    return;
  }
  // A series lists its blocks out of file order (a damaged or odd index): the rows are built
  // whole and sorted, as many as the index lists.
  std::vector<BlockRef> rows = std::move(table.others);
  rows.reserve(rows.size() + entries);
  for (uint32_t s = 0; s < model.series.size(); ++s) {
    uint32_t e = 0;
    for (const BlockEntry& entry : model.series[s].entries) rows.push_back(BlockRef{entry.file_offset, BlockKind::Data, s, e++});
  }
  sort_by_offset(rows);
  table.others = std::move(rows);
  table.size = table.others.size();
}

}  // namespace

BlockList FileModel::blocks() const {
  std::call_once(block_table_->built, [&] { build(*this, *block_table_); });
  return BlockList(*this, *block_table_);
}

void FileModel::set_blocks_besides_entries(std::vector<BlockRef> blocks) {
  block_table_ = std::make_shared<BlockTable>();
  block_table_->given = true;
  block_table_->others = std::move(blocks);
}

size_t BlockList::size() const { return table_->size; }

// ---- Cursor ------------------------------------------------------------------------------------

void BlockList::Cursor::load() {
  if (done()) return;
  if (!table_->merged) {
    ref_ = table_->others[position_];
    return;
  }
  auto [offset, stream] = heap_.front();
  if (stream == 0)
    ref_ = table_->others[next_[0]];
  else
    ref_ = BlockRef{offset, BlockKind::Data, stream - 1, static_cast<uint32_t>(next_[stream])};
}

const BlockEntry* BlockList::Cursor::entry() const {
  if (done() || ref_.kind != BlockKind::Data || ref_.series == UINT32_MAX) return nullptr;
  if (table_->merged) return heap_.front().second == 0 ? nullptr : &*entries_[ref_.series];  // 0: not an entry
  looked_up_ = model_->series[ref_.series].entries[ref_.entry];
  return &looked_up_;
}

std::vector<int64_t> BlockList::Cursor::extra() const {
  if (!entry()) return {};
  if (table_->merged) return entries_[ref_.series].extra();
  return model_->series[ref_.series].entries.extra(ref_.entry);
}

void BlockList::Cursor::next() {
  if (done()) return;
  ++position_;
  if (table_->merged && !heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), kHeapOrder);
    uint32_t stream = heap_.back().second;
    heap_.pop_back();
    ++next_[stream];
    bool more = false;
    if (stream == 0) {
      more = next_[0] < table_->others.size();
      if (more) heap_.push_back({table_->others[next_[0]].offset, 0});
    } else {
      BlockEntries::iterator& it = entries_[stream - 1];
      ++it;
      more = it != model_->series[stream - 1].entries.end();
      if (more) heap_.push_back({it->file_offset, stream});
    }
    if (more) std::push_heap(heap_.begin(), heap_.end(), kHeapOrder);
  }
  load();
}

// What the checkpoints and the cursor share: starting a merge from a checkpoint's state.
struct BlockListAccess {
  static void start(BlockList::Cursor& cursor, const FileModel& model, const BlockTable& table, size_t position,
                    const uint32_t* next) {
    cursor.model_ = &model;
    cursor.table_ = &table;
    cursor.size_ = table.size;
    cursor.position_ = position;
    size_t streams = model.series.size() + 1;
    cursor.next_.assign(next, next + streams);
    cursor.entries_.clear();
    cursor.heap_.clear();
    if (cursor.next_[0] < table.others.size()) cursor.heap_.push_back({table.others[cursor.next_[0]].offset, 0});
    for (uint32_t s = 0; s < model.series.size(); ++s) {
      const BlockEntries& entries = model.series[s].entries;
      cursor.entries_.push_back(entries.at(std::min<size_t>(cursor.next_[1 + s], entries.size())));
      if (cursor.entries_.back() != entries.end()) cursor.heap_.push_back({cursor.entries_.back()->file_offset, s + 1});
    }
    std::make_heap(cursor.heap_.begin(), cursor.heap_.end(), kHeapOrder);
    cursor.load();
  }
  static void record(const BlockList::Cursor& cursor, const BlockTable& table) {
    for (size_t n : cursor.next_) table.checkpoint_next.push_back(static_cast<uint32_t>(n));
    table.checkpoint_offset.push_back(cursor.done() ? UINT64_MAX : cursor.ref().offset);
  }
};

namespace {

// Makes checkpoints until `enough` holds or the rows end. Under the table's lock.
template <class Enough>
void extend_checkpoints(const FileModel& model, const BlockTable& table, Enough enough) {
  size_t streams = model.series.size() + 1;
  BlockList::Cursor cursor;
  if (table.checkpoint_offset.empty()) {
    std::vector<uint32_t> zeros(streams, 0);
    BlockListAccess::start(cursor, model, table, 0, zeros.data());
    BlockListAccess::record(cursor, table);
  }
  while (!enough()) {
    size_t last = table.checkpoint_offset.size() - 1;
    size_t at = last * table.spacing;
    if (at + table.spacing >= table.size) return;  // no row at the next checkpoint
    BlockListAccess::start(cursor, model, table, at, &table.checkpoint_next[last * streams]);
    for (size_t i = 0; i < table.spacing; ++i) cursor.next();
    BlockListAccess::record(cursor, table);
  }
}

}  // namespace

template <class Choose>
BlockList::Cursor BlockList::from_checkpoint(Choose choose) const {
  const BlockTable& table = *table_;
  size_t streams = model_->series.size() + 1;
  size_t checkpoint = 0;
  std::vector<uint32_t> state;
  {
    std::lock_guard<std::mutex> lock(table.checkpoint_lock);
    checkpoint = choose();
    state.assign(table.checkpoint_next.begin() + checkpoint * streams, table.checkpoint_next.begin() + (checkpoint + 1) * streams);
  }
  Cursor cursor;
  BlockListAccess::start(cursor, *model_, table, checkpoint * table.spacing, state.data());
  return cursor;
}

BlockList::Cursor BlockList::cursor(size_t position) const {
  if (!table_->merged || position >= table_->size) {
    Cursor cursor;
    cursor.model_ = model_;
    cursor.table_ = table_;
    cursor.size_ = table_->size;
    cursor.position_ = std::min(position, table_->size);
    cursor.load();
    return cursor;
  }
  const BlockTable& table = *table_;
  Cursor cursor = from_checkpoint([&] {
    size_t wanted = position / table.spacing;
    extend_checkpoints(*model_, table, [&] { return table.checkpoint_offset.size() > wanted; });
    return std::min(wanted, table.checkpoint_offset.size() - 1);
  });
  while (cursor.position_ < position) cursor.next();
  return cursor;
}

BlockList::Cursor BlockList::first_at_or_after(uint64_t offset) const {
  if (!table_->merged) {
    const std::vector<BlockRef>& rows = table_->others;
    auto it = std::lower_bound(rows.begin(), rows.end(), offset, [](const BlockRef& ref, uint64_t value) { return ref.offset < value; });
    return cursor(static_cast<size_t>(it - rows.begin()));
  }
  const BlockTable& table = *table_;
  Cursor cursor = from_checkpoint([&] {
    extend_checkpoints(*model_, table, [&] { return table.checkpoint_offset.back() >= offset; });
    // The last checkpoint before `offset`: rows there and on, up to the first at or after it.
    const std::vector<uint64_t>& at = table.checkpoint_offset;
    size_t checkpoint = static_cast<size_t>(std::lower_bound(at.begin(), at.end(), offset) - at.begin());
    return checkpoint > 0 ? checkpoint - 1 : 0;
  });
  while (!cursor.done() && cursor.ref().offset < offset) cursor.next();
  return cursor;
}

BlockRef BlockList::operator[](size_t position) const { return cursor(position).ref(); }

size_t BlockList::block_at(uint64_t offset) const {
  Cursor cursor = first_at_or_after(offset);
  return !cursor.done() && cursor.ref().offset == offset ? cursor.position() : SIZE_MAX;
}

size_t BlockList::block_containing(uint64_t offset) const {
  Cursor cursor = first_at_or_after(offset);
  if (cursor.done() || cursor.ref().offset > offset) return cursor.position() == 0 ? SIZE_MAX : cursor.position() - 1;
  // At `offset`: the last of the rows there.
  size_t position = cursor.position();
  for (cursor.next(); !cursor.done() && cursor.ref().offset == offset; cursor.next()) position = cursor.position();
  return position;
}

BlockList::iterator BlockList::begin() const { return iterator(cursor(0)); }

BlockList::iterator BlockList::end() const {
  Cursor cursor;
  cursor.position_ = table_->size;
  cursor.size_ = table_->size;
  return iterator(std::move(cursor));
}

}  // namespace logscope::bddf
