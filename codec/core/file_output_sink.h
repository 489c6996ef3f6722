// An OutputSink that is a file on disk (buffered, patchable): the CLI's extract, repair and
// convert, and the demo writers' files.
#pragma once

#include <cstdio>
#include <string>

#include "core/output_sink.h"

namespace logscope {

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

}  // namespace logscope
