// The MCAP summary report (docs/report.md) and the `mcap info` text, from the opened model alone.
#pragma once

#include <string>

#include "core/report.h"
#include "mcap/model.h"

namespace logscope::mcap {

Report summary_report(const FileModel& model);
// The layout of `mcap info` (library, profile, messages, duration, start, end, compression per
// chunk type, channels with counts and rates, attachments, metadata).
std::string info_text(const FileModel& model);

}  // namespace logscope::mcap
