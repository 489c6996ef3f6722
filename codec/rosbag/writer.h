// Writes bags: V2.0 (chunks of none/bz2/lz4 with IndexData after each, connections and chunk infos
// at index_pos), V1.2 (MSG_DEF before each topic's first message, INDEX_DATA ver 0 at the end; or
// unindexed, without FILE_HEADER) and V1.1 (plain stream, for tests). Streams to a sink in bounded
// memory (one chunk); V1.x writers can keep a ledger of their records.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rosbag/records.h"

namespace logscope::rosbag {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual bool write(const void* data, size_t size) = 0;
  virtual bool write_at(uint64_t offset, const void* data, size_t size) = 0;
  virtual uint64_t position() const = 0;
};

class FileSink : public ByteSink {
 public:
  ~FileSink() override;
  bool open(const std::string& path, std::string* error);
  bool close();
  bool write(const void* data, size_t size) override;
  bool write_at(uint64_t offset, const void* data, size_t size) override;
  uint64_t position() const override { return position_; }

 private:
  std::FILE* file_ = nullptr;
  uint64_t position_ = 0;
};

class MemorySink : public ByteSink {
 public:
  bool write(const void* data, size_t size) override;
  bool write_at(uint64_t offset, const void* data, size_t size) override;
  uint64_t position() const override { return bytes.size(); }
  std::string bytes;
};

// A record a V1.x writer put out, for tests that cut its bags at every boundary.
struct WrittenRecord {
  enum Kind { FileHeader, Definition, Message, Index };
  Kind kind = Message;
  uint64_t offset = 0;       // the record (V1.1: the message's topic line)
  uint64_t end = 0;          // the byte after it
  uint32_t connection = 0;   // Definition, Message, Index: the topic's first connection id
  Time time;                 // Message
  uint64_t data_offset = 0;  // Message: its serialized bytes are [data_offset, end)
};

struct WriterOptions {
  int version = 200;               // 200, 102 or 101
  std::string compression = "none";  // V2.0: none, bz2, lz4
  size_t chunk_threshold = 768 * 1024;
  // V1.2: false writes no FILE_HEADER (records right after the version line) and no index, the
  // layout of a recorder that never indexed (python3-rosbag's "unindexed" V1.2 reader).
  bool v12_file_header = true;
  // V1.x: every record written is appended here when set (V2.0 writes none).
  std::vector<WrittenRecord>* ledger = nullptr;
};

class BagWriter {
 public:
  BagWriter(ByteSink& sink, WriterOptions options);
  // Returns the connection id. Several connections may share a topic (different callers).
  uint32_t add_connection(const std::string& topic, const std::string& type, const std::string& md5,
                          const std::string& definition, const std::string& callerid = "", bool latching = false);
  bool write(uint32_t connection, Time time, std::string_view data);
  // Flushes the last chunk and writes the index. A bag never closed is what a crash leaves.
  bool close();
  const std::string& error() const { return error_; }
  uint64_t messages_written() const { return messages_; }

 private:
  struct ConnectionInfo {
    uint32_t id;
    std::string topic, type, md5, definition, callerid;
    bool latching;
    bool written = false;  // its record is in a chunk (V2.0) / its MSG_DEF is written (V1.2)
    std::vector<std::pair<Time, uint64_t>> v12_index;
  };
  bool start();
  bool flush_chunk();
  std::string connection_header(const ConnectionInfo& c) const;
  bool put(const std::string& bytes);
  void note(WrittenRecord::Kind kind, uint64_t offset, uint64_t end, uint32_t connection = 0, Time time = {},
            uint64_t data_offset = 0);

  ByteSink& sink_;
  WriterOptions options_;
  std::vector<ConnectionInfo> connections_;
  bool started_ = false;
  bool closed_ = false;
  std::string error_;
  uint64_t messages_ = 0;
  // The open chunk (V2.0).
  std::string chunk_;
  std::string scratch_;
  Time chunk_start_, chunk_end_;
  std::map<uint32_t, std::vector<std::pair<Time, uint32_t>>> chunk_index_;
  struct ChunkInfoOut {
    uint64_t pos;
    Time start, end;
    std::vector<std::pair<uint32_t, uint32_t>> counts;
  };
  std::vector<ChunkInfoOut> chunk_infos_;
};

}  // namespace logscope::rosbag
