#include "mcap/walk.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/sequential.h"

namespace logscope::mcap {
namespace {

uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// The least content each op can have; a candidate record shorter than that is no record.
uint64_t min_content(uint8_t op) {
  switch (op) {
    case kOpFooter: return kFooterContent;
    case kOpSchema: return 2 + 4 + 4 + 4;
    case kOpChannel: return 2 + 2 + 4 + 4 + 4;
    case kOpMessage: return MessageHeader::kSize;
    case kOpChunk: return 8 + 8 + 8 + 4 + 4 + 8;
    case kOpMessageIndex: return 2 + 4;
    case kOpChunkIndex: return 8 * 4 + 4 + 8 + 4 + 8 + 8;
    case kOpAttachment: return 8 + 8 + 4 + 4 + 8 + 4;
    case kOpAttachmentIndex: return 8 * 5 + 4 + 4;
    case kOpStatistics: return 8 + 2 + 4 * 4 + 8 + 8 + 4;
    case kOpMetadata: return 4 + 4;
    case kOpMetadataIndex: return 8 + 8 + 4;
    case kOpSummaryOffset: return 1 + 8 + 8;
    case kOpDataEnd: return 4;
  }
  return 0;
}

// A plausible record prefix at `q`: an op a resynchronisation accepts, a length that fits.
bool plausible(uint8_t op, uint64_t length, uint64_t q, uint64_t end) {
  if (op == kOpHeader || !is_known_op(op)) return false;  // private ops are too easy to fake
  if (length < min_content(op) || end - q < kRecordPrefix || length > end - q - kRecordPrefix) return false;
  return op != kOpFooter || length == kFooterContent;
}

bool chunk_header_plausible(ByteSource& source, uint64_t q, uint64_t length) {
  uint8_t head[8 * 3 + 4 + 4 + 8];
  if (source.read(q + kRecordPrefix, head, sizeof head - 8) != sizeof head - 8) return false;
  uint32_t name_length;
  std::memcpy(&name_length, head + 28, 4);
  if (name_length > 16 || 32 + uint64_t{name_length} + 8 > length) return false;
  std::string name(name_length, '\0');
  uint8_t size_bytes[8];
  if (source.read(q + kRecordPrefix + 32, name.data(), name_length) != name_length ||
      source.read(q + kRecordPrefix + 32 + name_length, size_bytes, 8) != 8)
    return false;
  if (!name.empty() && name != "zstd" && name != "lz4") return false;
  return load_u64(size_bytes) == length - 32 - name_length - 8 || load_u64(size_bytes) < length - 32 - name_length - 8;
}

// A compressed Chunk at `q` whose header agrees with the length it declares, a length that runs past
// `end`: the chunk was cut, and the bytes after `q` are its compressed records. Resynchronising
// there would take stored literals of the compressed stream for records (a Message with part of
// its payload), so the walk stops at the cut instead. An uncompressed chunk's records are real
// copies, and a header that disagrees with the length means the length itself is damaged: both
// are still resynchronised.
bool cut_compressed_chunk(ByteSource& source, uint64_t q, uint64_t length) {
  uint8_t head[8 * 3 + 4 + 4];
  if (source.read(q + kRecordPrefix, head, sizeof head) != sizeof head) return false;
  uint32_t name_length;
  std::memcpy(&name_length, head + 28, 4);
  if (name_length == 0 || name_length > 16) return false;
  std::string name(name_length, '\0');
  uint8_t size_bytes[8];
  if (source.read(q + kRecordPrefix + sizeof head, name.data(), name_length) != name_length ||
      source.read(q + kRecordPrefix + sizeof head + name_length, size_bytes, 8) != 8)
    return false;
  if (name != "zstd" && name != "lz4") return false;
  uint64_t records_size = load_u64(size_bytes);
  uint64_t fields = sizeof head + name_length + 8;
  return records_size <= UINT64_MAX - fields && fields + records_size == length;
}

}  // namespace

uint64_t find_next_record(ByteSource& source, uint64_t after, uint64_t end, bool end_is_boundary, uint64_t limit) {
  constexpr size_t kBlock = 1u << 20;
  std::vector<uint8_t> block;
  uint64_t searched = 0;
  for (uint64_t base = after + 1; base < end && searched < limit; base += kBlock) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(kBlock + kRecordPrefix, end - base));
    block.resize(want);
    size_t got = source.read(base, block.data(), want);
    if (got < std::min<size_t>(want, kRecordPrefix)) return end;
    size_t scan = std::min<size_t>(got, kBlock);
    for (size_t i = 0; i < scan; ++i) {
      uint8_t op = block[i];
      if (op < kOpFooter || op > kOpDataEnd) continue;
      uint64_t q = base + i;
      uint8_t prefix[kRecordPrefix];
      if (i + kRecordPrefix <= got) std::memcpy(prefix, &block[i], kRecordPrefix);
      else if (source.read(q, prefix, kRecordPrefix) != kRecordPrefix) continue;
      uint64_t length = load_u64(prefix + 1);
      if (!plausible(op, length, q, end)) continue;
      if (op == kOpChunk && !chunk_header_plausible(source, q, length)) continue;
      uint64_t next = q + kRecordPrefix + length;
      if (next == end) {
        if (end_is_boundary) return q;
        continue;
      }
      uint8_t after_prefix[kRecordPrefix];
      if (end - next < kRecordPrefix || source.read(next, after_prefix, kRecordPrefix) != kRecordPrefix) continue;
      uint8_t next_op = after_prefix[0];
      uint64_t next_length = load_u64(after_prefix + 1);
      if ((is_known_op(next_op) || is_private_op(next_op)) && next_op != kOpHeader && next_length <= end - next - kRecordPrefix &&
          next_length >= min_content(next_op))
        return q;
    }
    searched += scan;
  }
  return end;
}

bool for_each_inner_record(std::string_view records, const std::function<void(const RecordFrame&, std::string_view)>& fn,
                           std::string* why, uint64_t* bad_offset) {
  uint64_t pos = 0;
  while (pos < records.size()) {
    RecordFrame frame;
    if (!frame_at(records, pos, &frame, why)) {
      *bad_offset = pos;
      return false;
    }
    fn(frame, records.substr(static_cast<size_t>(frame.content_offset()), static_cast<size_t>(frame.length)));
    pos = frame.end();
  }
  return true;
}

void hand_on(RecordHandler& handler, const RecordFrame& frame, std::string_view content, bool whole, Decompressed* chunk_records) {
  handler.record(frame, content, whole);
  if (frame.op != kOpChunk || !whole || !handler.wants_chunk_records()) return;
  ChunkHeader header;
  std::string why;
  if (!parse_chunk_header(content, &header, &why)) return;
  decompress_chunk(header.compression, content.substr(static_cast<size_t>(header.records_offset), static_cast<size_t>(header.records_size)),
                   header.uncompressed_size, chunk_records);
  handler.chunk(frame, header, *chunk_records);
}

WalkResult walk_records(ByteSource& source, uint64_t from, uint64_t end, RecordHandler& handler, std::vector<Problem>* problems,
                        const ProgressFn& progress, Crc32Stream* data_crc) {
  WalkResult r;
  end = std::min(end, source.size());
  bool end_is_boundary = end < source.size();  // the walk stops at a footer: a record may reach it exactly
  bool crc_running = data_crc != nullptr;
  auto open_reader = [&](uint64_t at) {
    SequentialReader::Options options;
    options.max_view = static_cast<size_t>(kMaxRecordView);
    auto reader = std::make_unique<SequentialReader>(source, at, end, options);
    if (crc_running) reader->set_observer([data_crc](const uint8_t* data, size_t size) { data_crc->update(data, size); });
    return reader;
  };
  auto add = [&](Severity severity, uint64_t offset, const char* code, std::string message) {
    if (problems) problems->push_back(Problem{severity, offset, code, std::move(message)});
  };
  std::unique_ptr<SequentialReader> reader = from < end ? open_reader(from) : nullptr;
  ProgressTicker ticker(progress, end);
  uint64_t p = from;
  Decompressed chunk_records;  // one buffer for every chunk of the pass
  while (p < end) {
    if (!ticker.update(p)) {
      r.cancelled = true;
      r.stop_reason = "cancelled";
      break;
    }
    uint64_t room = end - p;
    if (room < kRecordPrefix) {
      r.stop_reason = "the file ends " + std::to_string(room) + " bytes into the 9-byte opcode and length of a record at byte " + std::to_string(p);
      add(Severity::Error, p, "mcap.file.truncated", r.stop_reason);
      break;
    }
    const uint8_t* prefix = reader->view(p, kRecordPrefix);
    if (!prefix) {
      r.stop_reason = "byte " + std::to_string(p) + " could not be read: " + reader->error();
      add(Severity::Error, p, "mcap.file.unreadable", r.stop_reason);
      break;
    }
    RecordFrame frame;
    frame.offset = p;
    frame.op = prefix[0];
    frame.length = load_u64(prefix + 1);
    bool valid_op = frame.op != 0;  // 0x10-0x7F are reserved for future records: skipped by length like private ones
    bool fits = frame.length <= room - kRecordPrefix;
    if (!valid_op || !fits) {
      bool cut_chunk = valid_op && frame.op == kOpChunk && end == source.size() && cut_compressed_chunk(source, p, frame.length);
      uint64_t next = cut_chunk ? end : find_next_record(source, p, end, end_is_boundary);
      std::string what = valid_op ? "the " + op_name(frame.op) + " record at byte " + std::to_string(p) + " declares " +
                                        std::to_string(frame.length) + " bytes of content; " + std::to_string(room - kRecordPrefix) + " are there"
                                  : "byte " + std::to_string(p) + " holds opcode 0x" + hex_string(&frame.op, 1) + ", which starts no record";
      if (next >= end) {
        bool cut = valid_op && end == source.size();
        r.stop_reason = (cut ? "the file ends inside the " + op_name(frame.op) + " record at byte " + std::to_string(p) + ": it declares " +
                                   std::to_string(frame.length) + " bytes of content, " + std::to_string(room - kRecordPrefix) + " are there"
                             : what + ", and no valid record follows");
        add(Severity::Error, p, cut ? "mcap.file.truncated" : "mcap.record.damaged", r.stop_reason);
        break;
      }
      add(Severity::Error, p, "mcap.record.damaged",
          what + ": skipped " + std::to_string(next - p) + " bytes to the next valid record, at byte " + std::to_string(next));
      r.skipped_bytes += next - p;
      crc_running = false;
      reader = open_reader(next);
      p = next;
      continue;
    }
    if (frame.op == kOpDataEnd && crc_running && !r.data_crc_known) {
      r.data_crc_known = data_crc->value(&r.data_crc);
      r.data_crc_offset = p;
    }
    bool whole = frame.length <= kMaxRecordView;
    size_t viewed = static_cast<size_t>(whole ? frame.length : kLargeRecordPrefix);
    const uint8_t* content = viewed ? reader->view(frame.content_offset(), viewed) : prefix + kRecordPrefix;
    if (!content) {
      r.stop_reason = "the " + op_name(frame.op) + " record at byte " + std::to_string(p) + " could not be read: " + reader->error();
      add(Severity::Error, p, "mcap.file.unreadable", r.stop_reason);
      break;
    }
    hand_on(handler, frame, std::string_view(reinterpret_cast<const char*>(content), viewed), whole, &chunk_records);
    ++r.records;
    p = frame.end();
  }
  r.end = p;
  r.complete = p >= end && !r.cancelled;
  return r;
}

}  // namespace logscope::mcap
