// The index-first summary of a BDDF file (summary.cpp): the report with its file facts, series
// facts (key names as the SDK reader's) and tables, the JSON of its parts, and the `logscope info`
// text (text.cpp). Everything comes from the opened model; nothing is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bddf/model.h"
#include "core/inspector.h"
#include "core/json.h"
#include "core/report.h"

namespace logscope::bddf {

Report summary_report(const FileModel& model);

Json series_json(const Series& series);
Json block_entry_json(const BlockEntries::iterator& entry);
Json recovery_json(const Recovery& recovery);
double series_rate_hz(const Series& series);   // blocks (messages) or samples per second; 0 if unknown
uint64_t pod_sample_count(const Series& series);

// `logscope info`: a header of file facts, then the series table.
std::string info_text(const FileModel& model, const InfoOptions& options);

}  // namespace logscope::bddf
