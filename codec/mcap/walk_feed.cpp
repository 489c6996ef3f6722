// PushedWalk (walk.h): the doctor's walk with the file pushed in by the page's feeder worker,
// which overlaps the browser's reading with the work on two cores instead of copying through the
// read-ahead ring. Records are framed in place, or gathered when they straddle pushes.
#include <cstring>

#include "core/pushed_piece.h"
#include "mcap/walk.h"

namespace logscope::mcap {

PushedWalk::PushedWalk(uint64_t from, uint64_t end, RecordHandler& handler, Crc32Stream* data_crc)
    : position_(from), received_(from), end_(std::max(from, end)), handler_(handler), data_crc_(data_crc) {}

void PushedWalk::push(const uint8_t* data, size_t size) {
  PushedPiece piece(data, size, &received_, end_);
  while (!stopped_ && position_ < end_) {
    uint64_t room = end_ - position_;
    if (room < kRecordPrefix) {
      stopped_ = true;
      stop_reason_ = "the range ends inside the prefix of the record at byte " + std::to_string(position_);
      return;
    }
    uint8_t prefix[kRecordPrefix];
    if (held_.empty() && piece.left() >= kRecordPrefix) {
      std::memcpy(prefix, piece.data(), kRecordPrefix);
    } else {
      if (!piece.gather(held_, kRecordPrefix)) return;
      std::memcpy(prefix, held_.data(), kRecordPrefix);
    }
    RecordFrame frame;
    frame.offset = position_;
    frame.op = prefix[0];
    std::memcpy(&frame.length, prefix + 1, 8);
    if (frame.op == 0 || frame.length > room - kRecordPrefix || frame.length > kMaxRecordView) {
      stopped_ = true;
      stop_reason_ = "the record at byte " + std::to_string(position_) + " cannot be framed here";
      return;
    }
    size_t total = static_cast<size_t>(kRecordPrefix + frame.length);
    const uint8_t* record;
    if (held_.empty() && piece.left() >= total) {
      record = piece.data();  // in place
      piece.skip_to(position_ + total);
    } else {
      if (!piece.gather(held_, total)) return;
      record = held_.data();
    }
    handle(frame, record);
    PushedPiece::clear(held_);
    position_ += total;
  }
}

void PushedWalk::handle(const RecordFrame& frame, const uint8_t* record) {
  bool hashing = data_crc_ && !result_.data_crc_known;
  if (hashing && frame.op == kOpDataEnd) {  // the data section CRC covers [0, DataEnd)
    result_.data_crc_known = data_crc_->value(&result_.data_crc);
    result_.data_crc_offset = frame.offset;
    hashing = false;
  }
  hand_on(handler_, frame, std::string_view(reinterpret_cast<const char*>(record + kRecordPrefix), static_cast<size_t>(frame.length)), true,
          &chunk_records_);
  // After the handler, which may have given the CRC of an uncompressed chunk's records.
  if (hashing) data_crc_->update(record, static_cast<size_t>(kRecordPrefix + frame.length));
  ++result_.records;
}

WalkResult PushedWalk::result() const {
  WalkResult r = result_;
  r.end = position_;
  r.complete = complete();
  r.stop_reason = stop_reason_;
  return r;
}

}  // namespace logscope::mcap
