// The ULog doctor: the whole-file check as a function of the file. ULog has no index, so the
// summary's pass already frames and checks every message (reader.h); the check runs that pass
// with progress and reports every finding with its byte offset: a cut, messages that do not fit
// their format, data before its subscription, timestamps going back within a topic, dropouts,
// unknown message types, appended data past its offsets.
#pragma once

#include "core/byte_source.h"
#include "core/report.h"

namespace logscope::ulog {

Report run_doctor(ByteSource& source, const ProgressFn& progress);

}  // namespace logscope::ulog
