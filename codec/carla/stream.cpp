#include "carla/stream.h"

#include "core/cursor.h"

namespace logscope::carla {

FrameStartRecord frame_start_record(const uint8_t* payload) {
  FrameStartRecord frame;
  Cursor c(payload, 24);
  frame.id = c.u64();
  frame.duration = c.f64();
  frame.elapsed = c.f64();
  return frame;
}

bool stream_packets(ByteSource& source, const ScanResult& scan, const ProgressFn& progress, const PacketFilter& wanted,
                    const PacketVisitor& visit, uint64_t begin, uint64_t end) {
  if (!scan.header_ok) return true;
  if (!begin) begin = scan.header.size;
  if (!end) end = scan.data_end;
  PacketStream walker(source, begin, end);
  ProgressTicker ticker(progress, end);
  FrameStartRecord frame;
  PacketRef packet;
  while (walker.next(&packet) == PacketWalker::Step::Packet) {
    if (!ticker.update(packet.offset)) return false;
    if (is_frame_start(packet)) {
      const uint8_t* payload = walker.payload(packet, 24);
      if (!payload) continue;
      frame = frame_start_record(payload);
    }
    if (!wanted(packet.id)) continue;
    const uint8_t* payload = walker.payload(packet, packet.size);
    if (payload) visit(frame, packet, payload);
  }
  return true;
}

}  // namespace logscope::carla
