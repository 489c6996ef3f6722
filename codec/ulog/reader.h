// Reading a ULog: MessageWalker frames the messages of a byte range in file order, streamed
// through the ByteSource in windows (or straight from memory when the source is mapped), every
// length checked against the bytes that remain; open_file() is the one pass that fills the model.
#pragma once

#include <cstdint>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"
#include "ulog/model.h"

namespace logscope::ulog {

struct RawMessage {
  uint64_t offset = 0;  // of its 3-byte header
  uint8_t type = 0;
  uint16_t size = 0;    // of the body
  const uint8_t* body = nullptr;
  uint64_t end() const { return offset + kMessageHeader + size; }
};

class MessageWalker {
 public:
  static constexpr size_t kWindow = 1 << 20;
  MessageWalker(ByteSource& source, uint64_t begin, uint64_t end);
  // The next complete message before end(); false at the end or at a message cut by it.
  bool next(RawMessage* out);
  uint64_t position() const { return position_; }  // after the last message returned
  void set_end(uint64_t end) { end_ = end; }
  uint64_t end() const { return end_; }
  // The walk stopped inside a message: its declared body size (or -1 when even its header is
  // cut) and the bytes present from its header on.
  bool cut() const { return cut_; }
  int declared() const { return declared_; }
  uint64_t present() const { return present_; }

 private:
  // Makes [position_, position_ + n) available at data(); false when the source has fewer bytes.
  bool ensure(size_t n);
  const uint8_t* data() const { return mapped_ ? mapped_ + position_ : buffer_.data() + (position_ - buffer_offset_); }

  ByteSource& source_;
  const uint8_t* mapped_;
  std::vector<uint8_t> buffer_;
  uint64_t buffer_offset_ = 0;  // file offset of buffer_[0]
  size_t buffer_length_ = 0;
  uint64_t position_;
  uint64_t end_;
  bool cut_ = false;
  int declared_ = -1;
  uint64_t present_ = 0;
};

// The one pass: header, flag bits, every section (the main one and the appended ones the flag
// bits name), with every problem at its byte offset. Never fails: what could not be read is in
// model->problems and model->recovery.
void open_file(ByteSource& source, FileModel* model, const ProgressFn& progress = nullptr);

}  // namespace logscope::ulog
