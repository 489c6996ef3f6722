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

// The layout variants the scan chooses among, preferred first: it decides for the one that the
// fewest packets misfit (reader.cpp).
constexpr int kVariantCandidates = 12;
Variant variant_candidate(int c);
int variant_candidate_index(const Variant& variant);  // -1 for none of them

class ScanRider;

class LogScanner {
 public:
  // `result` already holds the header (read_header succeeded); the packets start at its size.
  // A `rider` (below) sees every packet after the scanner.
  LogScanner(ScanResult& result, uint64_t file_size, ScanRider* rider = nullptr);
  ~LogScanner();
  LogScanner(const LogScanner&) = delete;
  LogScanner& operator=(const LogScanner&) = delete;

  // How many payload bytes on_packet reads: all of them for records checked whole, else a few.
  static size_t payload_need(const PacketRef& packet);
  // The payload bytes to hand on_packet: the scanner's, or the rider's when it wants more.
  size_t need(const PacketRef& packet) const;
  // One packet; `payload` holds its first payload_need(packet) bytes, or is null when they are
  // more than a pass holds at once (the packet is counted and reported, not checked).
  void on_packet(const PacketRef& packet, const uint8_t* payload);
  // After the last packet: `step` is how the walk ended and `last` the packet it stopped at (for
  // a cancelled scan, the packet it was cancelled before). Fills recovery, variant and problems.
  void finish(PacketWalker::Step step, const PacketRef& last, bool cancelled);
  // The candidates (bit c: variant_candidate(c)) that the fewest packets so far misfit.
  uint32_t leading_candidates() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  ScanRider* rider_;
};

// A pass that rides along the scan on the same bytes (the check's actor references, doctor.h), so
// that the file is read once for both. It sees every packet after the scanner.
class ScanRider {
 public:
  virtual ~ScanRider() = default;
  // Payload bytes it wants of `packet`: 0, or at most what a pass holds at once (5 + need within
  // SequentialReader's largest view), so that the scanner's own bytes never go missing for it.
  virtual size_t payload_need(const PacketRef& packet) const = 0;
  // `payload` holds at least its payload_need(packet) bytes, or is null (a packet too large to
  // hold: the scanner got none either).
  virtual void on_packet(const PacketRef& packet, const uint8_t* payload, const LogScanner& scanner) = 0;
};

// scan_log fed by its caller (FormatInspector::scan_feed): the header is read from `source` (a
// few bytes), the packets come pushed. finish() hands a complete scan to `keep` and answers
// {"status": "scanned"}, or what `answer` makes of the scan (with `rider` along, which the feed
// owns); an incomplete one is dropped ({"status": "incomplete", "error": ...}), and whoever needs
// the scan pulls it as before. Null when the header is not a CARLA header.
std::unique_ptr<ByteFeed> scan_feed(ByteSource& source, std::function<void(ScanResult&&)> keep, std::unique_ptr<ScanRider> rider = nullptr,
                                    std::function<Json(const ScanResult&)> answer = nullptr);

}  // namespace logscope::carla
