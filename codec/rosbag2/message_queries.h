// The queries the page's Data tab, plot and export columns ask of a bag, one shape whatever its
// storage: SQLite databases (decoded.cpp) or MCAP files (mcap_folder_data.cpp). MCAP's shape, so
// the page's message list reads both.
#pragma once

#include <functional>
#include <vector>

#include "core/query.h"

namespace logscope::rosbag2 {

using QueryRun = std::function<Json(QueryArgs& args, const ProgressFn& progress)>;

// Adds `decoded` ({"topic"? | "channel"? (the topic's row in the topics table), "first", "count",
// "t0_ns"?, "t1_ns"?}), `columns` ({"topic"}) and `plot` ({"topic", "fields", range, points}).
void add_message_queries(std::vector<QuerySpec>& list, QueryRun decoded, QueryRun columns, QueryRun plot);

}  // namespace logscope::rosbag2
