#include "core/spill.h"

#include <algorithm>

namespace logscope {

SpilledStreams::SpilledStreams(SpillFile* file, size_t segment) : file_(file), segment_(std::max<size_t>(segment, 16)) {}

bool SpilledStreams::fail(std::string why) {
  if (error_.empty()) error_ = std::move(why);
  return false;
}

uint64_t SpilledStreams::size(size_t stream) const { return stream < streams_.size() ? streams_[stream].size : 0; }

bool SpilledStreams::flush(Stream& s) {
  if (s.open.empty()) return true;
  if (!file_) {
    s.held.push_back(std::move(s.open));
    s.open = std::string();
    return true;
  }
  if (!file_->write(end_, s.open.data(), s.open.size()))
    return fail("the scratch file could not be written at " + std::to_string(end_) + ": " + file_->error());
  s.spilled.push_back(Segment{end_, static_cast<uint32_t>(s.open.size())});
  end_ += s.open.size();
  spilled_ += s.open.size();
  held_ -= s.open.size();
  s.open.clear();  // keeps its capacity: the next segment fills the same memory
  return true;
}

bool SpilledStreams::append(size_t stream, const void* data, size_t size) {
  if (!error_.empty()) return false;
  if (stream >= streams_.size()) streams_.resize(stream + 1);
  Stream& s = streams_[stream];
  const char* at = static_cast<const char*>(data);
  s.size += size;
  while (size) {
    if (s.open.capacity() < segment_) s.open.reserve(segment_);
    size_t n = std::min(size, segment_ - s.open.size());
    s.open.append(at, n);
    held_ += n;
    at += n;
    size -= n;
    if (s.open.size() == segment_ && !flush(s)) return false;
  }
  return true;
}

bool SpilledStreams::drain(size_t stream, const std::function<bool(const void*, size_t)>& out) {
  if (!error_.empty()) return false;
  if (stream >= streams_.size()) return true;
  Stream& s = streams_[stream];
  bool ok = true;
  if (!s.spilled.empty()) {
    std::string buffer(segment_, '\0');
    for (const Segment& segment : s.spilled) {
      if (!file_->read(segment.offset, buffer.data(), segment.size)) {
        ok = fail("the scratch file could not be read at " + std::to_string(segment.offset) + ": " + file_->error());
        break;
      }
      if (!out(buffer.data(), segment.size)) {
        ok = false;
        break;
      }
    }
  }
  for (const std::string& segment : s.held) {
    if (!ok) break;
    ok = out(segment.data(), segment.size());
  }
  if (ok && !s.open.empty()) ok = out(s.open.data(), s.open.size());
  for (const std::string& segment : s.held) held_ -= segment.size();
  held_ -= s.open.size();
  s = Stream();
  return ok;
}

}  // namespace logscope
