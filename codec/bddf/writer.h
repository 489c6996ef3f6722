// A streaming BDDF writer with the SDK writer's layout (shared/spec/bddf.md §2): magic, file
// descriptor, series descriptors interleaved with data as series appear, POD samples packed into
// blocks, then one SeriesBlockIndex per series, the FileIndex and the 40-byte trailer with the
// SHA1 of bytes [0, size-24). It never seeks back: everything goes to a sink callback.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/spill.h"

namespace logscope::bddf {

struct SeriesOptions {
  std::string series_type = "bosdyn:channel";
  std::map<std::string, std::string> spec;  // e.g. {"bosdyn:channel": "bosdyn.api.RobotState"}
  // A message series (pod_type == 0):
  std::string content_type = "application/protobuf";
  std::string type_name;
  bool is_metadata = false;
  // A POD series: PodTypeEnum value (1 = INT8 ... 10 = FLOAT64) and dimensions.
  int pod_type = 0;
  std::vector<uint32_t> dimension;
  size_t pod_block_size = 0;  // bytes per POD block; 0 = the writer's default
  std::map<std::string, std::string> annotations;
  std::vector<std::string> additional_index_names;
  std::string description;
};

class Writer {
 public:
  // Receives the file's bytes in order; returns false on a write error (the writer then stops).
  using Sink = std::function<bool(const void* data, size_t size)>;
  struct Options {
    std::map<std::string, std::string> annotations;
    bool sha1 = true;               // false: CHECKSUM_TYPE_NONE and a zero digest
    size_t pod_block_size = 2048;   // the SDK's default data_block_size
    // Where each series' block index waits, encoded, until finish(): without one, in memory
    // (about 20 bytes a block). Not owned; it must outlive the writer.
    SpillFile* spill = nullptr;
  };

  Writer(Sink sink, Options options);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Registers a series and writes its descriptor; returns its index, or -1 (with `error`) when
  // the spec is already used or the POD type is invalid.
  int add_series(const SeriesOptions& options, std::string* error = nullptr);
  int add_message_channel(const std::string& channel, const std::string& type_name,
                          const std::map<std::string, std::string>& annotations = {});
  int add_pod_channel(const std::string& channel, int pod_type, const std::vector<uint32_t>& dimension = {},
                      const std::map<std::string, std::string>& annotations = {}, size_t block_size = 0);

  // One data block of a message series.
  bool write_block(int series, int64_t timestamp_ns, const void* data, size_t size,
                   const std::vector<int64_t>& additional_indexes = {});
  // One POD sample (sample_size bytes, little-endian, row-major); packed into blocks like the SDK.
  bool write_pod_sample(int series, int64_t timestamp_ns, const void* sample);
  size_t pod_sample_size(int series) const;

  // Flushes partial POD blocks, writes the index and the trailer. Call once.
  bool finish();

  bool ok() const;
  // Why the writer stopped, when it was not the sink (the spill file); "" otherwise.
  std::string error() const;
  uint64_t bytes_written() const;
  // The block index entries held in memory now (bytes), and those in the spill file so far.
  uint64_t index_bytes_held() const;
  uint64_t index_bytes_spilled() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A sink writing to a file through a large buffer.
class FileSink {
 public:
  explicit FileSink(const std::string& path);
  ~FileSink();
  bool ok() const { return file_ != nullptr && !failed_; }
  bool write(const void* data, size_t size);
  bool close();  // flushes; false on error
  Writer::Sink sink() {
    return [this](const void* data, size_t size) { return write(data, size); };
  }

 private:
  std::FILE* file_ = nullptr;
  std::vector<char> buffer_;
  bool failed_ = false;
};

}  // namespace logscope::bddf
