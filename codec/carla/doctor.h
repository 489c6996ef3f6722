// The doctor of a CARLA log (doctor.cpp): from the log's forward scan (the framing findings, kept
// in the scan's problems) to the check's report, the summary with every finding and its byte
// offset. Its second pass reads the packets again for references between actors (destroy, parent,
// position, collision) that point at actors the log never created.
#pragma once

#include <memory>

#include "carla/model.h"
#include "core/byte_source.h"
#include "core/inspector.h"
#include "core/json.h"
#include "core/report.h"

namespace logscope::carla {

// The whole-file check. A cancelled scan, or a cancelled second pass, is marked "cancelled" in
// the details.
Report run_doctor(ByteSource& source, const ScanResult& scan, const ProgressFn& progress);

// The second pass with the log's complete part pushed in (FormatInspector::check_feed): finish()
// answers run_doctor's report, or {"status": "incomplete"} after an early end. `scan` must outlive
// the feed. Null when the scan found no header.
std::unique_ptr<ByteFeed> doctor_feed(ByteSource& source, const ScanResult& scan);

// CARLA logs carry no checksum: {"status": "not_applicable", ...}, what checksum() answers.
Json checksum_json();

}  // namespace logscope::carla
