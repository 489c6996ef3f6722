// The linear scan that replaces the summary: every record of the data section, each chunk
// decompressed and its records counted, damage skipped to the next valid record.
#include <algorithm>

#include "mcap/reader.h"

namespace logscope::mcap {

void ScanBuilder::add_schema(const Schema& schema, uint64_t offset, bool in_chunk) { model_.add_schema(schema, offset, in_chunk); }

void ScanBuilder::add_channel(const Channel& channel, uint64_t offset, bool in_chunk) {
  if (!model_.channels.count(channel.id)) model_.channels[channel.id] = ChannelInfo{channel, offset, in_chunk};
}

void ScanBuilder::count_message(const MessageHeader& message) {
  ++model_.message_count;
  ++model_.channel_counts[message.channel_id];
  if (!model_.start_time || message.log_time < *model_.start_time) model_.start_time = message.log_time;
  if (!model_.end_time || message.log_time > *model_.end_time) model_.end_time = message.log_time;
}

void ScanBuilder::record(const RecordFrame& frame, std::string_view content, bool whole) {
  if (records_.size() < kMaxListedRecords) records_.push_back(frame);
  else listed_all_ = false;
  uint64_t at = frame.offset;
  std::string why;
  auto damaged = [&](const char* code) {
    model_.problem(Severity::Error, at, code, "the " + op_name(frame.op) + " record at byte " + std::to_string(at) + " cannot be read: " + why);
  };
  if (in_summary_) {
    // After DataEnd: the summary section, duplicates of what the data section said.
    if (model_.summary_records.size() < kMaxListedRecords) model_.summary_records.push_back(frame);
    if (frame.op == kOpStatistics && !model_.statistics) {
      Statistics s;
      if (parse_statistics(content, &s, &why)) {
        model_.statistics = std::move(s);
        model_.statistics_offset = at;
      }
    } else if (frame.op == kOpSummaryOffset) {
      SummaryOffset so;
      if (parse_summary_offset(content, &so, &why)) model_.summary_offsets.emplace_back(at, so);
    } else if (frame.op == kOpSchema) {
      Schema s;
      if (parse_schema(content, &s, &why)) on_schema(s, at, false);
    } else if (frame.op == kOpChannel) {
      Channel c;
      if (parse_channel(content, &c, &why)) on_channel(c, at, false);
    }
    return;
  }
  switch (frame.op) {
    case kOpHeader:
    case kOpFooter:
      model_.problem(Severity::Error, at, "mcap.record.unexpected", "a " + op_name(frame.op) + " record inside the data section at byte " + std::to_string(at));
      break;
    case kOpSchema: {
      Schema s;
      if (!parse_schema(content, &s, &why)) return damaged("mcap.schema.damaged");
      add_schema(s, at, false);
      on_schema(s, at, false);
      break;
    }
    case kOpChannel: {
      Channel c;
      if (!parse_channel(content, &c, &why)) return damaged("mcap.channel.damaged");
      add_channel(c, at, false);
      on_channel(c, at, false);
      break;
    }
    case kOpMessage: {
      MessageHeader m;
      if (!parse_message_header(content, &m, &why)) return damaged("mcap.message.damaged");
      ++model_.messages_outside_chunks;
      count_message(m);
      on_message(m, at, false);
      break;
    }
    case kOpChunk: {
      ChunkHeader h;
      if (!whole) {
        model_.problem(Severity::Error, at, "mcap.chunk.too_large",
                       "the Chunk at byte " + std::to_string(at) + " is " + std::to_string(frame.length) + " bytes, more than the " +
                           std::to_string(kMaxRecordView >> 20) + " MiB this reader holds at once: its messages are not counted");
      }
      if (!parse_chunk_header(content, &h, &why) && whole) return damaged("mcap.chunk.damaged");
      ChunkInfo c;
      c.offset = at;
      c.length = kRecordPrefix + frame.length;
      c.message_start_time = h.message_start_time;
      c.message_end_time = h.message_end_time;
      c.compression = h.compression;
      c.compressed_size = h.records_size;
      c.uncompressed_size = h.uncompressed_size;
      if (model_.chunks.size() >= kMaxListedChunks) {
        // Counted, not listed: its messages still count (overflow_ takes its place).
        ++model_.unlisted_chunks;
        overflow_ = std::move(c);
        last_chunk_ = kOverflowChunk;
        break;
      }
      last_chunk_ = model_.chunks.size();
      model_.chunks.push_back(std::move(c));
      break;
    }
    case kOpMessageIndex: {
      // After a chunk that could not be decompressed, its message indexes still say how many
      // messages it holds and when.
      ChunkInfo* current = current_chunk();
      if (!current) break;
      ChunkInfo& c = *current;
      if (c.counted) break;
      MessageIndex mi;
      if (!parse_message_index(content, &mi, &why)) return damaged("mcap.index.message_index_damaged");
      if (c.message_index_length == 0) c.message_index_offsets.emplace_back(mi.channel_id, at);
      for (const auto& [t, o] : mi.entries) count_message(MessageHeader{mi.channel_id, 0, t, t});
      break;
    }
    case kOpAttachment: {
      AttachmentHeader a;
      if (!parse_attachment_header(content, frame.length, &a, &why)) return damaged("mcap.attachment.damaged");
      model_.attachments.push_back(AttachmentInfo{at, kRecordPrefix + frame.length, a.log_time, a.create_time, a.data_size, a.name, a.media_type, 0});
      break;
    }
    case kOpMetadata: {
      Metadata d;
      if (!parse_metadata(content, &d, &why)) return damaged("mcap.metadata.damaged");
      model_.metadata.push_back(MetadataInfo{at, kRecordPrefix + frame.length, d.name, 0});
      break;
    }
    case kOpDataEnd: {
      DataEnd d;
      if (!parse_data_end(content, &d, &why)) return damaged("mcap.data_end.damaged");
      if (!model_.has_data_end) {
        model_.has_data_end = true;
        model_.data_end = d;
        model_.data_end_offset = at;
      }
      in_summary_ = true;
      break;
    }
    case kOpChunkIndex:
    case kOpAttachmentIndex:
    case kOpStatistics:
    case kOpMetadataIndex:
    case kOpSummaryOffset:
      // Summary records before any DataEnd: a file whose DataEnd is missing.
      model_.problem(Severity::Warning, at, "mcap.record.unexpected",
                     "a " + op_name(frame.op) + " record at byte " + std::to_string(at) + " before any DataEnd record (summary records belong after it)");
      in_summary_ = true;
      if (model_.summary_records.size() < kMaxListedRecords) model_.summary_records.push_back(frame);
      break;
    default:
      ++(is_private_op(frame.op) ? model_.private_records : model_.unknown_records);
      break;
  }
}

void ScanBuilder::chunk(const RecordFrame& frame, const ChunkHeader& header, const Decompressed& records) {
  ChunkInfo* current = current_chunk();
  if (in_summary_ || !current || current->offset != frame.offset) return;
  ChunkInfo& c = *current;
  static const char* const codes[] = {"", "mcap.chunk.unsupported_compression", "mcap.chunk.too_large", "mcap.chunk.size_implausible",
                                      "mcap.chunk.decompress_failed", "mcap.chunk.size_mismatch"};
  if (records.status != DecompressStatus::Ok) {
    model_.problem(Severity::Error, frame.offset, codes[static_cast<int>(records.status)],
                   "the Chunk at byte " + std::to_string(frame.offset) + " (" + (header.compression.empty() ? "uncompressed" : header.compression) +
                       "): " + records.error);
    return;
  }
  std::map<uint16_t, uint64_t> counts;
  std::string_view bytes = records.view();
  std::string why;
  uint64_t bad = 0;
  bool ok = for_each_inner_record(bytes, [&](const RecordFrame& inner, std::string_view content) {
    std::string error;
    switch (inner.op) {
      case kOpSchema: {
        Schema s;
        if (parse_schema(content, &s, &error)) {
          add_schema(s, frame.offset, true);
          on_schema(s, frame.offset, true);
        }
        break;
      }
      case kOpChannel: {
        Channel ch;
        if (parse_channel(content, &ch, &error)) {
          add_channel(ch, frame.offset, true);
          on_channel(ch, frame.offset, true);
        }
        break;
      }
      case kOpMessage: {
        MessageHeader m;
        if (parse_message_header(content, &m, &error)) {
          count_message(m);
          ++counts[m.channel_id];
          on_message(m, inner.offset, true);
        }
        break;
      }
      default:
        on_inner_other(inner, frame.offset);
        break;
    }
    if (!error.empty())
      model_.problem(Severity::Error, frame.offset, "mcap.chunk.damaged_record",
                     "record " + op_name(inner.op) + " at byte " + std::to_string(inner.offset) + " of the records of the Chunk at byte " +
                         std::to_string(frame.offset) + " cannot be read: " + error);
  }, &why, &bad);
  if (!ok)
    model_.problem(Severity::Error, frame.offset, "mcap.chunk.damaged_records",
                   "the records of the Chunk at byte " + std::to_string(frame.offset) + " break off at byte " + std::to_string(bad) +
                       " of " + std::to_string(bytes.size()) + ": " + why);
  c.counted = true;
  c.message_count = 0;
  c.channel_counts.assign(counts.begin(), counts.end());
  for (const auto& [id, n] : counts) c.message_count += n;
}

void scan_file(ByteSource& source, FileModel* m, const std::string& reason, bool index_unusable, const ProgressFn& progress) {
  m->source = SummarySource::Scan;
  m->source_reason = reason;
  uint64_t end = m->has_footer ? m->footer_offset : m->file_size;
  ScanBuilder builder(*m);
  WalkResult w = walk_records(source, m->header_end, end, builder, &m->problems, progress);
  m->scan_end = w.complete ? m->file_size : w.end;
  m->channel_counts_known = true;
  m->top_records_known = true;
  m->top_records = builder.records();
  m->top_records_complete = builder.listed_all() && w.complete;
  uint64_t recovered_messages = m->message_count;
  // Data was lost, or found only by scanning because the index could not serve: a recovery.
  bool lost = !w.complete || w.skipped_bytes > 0;
  if (lost || index_unusable || m->line_endings_damaged) {
    Recovery& r = m->recovery;
    r.performed = true;
    r.reason = m->line_endings_damaged ? "line_endings" : w.cancelled ? "cancelled" : !w.complete ? "truncated" : w.skipped_bytes ? "damaged"
               : !m->has_footer ? "no_footer" : "summary_unusable";
    r.message = "read by scanning the data section (" + reason + ")";
    if (!w.complete) r.message += "; reading stopped at byte " + std::to_string(w.end) + ": " + w.stop_reason;
    if (w.skipped_bytes) r.message += "; " + std::to_string(w.skipped_bytes) + " damaged bytes were skipped";
    r.ends_at = m->scan_end;
    r.recovered = {{"chunks", m->chunks.size()}, {"messages", recovered_messages}};
  }
  if (w.complete && m->has_footer && !m->has_data_end)
    m->problem(Severity::Warning, end, "mcap.data_end.missing", "the data section has no DataEnd record (the spec makes it the last record of the data section)");
}

}  // namespace logscope::mcap
