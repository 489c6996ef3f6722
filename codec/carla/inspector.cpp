// The CARLA FormatInspector: one forward scan (kept: header, frame index, statistics, variant),
// then everything else streams over the frames it needs. Here: open_inspector, the doctor's
// wiring (check, check_feed) and the map of the file; the summary is in summary.cpp, the tree in tree.cpp, the
// query table in queries.cpp.
#include "carla/inspector.h"

#include <memory>

#include "carla/doctor.h"
#include "carla/inspector_impl.h"

namespace logscope::carla {

// CARLA logs have no index: the map comes from the scan (header, then frames FrameStart..FrameEnd).
FileMap CarlaInspector::file_map(bool full_check, const ProgressFn& progress) {
  const ScanResult& s = scan(progress);
  FileMapBuilder map(source_.size());
  if (s.header_ok) map.add(0, s.header.size, "header", "log header");
  for (const FrameEntry& f : s.frames) map.add(f.offset, f.end - f.offset, "frame", "frame " + std::to_string(f.id));
  map.structures_end(s.data_end);
  if (s.recovery.damaged && s.recovery.reason != "cancelled") {
    uint64_t from = s.recovery.incomplete_offset ? s.recovery.incomplete_offset : s.recovery.ends_at;
    map.damaged_from(from, "not readable: " + s.recovery.message);
    map.missing(0, "the log ends inside a frame: the rest was never written or was cut off");
  }
  if (full_check) return map.finish_checked(check(progress));
  return map.finish("scan", s.problems);
}

Report CarlaInspector::check(const ProgressFn& progress) {
  const ScanResult& s = scan(progress);
  Report report = base_report(s);
  if (s.cancelled) {
    report.details["cancelled"] = true;
    return report;
  }
  bool cancelled = false;
  std::vector<Problem> problems = check_actor_references(source_, s, progress, &cancelled);
  return finish_check(std::move(report), std::move(problems), cancelled);
}

Report CarlaInspector::finish_check(Report report, std::vector<Problem> problems, bool cancelled) {
  for (Problem& p : problems) report.problems.push_back(std::move(p));
  if (cancelled) report.details["cancelled"] = true;
  report.details["checksum"] = checksum(nullptr);
  return report;
}

// The check's second pass pushed in; only once the scan is kept (the page streams the summary's
// scan first), since check() needs it before that pass.
std::unique_ptr<ByteFeed> CarlaInspector::check_feed() {
  if (!scan_ || scan_->cancelled) return nullptr;
  return actor_reference_feed(*scan_, [this](std::vector<Problem>&& problems) {
    return finish_check(base_report(*scan_), std::move(problems), false).to_json();
  });
}

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source) { return std::make_unique<CarlaInspector>(source); }

}  // namespace logscope::carla
