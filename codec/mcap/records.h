// MCAP records (docs/mcap.md, "Records"): `<u8 opcode><u64 content length><content>`, every
// integer little-endian, strings and byte arrays with a u32 (records: u64) length first.
// Each parser reads one record's content, checks every length against the bytes that remain,
// ignores fields appended after the ones it knows (the spec lets records grow) and says in `why`
// what is wrong. The append_* functions write records (the writer, tests).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace logscope::mcap {

enum Op : uint8_t {
  kOpHeader = 0x01,
  kOpFooter = 0x02,
  kOpSchema = 0x03,
  kOpChannel = 0x04,
  kOpMessage = 0x05,
  kOpChunk = 0x06,
  kOpMessageIndex = 0x07,
  kOpChunkIndex = 0x08,
  kOpAttachment = 0x09,
  kOpAttachmentIndex = 0x0A,
  kOpStatistics = 0x0B,
  kOpMetadata = 0x0C,
  kOpMetadataIndex = 0x0D,
  kOpSummaryOffset = 0x0E,
  kOpDataEnd = 0x0F,
};
// "Chunk", "MessageIndex"... as the spec names them; "private 0x80" for 0x80-0xFF, "unknown 0x20".
std::string op_name(uint8_t op);
// 0x01-0x0F: the ops this reader knows.
inline bool is_known_op(uint8_t op) { return op >= kOpHeader && op <= kOpDataEnd; }
// 0x80-0xFF: reserved for applications; readers skip them.
inline bool is_private_op(uint8_t op) { return op >= 0x80; }

constexpr size_t kMagicSize = 8;
extern const char kMagic[kMagicSize + 1];  // 0x89 "MCAP" '0' '\r' '\n'
constexpr uint64_t kRecordPrefix = 9;      // opcode + content length
constexpr uint64_t kFooterContent = 20;    // summary_start, summary_offset_start, summary_crc
constexpr uint64_t kFooterRecord = kRecordPrefix + kFooterContent;
constexpr uint64_t kDataEndRecord = kRecordPrefix + 4;
// The bytes of the footer the summary CRC covers: its opcode, length and first two fields.
constexpr uint64_t kFooterCrcPrefix = kRecordPrefix + 16;

// Where one record sits in the file (or in a chunk's records).
struct RecordFrame {
  uint64_t offset = 0;
  uint8_t op = 0;
  uint64_t length = 0;  // content length
  uint64_t content_offset() const { return offset + kRecordPrefix; }
  uint64_t end() const { return offset + kRecordPrefix + length; }
};

using StringPairs = std::vector<std::pair<std::string, std::string>>;

struct Header {
  std::string profile;
  std::string library;
};

struct Footer {
  uint64_t summary_start = 0;
  uint64_t summary_offset_start = 0;
  uint32_t summary_crc = 0;
};

struct Schema {
  uint16_t id = 0;
  std::string name;
  std::string encoding;
  std::string data;
};

struct Channel {
  uint16_t id = 0;
  uint16_t schema_id = 0;
  std::string topic;
  std::string message_encoding;
  StringPairs metadata;
};

// A message's fixed fields; its data stays where it is (data_offset into the content).
struct MessageHeader {
  uint16_t channel_id = 0;
  uint32_t sequence = 0;
  uint64_t log_time = 0;
  uint64_t publish_time = 0;
  static constexpr uint64_t kSize = 22;
  uint64_t data_offset() const { return kSize; }
};

// A chunk's fields before its records; records_offset is where they start in the content.
struct ChunkHeader {
  uint64_t message_start_time = 0;
  uint64_t message_end_time = 0;
  uint64_t uncompressed_size = 0;
  uint32_t uncompressed_crc = 0;
  std::string compression;
  uint64_t records_size = 0;
  uint64_t records_offset = 0;
};

struct MessageIndex {
  uint16_t channel_id = 0;
  std::vector<std::pair<uint64_t, uint64_t>> entries;  // (log_time, offset in the uncompressed records)
};

struct ChunkIndex {
  uint64_t message_start_time = 0;
  uint64_t message_end_time = 0;
  uint64_t chunk_start_offset = 0;
  uint64_t chunk_length = 0;
  std::vector<std::pair<uint16_t, uint64_t>> message_index_offsets;  // channel id -> file offset
  uint64_t message_index_length = 0;
  std::string compression;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
};

// An attachment's fields; data_offset is where its data starts in the content, crc_offset its CRC.
struct AttachmentHeader {
  uint64_t log_time = 0;
  uint64_t create_time = 0;
  std::string name;
  std::string media_type;
  uint64_t data_size = 0;
  uint64_t data_offset = 0;
  uint32_t crc = 0;
  uint64_t crc_offset = 0;
};

struct AttachmentIndex {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t log_time = 0;
  uint64_t create_time = 0;
  uint64_t data_size = 0;
  std::string name;
  std::string media_type;
};

struct Statistics {
  uint64_t message_count = 0;
  uint16_t schema_count = 0;
  uint32_t channel_count = 0;
  uint32_t attachment_count = 0;
  uint32_t metadata_count = 0;
  uint32_t chunk_count = 0;
  uint64_t message_start_time = 0;
  uint64_t message_end_time = 0;
  std::vector<std::pair<uint16_t, uint64_t>> channel_message_counts;
};

struct Metadata {
  std::string name;
  StringPairs metadata;
};

struct MetadataIndex {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string name;
};

struct SummaryOffset {
  uint8_t group_opcode = 0;
  uint64_t group_start = 0;
  uint64_t group_length = 0;
};

struct DataEnd {
  uint32_t data_section_crc = 0;
};

// Parsers: `content` is the record's content (without opcode and length). False with `why` when
// a field runs past the content or a value is impossible.
bool parse_header(std::string_view content, Header* out, std::string* why);
bool parse_footer(std::string_view content, Footer* out, std::string* why);
// Strict UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF): what the spec requires of
// every string field; the doctor reports others (mcap.record.not_utf8), extract and repair drop them.
bool valid_utf8(std::string_view s);

bool parse_schema(std::string_view content, Schema* out, std::string* why);
bool parse_channel(std::string_view content, Channel* out, std::string* why);
bool parse_message_header(std::string_view content, MessageHeader* out, std::string* why);
// Only the fields; the records stay in `content` at records_offset (their size is checked).
bool parse_chunk_header(std::string_view content, ChunkHeader* out, std::string* why);
bool parse_message_index(std::string_view content, MessageIndex* out, std::string* why);
bool parse_chunk_index(std::string_view content, ChunkIndex* out, std::string* why);
// `content` may end before the data (a prefix read from the file): the fields up to data_size
// must be there; the data and the CRC are checked against `content_length`, the whole content.
bool parse_attachment_header(std::string_view content, uint64_t content_length, AttachmentHeader* out, std::string* why);
bool parse_attachment_index(std::string_view content, AttachmentIndex* out, std::string* why);
bool parse_statistics(std::string_view content, Statistics* out, std::string* why);
bool parse_metadata(std::string_view content, Metadata* out, std::string* why);
bool parse_metadata_index(std::string_view content, MetadataIndex* out, std::string* why);
bool parse_summary_offset(std::string_view content, SummaryOffset* out, std::string* why);
bool parse_data_end(std::string_view content, DataEnd* out, std::string* why);

// The record at `offset` in `bytes` (a chunk's records, the summary): false with `why` when its
// prefix or content runs past the end.
bool frame_at(std::string_view bytes, uint64_t offset, RecordFrame* frame, std::string* why);

// Writers: each appends one whole record (opcode, length, content) to `out`.
void append_record(std::string& out, uint8_t op, std::string_view content);
void append_header(std::string& out, const Header& r);
void append_footer(std::string& out, const Footer& r);
void append_schema(std::string& out, const Schema& r);
void append_channel(std::string& out, const Channel& r);
void append_message(std::string& out, const MessageHeader& r, std::string_view data);
void append_chunk(std::string& out, const ChunkHeader& r, std::string_view records);
void append_message_index(std::string& out, const MessageIndex& r);
void append_chunk_index(std::string& out, const ChunkIndex& r);
// The attachment's CRC is computed here unless `crc` is given (0 writes "no CRC").
void append_attachment(std::string& out, const AttachmentHeader& r, std::string_view data, bool with_crc);
void append_attachment_index(std::string& out, const AttachmentIndex& r);
void append_statistics(std::string& out, const Statistics& r);
void append_metadata(std::string& out, const Metadata& r);
void append_metadata_index(std::string& out, const MetadataIndex& r);
void append_summary_offset(std::string& out, const SummaryOffset& r);
void append_data_end(std::string& out, const DataEnd& r);

}  // namespace logscope::mcap
