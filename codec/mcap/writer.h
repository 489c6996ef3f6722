// An MCAP writer for tests and fixtures: chunked (none, lz4, zstd) or not, with message indexes,
// chunk indexes, statistics, summary offsets, attachments, metadata and every CRC, each optional.
// It keeps the whole file in memory and returns a ledger of what it wrote at which offset, so
// tests can cut or damage a record and know which one they hit.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mcap/records.h"

namespace logscope::mcap {

struct WriterOptions {
  std::string profile;
  std::string library = "logscope mcap writer";
  bool chunked = true;
  std::string compression = "zstd";  // "", "lz4" or "zstd"
  uint64_t chunk_size = 64 * 1024;   // records (uncompressed) per chunk before it is closed
  bool message_indexes = true;
  bool summary = true;          // DataEnd is always written; the summary section only with this
  bool chunk_indexes = true;
  bool statistics = true;
  bool summary_offsets = true;
  bool repeat_schemas = true;   // Schema and Channel records repeated in the summary
  bool repeat_channels = true;
  bool attachment_indexes = true;
  bool metadata_indexes = true;
  bool chunk_crc = true;
  bool attachment_crc = true;
  bool data_crc = true;
  bool summary_crc = true;
};

// One top-level record the writer wrote.
struct LedgerEntry {
  uint64_t offset = 0;
  uint64_t length = 0;  // the whole record, opcode and length included
  uint8_t op = 0;
  uint64_t messages = 0;  // messages inside (a chunk) or 1 (a message record)
};

class Writer {
 public:
  explicit Writer(WriterOptions options = WriterOptions());

  uint16_t add_schema(const std::string& name, const std::string& encoding, const std::string& data);
  uint16_t add_channel(uint16_t schema_id, const std::string& topic, const std::string& message_encoding, StringPairs metadata = {});
  void write_message(uint16_t channel_id, uint32_t sequence, uint64_t log_time, uint64_t publish_time, const std::string& data);
  void write_attachment(const std::string& name, const std::string& media_type, uint64_t log_time, uint64_t create_time, const std::string& data);
  void write_metadata(const std::string& name, StringPairs metadata);
  // Closes the last chunk, writes DataEnd, the summary, the footer and the closing magic.
  std::string finish();

  const std::vector<LedgerEntry>& ledger() const { return ledger_; }
  uint64_t message_count() const { return statistics_.message_count; }

 private:
  void put(uint8_t op, const std::string& record, uint64_t messages = 0);  // a whole record at the end of the file
  void ensure_written(uint16_t channel_id);
  void close_chunk();

  WriterOptions options_;
  std::string out_;
  std::vector<LedgerEntry> ledger_;
  std::map<uint16_t, Schema> schemas_;
  std::map<uint16_t, Channel> channels_;
  std::set<uint16_t> schemas_written_, channels_written_;
  // The open chunk.
  std::string chunk_records_;
  std::map<uint16_t, MessageIndex> chunk_index_;
  uint64_t chunk_start_ = UINT64_MAX, chunk_end_ = 0, chunk_messages_ = 0;
  std::vector<ChunkIndex> chunk_indexes_;
  std::vector<AttachmentIndex> attachment_indexes_;
  std::vector<MetadataIndex> metadata_indexes_;
  Statistics statistics_;
  std::map<uint16_t, uint64_t> channel_counts_;
};

}  // namespace logscope::mcap
