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

void PacketFeed::stop(PacketWalker::Step step, const PacketRef& packet) {
  ended_ = true;
  step_ = step;
  last_ = packet;
  pending_ = std::vector<uint8_t>();
}

void PacketFeed::push(const uint8_t* data, size_t size) {
  if (ended_ || received_ >= end_) return;
  PushedPiece piece(data, size, &received_, end_);
  while (!ended_) {
    if (!piece.skip_to(position_)) return;  // the rest of a payload already visited
    PacketRef packet;
    packet.offset = position_;
    if (position_ >= end_) return stop(PacketWalker::Step::End, packet);
    // The bytes from position_: a copy begun in an earlier push, or in place.
    const uint8_t* bytes = pending_.empty() ? piece.data() : pending_.data();
    size_t have = pending_.empty() ? piece.left() : pending_.size();
    if (have == 0) return;
    packet.id = bytes[0];
    if (end_ - position_ < 5) return stop(PacketWalker::Step::CutInHeader, packet);
    if (have < 5) {
      if (!piece.gather(pending_, 5)) return;
      continue;
    }
    std::memcpy(&packet.size, bytes + 1, 4);
    if (packet.size > end_ - position_ - 5) return stop(PacketWalker::Step::CutInPayload, packet);
    size_t need = need_(packet);
    bool too_large = !fits_one_view(need, max_view_);
    if (!too_large && have < 5 + need) {
      if (!piece.gather(pending_, 5 + need)) return;
      continue;
    }
    visit_(packet, too_large ? nullptr : bytes + 5);
    position_ = packet.end();
    PushedPiece::clear(pending_);
  }
}

bool PacketFeed::ended(PacketWalker::Step* step, PacketRef* last) const {
  if (ended_) {
    *step = step_;
    *last = last_;
    return true;
  }
  if (position_ < end_ || received_ < end_) return false;
  *step = PacketWalker::Step::End;  // an empty range, which no push reached
  *last = PacketRef();
  last->offset = position_;
  return true;
}

}  // namespace logscope::carla
