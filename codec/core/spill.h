// Bytes a writer must hold until its output ends: a BDDF file's block index follows all of its
// blocks, 20-odd bytes a block, so a whole-file extract at 100 GB would hold 350 MB of it. The
// caller may give scratch storage (the CLI: an unnamed temporary file; the page: a file in the
// origin's private storage), and then only a segment per stream stays in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace logscope {

// Random-access scratch storage; read back only what was written.
class SpillFile {
 public:
  virtual ~SpillFile() = default;
  virtual bool write(uint64_t offset, const void* data, size_t size) = 0;
  virtual bool read(uint64_t offset, void* data, size_t size) = 0;
  // Why the last call failed.
  virtual std::string error() const = 0;
};

// Append-only byte streams (a BDDF writer: one per series). Each keeps up to `segment` bytes in
// memory; a full segment goes to the spill file, or, without one, stays in memory.
class SpilledStreams {
 public:
  explicit SpilledStreams(SpillFile* file, size_t segment = 64 << 10);
  bool append(size_t stream, const void* data, size_t size);
  uint64_t size(size_t stream) const;
  // Passes the stream's bytes to `out` in order, a segment at a time, and then forgets them.
  bool drain(size_t stream, const std::function<bool(const void* data, size_t size)>& out);
  uint64_t held_bytes() const { return held_; }        // in memory now
  uint64_t spilled_bytes() const { return spilled_; }  // written to the spill file so far
  // Why append or drain failed ("" when none did).
  const std::string& error() const { return error_; }

 private:
  struct Segment {
    uint64_t offset;
    uint32_t size;
  };
  struct Stream {
    std::vector<Segment> spilled;    // with a spill file
    std::vector<std::string> held;   // without one: the full segments
    std::string open;                // the segment being filled
    uint64_t size = 0;
  };
  bool flush(Stream& stream);
  bool fail(std::string why);

  SpillFile* file_;
  size_t segment_;
  std::vector<Stream> streams_;
  uint64_t held_ = 0, spilled_ = 0, end_ = 0;
  std::string error_;
};

}  // namespace logscope
