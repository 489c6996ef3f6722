// The page's plot and timeline questions about a bag (docs/architecture.md, "Plots and the
// timeline"): the export's columns of a topic, a topic's numeric columns over time through the
// export engine, and message counts per topic over time from the index (no message is read).
#pragma once

#include "core/byte_source.h"
#include "core/json.h"
#include "core/query.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

// {"topic"} -> {"topic", "type", "columns": [{"name", "kind"}]}: the columns of `logscope export
// --topic` after time_ns, kind number | bool | text | json (what a plot may draw: number, bool).
Json columns_query(const Bag& bag, QueryArgs& args);
// {"topic", "fields", "t0_ns"?, "t1_ns"?, "max_points"?, "buckets"?} -> PlotSink::to_json.
Json plot_query(ByteSource& source, Bag& bag, QueryArgs& args, const ProgressFn& progress);
// {"t0_ns"?, "t1_ns"?, "bins"?} -> Timeline::to_json: per topic, from the chunk index (V2.0:
// each chunk's count spread over its time span, resolution "chunk") or the message index (V1.x).
Json timeline_query(const Bag& bag, QueryArgs& args);

}  // namespace logscope::rosbag
