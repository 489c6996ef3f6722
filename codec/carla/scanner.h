// The forward scan's state between packets (reader.cpp). scan_log pulls the packets through a
// PacketStream; the page pushes the file's stream through a PacketFeed (scan_feed.h). Both hand
// every packet to one LogScanner, so the two give the same ScanResult.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "carla/model.h"
#include "carla/walker.h"
#include "core/byte_source.h"
#include "core/inspector.h"

namespace logscope::carla {

class LogScanner {
 public:
  // `result` already holds the header (read_header succeeded); the packets start at its size.
  LogScanner(ScanResult& result, uint64_t file_size);
  ~LogScanner();
  LogScanner(const LogScanner&) = delete;
  LogScanner& operator=(const LogScanner&) = delete;

  // How many payload bytes on_packet reads: all of them for records checked whole, else a few.
  static size_t payload_need(const PacketRef& packet);
  // One packet; `payload` holds its first payload_need(packet) bytes, or is null when they are
  // more than a pass holds at once (the packet is counted and reported, not checked).
  void on_packet(const PacketRef& packet, const uint8_t* payload);
  // After the last packet: `step` is how the walk ended and `last` the packet it stopped at (for
  // a cancelled scan, the packet it was cancelled before). Fills recovery, variant and problems.
  void finish(PacketWalker::Step step, const PacketRef& last, bool cancelled);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// scan_log fed by its caller (FormatInspector::scan_feed): the header is read from `source` (a
// few bytes), the packets come pushed. finish() hands a complete scan to `keep` and answers
// {"status": "scanned"}; an incomplete one is dropped ({"status": "incomplete", "error": ...}),
// and whoever needs the scan pulls it as before. Null when the header is not a CARLA header.
std::unique_ptr<ByteFeed> scan_feed(ByteSource& source, std::function<void(ScanResult&&)> keep);

}  // namespace logscope::carla
