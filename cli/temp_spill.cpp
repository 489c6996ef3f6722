#include "temp_spill.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace logscope {
namespace {

// pread and pwrite may move fewer bytes than asked: repeated until all of them are done.
template <typename Io, typename Byte>
bool whole(Io io, int fd, Byte* at, uint64_t offset, size_t size, const char* short_of, std::string* error) {
  while (size) {
    ssize_t n = io(fd, at, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return *error = n < 0 ? std::strerror(errno) : short_of, false;
    at += n, offset += static_cast<uint64_t>(n), size -= static_cast<size_t>(n);
  }
  return true;
}

class TempSpill : public SpillFile {
 public:
  explicit TempSpill(int fd) : fd_(fd) {}
  ~TempSpill() override { ::close(fd_); }
  bool write(uint64_t offset, const void* data, size_t size) override {
    return whole(::pwrite, fd_, static_cast<const char*>(data), offset, size, "nothing written (is the disk full?)", &error_);
  }
  bool read(uint64_t offset, void* data, size_t size) override {
    return whole(::pread, fd_, static_cast<char*>(data), offset, size, "the file ended early", &error_);
  }
  std::string error() const override { return error_; }

 private:
  int fd_;
  std::string error_;
};

}  // namespace

int make_temp_file(const std::string& prefix, std::string* path, std::string* error) {
  const char* tmp = std::getenv("TMPDIR");
  *path = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
  int fd = ::mkstemp(path->data());
  if (fd < 0) *error = "cannot create a temporary file in " + *path + ": " + std::strerror(errno);
  return fd;
}

std::unique_ptr<SpillFile> open_temp_spill(std::string* error) {
  std::string path;
  int fd = make_temp_file("logscope-spill-", &path, error);
  if (fd < 0) return nullptr;
  ::unlink(path.c_str());  // the descriptor keeps it until it is closed, even if the CLI is killed
  return std::make_unique<TempSpill>(fd);
}

}  // namespace logscope
