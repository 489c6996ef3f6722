// An MCAP writer for tests, demos, extract and repair: chunked (none, lz4, zstd) or not, with
// message indexes, chunk indexes, statistics, summary offsets, attachments, metadata and every
// CRC, each optional. It keeps the whole file in memory (finish() returns it) or, given an
// OutputSink, streams each record out as it is complete (memory: one open chunk and the indexes).
// It keeps a ledger of what it wrote at which offset, so tests can cut or damage a record and
// know which one they hit.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/output_sink.h"
#include "mcap/crc32.h"
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
  explicit Writer(WriterOptions options = WriterOptions(), OutputSink* sink = nullptr);

  uint16_t add_schema(const std::string& name, const std::string& encoding, const std::string& data);
  uint16_t add_channel(uint16_t schema_id, const std::string& topic, const std::string& message_encoding, StringPairs metadata = {});
  // With the ids of another file (extract, repair): false when the id is taken (or a schema's is 0).
  bool add_schema(const Schema& schema);
  bool add_channel(const Channel& channel);
  bool has_schema(uint16_t id) const { return schemas_.count(id) > 0; }
  bool has_channel(uint16_t id) const { return channels_.count(id) > 0; }
  void write_message(uint16_t channel_id, uint32_t sequence, uint64_t log_time, uint64_t publish_time, const std::string& data);
  void write_attachment(const std::string& name, const std::string& media_type, uint64_t log_time, uint64_t create_time, const std::string& data);
  void write_metadata(const std::string& name, StringPairs metadata);
  // Closes the last chunk, writes DataEnd, the summary, the footer and the closing magic. Returns
  // the file when there is no sink ("" with a sink).
  std::string finish();
  // False once the sink refused a write (its error() says why); nothing more is written.
  bool ok() const { return ok_; }
  uint64_t bytes_written() const { return flushed_ + out_.size(); }

  const std::vector<LedgerEntry>& ledger() const { return ledger_; }
  uint64_t message_count() const { return statistics_.message_count; }
  // Keep the ledger (tests); extract and repair of big files turn it off.
  void keep_ledger(bool keep) { keep_ledger_ = keep; }

 private:
  void emit(std::string_view bytes);  // appends, updates the CRCs, hands full buffers to the sink
  void put(uint8_t op, const std::string& record, uint64_t messages = 0);  // a whole record at the end of the file
  void ensure_written(uint16_t channel_id);
  void close_chunk();

  WriterOptions options_;
  OutputSink* sink_ = nullptr;
  bool ok_ = true;
  bool keep_ledger_ = true;
  std::string out_;     // bytes not handed to the sink yet (everything without a sink)
  uint64_t flushed_ = 0;
  Crc32 data_crc_;      // [0, DataEnd)
  bool data_ended_ = false;
  Crc32 summary_crc_;   // [summary start, footer)
  bool in_summary_ = false;
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
