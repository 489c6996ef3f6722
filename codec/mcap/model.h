// What the reader knows about an MCAP file after opening it (reader.h): the header, the footer,
// the summary's index (schemas, channels, chunk, attachment and metadata indexes, statistics)
// or what a scan of the data section found instead, problems and recovery. Indexes only: no
// message payload and no chunk's records are kept.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/report.h"
#include "mcap/records.h"

namespace logscope::mcap {

struct SchemaInfo {
  Schema schema;          // its data is dropped once kMaxKeptSchemaData bytes of schemas are kept
  uint64_t offset = 0;    // the first record that defined it (file offset, or its chunk's)
  bool in_chunk = false;  // found inside a chunk (offset is then the chunk's)
  uint64_t data_size = 0;
};

// Schemas' data kept in memory at most (the record view reads a schema from the file).
constexpr uint64_t kMaxKeptSchemaData = 64ull << 20;
// Chunks listed at most; past that they are still counted (FileModel::unlisted_chunks).
constexpr size_t kMaxListedChunks = 1u << 20;

struct ChannelInfo {
  Channel channel;
  uint64_t offset = 0;
  bool in_chunk = false;
};

// A chunk from its ChunkIndex (index_offset != 0) or from a scan of its record.
struct ChunkInfo {
  uint64_t offset = 0;  // the Chunk record
  uint64_t length = 0;  // the whole record, opcode and length included
  uint64_t message_start_time = 0;
  uint64_t message_end_time = 0;
  std::string compression;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  std::vector<std::pair<uint16_t, uint64_t>> message_index_offsets;
  uint64_t message_index_length = 0;
  uint64_t index_offset = 0;  // its ChunkIndex record; 0 when found by a scan
  // Known once the chunk was decompressed (scan, doctor): messages in it per channel.
  bool counted = false;
  uint64_t message_count = 0;
  std::vector<std::pair<uint16_t, uint64_t>> channel_counts;
  uint64_t end() const { return offset + length; }
};

struct AttachmentInfo {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t log_time = 0;
  uint64_t create_time = 0;
  uint64_t data_size = 0;
  std::string name;
  std::string media_type;
  uint64_t index_offset = 0;  // its AttachmentIndex; 0 when found by a scan
};

struct MetadataInfo {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string name;
  uint64_t index_offset = 0;  // its MetadataIndex; 0 when found by a scan
};

// Where the summary facts came from.
enum class SummarySource { None, Index, Scan };

struct FileModel {
  uint64_t file_size = 0;
  uint64_t magic_size = kMagicSize;  // 7 when "\r\n" became "\n" (line-ending damage)
  bool line_endings_damaged = false;

  bool has_header = false;
  Header header;
  uint64_t header_offset = kMagicSize;
  uint64_t header_end = 0;  // the first byte after the Header record (where the data section starts)

  bool has_footer = false;  // a Footer followed by the closing magic at the end of the file
  Footer footer;
  uint64_t footer_offset = 0;

  bool has_data_end = false;
  DataEnd data_end;
  uint64_t data_end_offset = 0;

  std::map<uint16_t, SchemaInfo> schemas;
  std::map<uint16_t, ChannelInfo> channels;
  std::vector<ChunkInfo> chunks;  // in file order
  uint64_t unlisted_chunks = 0;   // chunks a scan counted past kMaxListedChunks
  uint64_t kept_schema_data = 0;
  std::vector<AttachmentInfo> attachments;
  std::vector<MetadataInfo> metadata;
  std::optional<Statistics> statistics;
  uint64_t statistics_offset = 0;
  std::vector<std::pair<uint64_t, SummaryOffset>> summary_offsets;  // (record offset, record)
  std::vector<RecordFrame> summary_records;  // every record of the summary and summary offset sections

  // The summary's ChunkIndex group (offset, length), not read yet (reader.h): `chunks` is empty,
  // and the summary CRC, which covers the group, is unchecked until the whole summary is read.
  bool chunk_indexes_deferred = false;
  std::pair<uint64_t, uint64_t> deferred_chunk_indexes{0, 0};

  SummarySource source = SummarySource::None;
  std::string source_reason;  // why a scan was needed ("" when the index served)

  // The counts the summary shows: from Statistics (index) or counted by the scan.
  uint64_t message_count = 0;
  std::map<uint16_t, uint64_t> channel_counts;
  bool channel_counts_known = false;
  std::optional<uint64_t> start_time, end_time;  // earliest and latest message log_time
  uint64_t messages_outside_chunks = 0;
  uint64_t private_records = 0;  // ops 0x80-0xFF, skipped
  uint64_t unknown_records = 0;  // ops 0x10-0x7F, skipped
  uint64_t scan_end = 0;         // the scan stopped here (the file size when it read everything)
  // The top-level records in file order, as the scan found them (capped: top_records_complete
  // false when there were more). Empty until a scan ran; the inspector lists them on demand.
  bool top_records_known = false;
  bool top_records_complete = true;
  std::vector<RecordFrame> top_records;

  std::vector<Problem> problems;
  Recovery recovery;

  void problem(Severity severity, uint64_t offset, std::string code, std::string message) {
    problems.push_back(Problem{severity, offset, std::move(code), std::move(message)});
  }
  // Keeps a schema first seen at `offset` (its data within the budget).
  void add_schema(Schema s, uint64_t offset, bool in_chunk) {
    if (s.id == 0 || schemas.count(s.id)) return;
    uint64_t size = s.data.size();
    if (kept_schema_data + size > kMaxKeptSchemaData) s.data.clear();
    else kept_schema_data += size;
    schemas[s.id] = SchemaInfo{std::move(s), offset, in_chunk, size};
  }
  // The chunks the summary counts: listed and unlisted, or the Statistics' count while deferred.
  uint64_t chunk_count() const {
    return chunk_indexes_deferred && statistics ? statistics->chunk_count : chunks.size() + unlisted_chunks;
  }
  const Schema* schema(uint16_t id) const {
    auto it = schemas.find(id);
    return it == schemas.end() ? nullptr : &it->second.schema;
  }
  const Channel* channel(uint16_t id) const {
    auto it = channels.find(id);
    return it == channels.end() ? nullptr : &it->second.channel;
  }
};

}  // namespace logscope::mcap
