#include "core/file_output_sink.h"

#include <cerrno>
#include <cstring>

namespace logscope {

FileOutputSink::~FileOutputSink() {
  if (file_) std::fclose(file_);
}

bool FileOutputSink::open(const std::string& path) {
  path_ = path;
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    error_ = path + ": " + std::strerror(errno);
    return false;
  }
  std::setvbuf(file_, nullptr, _IOFBF, 4 << 20);
  return true;
}

bool FileOutputSink::write(const void* data, size_t size) {
  if (!file_ || std::fwrite(data, 1, size, file_) != size) {
    error_ = path_ + ": " + std::strerror(errno);
    return false;
  }
  written_ += size;
  return true;
}

bool FileOutputSink::patch(uint64_t offset, const void* data, size_t size) {
  if (!file_ || offset > written_ || size > written_ - offset) {
    error_ = path_ + ": patch beyond the bytes written";
    return false;
  }
  bool ok = ::fseeko(file_, static_cast<off_t>(offset), SEEK_SET) == 0 && std::fwrite(data, 1, size, file_) == size;
  ok = ::fseeko(file_, static_cast<off_t>(written_), SEEK_SET) == 0 && ok;
  if (!ok) error_ = path_ + ": " + std::strerror(errno);
  return ok;
}

bool FileOutputSink::close() {
  if (!file_) return error_.empty();
  bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) error_ = path_ + ": " + std::strerror(errno);
  return ok && error_.empty();
}

}  // namespace logscope
