// V2.0: index-first open, chunk headers on demand, and the recovery scan.
#include "rosbag/reader.h"

#include <algorithm>

#include "rosbag/chunk.h"

namespace logscope::rosbag {

void open_v1(ByteSource& source, Bag* bag, const ProgressFn& progress);  // reader_v1.cpp

bool parse_connection_header(std::string_view bytes, Connection* c) {
  HeaderFields fields;
  if (!fields.parse(bytes)) return false;
  if (const auto* topic = fields.find("topic"); topic && c->topic.empty()) c->topic = std::string(*topic);
  c->type = fields.str("type");
  c->md5 = fields.str("md5sum");
  c->definition = fields.str("message_definition");
  c->callerid = fields.str("callerid");
  c->latching = fields.str("latching") == "1";
  c->has_connection_header = fields.has("type");
  return true;
}

namespace {

std::string at(uint64_t offset) { return "at byte " + std::to_string(offset); }

// Parses the index section [index_pos, end) held in `bytes`. False when it is unusable.
bool parse_index_section(const std::vector<uint8_t>& bytes, Bag* bag) {
  size_t pos = 0;
  uint32_t connections = 0;
  HeaderFields fields;
  // Room for the chunks the bag header declares, as far as the bytes here can hold them (a chunk
  // info record takes over 100 bytes): growing the list as it fills cost a fifth of the parse.
  constexpr size_t kChunkInfoMinBytes = 64;
  size_t chunks_expected = std::min<size_t>(bag->header_chunk_count, bytes.size() / kChunkInfoMinBytes);
  bag->chunks.reserve(chunks_expected);
  bag->index_records.reserve(chunks_expected + std::min<size_t>(bag->header_conn_count, bytes.size() / kChunkInfoMinBytes));
  while (pos < bytes.size()) {
    RecordFrame frame;
    std::string_view header;
    std::string why;
    uint64_t offset = bag->index_pos + pos;
    if (parse_record(bytes.data(), bytes.size(), pos, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header)) {
      bag->problem(Severity::Error, offset, "rosbag.index.malformed",
                   "index section record " + at(offset) + " is malformed: " + (why.empty() ? "bad header fields" : why));
      return false;
    }
    bag->index_records.push_back(offset);
    std::string_view data(reinterpret_cast<const char*>(bytes.data() + frame.data_offset()), frame.data_len);
    int op = fields.op();
    if (op == kOpConnection) {
      Connection c;
      c.record_offset = offset;
      c.topic = fields.str("topic");
      if (!fields.u32("conn", &c.id)) {
        bag->problem(Severity::Error, offset, "rosbag.connection.malformed", "connection record " + at(offset) + " has no conn field");
      } else {
        if (!parse_connection_header(data, &c) && bag->encryptor.empty())
          bag->problem(Severity::Error, offset, "rosbag.connection.malformed",
                       "connection record " + at(offset) + " (topic " + c.topic + ") has a malformed connection header");
        if (bag->by_id.count(c.id))
          bag->problem(Severity::Warning, offset, "rosbag.connection.duplicate",
                       "connection id " + std::to_string(c.id) + " appears twice in the index section");
        bag->add_connection(std::move(c));
      }
      ++connections;
    } else if (op == kOpChunkInfo) {
      Chunk chunk;
      chunk.info_offset = offset;
      uint32_t ver = 0, count = 0;
      if (!fields.u32("ver", &ver) || !fields.u64("chunk_pos", &chunk.pos) || !fields.time("start_time", &chunk.start) ||
          !fields.time("end_time", &chunk.end) || !fields.u32("count", &count)) {
        bag->problem(Severity::Error, offset, "rosbag.chunk_info.malformed", "chunk info record " + at(offset) + " lacks a required field");
      } else {
        if (ver != 1)
          bag->problem(Severity::Warning, offset, "rosbag.chunk_info.version", "chunk info record " + at(offset) + " has version " + std::to_string(ver) + " (expected 1)");
        uint64_t fits = data.size() / 8;
        if (count > fits || data.size() != uint64_t{count} * 8) {
          bag->problem(Severity::Error, offset, "rosbag.chunk_info.count_mismatch",
                       "chunk info record " + at(offset) + " declares " + std::to_string(count) + " connections but holds " +
                           std::to_string(data.size()) + " data bytes (8 per connection)");
          count = static_cast<uint32_t>(std::min<uint64_t>(count, fits));
        }
        chunk.counts.reserve(count);
        for (uint32_t i = 0; i < count; ++i)
          chunk.counts.emplace_back(load_u32(data.data() + i * 8), load_u32(data.data() + i * 8 + 4));
        if (chunk.pos < bag->first_record_offset || chunk.pos >= bag->index_pos)
          bag->problem(Severity::Error, offset, "rosbag.chunk_info.bad_pos",
                       "chunk info record " + at(offset) + " points at byte " + std::to_string(chunk.pos) + ", outside the chunk section [" +
                           std::to_string(bag->first_record_offset) + ", " + std::to_string(bag->index_pos) + ")");
        else
          bag->chunks.push_back(std::move(chunk));
      }
    } else {
      bag->problem(Severity::Warning, offset, "rosbag.index.unexpected_record",
                   std::string("unexpected ") + op_name(op) + " record (op " + std::to_string(op) + ") " + at(offset) + " in the index section");
    }
    pos = static_cast<size_t>(frame.end());
  }
  bag->index_end = bag->index_pos + bytes.size();
  if (connections != bag->header_conn_count)
    bag->problem(Severity::Warning, bag->header_offset, "rosbag.header.conn_count_mismatch",
                 "bag header says " + std::to_string(bag->header_conn_count) + " connections, the index section holds " + std::to_string(connections));
  if (bag->chunks.size() != bag->header_chunk_count)
    bag->problem(Severity::Warning, bag->header_offset, "rosbag.header.chunk_count_mismatch",
                 "bag header says " + std::to_string(bag->header_chunk_count) + " chunks, the index section holds " + std::to_string(bag->chunks.size()) + " usable chunk infos");
  return true;
}

void open_v20(ByteSource& source, Bag* bag, const ProgressFn& progress) {
  bag->header_offset = kV20VersionLineLength;
  RecordFrame frame;
  std::string header, why;
  FrameStatus status = read_record(source, bag->header_offset, &frame, &header, &why);
  HeaderFields fields;
  if (status != FrameStatus::Ok || !fields.parse(header) || fields.op() != kOpBagHeader) {
    bag->problem(Severity::Error, bag->header_offset, "rosbag.header.bad",
                 "the bag header record after the version line is unreadable: " + (why.empty() ? "it is not a bag header (op 3)" : why));
    // Writers always pad the header record to 4096 bytes, so chunks would start here.
    uint64_t guess = kV20VersionLineLength + 8 + kBagHeaderPaddedLength;
    if (source.size() > guess) scan_v20(source, bag, guess, progress);
    return;
  }
  bag->has_header = true;
  bag->first_record_offset = frame.end();
  if (!fields.u64("index_pos", &bag->index_pos) || !fields.u32("conn_count", &bag->header_conn_count) ||
      !fields.u32("chunk_count", &bag->header_chunk_count))
    bag->problem(Severity::Error, bag->header_offset, "rosbag.header.missing_field", "the bag header lacks index_pos, conn_count or chunk_count");
  bag->encryptor = fields.str("encryptor");
  if (!bag->encryptor.empty())
    bag->problem(Severity::Warning, bag->header_offset, "rosbag.encrypted",
                 "the bag is encrypted with " + bag->encryptor + "; chunk contents and connection headers cannot be read without its key (logscope does not decrypt)");
  if (uint64_t{frame.header_len} + frame.data_len != kBagHeaderPaddedLength)
    bag->problem(Severity::Info, bag->header_offset, "rosbag.header.padding",
                 "the bag header record is " + std::to_string(frame.header_len + uint64_t{frame.data_len}) + " bytes (writers pad it to 4096)");

  uint64_t size = source.size();
  if (bag->index_pos == 0) {
    bag->problem(Severity::Warning, bag->header_offset, "rosbag.index.missing",
                 "index_pos is 0: the bag was never closed (a crashed or still-recording .bag.active file); recovering by scanning its chunks");
    scan_v20(source, bag, bag->first_record_offset, progress);
    return;
  }
  if (bag->index_pos < bag->first_record_offset || bag->index_pos > size) {
    bag->problem(Severity::Error, bag->header_offset, "rosbag.index.bad_pos",
                 "index_pos " + std::to_string(bag->index_pos) + " lies outside the file (" + std::to_string(size) +
                     " bytes); recovering by scanning its chunks");
    scan_v20(source, bag, bag->first_record_offset, progress);
    return;
  }
  // One read for every connection and chunk info: the index section runs to the end of the file.
  std::vector<uint8_t> index = source.read_vector(bag->index_pos, static_cast<size_t>(size - bag->index_pos));
  if (!parse_index_section(index, bag) || (bag->chunks.empty() && bag->header_chunk_count > 0)) {
    bag->connections.clear();
    bag->by_id.clear();
    bag->chunks.clear();
    bag->index_records.clear();
    bag->problem(Severity::Warning, bag->index_pos, "rosbag.index.unusable", "the index section is unusable; recovering by scanning the chunks");
    scan_v20(source, bag, bag->first_record_offset, progress);
    return;
  }
  bag->indexed = true;
}

}  // namespace

bool read_chunk_header(ByteSource& source, Bag* bag, size_t index) {
  if (index >= bag->chunks.size()) return false;
  Chunk& chunk = bag->chunks[index];
  if (chunk.header_read) return chunk.header_ok;
  chunk.header_read = true;
  std::string header, why;
  HeaderFields fields;
  RecordFrame frame;
  FrameStatus status = read_record(source, chunk.pos, &frame, &header, &why);
  if (status != FrameStatus::Ok && !(status == FrameStatus::Truncated && frame.header_len && header.size() == frame.header_len)) {
    bag->problem(Severity::Error, chunk.pos, "rosbag.chunk.unreadable", "chunk record at byte " + std::to_string(chunk.pos) + " is unreadable: " + why);
    return false;
  }
  if (!fields.parse(header) || fields.op() != kOpChunk) {
    bag->problem(Severity::Error, chunk.pos, "rosbag.chunk_info.bad_pos",
                 "chunk info points at byte " + std::to_string(chunk.pos) + ", which holds no chunk record");
    return false;
  }
  chunk.compression = fields.str("compression");
  fields.u32("size", &chunk.uncompressed_size);
  chunk.header_len = frame.header_len;
  chunk.compressed_size = frame.data_len;
  chunk.header_ok = status == FrameStatus::Ok;
  if (status != FrameStatus::Ok)
    bag->problem(Severity::Error, chunk.pos, "rosbag.chunk.truncated", "chunk at byte " + std::to_string(chunk.pos) + ": " + why);
  return chunk.header_ok;
}

void plan_chunk_head(const Bag& bag, size_t index, std::vector<ByteRange>* ranges) {
  const Chunk& c = bag.chunks[index];
  if (!c.header_read && c.pos < bag.file_size) ranges->push_back({c.pos, std::min(kChunkHeadBytes, bag.file_size - c.pos)});
}

bool read_chunk_headers(ByteSource& source, Bag* bag, const ProgressFn& progress) {
  ProgressTicker ticker(progress, bag->chunks.size(), 16);
  for (size_t i = 0; i < bag->chunks.size(); ++i) {
    if (!ticker.update(i)) return false;
    read_chunk_header(source, bag, i);
  }
  return true;
}

std::vector<std::pair<uint64_t, uint64_t>> chunk_index_records(ByteSource& source, Bag* bag, size_t index) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  read_chunk_header(source, bag, index);
  const Chunk& chunk = bag->chunks[index];
  if (!chunk.header_ok) return out;
  uint64_t pos = chunk.record_end();
  std::string header, why;
  HeaderFields fields;
  for (size_t k = 0; k < chunk.counts.size() + 1; ++k) {  // +1: tolerate one unexpected record count
    RecordFrame frame;
    if (read_record(source, pos, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header) || fields.op() != kOpIndexData) break;
    out.emplace_back(pos, frame.end() - pos);
    pos = frame.end();
  }
  return out;
}

void scan_v20(ByteSource& source, Bag* bag, uint64_t from, const ProgressFn& progress) {
  Recovery& r = bag->recovery;
  r.performed = true;
  uint64_t size = source.size();
  ProgressTicker ticker(progress, size);
  uint64_t pos = from;
  std::string header, why;
  HeaderFields fields;
  std::vector<uint8_t> compressed, chunk_bytes;
  ChunkRecords records;
  r.ends_at = size;
  auto stop = [&](uint64_t offset, std::string reason) {
    r.ends_at = offset;
    r.reason = std::move(reason);
  };
  while (pos < size) {
    if (!ticker.update(pos - from)) {
      bag->cancelled = true;
      stop(pos, "cancelled");
      break;
    }
    RecordFrame frame;
    FrameStatus status = read_record(source, pos, &frame, &header, &why);
    if (status == FrameStatus::AtEnd) break;
    if (status != FrameStatus::Ok || !fields.parse(header)) {
      stop(pos, "record at byte " + std::to_string(pos) + " is incomplete or malformed: " + why);
      break;
    }
    int op = fields.op();
    if (op == kOpChunk) {
      Chunk chunk;
      chunk.pos = pos;
      chunk.header_read = true;
      chunk.compression = fields.str("compression");
      fields.u32("size", &chunk.uncompressed_size);
      chunk.header_len = frame.header_len;
      chunk.compressed_size = frame.data_len;
      if (frame.data_len == 0) {
        stop(pos, "unterminated chunk at byte " + std::to_string(pos) + " (data length 0: the recorder stopped while writing it)");
        break;
      }
      if (!bag->encryptor.empty()) {
        stop(pos, "the bag is encrypted; its chunks cannot be read");
        break;
      }
      compressed.resize(frame.data_len);
      if (source.read(frame.data_offset(), compressed.data(), compressed.size()) != compressed.size()) {
        stop(pos, "chunk at byte " + std::to_string(pos) + " could not be read");
        break;
      }
      DecompressStatus d = with_bag_code(decompress_chunk(chunk.compression, compressed.data(), compressed.size(), chunk.uncompressed_size, &chunk_bytes));
      if (!d.ok) {
        bag->problem(Severity::Error, pos, d.code, "chunk at byte " + std::to_string(pos) + ": " + d.message);
        stop(pos, "chunk at byte " + std::to_string(pos) + " cannot be decompressed: " + d.message);
        break;
      }
      chunk.header_ok = true;
      index_chunk_records(chunk_bytes.data(), chunk_bytes.size(), &records);
      if (!records.complete)
        bag->problem(Severity::Error, pos + 8 + frame.header_len, "rosbag.chunk.malformed_record",
                     "chunk at byte " + std::to_string(pos) + ": inner record at chunk offset " + std::to_string(records.stop_offset) + ": " + records.stop_reason);
      for (const ChunkConnectionRecord& cr : records.connections) {
        RecordFrame inner;
        std::string_view inner_header;
        std::string inner_why;
        parse_record(chunk_bytes.data(), chunk_bytes.size(), cr.record_offset, &inner, &inner_header, &inner_why);
        HeaderFields inner_fields;
        inner_fields.parse(inner_header);
        Connection c;
        c.id = cr.conn;
        c.topic = inner_fields.str("topic");
        c.record_offset = pos;
        parse_connection_header(std::string_view(reinterpret_cast<const char*>(chunk_bytes.data() + inner.data_offset()), inner.data_len), &c);
        bag->add_connection(std::move(c));
      }
      std::vector<std::pair<uint32_t, uint32_t>> counts;
      for (size_t i = 0; i < records.messages.size(); ++i) {
        const ChunkMessage& m = records.messages[i];
        Time t = Time::from_ns(m.time_ns);
        if (i == 0) chunk.start = chunk.end = t;
        if (t < chunk.start) chunk.start = t;
        if (chunk.end < t) chunk.end = t;
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& p) { return p.first == m.conn; });
        if (it == counts.end()) counts.emplace_back(m.conn, 1);
        else ++it->second;
        if (!bag->by_id.count(m.conn))
          bag->problem(Severity::Error, pos, "rosbag.connection.missing",
                       "chunk at byte " + std::to_string(pos) + " has messages on connection " + std::to_string(m.conn) + " with no connection record before them");
      }
      chunk.counts = std::move(counts);
      r.recovered_messages += records.messages.size();
      ++r.recovered_chunks;
      bag->chunks.push_back(std::move(chunk));
    } else if (op == kOpConnection) {
      // Connections after the chunks (rosbag's --split workaround) or the start of an index section.
      std::vector<uint8_t> data = source.read_vector(frame.data_offset(), frame.data_len);
      Connection c;
      c.record_offset = pos;
      c.topic = fields.str("topic");
      if (fields.u32("conn", &c.id)) {
        parse_connection_header(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()), &c);
        bag->add_connection(std::move(c));
      }
    } else if (op != kOpIndexData && op != kOpChunkInfo) {
      bag->problem(Severity::Warning, pos, "rosbag.record.unexpected",
                   std::string("unexpected ") + op_name(op) + " record (op " + std::to_string(op) + ") at byte " + std::to_string(pos) + " skipped");
    }
    pos = frame.end();
  }
  char buf[256];
  if (r.reason.empty())
    std::snprintf(buf, sizeof buf, "scanned to the end of the file: %llu complete chunks, %llu messages",
                  static_cast<unsigned long long>(r.recovered_chunks), static_cast<unsigned long long>(r.recovered_messages));
  else
    std::snprintf(buf, sizeof buf, "recovered %llu complete chunks, %llu messages; reading stopped at byte %llu",
                  static_cast<unsigned long long>(r.recovered_chunks), static_cast<unsigned long long>(r.recovered_messages),
                  static_cast<unsigned long long>(r.ends_at));
  r.message = buf;
  if (!r.reason.empty() && !bag->cancelled)
    bag->problem(Severity::Error, r.ends_at, "rosbag.recovery.stopped", r.reason + "; " + std::to_string(size - r.ends_at) + " bytes after it are not recovered");
}

void open_bag(ByteSource& source, Format format, Bag* bag, const ProgressFn& progress) {
  bag->format = format;
  bag->file_size = source.size();
  bag->version = format == Format::RosbagV20 ? 200 : format == Format::RosbagV12 ? 102 : 101;
  if (format == Format::RosbagV20) open_v20(source, bag, progress);
  else open_v1(source, bag, progress);
}

}  // namespace logscope::rosbag
