// The query table of a BDDF file (FormatInspector::queries; queries.cpp): a series' block list
// and extraction by series and time span, both from the in-memory index, one block decoded, then
// the plot queries (plot_queries.h).
#pragma once

#include <vector>

#include "bddf/model.h"
#include "core/byte_source.h"
#include "core/json.h"
#include "core/query.h"

namespace logscope::protobuf {
class Schemas;
}

namespace logscope::bddf {

// {"series", "first"?, "count"?} -> a page of the series' block index entries.
Json query_blocks(const FileModel& model, QueryArgs& args);
// {"series"?, "t0_ns"?, "t1_ns"?, "max"?} -> the blocks of those series in the span, merged by time.
Json query_extract(const FileModel& model, QueryArgs& args);

// The table; its handlers hold `source` and `model`, which must outlive it.
// `schemas`: names for protobuf payloads (block decode, columns, plots); null: field numbers.
std::vector<QuerySpec> query_table(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas = nullptr);

}  // namespace logscope::bddf
