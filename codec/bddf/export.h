// Export of one POD series of a BDDF file: one row per sample, read block by block through the
// series' index, only the blocks in the time range.
#pragma once

#include <string>
#include <vector>

#include "bddf/model.h"
#include "core/byte_source.h"
#include "core/export.h"

namespace logscope::protobuf {
class Schemas;
}

namespace logscope::bddf {

// `series` is a channel name (spec "bosdyn:channel") or the series' position in the file index.
// Columns: `time_ns` (the block's time: BDDF stores only the time of a block's first sample),
// `sample` (the sample's place in its block), then `value`, or `value[i]`, `value[i][j]`... for
// series with dimensions (one JSON cell `value` beyond kExportArrayColumns elements).
ExportResult export_series(ByteSource& source, const FileModel& model, const std::string& series, const ExportRequest& request,
                           ExportSink& sink, const ProgressFn& progress = nullptr);
// A protobuf series (message_export.h) is one row per message and a column per numeric field
// path: named by `schemas` when they know the series' type, by field numbers otherwise.
ExportResult export_series(ByteSource& source, const FileModel& model, const std::string& series, const ExportRequest& request,
                           ExportSink& sink, const ProgressFn& progress, const protobuf::Schemas* schemas);
// The same for a series of `model` picked by the caller (the page's plots pick it by position).
ExportResult export_series(ByteSource& source, const FileModel& model, const Series& series, const ExportRequest& request,
                           ExportSink& sink, const ProgressFn& progress = nullptr, const protobuf::Schemas* schemas = nullptr);
// The columns export_series writes after time_ns for a POD series, or none with `error` for a
// series it refuses (message_columns gives a protobuf series' columns).
std::vector<std::string> series_columns(const Series& series, std::string* error);

}  // namespace logscope::bddf
