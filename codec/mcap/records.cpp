#include "mcap/records.h"

#include <cstdio>
#include <cstring>

#include "core/cursor.h"
#include "mcap/crc32.h"

namespace logscope::mcap {

const char kMagic[kMagicSize + 1] = "\x89MCAP0\r\n";

std::string op_name(uint8_t op) {
  static const char* const names[] = {"",       "Header",       "Footer",     "Schema",          "Channel",
                                      "Message", "Chunk",       "MessageIndex", "ChunkIndex",     "Attachment",
                                      "AttachmentIndex", "Statistics", "Metadata", "MetadataIndex", "SummaryOffset",
                                      "DataEnd"};
  if (is_known_op(op)) return names[op];
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s 0x%02X", is_private_op(op) ? "private" : "unknown", op);
  return buf;
}

namespace {

// Reads `u32 length | bytes` within the cursor; fails (sticky) when the length runs past it.
bool read_string(Cursor& c, std::string* out) {
  uint32_t n = c.u32();
  if (!c.ok() || n > c.remaining()) {
    c.skip(c.remaining() + 1);  // mark failed
    return false;
  }
  *out = c.string(n);
  return c.ok();
}

// A `u32 byte length | entries` region as a nested cursor (its entries parsed by the caller).
bool read_region(Cursor& c, std::string_view* region) {
  uint32_t n = c.u32();
  if (!c.ok() || n > c.remaining()) {
    c.skip(c.remaining() + 1);
    return false;
  }
  *region = c.bytes(n);
  return c.ok();
}

bool read_string_map(Cursor& c, StringPairs* out) {
  std::string_view region;
  if (!read_region(c, &region)) return false;
  Cursor m(region);
  while (!m.at_end()) {
    std::string key, value;
    if (!read_string(m, &key) || !read_string(m, &value)) return false;
    out->emplace_back(std::move(key), std::move(value));
  }
  return true;
}

bool fail(std::string* why, const std::string& text) {
  if (why) *why = text;
  return false;
}

bool done(const Cursor& c, std::string* why, const char* what) {
  if (c.ok()) return true;
  return fail(why, std::string("a field of the ") + what + " runs past the end of its " + std::to_string(c.size()) + "-byte content");
}

}  // namespace

bool parse_header(std::string_view content, Header* out, std::string* why) {
  Cursor c(content);
  read_string(c, &out->profile);
  read_string(c, &out->library);
  return done(c, why, "Header");
}

bool parse_footer(std::string_view content, Footer* out, std::string* why) {
  if (content.size() != kFooterContent)
    return fail(why, "a Footer holds 20 bytes, this one " + std::to_string(content.size()));
  Cursor c(content);
  out->summary_start = c.u64();
  out->summary_offset_start = c.u64();
  out->summary_crc = c.u32();
  return done(c, why, "Footer");
}

bool parse_schema(std::string_view content, Schema* out, std::string* why) {
  Cursor c(content);
  out->id = c.u16();
  read_string(c, &out->name);
  read_string(c, &out->encoding);
  read_string(c, &out->data);
  return done(c, why, "Schema");
}

bool parse_channel(std::string_view content, Channel* out, std::string* why) {
  Cursor c(content);
  out->id = c.u16();
  out->schema_id = c.u16();
  read_string(c, &out->topic);
  read_string(c, &out->message_encoding);
  read_string_map(c, &out->metadata);
  return done(c, why, "Channel");
}

bool parse_message_header(std::string_view content, MessageHeader* out, std::string* why) {
  Cursor c(content);
  out->channel_id = c.u16();
  out->sequence = c.u32();
  out->log_time = c.u64();
  out->publish_time = c.u64();
  return done(c, why, "Message");
}

bool parse_chunk_header(std::string_view content, ChunkHeader* out, std::string* why) {
  Cursor c(content);
  out->message_start_time = c.u64();
  out->message_end_time = c.u64();
  out->uncompressed_size = c.u64();
  out->uncompressed_crc = c.u32();
  read_string(c, &out->compression);
  out->records_size = c.u64();
  if (!done(c, why, "Chunk")) return false;
  out->records_offset = c.position();
  if (out->records_size > c.remaining())
    return fail(why, "the Chunk's records are " + std::to_string(out->records_size) + " bytes but only " +
                         std::to_string(c.remaining()) + " remain in its content");
  return true;
}

bool parse_message_index(std::string_view content, MessageIndex* out, std::string* why) {
  Cursor c(content);
  out->channel_id = c.u16();
  std::string_view region;
  if (read_region(c, &region)) {
    if (region.size() % 16) return fail(why, "the MessageIndex's entries are " + std::to_string(region.size()) + " bytes, not a multiple of 16");
    Cursor e(region);
    out->entries.reserve(region.size() / 16);  // bounded by the bytes present
    while (!e.at_end()) {
      uint64_t t = e.u64();
      out->entries.emplace_back(t, e.u64());
    }
  }
  return done(c, why, "MessageIndex");
}

bool parse_chunk_index(std::string_view content, ChunkIndex* out, std::string* why) {
  Cursor c(content);
  out->message_start_time = c.u64();
  out->message_end_time = c.u64();
  out->chunk_start_offset = c.u64();
  out->chunk_length = c.u64();
  std::string_view region;
  if (read_region(c, &region)) {
    if (region.size() % 10) return fail(why, "the ChunkIndex's message index offsets are " + std::to_string(region.size()) + " bytes, not a multiple of 10");
    Cursor e(region);
    while (!e.at_end()) {
      uint16_t channel = e.u16();
      out->message_index_offsets.emplace_back(channel, e.u64());
    }
  }
  out->message_index_length = c.u64();
  read_string(c, &out->compression);
  out->compressed_size = c.u64();
  out->uncompressed_size = c.u64();
  return done(c, why, "ChunkIndex");
}

bool parse_attachment_header(std::string_view content, uint64_t content_length, AttachmentHeader* out, std::string* why) {
  Cursor c(content);
  out->log_time = c.u64();
  out->create_time = c.u64();
  read_string(c, &out->name);
  read_string(c, &out->media_type);
  out->data_size = c.u64();
  if (!done(c, why, "Attachment")) return false;
  out->data_offset = c.position();
  uint64_t rest = content_length - out->data_offset;
  if (content_length < out->data_offset || rest < 4 || out->data_size > rest - 4)
    return fail(why, "the Attachment's data is " + std::to_string(out->data_size) + " bytes but its content leaves " +
                         std::to_string(content_length < out->data_offset + 4 ? 0 : rest - 4) + " for data and CRC");
  out->crc_offset = out->data_offset + out->data_size;
  if (out->crc_offset + 4 <= content.size()) std::memcpy(&out->crc, content.data() + out->crc_offset, 4);
  return true;
}

bool parse_attachment_index(std::string_view content, AttachmentIndex* out, std::string* why) {
  Cursor c(content);
  out->offset = c.u64();
  out->length = c.u64();
  out->log_time = c.u64();
  out->create_time = c.u64();
  out->data_size = c.u64();
  read_string(c, &out->name);
  read_string(c, &out->media_type);
  return done(c, why, "AttachmentIndex");
}

bool parse_statistics(std::string_view content, Statistics* out, std::string* why) {
  Cursor c(content);
  out->message_count = c.u64();
  out->schema_count = c.u16();
  out->channel_count = c.u32();
  out->attachment_count = c.u32();
  out->metadata_count = c.u32();
  out->chunk_count = c.u32();
  out->message_start_time = c.u64();
  out->message_end_time = c.u64();
  std::string_view region;
  if (read_region(c, &region)) {
    if (region.size() % 10) return fail(why, "the Statistics' channel message counts are " + std::to_string(region.size()) + " bytes, not a multiple of 10");
    Cursor e(region);
    while (!e.at_end()) {
      uint16_t channel = e.u16();
      out->channel_message_counts.emplace_back(channel, e.u64());
    }
  }
  return done(c, why, "Statistics");
}

bool parse_metadata(std::string_view content, Metadata* out, std::string* why) {
  Cursor c(content);
  read_string(c, &out->name);
  read_string_map(c, &out->metadata);
  return done(c, why, "Metadata");
}

bool parse_metadata_index(std::string_view content, MetadataIndex* out, std::string* why) {
  Cursor c(content);
  out->offset = c.u64();
  out->length = c.u64();
  read_string(c, &out->name);
  return done(c, why, "MetadataIndex");
}

bool parse_summary_offset(std::string_view content, SummaryOffset* out, std::string* why) {
  Cursor c(content);
  out->group_opcode = c.u8();
  out->group_start = c.u64();
  out->group_length = c.u64();
  return done(c, why, "SummaryOffset");
}

bool parse_data_end(std::string_view content, DataEnd* out, std::string* why) {
  Cursor c(content);
  out->data_section_crc = c.u32();
  return done(c, why, "DataEnd");
}

bool frame_at(std::string_view bytes, uint64_t offset, RecordFrame* frame, std::string* why) {
  frame->offset = offset;
  if (offset > bytes.size() || bytes.size() - offset < kRecordPrefix)
    return fail(why, "only " + std::to_string(offset > bytes.size() ? 0 : bytes.size() - offset) + " bytes remain, fewer than a record's 9-byte opcode and length");
  frame->op = static_cast<uint8_t>(bytes[offset]);
  std::memcpy(&frame->length, bytes.data() + offset + 1, 8);
  uint64_t room = bytes.size() - offset - kRecordPrefix;
  if (frame->length > room)
    return fail(why, "the " + op_name(frame->op) + " record declares " + std::to_string(frame->length) + " bytes of content; " +
                         std::to_string(room) + " remain");
  return true;
}

// --- writing -------------------------------------------------------------------------------------

namespace {

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}
void put_string(std::string& out, std::string_view s) {
  put<uint32_t>(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}
void put_string_map(std::string& out, const StringPairs& pairs) {
  std::string body;
  for (const auto& [k, v] : pairs) {
    put_string(body, k);
    put_string(body, v);
  }
  put_string(out, body);
}

}  // namespace

void append_record(std::string& out, uint8_t op, std::string_view content) {
  out += static_cast<char>(op);
  put<uint64_t>(out, content.size());
  out.append(content);
}

void append_header(std::string& out, const Header& r) {
  std::string c;
  put_string(c, r.profile);
  put_string(c, r.library);
  append_record(out, kOpHeader, c);
}

void append_footer(std::string& out, const Footer& r) {
  std::string c;
  put(c, r.summary_start);
  put(c, r.summary_offset_start);
  put(c, r.summary_crc);
  append_record(out, kOpFooter, c);
}

void append_schema(std::string& out, const Schema& r) {
  std::string c;
  put(c, r.id);
  put_string(c, r.name);
  put_string(c, r.encoding);
  put_string(c, r.data);
  append_record(out, kOpSchema, c);
}

void append_channel(std::string& out, const Channel& r) {
  std::string c;
  put(c, r.id);
  put(c, r.schema_id);
  put_string(c, r.topic);
  put_string(c, r.message_encoding);
  put_string_map(c, r.metadata);
  append_record(out, kOpChannel, c);
}

void append_message(std::string& out, const MessageHeader& r, std::string_view data) {
  std::string c;
  put(c, r.channel_id);
  put(c, r.sequence);
  put(c, r.log_time);
  put(c, r.publish_time);
  c.append(data);
  append_record(out, kOpMessage, c);
}

void append_chunk(std::string& out, const ChunkHeader& r, std::string_view records) {
  std::string c;
  put(c, r.message_start_time);
  put(c, r.message_end_time);
  put(c, r.uncompressed_size);
  put(c, r.uncompressed_crc);
  put_string(c, r.compression);
  put<uint64_t>(c, records.size());
  c.append(records);
  append_record(out, kOpChunk, c);
}

void append_message_index(std::string& out, const MessageIndex& r) {
  std::string c;
  put(c, r.channel_id);
  put<uint32_t>(c, static_cast<uint32_t>(r.entries.size() * 16));
  for (const auto& [t, o] : r.entries) {
    put(c, t);
    put(c, o);
  }
  append_record(out, kOpMessageIndex, c);
}

void append_chunk_index(std::string& out, const ChunkIndex& r) {
  std::string c;
  put(c, r.message_start_time);
  put(c, r.message_end_time);
  put(c, r.chunk_start_offset);
  put(c, r.chunk_length);
  put<uint32_t>(c, static_cast<uint32_t>(r.message_index_offsets.size() * 10));
  for (const auto& [id, o] : r.message_index_offsets) {
    put(c, id);
    put(c, o);
  }
  put(c, r.message_index_length);
  put_string(c, r.compression);
  put(c, r.compressed_size);
  put(c, r.uncompressed_size);
  append_record(out, kOpChunkIndex, c);
}

void append_attachment(std::string& out, const AttachmentHeader& r, std::string_view data, bool with_crc) {
  std::string c;
  put(c, r.log_time);
  put(c, r.create_time);
  put_string(c, r.name);
  put_string(c, r.media_type);
  put<uint64_t>(c, data.size());
  c.append(data);
  put<uint32_t>(c, with_crc ? crc32(c) : 0);
  append_record(out, kOpAttachment, c);
}

void append_attachment_index(std::string& out, const AttachmentIndex& r) {
  std::string c;
  put(c, r.offset);
  put(c, r.length);
  put(c, r.log_time);
  put(c, r.create_time);
  put(c, r.data_size);
  put_string(c, r.name);
  put_string(c, r.media_type);
  append_record(out, kOpAttachmentIndex, c);
}

void append_statistics(std::string& out, const Statistics& r) {
  std::string c;
  put(c, r.message_count);
  put(c, r.schema_count);
  put(c, r.channel_count);
  put(c, r.attachment_count);
  put(c, r.metadata_count);
  put(c, r.chunk_count);
  put(c, r.message_start_time);
  put(c, r.message_end_time);
  put<uint32_t>(c, static_cast<uint32_t>(r.channel_message_counts.size() * 10));
  for (const auto& [id, n] : r.channel_message_counts) {
    put(c, id);
    put(c, n);
  }
  append_record(out, kOpStatistics, c);
}

void append_metadata(std::string& out, const Metadata& r) {
  std::string c;
  put_string(c, r.name);
  put_string_map(c, r.metadata);
  append_record(out, kOpMetadata, c);
}

void append_metadata_index(std::string& out, const MetadataIndex& r) {
  std::string c;
  put(c, r.offset);
  put(c, r.length);
  put_string(c, r.name);
  append_record(out, kOpMetadataIndex, c);
}

void append_summary_offset(std::string& out, const SummaryOffset& r) {
  std::string c;
  put(c, r.group_opcode);
  put(c, r.group_start);
  put(c, r.group_length);
  append_record(out, kOpSummaryOffset, c);
}

void append_data_end(std::string& out, const DataEnd& r) {
  std::string c;
  put(c, r.data_section_crc);
  append_record(out, kOpDataEnd, c);
}

bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 4;
    if (extra == 4 || extra >= s.size() - i) {
      if (extra == 0) {
        ++i;
        continue;
      }
      return false;
    }
    uint32_t cp = extra == 0 ? c : extra == 1 ? c & 0x1F : extra == 2 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k <= extra; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static const uint32_t least[] = {0, 0x80, 0x800, 0x10000};
    if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace logscope::mcap
