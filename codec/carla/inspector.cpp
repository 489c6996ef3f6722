// The CARLA FormatInspector: one forward scan (kept: header, frame index, statistics, variant),
// then everything else streams over the frames it needs. Here: open_inspector, the doctor's
// wiring (check, check_feed: doctor.h) and the map of the file; the summary is in summary.cpp, the
// tree in tree.cpp, the query table in queries.cpp.
#include "carla/inspector.h"

#include <memory>

#include "carla/doctor.h"
#include "carla/inspector_impl.h"

namespace logscope::carla {

// CARLA logs have no index: the map comes from the scan (header, then frames FrameStart..FrameEnd).
// Its frames join runs as they are added; so a full check's damage is marked first.
FileMap CarlaInspector::file_map(bool full_check, const ProgressFn& progress) {
  const ScanResult& s = scan(progress);
  FileMapBuilder map(source_.size());
  Report checked;
  if (full_check) {
    checked = check(progress);
    map.refine_with_check(checked);
  }
  map.join_runs_as_added();
  if (s.header_ok) map.add(0, s.header.size, "header", "log header");
  for (const FrameEntry& f : s.frames) map.add(f.offset, f.end - f.offset, "frame", "frame " + std::to_string(f.id));
  map.structures_end(s.data_end);
  if (s.recovery.damaged && s.recovery.reason != "cancelled") {
    uint64_t from = s.recovery.incomplete_offset ? s.recovery.incomplete_offset : s.recovery.ends_at;
    map.damaged_from(from, "not readable: " + s.recovery.message);
    map.missing(0, "the log ends inside a frame: the rest was never written or was cut off");
  }
  if (full_check) return map.finish("check", std::move(checked.problems));
  return map.finish("scan", s.problems);
}

Report CarlaInspector::check(const ProgressFn& progress) { return run_check(source_, scan_, progress); }

// The check pushed in: its second pass once a scan is kept, else the scan with that pass riding
// along (one read), the scan kept.
std::unique_ptr<ByteFeed> CarlaInspector::check_feed() {
  if (scan_ && !scan_->cancelled) return doctor_feed(source_, *scan_);
  return scan_and_check_feed(source_, [this](ScanResult&& scanned) { scan_ = std::move(scanned); });
}

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source) { return std::make_unique<CarlaInspector>(source); }

}  // namespace logscope::carla
