// What the reader knows about a BDDF file after opening it: file facts, series with their
// block indexes, and a file-order table of blocks. Only indexes; never payloads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/report.h"

namespace logscope::bddf {

// One data block of a series, as its index (or a recovery scan) lists it.
struct BlockEntry {
  int64_t timestamp_ns = 0;
  uint64_t file_offset = 0;          // offset of the block header
  uint32_t extra_first = 0;          // additional indexes: [extra_first, +extra_count) in Series::extra
  uint32_t extra_count = 0;
};

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
  std::vector<BlockEntry> entries;
  std::vector<int64_t> extra;           // pool of additional indexes

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
  // from the index does not build it (a 1 GB file lists 250,000 blocks and the summary needs none
  // of them): the first caller builds it from the series, once. A recovery scan sets it instead.
  const std::vector<BlockRef>& blocks() const;
  void set_blocks(std::vector<BlockRef> blocks);
  // Position in blocks() of the block starting exactly at offset (SIZE_MAX if none) and of the
  // last block starting at or before it.
  size_t block_at(uint64_t offset) const;
  size_t block_containing(uint64_t offset) const;

 private:
  struct BlockTable {
    std::once_flag built;
    std::vector<BlockRef> rows;
  };
  std::shared_ptr<BlockTable> block_table_ = std::make_shared<BlockTable>();  // shared: FileModel stays movable
};

}  // namespace logscope::bddf
