// The page's plots and timelines, from the codec. A plot is a numeric view of an export: the
// format's export function (rosbag::export_topic, bddf::export_series, carla::export_actor) writes
// its rows as CSV into a PlotSink, which keeps the times and the chosen columns' values. So a
// plot's points are the export's rows (same count, same range rules) and its values read back from
// the export's own text. The answer stays bounded for any file: every point up to `max_points`,
// beyond that the first, last, min and max value per time bucket (one bucket per pixel column),
// with the exact row count either way. A timeline counts a file's messages per row and time bin
// from its index. See docs/architecture.md ("Plots and the timeline").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/export.h"
#include "core/json.h"
#include "core/query.h"

namespace logscope {

struct PlotOptions {
  uint64_t t0_ns = 0;           // the range asked for, inclusive; the times are relative to t0_ns
  uint64_t t1_ns = UINT64_MAX;
  size_t max_points = 20000;    // every point up to this many rows, else buckets
  size_t buckets = 1000;        // over [t0_ns, t1_ns]
};

// The arguments every format's "plot" query takes after its source (topic, series, actor).
std::vector<ArgSpec> plot_arg_specs();
// The units of a "plot" answer (PlotSink::to_json).
ResultUnits plot_units();
// Reads fields, t0_ns, t1_ns, max_points and buckets; the range defaults to [from, to] (the
// source's own span). False with an error in `args` when they make no sense.
bool read_plot_args(QueryArgs& args, uint64_t from, uint64_t to, ExportRequest* request, PlotOptions* options);

// A "plot" answer (PlotSink::to_json): the arguments read as read_plot_args does, then the rows
// `export_for` writes for that request, kept by a PlotSink. {"error"} for bad arguments or an
// export that could not start.
using ExportFor = std::function<ExportResult(const ExportRequest& request, ExportSink& sink)>;
Json plot_of_export(QueryArgs& args, uint64_t from, uint64_t to, const ExportFor& export_for);

// One cell of an export's CSV line: quoted cells are text or JSON, never numbers.
struct PlotCell {
  std::string_view raw;
  bool quoted = false;
};

// Receives the CSV text of an export (one call per line, as TableWriter writes) and keeps, for the
// columns after the first (time_ns), numbers as doubles: integers, floats, true/false as 1/0;
// empty cells, text, JSON cells and non-finite numbers as gaps (null).
class PlotSink : public ExportSink {
 public:
  static constexpr size_t kMaxColumns = 16;
  // Numbers kept (times and values of the points, or the buckets' numbers): the answer stays a few MB.
  static constexpr size_t kMaxValues = 400000;

  explicit PlotSink(const PlotOptions& options);
  bool write(std::string_view line) override;

  uint64_t rows() const { return rows_; }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::string& error() const { return error_; }
  // {"t0_ns", "t1_ns" (exact strings), "columns", "count", "mode": "points" | "buckets", ...}
  Json to_json(const ExportResult& result) const;

 private:
  void add(double t, const double* values);
  void to_buckets();
  void add_to_bucket(double t, const double* values);

  PlotOptions options_;
  std::vector<std::string> columns_;
  bool header_seen_ = false;
  std::string error_;
  uint64_t rows_ = 0;
  bool bucketed_ = false;
  size_t cap_ = 0;  // points kept before switching to buckets
  std::vector<double> times_;                 // ns after t0_ns
  std::vector<std::vector<double>> values_;   // per column
  // Buckets: per bucket its row count and the times of its first and last row; per bucket and
  // column (at bucket * columns + column) the first, last, min and max finite value (NaN: none).
  std::vector<uint64_t> bucket_count_;
  std::vector<double> bucket_t_first_, bucket_t_last_;
  std::vector<double> first_, last_, min_, max_;
  std::vector<double> row_;                   // scratch
  std::vector<PlotCell> cells_row_;           // scratch
};

// Message counts per row (topic, series, frames) and time bin over [t0_ns, t1_ns], from an index.
class Timeline {
 public:
  // `rows`: how many rows will be added; the bins are fewer when rows x bins would pass kMaxCells.
  Timeline(uint64_t t0_ns, uint64_t t1_ns, size_t bins, size_t rows);
  static constexpr size_t kMaxCells = 200000;
  // A new row; its index for add().
  size_t row(std::string name, std::string detail = "");
  // One message (or `count` of them) at a known time.
  void add(size_t row, uint64_t t_ns, uint64_t count = 1);
  // A row's `total` messages in time order, given as how many come before a time (ordered, so by
  // binary search): the same counts as add() of each, in a few calls per bin, not one per message
  // (16.5 million block entries at 100 GB). Messages with no time (UINT64_MAX) count as add() counts
  // them: in total, and in range only when t1 is UINT64_MAX; count_before never counts them.
  void add_ordered(size_t row, uint64_t total, const std::function<uint64_t(uint64_t t_ns)>& count_before);
  // `count` messages somewhere in [start_ns, end_ns] (a bag chunk): spread evenly over that span.
  void spread(size_t row, uint64_t start_ns, uint64_t end_ns, uint64_t count);
  // {"t0_ns", "t1_ns" (exact strings), "bins", "bin_ns", "resolution", "rows": [{"name", "detail",
  // "total", "in_range", "counts"}]}. `total` counts every message of the row, `in_range` those
  // inside [t0_ns, t1_ns] (for spread counts: their share of the span that lies inside).
  Json to_json(const std::string& resolution) const;

 private:
  struct Row {
    std::string name, detail;
    uint64_t total = 0;
    double in_range = 0;
    std::vector<double> counts;
  };
  double position(uint64_t t_ns) const;  // in bins from t0_ns
  size_t bin_of(uint64_t t_ns) const;    // the bin add() puts a time in [t0_ns, t1_ns] into
  uint64_t t0_, t1_;
  size_t bins_;
  std::vector<Row> rows_;
};

// The arguments of every format's "timeline" query: t0_ns, t1_ns, bins.
std::vector<ArgSpec> timeline_arg_specs();
// The units of a "timeline" answer (Timeline::to_json).
ResultUnits timeline_units();
// The range defaults to [from, to]; bins to 400 (at most 4000).
bool read_timeline_args(QueryArgs& args, uint64_t from, uint64_t to, uint64_t* t0, uint64_t* t1, size_t* bins);

}  // namespace logscope
