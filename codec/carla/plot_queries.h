// The page's plot, timeline and map questions about a CARLA log (docs/architecture.md, "Plots and
// the timeline"): an actor's export columns over time, frames over time from the frame scan, every
// actor's path in one pass (thinned to a budget) and the positions of one frame.
#pragma once

#include <vector>

#include "carla/model.h"
#include "core/byte_source.h"
#include "core/query.h"

namespace logscope::carla {

// The log's start (the header's date) and a frame's time, as `info` and `export` give them.
uint64_t log_start_ns(const ScanResult& scan);
uint64_t frame_time_ns(const ScanResult& scan, double elapsed);

// {"max_points"?} -> {"frames", "stride", "points", "actors": [{"id", "type", "blueprint",
// "role_name", "spawn_frame", "spawn_index", "destroy_frame", "destroy_index", "spawn": [x, y, z],
// "f": [frame index...], "x": [...], "y": [...]}]}: one actor life per entry (as the actors
// query), every `stride`-th frame's position kept (stride doubles until at most max_points
// points remain) and always the first and last.
Json paths_query(ByteSource& source, const ScanResult& scan, QueryArgs& args, const ProgressFn& progress);
// {"frame": index} -> {"index", "id", "elapsed", "positions": [{"id", "x", "y", "z", "yaw"}]}: one frame read.
Json positions_query(ByteSource& source, const ScanResult& scan, QueryArgs& args);

std::vector<QuerySpec> plot_query_table(ByteSource& source, const std::function<const ScanResult&(const ProgressFn&)>& scan);

}  // namespace logscope::carla
