// The CARLA summary (summary.h): the report's common facts (the header's date plus the frames'
// elapsed time), the format's facts, the packet table, the variant evidence and what a recovery
// kept. All of it comes from the kept scan; the doctor (doctor.h) starts from the same report.
#include "carla/summary.h"

#include <cmath>

#include "carla/inspector_impl.h"
#include "core/printf_text.h"
#include "core/time_findings.h"
#include "core/time_math.h"

namespace logscope::carla {

// The summary lists the first kSummaryEventFrames frames with events (the `file_info` query up to
// 100,000): a 100 GB log has about 180,000, and their JSON took some 150 MB in the summary, the
// page's view worker and `info --json` alike.
constexpr size_t kSummaryEventFrames = 1000;

Report CarlaInspector::summary() {
  const ScanResult& s = scan(nullptr);
  Report report = summary_report(s, source_.size());
  report.details["file_info"] = file_info_json(source_, s, kSummaryEventFrames);
  return report;
}

Report summary_report(const ScanResult& s, uint64_t file_size) {
  Report report;
  report.format = "carla";
  report.format_label = "CARLA recorder log";
  report.problems = s.problems;
  // The recording starts at the header's date (whole seconds); frames give the elapsed time.
  report.file.size_bytes = file_size;
  double elapsed = s.frames.empty() ? 0.0 : s.frames.back().elapsed;
  // A date or an elapsed time beyond time_math's range (NaN, infinite, negative, past 2116) is a
  // finding, and the file then has no span.
  if (s.header_ok && !s.frames.empty()) {
    std::optional<int64_t> start = time_math::from_sec_nsec(s.header.date, 0);
    std::optional<int64_t> length = elapsed >= 0 ? time_math::from_seconds(elapsed) : std::nullopt;
    std::optional<int64_t> end = start && length ? time_math::add(*start, *length) : std::nullopt;
    if (!start || !time_math::in_range(*start))
      report_out_of_range_time(report, 0, "the header's date", std::to_string(s.header.date) + " s");
    else if (!length || !end || !time_math::in_range(*end))
      report_out_of_range_time(report, s.frames.back().offset, "the last frame's elapsed time", printf_string("%g s", elapsed));
    else if (s.header.date >= 0)  // a date before 1970 gives no times: the queries count from 0 then (log_start_ns)
      report.file.start_ns = *start, report.file.end_ns = *end;
  }
  report.file.counts = {{"frames", s.frames.size()}};
  Facts& f = report.facts;
  if (s.header_ok) {
    f.set("version", s.header.version, Unit::Id);
    f.set("map", s.header.map, Unit::Text);
    f.set("date", format_date(s.header.date), Unit::Text);
    f.set("date_unix", s.header.date, Unit::UnixSeconds);
  }
  f.set("variant", variant_label(s.variant.variant), Unit::Text);
  if (const Json* hint = s.variant.json.find("carla_version_hint")) f.set("carla_version", *hint, Unit::Text);
  if (s.recovery.damaged) {
    logscope::Recovery& r = report.recovery;
    r.performed = true;
    r.reason = s.recovery.reason;
    r.message = s.recovery.message;
    r.ends_at = s.recovery.ends_at;
    r.recovered = {{"frames", s.frames.size()}};
  }
  Table packets{"packets", {"id", "packet", "count", "bytes"}, {}, {Unit::Id, Unit::Text, Unit::Count, Unit::Bytes}};
  for (int id = 0; id < 256; ++id)
    if (s.packet_counts[id])
      packets.rows.push_back({Json(id), Json(packet_name(static_cast<uint8_t>(id), s.variant.variant)), Json(s.packet_counts[id]),
                              Json(s.packet_bytes[id])});
  report.tables.push_back(std::move(packets));
  report.details["variant"] = s.variant.to_json();
  Json header = Json::object();
  header["version"] = s.header.version;
  header["magic"] = s.header.magic;
  header["date"] = s.header.date;
  header["map"] = s.header.map;
  header["size"] = s.header.size;
  report.details["header"] = std::move(header);
  if (s.recovery.damaged) {
    Json recovery = Json::object();
    recovery["message"] = s.recovery.message;
    recovery["complete_frames"] = s.frames.size();
    recovery["ends_at"] = s.recovery.ends_at;
    recovery["reason"] = s.recovery.reason;
    recovery["recovered_until"] = s.data_end;
    if (s.recovery.incomplete_frame_id) recovery["incomplete_frame"] = s.recovery.incomplete_frame_id;
    report.details["recovery"] = std::move(recovery);
  }
  return report;
}

}  // namespace logscope::carla
