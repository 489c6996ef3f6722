#include "core/output_sink.h"

#include <cstring>

namespace logscope {

bool OutputSink::patch(uint64_t, const void*, size_t) {
  error_ = "this output is a stream and cannot be patched";
  return false;
}

bool MemoryOutputSink::write(const void* data, size_t size) {
  bytes.append(static_cast<const char*>(data), size);
  return true;
}

bool MemoryOutputSink::patch(uint64_t offset, const void* data, size_t size) {
  if (offset > bytes.size() || size > bytes.size() - offset) {
    error_ = "patch at " + std::to_string(offset) + " (+" + std::to_string(size) + ") is beyond the " +
             std::to_string(bytes.size()) + " bytes written";
    return false;
  }
  std::memcpy(&bytes[offset], data, size);
  return true;
}

}  // namespace logscope
