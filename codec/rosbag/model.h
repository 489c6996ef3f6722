// What the reader knows about a bag after opening it: the in-memory index (connections, chunks,
// and for V1.x the message positions), problems and recovery. Built by reader.h.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/report.h"
#include "rosbag/records.h"

namespace logscope::rosbag {

// The bag versions (the detection's version "2.0", "1.2", "1.1").
enum class Format { Unknown, RosbagV20, RosbagV12, RosbagV11 };
Format format_of(const Detection& detection);

struct Connection {
  uint32_t id = 0;
  std::string topic;
  std::string type;
  std::string md5;
  std::string definition;
  std::string callerid;
  bool latching = false;
  bool has_connection_header = false;  // false: the header could not be read (encrypted, damaged)
  uint64_t record_offset = 0;         // the record it was read from
};

struct Chunk {
  uint64_t pos = 0;  // offset of the chunk record
  Time start, end;
  std::vector<std::pair<uint32_t, uint32_t>> counts;  // (connection id, messages)
  uint64_t info_offset = 0;  // its ChunkInfo record; 0 when rebuilt by a scan
  // From the chunk record header, read on demand (header_read).
  bool header_read = false;
  bool header_ok = false;
  std::string compression;
  uint32_t uncompressed_size = 0;
  uint32_t compressed_size = 0;  // data_len
  uint32_t header_len = 0;
  uint64_t message_count() const {
    uint64_t n = 0;
    for (const auto& c : counts) n += c.second;
    return n;
  }
  uint64_t data_offset() const { return pos + 8 + header_len; }
  uint64_t record_end() const { return data_offset() + compressed_size; }
  // Whether the chunk may hold an lz4 frame: true unless its header was read and says otherwise.
  bool may_be_lz4() const { return !(header_read && header_ok && compression != "lz4"); }
};

// A message of a V1.x bag: the position of its record (V1.1: of its first line).
struct MessageRef {
  uint64_t time_ns = 0;
  uint64_t offset = 0;
  uint32_t conn = 0;
};

struct Recovery {
  bool performed = false;
  std::string message;
  std::string reason;
  uint64_t ends_at = 0;  // the first byte not recovered (file size when everything was)
  uint64_t recovered_chunks = 0;
  uint64_t recovered_messages = 0;
};

struct Bag {
  Format format = Format::Unknown;
  int version = 0;  // 200, 102, 101
  uint64_t file_size = 0;
  uint64_t header_offset = 0;  // bag/file header record (V1.1: none)
  uint64_t first_record_offset = 0;
  bool has_header = false;
  uint64_t index_pos = 0;
  uint32_t header_conn_count = 0;
  uint32_t header_chunk_count = 0;
  std::string encryptor;
  bool indexed = false;  // read from the index (rather than by scanning)
  uint64_t index_end = 0;  // end of the index section that was read
  std::vector<Connection> connections;  // in index order (V2.0) or first appearance (V1.x)
  std::vector<Chunk> chunks;            // in file order
  std::vector<MessageRef> messages;     // V1.x only, sorted by time (stable: file order on ties)
  std::vector<uint64_t> records;        // V1.x only: every top-level record offset, in file order
  std::vector<uint64_t> index_records;  // offsets of records in the index section
  std::vector<Problem> problems;
  Recovery recovery;
  bool cancelled = false;

  const Connection* connection(uint32_t id) const {
    auto it = by_id.find(id);
    return it == by_id.end() ? nullptr : &connections[it->second];
  }
  // Adds the connection unless its id is known; returns its index.
  size_t add_connection(Connection connection);
  uint64_t message_count() const;
  // Messages per connection, in the order of `connections`: from the chunks' counts (V2.0) or
  // the messages (V1.x). Counts for an id no connection has are left out.
  std::vector<uint64_t> messages_by_connection() const;
  void problem(Severity severity, uint64_t offset, std::string code, std::string message) {
    problems.push_back(Problem{severity, offset, std::move(code), std::move(message)});
  }

  std::unordered_map<uint32_t, size_t> by_id;
};

}  // namespace logscope::rosbag
