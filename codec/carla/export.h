// Export of one CARLA actor: one row per frame that holds its Position, streamed through the log's
// frames (one scan, then the Position and Kinematics packets only).
#pragma once

#include <cstdint>

#include "core/byte_source.h"
#include "core/export.h"

namespace logscope::carla {

// Columns: time_ns (the header's date plus the frame's elapsed time, as `info` gives start and
// end), frame, elapsed (s), x, y, z, pitch, yaw, roll as recorded, then vx, vy, vz and speed
// (their norm) from the frame's Kinematics packet, empty when the log has none for the actor.
ExportResult export_actor(ByteSource& source, uint32_t actor, const ExportRequest& request, ExportSink& sink,
                          const ProgressFn& progress = nullptr);

}  // namespace logscope::carla
