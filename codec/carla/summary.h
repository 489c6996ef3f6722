// The summary of a CARLA log (summary.cpp), all from its kept forward scan: the report's common
// facts (the header's date plus the frames' elapsed time), the format's facts, the packet table,
// the variant evidence and what a recovery kept. The inspector's summary() adds the
// show_recorder_file_info facts (queries.h); the doctor's report starts from this one.
#pragma once

#include <cstdint>

#include "carla/model.h"
#include "core/report.h"

namespace logscope::carla {

Report summary_report(const ScanResult& scan, uint64_t file_size);

}  // namespace logscope::carla
