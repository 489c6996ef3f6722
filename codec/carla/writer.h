// Writes CARLA recorder logs (tests, the demo file, benchmarks) in any layout variant, through
// the packet table's layouts: w.write(packets::Position, {{id, location, rotation}}).
// Bytes accumulate in a buffer the caller drains with take(), so a big file streams to disk.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "carla/packets.h"

namespace logscope::carla {

class LogWriter {
 public:
  explicit LogWriter(Variant variant = Variant()) : variant_(variant) {}
  const Variant& variant() const { return variant_; }

  void header(int64_t date, const std::string& map, uint16_t version = 1);

  // A packet of records ("u16 total" + records), under the id the variant's numbering gives it.
  template <typename R>
  void write(const RecordPacket<R>& type, const std::vector<R>& records) {
    size_t at = begin_packet(id_of(type));
    PayloadWriter w(out_, variant_);
    w.u16(static_cast<uint16_t>(records.size()));
    for (const R& record : records) type.write(w, record);
    end_packet(at);
  }
  // A packet with one fixed-size payload (FrameStart, PlatformTime...).
  template <typename R>
  void write(const SinglePacket<R>& type, const R& record) {
    size_t at = begin_packet(id_of(type));
    PayloadWriter w(out_, variant_);
    type.write(w, record);
    end_packet(at);
  }

  // CARLA back-patches a frame's duration when the next frame starts; we take it up front
  // (-1 for the last frame, as CARLA leaves it).
  void frame_start(uint64_t id, double duration, double elapsed) { write(packets::FrameStart, {id, duration, elapsed}); }
  void frame_end() { write(packets::FrameEnd, {}); }
  void raw_packet(uint8_t id, const std::vector<uint8_t>& payload);

  // The id of a packet kind under the variant's numbering. A kind the numbering lacks (VehicleDoor
  // in 0.9.15) gets its id of the latest numbering that has it.
  uint8_t id_of(const PacketType& type) const;

  std::vector<uint8_t>& bytes() { return out_; }
  std::vector<uint8_t> take() { return std::exchange(out_, {}); }

 private:
  size_t begin_packet(uint8_t id);  // returns where the size goes
  void end_packet(size_t size_at);

  Variant variant_;
  std::vector<uint8_t> out_;
};

}  // namespace logscope::carla
