// What the reader knows about a BDDF file after opening it: file facts, series with their
// block indexes, and a file-order table of blocks. Only indexes; never payloads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bddf/block_entries.h"
#include "core/report.h"

namespace logscope::bddf {

struct Series {
  uint32_t index = 0;                   // position in the file index (or order of discovery)
  bool described = false;               // its SeriesDescriptor was read
  uint32_t descriptor_series_index = 0;
  std::string series_type;
  std::map<std::string, std::string> spec;
  uint64_t identifier_hash = 0;         // as stored in the descriptor
  uint64_t computed_hash = 0;           // recomputed from series_type + spec
  std::string data_type;                // "message_type", "pod_type", "struct_type" or ""
  std::string content_type, type_name;  // message_type
  bool is_metadata = false;
  int pod_type = 0;                     // pod_type
  std::vector<uint32_t> dimension;
  std::map<std::string, uint64_t> struct_keys;  // struct_type
  std::map<std::string, std::string> annotations;
  std::vector<std::string> additional_index_names;
  std::string description;
  uint64_t descriptor_file_offset = 0;
  bool has_block_index = false;         // false when rebuilt by a scan
  uint64_t block_index_file_offset = 0;
  uint64_t total_bytes = 0;             // payload bytes (index value, or summed when recovered)
  uint64_t last_block_payload = 0;      // POD: payload bytes of the last block (0 = not read)
  BlockEntries entries;                 // packed: entries[i] and in-order iteration decode them

  std::string channel() const;          // spec "bosdyn:channel", or the spec as k=v pairs
  std::string type_label() const;       // type name, "float64[3]", ...
  size_t pod_sample_size() const;       // bytes per POD sample (0 when not POD)
};

// Every block the reader knows, in file order, for the tree and spans.
enum class BlockKind : uint8_t { Magic, FileDescriptor, SeriesDescriptor, SeriesBlockIndex, FileIndex, Descriptor, Data, End, Damaged };
const char* block_kind_name(BlockKind kind);

struct BlockRef {
  uint64_t offset = 0;
  BlockKind kind = BlockKind::Data;
  uint32_t series = UINT32_MAX;  // position in FileModel::series (data blocks, series descriptors, series indexes)
  uint32_t entry = UINT32_MAX;   // position in Series::entries (data blocks)
};

struct FileModel;

// What FileModel::blocks() derives from the series, once.
struct BlockTable {
  std::once_flag built;
  bool given = false;            // `others` was set by a scan, not derived from the index
  bool merged = false;           // rows: `others` merged with the series' entries; else `others` holds every row
  std::vector<BlockRef> others;  // sorted by offset
  size_t size = 0;
  size_t spacing = 0;            // rows between checkpoints
  // Checkpoints are made as far as a lookup asks, by readers of a const table: under the lock.
  mutable std::mutex checkpoint_lock;
  mutable std::vector<uint64_t> checkpoint_offset;  // the row's offset at each checkpoint
  mutable std::vector<uint32_t> checkpoint_next;    // per checkpoint, each stream's next index (1 + series count)
};

// The file-order table of blocks (FileModel::blocks()): the blocks that are not series entries,
// merged by offset with every series' entries. It is never built whole when each series lists its
// blocks in file order (16.5 million rows at 100 GB): a cursor merges the series as it goes, and
// every few thousand rows a checkpoint lets a position or an offset be found without starting over.
class BlockList {
 public:
  class Cursor;
  size_t size() const;
  bool empty() const { return size() == 0; }
  BlockRef operator[](size_t position) const;  // from the nearest checkpoint: for one row, not a loop
  Cursor cursor(size_t position = 0) const;    // rows from `position` on, in order
  // Position of the block starting exactly at offset (the first of several; SIZE_MAX if none) and
  // of the last block starting at or before it (SIZE_MAX if none).
  size_t block_at(uint64_t offset) const;
  size_t block_containing(uint64_t offset) const;

  class iterator;
  iterator begin() const;
  iterator end() const;

 private:
  friend struct FileModel;
  BlockList(const FileModel& model, const BlockTable& table) : model_(&model), table_(&table) {}
  Cursor first_at_or_after(uint64_t offset) const;
  // A cursor at the checkpoint `choose` picks; it runs under the table's lock, making checkpoints.
  template <class Choose>
  Cursor from_checkpoint(Choose choose) const;
  const FileModel* model_;
  const BlockTable* table_;
};

class BlockList::Cursor {
 public:
  bool done() const { return position_ >= size_; }
  const BlockRef& ref() const { return ref_; }
  size_t position() const { return position_; }
  // The series entry the row is (its time, without decoding it again); null when it is none.
  const BlockEntry* entry() const;
  std::vector<int64_t> extra() const;  // that entry's additional indexes
  void next();

 private:
  friend class BlockList;
  friend struct BlockListAccess;
  void load();
  const FileModel* model_ = nullptr;
  const BlockTable* table_ = nullptr;
  size_t position_ = 0, size_ = 0;
  BlockRef ref_;
  mutable BlockEntry looked_up_;  // entry() of a table built whole
  // Merging (the table is not built whole): per stream (0: the other blocks, 1 + s: series s)
  // the next row's index, the series' entry iterators, and a min-heap of (offset, stream).
  std::vector<size_t> next_;
  std::vector<BlockEntries::iterator> entries_;
  std::vector<std::pair<uint64_t, uint32_t>> heap_;
};

class BlockList::iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = BlockRef;
  using difference_type = std::ptrdiff_t;
  using pointer = const BlockRef*;
  using reference = const BlockRef&;
  const BlockRef& operator*() const { return cursor_.ref(); }
  iterator& operator++() {
    cursor_.next();
    return *this;
  }
  bool operator!=(const iterator& other) const { return cursor_.position() != other.cursor_.position(); }
  bool operator==(const iterator& other) const { return !(*this != other); }

 private:
  friend class BlockList;
  explicit iterator(Cursor cursor) : cursor_(std::move(cursor)) {}
  Cursor cursor_;
};

struct Trailer {
  bool readable = false;         // the file has at least 40 bytes after the magic
  bool present = false;          // END header type and "FDDB" are there
  uint64_t header_raw = 0;
  uint64_t index_offset = 0;
  uint8_t digest[20] = {};
  std::string end_magic;
};

struct Recovery {
  bool performed = false;
  std::string reason;     // why the index could not be used
  std::string ended;      // how the scan ended, in words
  std::string end_code;   // "end_block", "eof", "truncated_block", "truncated_header", "unknown_block_type"
  uint64_t ends_at = 0;   // where reading stopped
  uint64_t recovered_blocks = 0;
  std::string message() const;
};

struct FileModel {
  uint64_t size = 0;
  bool magic_ok = false;
  bool have_file_descriptor = false;
  uint32_t version_major = 0, version_minor = 0, version_patch = 0;
  std::map<std::string, std::string> annotations;
  int checksum_type = 0;
  uint32_t checksum_num_bytes = 0;
  Trailer trailer;
  bool indexed = false;  // the summary comes from the file's own index
  bool have_file_index = false;
  std::vector<uint64_t> file_index_offsets;
  std::vector<uint64_t> file_index_hashes;
  std::vector<std::pair<std::string, std::map<std::string, std::string>>> file_index_identifiers;
  std::vector<Series> series;
  Recovery recovery;
  std::vector<Problem> problems;
  std::map<uint32_t, uint32_t> position_of;  // descriptor series_index -> position in `series`

  std::string version() const;
  uint64_t data_block_count() const;
  // Series position for a DataDescriptor series_index (UINT32_MAX if none).
  uint32_t series_position(uint32_t series_index) const;
  // Every block the reader knows, sorted by offset, for the tree, spans and the doctor. Opening
  // from the index does not build it (the summary needs none of it); a recovery scan names the
  // blocks that are not series entries (set_blocks_besides_entries), the entries are the series'.
  BlockList blocks() const;
  void set_blocks_besides_entries(std::vector<BlockRef> blocks);
  size_t block_at(uint64_t offset) const { return blocks().block_at(offset); }
  size_t block_containing(uint64_t offset) const { return blocks().block_containing(offset); }

 private:
  std::shared_ptr<BlockTable> block_table_ = std::make_shared<BlockTable>();  // shared: FileModel stays movable and copyable
};

}  // namespace logscope::bddf
