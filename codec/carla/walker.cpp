#include "carla/walker.h"

#include <algorithm>
#include <cstring>

namespace logscope::carla {

const uint8_t* ChunkReader::get(uint64_t offset, size_t length) {
  uint64_t file_size = source_.size();
  if (offset > file_size || length > file_size - offset || length > max_range_) return nullptr;
  if (offset >= start_ && offset - start_ + length <= filled_) return buffer_.data() + (offset - start_);
  size_t want = static_cast<size_t>(std::min<uint64_t>(std::max(length, chunk_), file_size - offset));
  if (buffer_.size() < want) buffer_.resize(want);
  start_ = offset;
  filled_ = source_.read(offset, buffer_.data(), want);
  if (filled_ < length) return nullptr;
  return buffer_.data();
}

PacketWalker::Step PacketWalker::next(PacketRef* packet) {
  *packet = PacketRef();
  packet->offset = position_;
  if (position_ >= end_) return Step::End;
  if (end_ - position_ < 5) {
    const uint8_t* partial = reader_.get(position_, 1);
    if (partial) packet->id = partial[0];
    return Step::CutInHeader;
  }
  const uint8_t* header = reader_.get(position_, 5);
  if (!header) return Step::CutInHeader;
  packet->id = header[0];
  std::memcpy(&packet->size, header + 1, 4);
  if (packet->size > end_ - position_ - 5) return Step::CutInPayload;
  position_ = packet->end();
  return Step::Packet;
}

bool PacketStream::reach(uint64_t offset, size_t length) {
  span_begin_ = span_end_ = 0;
  span_ = nullptr;
  if (offset > end_ || length > end_ - offset) return false;
  size_t want = static_cast<size_t>(std::min<uint64_t>(std::max<uint64_t>(length, kSpan), end_ - offset));
  const uint8_t* bytes = reader_.view(offset, want);
  if (!bytes && want > length) bytes = reader_.view(offset, want = length);  // a span larger than the reader allows
  if (!bytes) return false;
  span_ = bytes;
  span_begin_ = prefetched_ = offset;
  span_end_ = offset + want;
  return true;
}

PacketWalker::Step PacketStream::next_slow(PacketRef* packet) {
  if (position_ >= end_) return PacketWalker::Step::End;
  if (end_ - position_ < 5) {
    if (reach(position_, 1)) packet->id = span_[0];
    return PacketWalker::Step::CutInHeader;
  }
  if (!reach(position_, 5)) return PacketWalker::Step::CutInHeader;
  packet->id = span_[0];
  std::memcpy(&packet->size, span_ + 1, 4);
  if (packet->size > end_ - position_ - 5) return PacketWalker::Step::CutInPayload;
  position_ = packet->end();
  return PacketWalker::Step::Packet;
}

}  // namespace logscope::carla
