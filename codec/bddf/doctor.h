// The doctor of a BDDF file (doctor.cpp): from the opened model to the check's report, the summary
// with every finding and its byte offset. One sequential pass walks every block, checks framing
// and descriptors, holds the index against what is really in the file and hashes the bytes for
// the SHA1 (checksum.h) on the way.
#pragma once

#include <memory>

#include "bddf/model.h"
#include "core/byte_source.h"
#include "core/inspector.h"
#include "core/report.h"

namespace logscope::bddf {

// The whole-file check. Cancelled: the summary with bddf.check.cancelled.
Report run_doctor(ByteSource& source, const FileModel& model, const ProgressFn& progress);

// The same check with the file's bytes pushed in (FormatInspector::check_feed); null when the
// check reads nothing (no index to hold against the blocks, no checksum).
std::unique_ptr<ByteFeed> doctor_feed(const FileModel& model);

}  // namespace logscope::bddf
