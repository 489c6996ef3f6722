#include "rosbag/writer.h"

#include <bzlib.h>
#include <lz4frame.h>

#include <cerrno>
#include <cstring>

namespace logscope::rosbag {

FileSink::~FileSink() { close(); }

bool FileSink::open(const std::string& path, std::string* error) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    if (error) *error = path + ": " + std::strerror(errno);
    return false;
  }
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  position_ = 0;
  return true;
}

bool FileSink::close() {
  if (!file_) return true;
  bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  return ok;
}

bool FileSink::write(const void* data, size_t size) {
  if (!file_ || std::fwrite(data, 1, size, file_) != size) return false;
  position_ += size;
  return true;
}

bool FileSink::write_at(uint64_t offset, const void* data, size_t size) {
  if (!file_ || std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0) return false;
  bool ok = std::fwrite(data, 1, size, file_) == size;
  return std::fseek(file_, static_cast<long>(position_), SEEK_SET) == 0 && ok;
}

bool MemorySink::write(const void* data, size_t size) {
  bytes.append(static_cast<const char*>(data), size);
  return true;
}

bool MemorySink::write_at(uint64_t offset, const void* data, size_t size) {
  if (offset + size > bytes.size()) return false;
  std::memcpy(&bytes[offset], data, size);
  return true;
}

namespace {

// The bag/file header record padded so that header_len + data_len = 4096, as every writer does.
std::string header_record(int op_value, uint64_t index_pos, uint32_t conn_count, uint32_t chunk_count, bool v20) {
  std::string header;
  append_field(header, "op", std::string(1, static_cast<char>(op_value)));
  append_field_u64(header, "index_pos", index_pos);
  if (v20) {
    append_field_u32(header, "conn_count", conn_count);
    append_field_u32(header, "chunk_count", chunk_count);
  }
  std::string record;
  append_record(record, header, std::string(kBagHeaderPaddedLength - header.size(), ' '));
  return record;
}

std::string op(Op value) { return std::string(1, static_cast<char>(value)); }

}  // namespace

BagWriter::BagWriter(ByteSink& sink, WriterOptions options) : sink_(sink), options_(std::move(options)) {}

bool BagWriter::put(const std::string& bytes) {
  if (!sink_.write(bytes.data(), bytes.size())) {
    error_ = "write failed";
    return false;
  }
  return true;
}

uint32_t BagWriter::add_connection(const std::string& topic, const std::string& type, const std::string& md5,
                                   const std::string& definition, const std::string& callerid, bool latching) {
  ConnectionInfo c{static_cast<uint32_t>(connections_.size()), topic, type, md5, definition, callerid, latching, false, {}};
  connections_.push_back(std::move(c));
  return connections_.back().id;
}

std::string BagWriter::connection_header(const ConnectionInfo& c) const {
  std::string h;
  append_field(h, "topic", c.topic);
  append_field(h, "type", c.type);
  append_field(h, "md5sum", c.md5);
  append_field(h, "message_definition", c.definition);
  if (!c.callerid.empty()) append_field(h, "callerid", c.callerid);
  if (c.latching) append_field(h, "latching", "1");
  return h;
}

void BagWriter::note(WrittenRecord::Kind kind, uint64_t offset, uint64_t end, uint32_t connection, Time time,
                     uint64_t data_offset) {
  if (options_.ledger) options_.ledger->push_back(WrittenRecord{kind, offset, end, connection, time, data_offset});
}

bool BagWriter::start() {
  started_ = true;
  if (options_.version == 200) return put("#ROSBAG V2.0\n") && put(header_record(kOpBagHeader, 0, 0, 0, true));
  if (options_.version == 102) {
    if (!put("#ROSRECORD V1.2\n")) return false;
    if (!options_.v12_file_header) return true;
    std::string header = header_record(kOpBagHeader, 0, 0, 0, false);
    note(WrittenRecord::FileHeader, kV1VersionLineLength, kV1VersionLineLength + header.size());
    return put(header);
  }
  if (options_.version == 101) return put("#ROSRECORD V1.1\n");
  error_ = "unsupported version";
  return false;
}

bool BagWriter::write(uint32_t id, Time time, std::string_view data) {
  if (closed_ || id >= connections_.size()) {
    error_ = closed_ ? "the writer is closed" : "unknown connection";
    return false;
  }
  if (!started_ && !start()) return false;
  // V1.x has no connections, only topics: every connection of a topic shares the first one's record.
  if (options_.version != 200)
    for (const ConnectionInfo& other : connections_)
      if (other.topic == connections_[id].topic) {
        id = other.id;
        break;
      }
  ConnectionInfo& c = connections_[id];
  ++messages_;
  uint64_t at = sink_.position();
  if (options_.version == 101) {
    std::string head = c.topic + "\n" + c.md5 + "\n" + c.type + "\n";
    uint32_t fixed[3] = {time.sec, time.nsec, static_cast<uint32_t>(data.size())};
    head.append(reinterpret_cast<const char*>(fixed), 12);
    note(WrittenRecord::Message, at, at + head.size() + data.size(), id, time, at + head.size());
    if (!put(head) || !sink_.write(data.data(), data.size())) {
      error_ = "write failed";
      return false;
    }
    return true;
  }
  if (options_.version == 102) {
    // The index's entry points at the MSG_DEF record when one precedes the message.
    if (options_.v12_file_header) c.v12_index.emplace_back(time, at);
    scratch_.clear();
    if (!c.written) {
      std::string def;
      append_field(def, "op", op(kOpMessageDefinition));
      append_field(def, "topic", c.topic);
      append_field(def, "md5", c.md5);
      append_field(def, "type", c.type);
      append_field(def, "def", c.definition);
      append_record(scratch_, def, "");
      note(WrittenRecord::Definition, at, at + scratch_.size(), id);
      c.written = true;
    }
    std::string header;
    append_field(header, "op", op(kOpMessageData));
    append_field(header, "topic", c.topic);
    append_field(header, "md5", c.md5);
    append_field(header, "type", c.type);
    append_field_u32(header, "sec", time.sec);
    append_field_u32(header, "nsec", time.nsec);
    if (!c.callerid.empty()) append_field(header, "callerid", c.callerid);
    if (c.latching) append_field(header, "latching", "1");
    uint64_t record_at = at + scratch_.size();
    append_record(scratch_, header, data);
    note(WrittenRecord::Message, record_at, at + scratch_.size(), id, time, at + scratch_.size() - data.size());
    return put(scratch_);
  }
  // V2.0: the connection record goes into the chunk where the connection is first used.
  if (!c.written) {
    std::string header;
    append_field(header, "op", op(kOpConnection));
    append_field_u32(header, "conn", c.id);
    append_field(header, "topic", c.topic);
    append_record(chunk_, header, connection_header(c));
    c.written = true;
  }
  if (chunk_index_.empty()) chunk_start_ = chunk_end_ = time;
  if (time < chunk_start_) chunk_start_ = time;
  if (chunk_end_ < time) chunk_end_ = time;
  chunk_index_[id].emplace_back(time, static_cast<uint32_t>(chunk_.size()));
  std::string header;
  append_field(header, "op", op(kOpMessageData));
  append_field_u32(header, "conn", id);
  append_field_time(header, "time", time);
  append_record(chunk_, header, data);
  if (chunk_.size() >= options_.chunk_threshold) return flush_chunk();
  return true;
}

bool BagWriter::flush_chunk() {
  if (chunk_.empty()) return true;
  const std::string& compression = options_.compression;
  std::string compressed;
  std::string_view payload = chunk_;
  if (compression == "lz4") {
    // Frame as roslz4 writes it: independent 1 MB blocks and a content checksum.
    LZ4F_preferences_t prefs;
    std::memset(&prefs, 0, sizeof prefs);
    prefs.frameInfo.blockSizeID = LZ4F_max1MB;
    prefs.frameInfo.blockMode = LZ4F_blockIndependent;
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    compressed.resize(LZ4F_compressFrameBound(chunk_.size(), &prefs));
    size_t n = LZ4F_compressFrame(&compressed[0], compressed.size(), chunk_.data(), chunk_.size(), &prefs);
    if (LZ4F_isError(n)) {
      error_ = std::string("lz4 compression failed: ") + LZ4F_getErrorName(n);
      return false;
    }
    compressed.resize(n);
    payload = compressed;
  } else if (compression == "bz2") {
    unsigned int n = static_cast<unsigned int>(chunk_.size() + chunk_.size() / 100 + 600);
    compressed.resize(n);
    int rc = BZ2_bzBuffToBuffCompress(&compressed[0], &n, &chunk_[0], static_cast<unsigned int>(chunk_.size()), 9, 0, 30);
    if (rc != BZ_OK) {
      error_ = "bz2 compression failed (" + std::to_string(rc) + ")";
      return false;
    }
    compressed.resize(n);
    payload = compressed;
  } else if (compression != "none") {
    error_ = "unknown compression " + compression;
    return false;
  }
  ChunkInfoOut info{sink_.position(), chunk_start_, chunk_end_, {}};
  std::string header;
  append_field(header, "op", op(kOpChunk));
  append_field(header, "compression", compression);
  append_field_u32(header, "size", static_cast<uint32_t>(chunk_.size()));
  uint32_t hlen = static_cast<uint32_t>(header.size()), dlen = static_cast<uint32_t>(payload.size());
  if (!sink_.write(&hlen, 4) || !sink_.write(header.data(), header.size()) || !sink_.write(&dlen, 4) ||
      !sink_.write(payload.data(), payload.size())) {
    error_ = "write failed";
    return false;
  }
  std::string index;
  for (const auto& entry : chunk_index_) {
    std::string ih;
    append_field(ih, "op", op(kOpIndexData));
    append_field_u32(ih, "ver", 1);
    append_field_u32(ih, "conn", entry.first);
    append_field_u32(ih, "count", static_cast<uint32_t>(entry.second.size()));
    std::string data;
    data.reserve(entry.second.size() * 12);
    for (const auto& e : entry.second) {
      uint32_t words[3] = {e.first.sec, e.first.nsec, e.second};
      data.append(reinterpret_cast<const char*>(words), 12);
    }
    append_record(index, ih, data);
    info.counts.emplace_back(entry.first, static_cast<uint32_t>(entry.second.size()));
  }
  chunk_infos_.push_back(std::move(info));
  chunk_.clear();
  chunk_index_.clear();
  return put(index);
}

bool BagWriter::close() {
  if (closed_) return error_.empty();
  if (!started_ && !start()) return false;
  closed_ = true;
  if (options_.version == 101 || (options_.version == 102 && !options_.v12_file_header)) return true;
  uint64_t index_pos = sink_.position();
  std::string out;
  if (options_.version == 102) {
    for (const ConnectionInfo& c : connections_) {
      if (c.v12_index.empty()) continue;
      std::string h;
      append_field(h, "op", op(kOpIndexData));
      append_field_u32(h, "ver", 0);
      append_field(h, "topic", c.topic);
      append_field(h, "type", c.type);
      append_field_u32(h, "count", static_cast<uint32_t>(c.v12_index.size()));
      std::string data;
      for (const auto& e : c.v12_index) {
        uint32_t t[2] = {e.first.sec, e.first.nsec};
        data.append(reinterpret_cast<const char*>(t), 8);
        data.append(reinterpret_cast<const char*>(&e.second), 8);
      }
      uint64_t record_at = index_pos + out.size();
      append_record(out, h, data);
      note(WrittenRecord::Index, record_at, index_pos + out.size(), c.id);
    }
    std::string header = header_record(kOpBagHeader, index_pos, 0, 0, false);
    return put(out) && sink_.write_at(kV1VersionLineLength, header.data(), header.size());
  }
  if (!flush_chunk()) return false;
  index_pos = sink_.position();
  uint32_t conn_count = 0;
  for (const ConnectionInfo& c : connections_) {
    if (!c.written) continue;
    std::string h;
    append_field(h, "op", op(kOpConnection));
    append_field_u32(h, "conn", c.id);
    append_field(h, "topic", c.topic);
    append_record(out, h, connection_header(c));
    ++conn_count;
  }
  for (const ChunkInfoOut& info : chunk_infos_) {
    std::string h;
    append_field(h, "op", op(kOpChunkInfo));
    append_field_u32(h, "ver", 1);
    append_field_u64(h, "chunk_pos", info.pos);
    append_field_time(h, "start_time", info.start);
    append_field_time(h, "end_time", info.end);
    append_field_u32(h, "count", static_cast<uint32_t>(info.counts.size()));
    std::string data;
    for (const auto& c : info.counts) {
      uint32_t words[2] = {c.first, c.second};
      data.append(reinterpret_cast<const char*>(words), 8);
    }
    append_record(out, h, data);
  }
  std::string header = header_record(kOpBagHeader, index_pos, conn_count, static_cast<uint32_t>(chunk_infos_.size()), true);
  if (!put(out) || !sink_.write_at(kV20VersionLineLength, header.data(), header.size())) {
    error_ = "write failed";
    return false;
  }
  return true;
}

}  // namespace logscope::rosbag
