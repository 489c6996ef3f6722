// The bag's query table (FormatInspector::queries): decoded messages a page at a time, the
// connections, the plot queries (plot_queries.h) and the iteration benchmark's pass.
#pragma once

#include <vector>

#include "core/byte_source.h"
#include "core/json.h"
#include "core/query.h"
#include "rosbag/decode.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

// {"topic"?, "first", "count", "t0_ns"?, "t1_ns"?, "preview"?} -> {"messages": [...], "first",
// "count", "more", ...}. `default_decoder` keeps its parsed schemas from page to page; a
// "preview" gets a decoder of its own.
Json messages_query(ByteSource& source, Bag& bag, MessageDecoder& default_decoder, QueryArgs& args, const ProgressFn& progress);
// {} -> {"connections": [{"id", "topic", "type", "md5", "callerid", "latching", "offset", "message_definition"}]}.
Json connections_query(const Bag& bag);

// The table; its handlers hold `source`, `bag` and `decoder`, which must outlive it.
std::vector<QuerySpec> query_table(ByteSource& source, Bag& bag, MessageDecoder& decoder);

}  // namespace logscope::rosbag
