// The CLI's OutputSink: a file on disk (buffered, patchable) for extract and repair.
#pragma once

#include <cstdio>
#include <string>

#include "core/output_sink.h"

namespace logscope::cli {

class FileOutputSink : public OutputSink {
 public:
  ~FileOutputSink() override;
  bool open(const std::string& path);  // false with error()
  bool write(const void* data, size_t size) override;
  uint64_t written() const override { return written_; }
  bool can_patch() const override { return true; }
  bool patch(uint64_t offset, const void* data, size_t size) override;
  bool close();  // flushes; false with error()

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
  uint64_t written_ = 0;
};

}  // namespace logscope::cli
