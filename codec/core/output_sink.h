// Where extract and repair write a new file: a byte stream, so the engine runs the same natively
// (a file, core/file_output_sink.h, or the CLI's stdout) and later in the browser worker (a
// FileSystemWritableFileStream or a streamed download).
//
// Patching: a bag's header record (at byte 13, always padded to 4096 bytes) holds index_pos and
// the counts, known only at the end. Rather than buffer the whole output or compute every chunk's
// compressed size ahead (that would mean compressing twice), writers emit a placeholder of the
// same fixed size and overwrite it at the end through patch(). Sinks that can seek (files, the
// File System Access API, memory) support it; a pure stream does not, and then a writer that
// needs it fails with a clear error instead of writing a wrong file. BDDF needs no patch: its
// offsets live in the trailer, written last, and the SHA1 is computed as the bytes go out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace logscope {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Appends; false on a write error (the writer stops and says so).
  virtual bool write(const void* data, size_t size) = 0;
  // Bytes appended so far (the offset the next write lands at).
  virtual uint64_t written() const = 0;
  // Overwrites bytes already written, [offset, offset + size) <= written(). Default: unsupported.
  virtual bool can_patch() const { return false; }
  virtual bool patch(uint64_t offset, const void* data, size_t size);
  // Why the last call failed ("" when none did).
  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

// Everything in memory: for tests and small outputs only.
class MemoryOutputSink : public OutputSink {
 public:
  bool write(const void* data, size_t size) override;
  uint64_t written() const override { return bytes.size(); }
  bool can_patch() const override { return true; }
  bool patch(uint64_t offset, const void* data, size_t size) override;
  std::string bytes;
};

}  // namespace logscope
