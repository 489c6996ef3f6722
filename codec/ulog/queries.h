// ULog's query table (core/query.h): params (ulog_params, defaults marked), messages (the logged
// strings, ulog_messages), info_multiple, decoded (a page of a topic's messages), gps_track (the
// page's map), timeline, columns and plot (plot_queries.cpp). Handlers are UlogInspector members.
#pragma once

#include <string>

#include "core/query.h"

namespace logscope::ulog {
// Topics are named "topic" or "topic:multi_id"; a query's "multi_id" argument overrides the suffix.
constexpr unsigned kMaxPage = 10000;
// The source a query's arguments name: "topic" with "multi_id" (when given) as its ":N".
std::string topic_source(QueryArgs& args);
}  // namespace logscope::ulog
