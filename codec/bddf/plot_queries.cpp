#include "bddf/plot_queries.h"

#include <algorithm>

#include "bddf/export.h"
#include "bddf/message_export.h"
#include "core/plot.h"

namespace logscope::bddf {

namespace {

const Series* series_arg(const FileModel& model, QueryArgs& args, const char* query, std::string* error) {
  if (!args.has("series")) {
    *error = std::string(query) + " needs {\"series\": index}";
    return nullptr;
  }
  uint64_t index = args.u64("series", 0);
  if (!args.ok()) return *error = args.error(), nullptr;
  if (index >= model.series.size()) {
    *error = "argument \"series\" must be an index in [0, " + std::to_string(model.series.size()) + ")";
    return nullptr;
  }
  return &model.series[index];
}

// A series' block times, never negative (as the export keeps them). {0, 0} when it has none.
std::pair<uint64_t, uint64_t> span(const Series& series) {
  const BlockEntries& entries = series.entries;
  if (entries.empty()) return {0, 0};
  if (entries.times_ascending() && entries.front().timestamp_ns >= 0)
    return {static_cast<uint64_t>(entries.front().timestamp_ns), static_cast<uint64_t>(entries.back().timestamp_ns)};
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const BlockEntry& e : entries)
    if (e.timestamp_ns >= 0) lo = std::min(lo, e.timestamp_ns), hi = std::max(hi, e.timestamp_ns);
  if (lo > hi) return {0, 0};
  return {static_cast<uint64_t>(lo), static_cast<uint64_t>(hi)};
}

}  // namespace

Json columns_query(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas, QueryArgs& args,
                   const ProgressFn& progress) {
  std::string error;
  const Series* series = series_arg(model, args, "columns", &error);
  if (!series) return QueryArgs::error_json(error);
  std::vector<std::string> names;
  std::string note;
  if (is_protobuf_series(*series)) {
    ExportResult scan;
    names = message_columns(source, model, *series, schemas, ExportRequest(), &scan, progress);
    if (scan.cancelled) return QueryArgs::error_json("cancelled");
    note = message_reading(*series, schemas).note;
    if (names.empty()) error = "series \"" + series->channel() + "\" has no numeric field in its messages" + (note.empty() ? "" : " (" + note + ")");
  } else {
    names = series_columns(*series, &error);
  }
  if (names.empty()) return QueryArgs::error_json(error);
  Json columns = Json::array();
  for (const std::string& name : names) {
    Json column = Json::object();
    column["name"] = name;
    // One JSON cell "value" holds a sample of more than kExportArrayColumns elements.
    column["kind"] = name == "value" && series->dimension.size() > 0 ? "json" : "number";
    // The series' own "units" annotation, when it has one (writers set e.g. {"units": "V"}).
    for (const char* key : {"units", "unit"}) {
      auto it = series->annotations.find(key);
      if (name != "sample" && it != series->annotations.end()) {
        column["unit"] = it->second;
        break;
      }
    }
    columns.push_back(std::move(column));
  }
  Json j = Json::object();
  j["series"] = series->index;
  j["channel"] = series->channel();
  j["type"] = series->type_label();
  j["columns"] = std::move(columns);
  if (!note.empty()) j["note"] = note;
  return j;
}

Json plot_query(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas, QueryArgs& args,
                const ProgressFn& progress) {
  std::string error;
  const Series* series = series_arg(model, args, "plot", &error);
  if (!series) return QueryArgs::error_json(error);
  auto [from, to] = span(*series);
  return plot_of_export(args, from, to, [&](const ExportRequest& request, ExportSink& sink) {
    return export_series(source, model, *series, request, sink, progress, schemas);
  });
}

Json timeline_query(const FileModel& model, QueryArgs& args) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Series& s : model.series) {
    if (s.entries.empty()) continue;
    auto [a, b] = span(s);
    lo = std::min(lo, a), hi = std::max(hi, b);
  }
  if (lo > hi) lo = hi = 0;
  uint64_t t0 = 0, t1 = 0;
  size_t bins = 0;
  if (!read_timeline_args(args, lo, hi, &t0, &t1, &bins)) return QueryArgs::error_json(args.error());
  Timeline timeline(t0, t1, bins, model.series.size());
  for (const Series& s : model.series) {
    size_t row = timeline.row(s.channel(), s.type_label());
    const BlockEntries& entries = s.entries;
    if (!entries.times_ascending()) {
      for (const BlockEntry& e : entries) timeline.add(row, e.timestamp_ns < 0 ? UINT64_MAX : static_cast<uint64_t>(e.timestamp_ns));
      continue;
    }
    // In time order: counted by binary search (a time before 1970 has no place: UINT64_MAX, as above).
    uint64_t untimed = entries.lower_bound_time(0);
    timeline.add_ordered(row, entries.size(), [&](uint64_t t) -> uint64_t {
      uint64_t before = t > static_cast<uint64_t>(INT64_MAX) ? entries.size() : entries.lower_bound_time(static_cast<int64_t>(t));
      return before - untimed;
    });
  }
  return timeline.to_json("block");
}

std::vector<QuerySpec> plot_query_table(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas) {
  std::vector<ArgSpec> plot_args{{"series", ArgType::U64, "series index"}};
  for (ArgSpec& spec : plot_arg_specs()) plot_args.push_back(std::move(spec));
  return {
      {"columns", "the columns of `logscope export --series` after time_ns and what each holds (number, json)",
       {{"series", ArgType::U64, "series index"}},
       {{"series", Unit::Id}, {"channel", Unit::Text}, {"type", Unit::Text}, {"columns.name", Unit::Text}, {"columns.kind", Unit::Text},
        {"columns.unit", Unit::Text}, {"note", Unit::Text}},
       [&source, &model, schemas](QueryArgs& args, const ProgressFn& progress) { return columns_query(source, model, schemas, args, progress); }},
      {"plot", "a POD or protobuf series' columns over time, as `logscope export` writes them: every point, or per-bucket first/last/min/max beyond max_points, and the exact count",
       plot_args, plot_units(),
       [&source, &model, schemas](QueryArgs& args, const ProgressFn& progress) { return plot_query(source, model, schemas, args, progress); }},
      {"timeline", "blocks per series and time bin, from the block indexes", timeline_arg_specs(), timeline_units(),
       [&model](QueryArgs& args, const ProgressFn&) { return timeline_query(model, args); }},
  };
}

}  // namespace logscope::bddf
