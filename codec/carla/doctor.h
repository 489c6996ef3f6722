// The doctor of a CARLA log (doctor.cpp): from the log's forward scan (the framing findings, kept
// in the scan's problems) to the check's report, the summary with every finding and its byte
// offset. Its second pass reads the packets again for references between actors (destroy, parent,
// position, collision) that point at actors the log never created.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "carla/model.h"
#include "core/byte_source.h"
#include "core/inspector.h"
#include "core/json.h"
#include "core/report.h"

namespace logscope::carla {

// The whole-file check. A cancelled scan, or a cancelled second pass, is marked "cancelled" in
// the details.
Report run_doctor(ByteSource& source, const ScanResult& scan, const ProgressFn& progress);

// The check from `kept` (the inspector's scan). With none kept yet, the scan runs with the second
// pass riding along, and is kept: one read of the file for the whole check, unless the variant the
// scan decides at its end was not one that led throughout, or the file ends in an incomplete frame
// (the second pass then reads the log again, as run_doctor does).
Report run_check(ByteSource& source, std::optional<ScanResult>& kept, const ProgressFn& progress);

// The second pass with the log's complete part pushed in (FormatInspector::check_feed): finish()
// answers run_doctor's report, or {"status": "incomplete"} after an early end. `scan` must outlive
// the feed. Null when the scan found no header.
std::unique_ptr<ByteFeed> doctor_feed(ByteSource& source, const ScanResult& scan);

// run_check's single read pushed in, for an inspector with no scan kept: the scan goes to `keep`,
// and finish() answers the check's report, or {"status": "incomplete"} when the second pass must
// read the log again (then call check(), which reads only that pass). Null without a CARLA header.
std::unique_ptr<ByteFeed> scan_and_check_feed(ByteSource& source, std::function<void(ScanResult&&)> keep);

// CARLA logs carry no checksum: {"status": "not_applicable", ...}, what checksum() answers.
Json checksum_json();

}  // namespace logscope::carla
