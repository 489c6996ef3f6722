#include "mcap/writer.h"

#include <functional>

#include "mcap/crc32.h"
#include "mcap/decompress.h"

namespace logscope::mcap {

namespace {
constexpr size_t kSinkBuffer = 1u << 20;  // bytes gathered before a write to the sink
}

Writer::Writer(WriterOptions options, OutputSink* sink) : options_(std::move(options)), sink_(sink) {
  emit(std::string_view(kMagic, kMagicSize));
  std::string record;
  append_header(record, Header{options_.profile, options_.library});
  put(kOpHeader, record);
}

void Writer::emit(std::string_view bytes) {
  if (!data_ended_) data_crc_.update(bytes);
  if (in_summary_) summary_crc_.update(bytes);
  out_ += bytes;
  if (sink_ && ok_ && out_.size() >= kSinkBuffer) {
    ok_ = sink_->write(out_.data(), out_.size());
    flushed_ += out_.size();
    out_.clear();
  }
}

void Writer::put(uint8_t op, const std::string& record, uint64_t messages) {
  if (keep_ledger_) ledger_.push_back(LedgerEntry{bytes_written(), record.size(), op, messages});
  emit(record);
}

bool Writer::add_schema(const Schema& schema) {
  if (schema.id == 0 || schemas_.count(schema.id)) return false;
  schemas_[schema.id] = schema;
  return true;
}

bool Writer::add_channel(const Channel& channel) {
  if (channels_.count(channel.id)) return false;
  channels_[channel.id] = channel;
  return true;
}

uint16_t Writer::add_schema(const std::string& name, const std::string& encoding, const std::string& data) {
  uint16_t id = static_cast<uint16_t>(schemas_.empty() ? 1 : schemas_.rbegin()->first + 1);
  schemas_[id] = Schema{id, name, encoding, data};
  return id;
}

uint16_t Writer::add_channel(uint16_t schema_id, const std::string& topic, const std::string& message_encoding, StringPairs metadata) {
  uint16_t id = static_cast<uint16_t>(channels_.empty() ? 0 : channels_.rbegin()->first + 1);
  channels_[id] = Channel{id, schema_id, topic, message_encoding, std::move(metadata)};
  return id;
}

// A channel (and its schema) is written before its first message: into the open chunk, or into
// the data section when not chunking. A channel whose schema is unknown is written without it
// (extract and repair check before; the doctor reports such a channel).
void Writer::ensure_written(uint16_t channel_id) {
  const Channel& c = channels_.at(channel_id);
  std::string records;
  if (c.schema_id && schemas_.count(c.schema_id) && !schemas_written_.count(c.schema_id)) {
    schemas_written_.insert(c.schema_id);
    append_schema(records, schemas_.at(c.schema_id));
  }
  if (!channels_written_.count(channel_id)) {
    channels_written_.insert(channel_id);
    append_channel(records, c);
  }
  if (records.empty()) return;
  if (options_.chunked) {
    chunk_records_ += records;
  } else {
    // Two records at most: each gets its own ledger entry.
    RecordFrame frame;
    std::string why;
    for (uint64_t pos = 0; pos < records.size(); pos = frame.end()) {
      frame_at(records, pos, &frame, &why);
      put(frame.op, records.substr(static_cast<size_t>(pos), static_cast<size_t>(frame.end() - pos)));
    }
  }
}

void Writer::write_message(uint16_t channel_id, uint32_t sequence, uint64_t log_time, uint64_t publish_time, const std::string& data) {
  ensure_written(channel_id);
  MessageHeader m{channel_id, sequence, log_time, publish_time};
  Statistics& s = statistics_;
  if (s.message_count == 0 || log_time < s.message_start_time) s.message_start_time = log_time;
  if (s.message_count == 0 || log_time > s.message_end_time) s.message_end_time = log_time;
  ++s.message_count;
  ++channel_counts_[channel_id];
  if (!options_.chunked) {
    std::string record;
    append_message(record, m, data);
    put(kOpMessage, record, 1);
    return;
  }
  chunk_index_[channel_id].channel_id = channel_id;
  chunk_index_[channel_id].entries.emplace_back(log_time, chunk_records_.size());
  append_message(chunk_records_, m, data);
  chunk_start_ = std::min(chunk_start_, log_time);
  chunk_end_ = std::max(chunk_end_, log_time);
  ++chunk_messages_;
  if (chunk_records_.size() >= options_.chunk_size) close_chunk();
}

void Writer::close_chunk() {
  if (chunk_records_.empty()) return;
  ChunkHeader h;
  h.message_start_time = chunk_messages_ ? chunk_start_ : 0;
  h.message_end_time = chunk_messages_ ? chunk_end_ : 0;
  h.uncompressed_size = chunk_records_.size();
  h.uncompressed_crc = options_.chunk_crc ? crc32(chunk_records_) : 0;
  h.compression = options_.compression;
  std::string compressed = compress_chunk(options_.compression, chunk_records_);
  std::string record;
  append_chunk(record, h, compressed);
  ChunkIndex ci;
  ci.message_start_time = h.message_start_time;
  ci.message_end_time = h.message_end_time;
  ci.chunk_start_offset = bytes_written();
  ci.chunk_length = record.size();
  ci.compression = h.compression;
  ci.compressed_size = compressed.size();
  ci.uncompressed_size = h.uncompressed_size;
  put(kOpChunk, record, chunk_messages_);
  if (options_.message_indexes) {
    uint64_t start = bytes_written();
    for (const auto& [id, index] : chunk_index_) {
      ci.message_index_offsets.emplace_back(id, bytes_written());
      std::string mi;
      append_message_index(mi, index);
      put(kOpMessageIndex, mi);
    }
    ci.message_index_length = bytes_written() - start;
  }
  chunk_indexes_.push_back(std::move(ci));
  ++statistics_.chunk_count;
  chunk_records_.clear();
  chunk_index_.clear();
  chunk_start_ = UINT64_MAX;
  chunk_end_ = 0;
  chunk_messages_ = 0;
}

void Writer::write_attachment(const std::string& name, const std::string& media_type, uint64_t log_time, uint64_t create_time, const std::string& data) {
  close_chunk();  // attachments are never inside a chunk
  std::string record;
  append_attachment(record, AttachmentHeader{log_time, create_time, name, media_type}, data, options_.attachment_crc);
  attachment_indexes_.push_back(AttachmentIndex{bytes_written(), record.size(), log_time, create_time, data.size(), name, media_type});
  put(kOpAttachment, record);
  ++statistics_.attachment_count;
}

void Writer::write_metadata(const std::string& name, StringPairs metadata) {
  close_chunk();
  std::string record;
  append_metadata(record, Metadata{name, std::move(metadata)});
  metadata_indexes_.push_back(MetadataIndex{bytes_written(), record.size(), name});
  put(kOpMetadata, record);
  ++statistics_.metadata_count;
}

std::string Writer::finish() {
  close_chunk();
  std::string record;
  data_ended_ = true;
  append_data_end(record, DataEnd{options_.data_crc ? data_crc_.value() : 0});
  put(kOpDataEnd, record);
  Footer footer;
  std::vector<SummaryOffset> offsets;
  // The summary CRC covers [summary start, footer): from here, or from the footer when no summary.
  in_summary_ = true;
  if (options_.summary) {
    footer.summary_start = bytes_written();
    auto group = [&](uint8_t op, const std::function<void()>& write) {
      uint64_t start = bytes_written();
      write();
      if (bytes_written() > start) offsets.push_back(SummaryOffset{op, start, bytes_written() - start});
    };
    if (options_.repeat_schemas)
      group(kOpSchema, [&] {
        for (const auto& [id, s] : schemas_)
          if (schemas_written_.count(id)) record.clear(), append_schema(record, s), put(kOpSchema, record);
      });
    if (options_.repeat_channels)
      group(kOpChannel, [&] {
        for (const auto& [id, c] : channels_)
          if (channels_written_.count(id)) record.clear(), append_channel(record, c), put(kOpChannel, record);
      });
    if (options_.chunk_indexes)
      group(kOpChunkIndex, [&] {
        for (const ChunkIndex& ci : chunk_indexes_) record.clear(), append_chunk_index(record, ci), put(kOpChunkIndex, record);
      });
    if (options_.attachment_indexes)
      group(kOpAttachmentIndex, [&] {
        for (const AttachmentIndex& ai : attachment_indexes_) record.clear(), append_attachment_index(record, ai), put(kOpAttachmentIndex, record);
      });
    if (options_.metadata_indexes)
      group(kOpMetadataIndex, [&] {
        for (const MetadataIndex& mi : metadata_indexes_) record.clear(), append_metadata_index(record, mi), put(kOpMetadataIndex, record);
      });
    if (options_.statistics)
      group(kOpStatistics, [&] {
        Statistics s = statistics_;
        s.schema_count = static_cast<uint16_t>(schemas_written_.size());
        s.channel_count = static_cast<uint32_t>(channels_written_.size());
        for (const auto& [id, n] : channel_counts_) s.channel_message_counts.emplace_back(id, n);
        record.clear();
        append_statistics(record, s);
        put(kOpStatistics, record);
      });
    if (bytes_written() == footer.summary_start) footer.summary_start = 0;
    if (options_.summary_offsets && !offsets.empty()) {
      footer.summary_offset_start = bytes_written();
      for (const SummaryOffset& so : offsets) record.clear(), append_summary_offset(record, so), put(kOpSummaryOffset, record);
    }
  }
  record.clear();
  append_footer(record, footer);
  if (options_.summary_crc) {
    // Over [summary start, footer) and the footer up to its CRC field.
    Crc32 crc = summary_crc_;
    crc.update(std::string_view(record).substr(0, kFooterCrcPrefix));
    footer.summary_crc = crc.value();
    record.clear();
    append_footer(record, footer);
  }
  in_summary_ = false;
  put(kOpFooter, record);
  emit(std::string_view(kMagic, kMagicSize));
  if (!sink_) return out_;
  if (ok_ && !out_.empty()) ok_ = sink_->write(out_.data(), out_.size());
  flushed_ += out_.size();
  out_.clear();
  return "";
}

}  // namespace logscope::mcap
