// The ULog summary report (docs/report.md) and the `info` text in ulog_info's layout (pyulog),
// from the model of the one streamed pass.
#pragma once

#include <optional>
#include <string>

#include "core/report.h"
#include "ulog/model.h"

namespace logscope::ulog {

Report summary_report(const FileModel& model);
// ulog_info's text: start and duration, dropouts, the software version, the info keys (perf_
// counters with `all`), multi-info counts, then every subscription with its message size, count
// and bytes, sorted by name and multi_id as ulog_info sorts them.
std::string info_text(const FileModel& model, bool all);
// "v1.13.0 dev" from ver_sw_release (0xMMmmppTT), as pyulog names it; nothing without the key.
std::optional<std::string> version_text(const FileModel& model);
// ERROR and WARNING among the logged strings: levels '0' to '3' and '4'.
bool is_error_level(uint8_t level);
const char* level_name(uint8_t level);

}  // namespace logscope::ulog
