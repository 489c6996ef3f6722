// Stamps beyond time_math's range (core/time_math.h) as findings of the file: the warning
// `<format>.time.out_of_range`, and a report whose common times hold none of them. Defined in
// report.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "core/report.h"

namespace logscope {

// Keeps the common facts' start_ns/end_ns computable: when either lies beyond the range (a
// sentinel such as rosbag2's INT64_MAX for an empty bag, or a damaged stamp), both are dropped and
// the warning names the value, at `offset` (the byte that holds it, where the caller knows it).
// A start without an end (or the reverse) is dropped too.
void drop_out_of_range_times(Report& report, uint64_t offset = 0);
// The warning itself, for a stamp a format's own records hold: `what` ("the header's date") is
// `value` (with its unit: "9223372036854775807 ns", "inf s"). Said once per place and value.
void report_out_of_range_time(Report& report, uint64_t offset, const std::string& what, const std::string& value);

}  // namespace logscope
