// Streams the packets of the complete part of a scanned log (header end .. last complete frame),
// with the current frame, progress and cancel. Only wanted ids get their payload read.
#pragma once

#include <functional>

#include "carla/decode.h"
#include "carla/model.h"
#include "carla/walker.h"

namespace logscope::carla {

using PacketFilter = std::function<bool(uint8_t id)>;
using PacketVisitor = std::function<void(const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload)>;

// A FrameStart packet that holds its record (24 bytes), and that record from its payload.
inline bool is_frame_start(const PacketRef& packet) { return packet.id == kFrameStart && packet.size == 24; }
FrameStartRecord frame_start_record(const uint8_t* payload);

// Returns false when cancelled. `begin`/`end` default to the whole complete part.
bool stream_packets(ByteSource& source, const ScanResult& scan, const ProgressFn& progress, const PacketFilter& wanted,
                    const PacketVisitor& visit, uint64_t begin = 0, uint64_t end = 0);

}  // namespace logscope::carla
