// The page's plot and timeline questions about a BDDF file (docs/architecture.md, "Plots and the
// timeline"): the export's columns of a series, a POD series over time through the export engine,
// and blocks per series over time from the block indexes (no data block is read).
#pragma once

#include <vector>

#include "bddf/model.h"
#include "core/byte_source.h"
#include "core/query.h"

namespace logscope::protobuf {
class Schemas;
}

namespace logscope::bddf {

// {"series": index} -> {"series", "channel", "type", "columns": [{"name", "kind", "unit"?}]} (unit:
// the series' "units" annotation). A protobuf series' columns are its messages' numeric paths
// (every message is read), named by `schemas` when they know its type; "note" says when not.
Json columns_query(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas, QueryArgs& args,
                   const ProgressFn& progress = nullptr);
// {"series": index, "fields", "t0_ns"?, "t1_ns"?, "max_points"?, "buckets"?} -> PlotSink::to_json.
Json plot_query(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas, QueryArgs& args,
                const ProgressFn& progress);
// {"t0_ns"?, "t1_ns"?, "bins"?} -> Timeline::to_json: blocks per series (resolution "block").
Json timeline_query(const FileModel& model, QueryArgs& args);

std::vector<QuerySpec> plot_query_table(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas);

}  // namespace logscope::bddf
