// Export of one CARLA actor: one row per frame that holds its Position, streamed through the log's
// frames (one scan, then the Position and Kinematics packets only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "carla/model.h"
#include "core/export.h"

namespace logscope::carla {

// Columns: time_ns (the header's date plus the frame's elapsed time, as `info` gives start and
// end), frame, elapsed (s), x, y, z, pitch, yaw, roll as recorded, then vx, vy, vz and speed
// (their norm) from the frame's Kinematics packet, empty when the log has none for the actor.
ExportResult export_actor(ByteSource& source, uint32_t actor, const ExportRequest& request, ExportSink& sink,
                          const ProgressFn& progress = nullptr);
// The same over a log already scanned (the inspector keeps its scan): no second scan.
ExportResult export_actor(ByteSource& source, const ScanResult& scan, uint32_t actor, const ExportRequest& request, ExportSink& sink,
                          const ProgressFn& progress = nullptr);
// The columns export_actor writes after time_ns.
const std::vector<std::string>& actor_columns();

}  // namespace logscope::carla
