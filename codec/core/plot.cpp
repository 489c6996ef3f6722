#include "core/plot.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace logscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr size_t kMaxProblems = 20;

// Splits one CSV line (RFC 4180, as TableWriter writes it) into cells (views into the line).
void split_csv(std::string_view line, std::vector<PlotCell>* cells) {
  cells->clear();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  size_t i = 0;
  while (true) {
    PlotCell cell;
    if (i < line.size() && line[i] == '"') {
      cell.quoted = true;
      size_t start = ++i;
      while (i < line.size()) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') i += 2;
          else break;
        } else {
          ++i;
        }
      }
      cell.raw = line.substr(start, i - start);
      if (i < line.size()) ++i;  // the closing quote
      while (i < line.size() && line[i] != ',') ++i;
    } else {
      size_t end = line.find(',', i);
      if (end == std::string_view::npos) end = line.size();
      cell.raw = line.substr(i, end - i);
      i = end;
    }
    cells->push_back(cell);
    if (i >= line.size()) break;
    ++i;  // the comma
  }
}

std::string unquote(const PlotCell& cell) {
  std::string out(cell.raw);
  if (!cell.quoted) return out;
  std::string plain;
  for (size_t i = 0; i < out.size(); ++i) {
    plain += out[i];
    if (out[i] == '"' && i + 1 < out.size() && out[i + 1] == '"') ++i;
  }
  return plain;
}

// A cell as a number: the export's number text read back (the shortest text of a float reads back
// as that float), booleans as 0/1; anything else is a gap.
double cell_value(const PlotCell& cell) {
  if (cell.quoted || cell.raw.empty()) return kNaN;
  if (cell.raw == "true") return 1;
  if (cell.raw == "false") return 0;
  char buffer[64];
  if (cell.raw.size() >= sizeof buffer) return kNaN;
  std::memcpy(buffer, cell.raw.data(), cell.raw.size());
  buffer[cell.raw.size()] = 0;
  char* end = nullptr;
  double value = std::strtod(buffer, &end);
  if (end != buffer + cell.raw.size() || !std::isfinite(value)) return kNaN;
  return value;
}

// ns after t0 as a double (exact below 2^53 ns, about 104 days), from the export's time_ns text.
bool cell_time(const PlotCell& cell, uint64_t t0, double* out) {
  const char* begin = cell.raw.data();
  const char* end = begin + cell.raw.size();
  uint64_t u = 0;
  auto [ptr, ec] = std::from_chars(begin, end, u);
  if (ec == std::errc() && ptr == end) {
    *out = u >= t0 ? static_cast<double>(u - t0) : -static_cast<double>(t0 - u);
    return true;
  }
  int64_t s = 0;
  auto [sptr, sec] = std::from_chars(begin, end, s);
  if (sec != std::errc() || sptr != end) return false;
  *out = static_cast<double>(s) - static_cast<double>(t0);  // a negative BDDF time
  return true;
}

Json number_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(); }

}  // namespace

std::vector<ArgSpec> plot_arg_specs() {
  return {{"fields", ArgType::String, "columns of `logscope export`, comma-separated (at most 16)"},
          {"t0_ns", ArgType::U64, "from, ns since the epoch (default: the first message)"},
          {"t1_ns", ArgType::U64, "to, ns since the epoch, inclusive (default: the last message)"},
          {"max_points", ArgType::U64, "every point up to this many rows (default 20000, at most 200000)"},
          {"buckets", ArgType::U64, "beyond max_points: first/last/min/max per bucket (default 1000, at most 10000)"},
          {"max_chunks", ArgType::U64, "a sample of a big range: read at most this many of the chunks that hold the source, "
                                       "spread evenly over it (default 0: every chunk; bags and MCAP)"}};
}

ResultUnits plot_units() {
  ResultUnits units = {{"t0_ns", Unit::TimeNs}, {"t1_ns", Unit::TimeNs}, {"columns", Unit::Text}, {"count", Unit::Count},
                       {"mode", Unit::Text}, {"t", Unit::Ns}, {"values", Unit::Number}, {"buckets", Unit::Count},
                       {"bucket_ns", Unit::Ns}, {"bucket", Unit::Id}, {"bucket_count", Unit::Count}, {"t_first", Unit::Ns},
                       {"t_last", Unit::Ns}, {"first", Unit::Number}, {"last", Unit::Number}, {"min", Unit::Number},
                       {"max", Unit::Number}, {"cancelled", Unit::Flag}, {"problem_count", Unit::Count},
                       {"sampled.chunks_read", Unit::Count}, {"sampled.chunks", Unit::Count},
                       {"chunks.read", Unit::Count}, {"chunks.in_range", Unit::Count}};
  return join_units(units, problem_units("problems"));
}

bool read_plot_args(QueryArgs& args, uint64_t from, uint64_t to, ExportRequest* request, PlotOptions* options) {
  std::string fields = args.str("fields");
  request->fields.clear();
  size_t start = 0;
  while (start <= fields.size()) {
    size_t comma = fields.find(',', start);
    if (comma == std::string::npos) comma = fields.size();
    std::string name = fields.substr(start, comma - start);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!name.empty()) request->fields.push_back(name);
    start = comma + 1;
  }
  if (request->fields.empty()) {
    args.fail("argument \"fields\" must name at least one column, e.g. \"pose.position.x\"");
    return false;
  }
  options->t0_ns = args.u64("t0_ns", from);
  options->t1_ns = args.u64("t1_ns", std::max(from, to));
  options->max_points = static_cast<size_t>(args.u64("max_points", 20000, 1, 200000));
  options->buckets = static_cast<size_t>(args.u64("buckets", 1000, 1, 10000));
  if (!args.ok()) return false;
  if (options->t1_ns < options->t0_ns) {
    args.fail("argument \"t1_ns\" must not be before \"t0_ns\"");
    return false;
  }
  request->format = ExportFormat::Csv;
  request->from_ns = options->t0_ns;
  request->to_ns = options->t1_ns;
  request->max_chunks = args.u64("max_chunks", 0);
  return args.ok();
}

PlotSink::PlotSink(const PlotOptions& options) : options_(options) {}

bool PlotSink::write(std::string_view line) {
  split_csv(line, &cells_row_);
  if (!header_seen_) {
    header_seen_ = true;
    for (size_t i = 1; i < cells_row_.size(); ++i) columns_.push_back(unquote(cells_row_[i]));
    if (columns_.empty()) error_ = "the fields select no column";
    if (columns_.size() > kMaxColumns)
      error_ = "the fields select " + std::to_string(columns_.size()) + " columns; a plot shows at most " + std::to_string(kMaxColumns);
    if (!error_.empty()) return false;
    cap_ = std::min(options_.max_points, kMaxValues / (columns_.size() + 1));
    // A bucket holds 3 numbers and 4 per column.
    options_.buckets = std::max<size_t>(1, std::min(options_.buckets, kMaxValues / (3 + 4 * columns_.size())));
    values_.assign(columns_.size(), {});
    row_.assign(columns_.size(), kNaN);
    return true;
  }
  double t = 0;
  if (cells_row_.empty() || !cell_time(cells_row_[0], options_.t0_ns, &t)) {
    error_ = "an export row has no time: " + std::string(line.substr(0, 40));
    return false;
  }
  for (size_t c = 0; c < columns_.size(); ++c) row_[c] = c + 1 < cells_row_.size() ? cell_value(cells_row_[c + 1]) : kNaN;
  add(t, row_.data());
  return true;
}

void PlotSink::add(double t, const double* values) {
  ++rows_;
  if (bucketed_) return add_to_bucket(t, values);
  if (times_.size() < cap_) {
    times_.push_back(t);
    for (size_t c = 0; c < columns_.size(); ++c) values_[c].push_back(values[c]);
    return;
  }
  to_buckets();
  add_to_bucket(t, values);
}

void PlotSink::to_buckets() {
  bucketed_ = true;
  size_t n = options_.buckets, columns = columns_.size();
  bucket_count_.assign(n, 0);
  bucket_t_first_.assign(n, 0);
  bucket_t_last_.assign(n, 0);
  for (auto* v : {&first_, &last_, &min_, &max_}) v->assign(n * columns, kNaN);
  std::vector<double> row(columns);
  for (size_t i = 0; i < times_.size(); ++i) {
    for (size_t c = 0; c < columns; ++c) row[c] = values_[c][i];
    add_to_bucket(times_[i], row.data());
  }
  std::vector<double>().swap(times_);
  for (auto& v : values_) std::vector<double>().swap(v);
}

void PlotSink::add_to_bucket(double t, const double* values) {
  double span = static_cast<double>(options_.t1_ns - options_.t0_ns) + 1;
  double at = std::floor(t / span * static_cast<double>(options_.buckets));
  // Clamped as a double first: a time far past the range must not be cast from beyond size_t.
  size_t b = !(at > 0) ? 0 : static_cast<size_t>(std::min(at, static_cast<double>(options_.buckets - 1)));
  if (bucket_count_[b]++ == 0) bucket_t_first_[b] = t;
  bucket_t_last_[b] = t;
  size_t columns = columns_.size();
  for (size_t c = 0; c < columns; ++c) {
    double v = values[c];
    if (std::isnan(v)) continue;
    size_t k = b * columns + c;
    if (std::isnan(first_[k])) first_[k] = min_[k] = max_[k] = v;
    last_[k] = v;
    min_[k] = std::min(min_[k], v);
    max_[k] = std::max(max_[k], v);
  }
}

Json plot_of_export(QueryArgs& args, uint64_t from, uint64_t to, const ExportFor& export_for) {
  ExportRequest request;
  PlotOptions options;
  if (!read_plot_args(args, from, to, &request, &options)) return QueryArgs::error_json(args.error());
  PlotSink sink(options);
  ExportResult result = export_for(request, sink);
  return sink.to_json(result);
}

Json PlotSink::to_json(const ExportResult& result) const {
  if (!result.error.empty()) return QueryArgs::error_json(result.error);
  if (!error_.empty()) return QueryArgs::error_json(error_);
  Json j = Json::object();
  j["t0_ns"] = std::to_string(options_.t0_ns);
  j["t1_ns"] = std::to_string(options_.t1_ns);
  Json columns = Json::array();
  for (const std::string& c : columns_) columns.push_back(c);
  j["columns"] = std::move(columns);
  j["count"] = rows_;
  j["mode"] = bucketed_ ? "buckets" : "points";
  size_t n = columns_.size();
  if (!bucketed_) {
    Json t = Json::array();
    for (double v : times_) t.push_back(v);
    j["t"] = std::move(t);
    Json values = Json::array();
    for (const auto& column : values_) {
      Json list = Json::array();
      for (double v : column) list.push_back(number_or_null(v));
      values.push_back(std::move(list));
    }
    j["values"] = std::move(values);
  } else {
    j["buckets"] = options_.buckets;
    j["bucket_ns"] = (static_cast<double>(options_.t1_ns - options_.t0_ns) + 1) / static_cast<double>(options_.buckets);
    Json index = Json::array(), count = Json::array(), t_first = Json::array(), t_last = Json::array();
    std::vector<Json> first(n, Json::array()), last(n, Json::array()), min(n, Json::array()), max(n, Json::array());
    for (size_t b = 0; b < bucket_count_.size(); ++b) {
      if (!bucket_count_[b]) continue;
      index.push_back(b);
      count.push_back(bucket_count_[b]);
      t_first.push_back(bucket_t_first_[b]);
      t_last.push_back(bucket_t_last_[b]);
      for (size_t c = 0; c < n; ++c) {
        first[c].push_back(number_or_null(first_[b * n + c]));
        last[c].push_back(number_or_null(last_[b * n + c]));
        min[c].push_back(number_or_null(min_[b * n + c]));
        max[c].push_back(number_or_null(max_[b * n + c]));
      }
    }
    j["bucket"] = std::move(index);
    j["bucket_count"] = std::move(count);
    j["t_first"] = std::move(t_first);
    j["t_last"] = std::move(t_last);
    auto lists = [](std::vector<Json>& per_column) {
      Json out = Json::array();
      for (Json& list : per_column) out.push_back(std::move(list));
      return out;
    };
    j["first"] = lists(first);
    j["last"] = lists(last);
    j["min"] = lists(min);
    j["max"] = lists(max);
  }
  if (result.cancelled) j["cancelled"] = true;
  if (result.chunks_in_range) {  // every plot of a chunked source: the page adds up its spans' (plot-card.js)
    Json chunks = Json::object();
    chunks["read"] = result.chunks_read;
    chunks["in_range"] = result.chunks_in_range;
    j["chunks"] = std::move(chunks);
  }
  if (result.chunks_read < result.chunks_in_range) {  // a sample: the count is of the rows read
    Json sampled = Json::object();
    sampled["chunks_read"] = result.chunks_read;
    sampled["chunks"] = result.chunks_in_range;
    j["sampled"] = std::move(sampled);
  }
  Json problems = Json::array();
  for (size_t i = 0; i < result.problems.size() && i < kMaxProblems; ++i) problems.push_back(problem_to_json(result.problems[i]));
  j["problems"] = std::move(problems);
  j["problem_count"] = result.problems.size();
  return j;
}

std::vector<ArgSpec> timeline_arg_specs() {
  return {{"t0_ns", ArgType::U64, "from, ns since the epoch (default: the first message)"},
          {"t1_ns", ArgType::U64, "to, ns since the epoch, inclusive (default: the last message)"},
          {"bins", ArgType::U64, "time bins (default 400, at most 4000)"}};
}

ResultUnits timeline_units() {
  return {{"t0_ns", Unit::TimeNs}, {"t1_ns", Unit::TimeNs}, {"bins", Unit::Count}, {"bin_ns", Unit::Ns},
          {"resolution", Unit::Text}, {"rows.name", Unit::Text}, {"rows.detail", Unit::Text}, {"rows.total", Unit::Count},
          {"rows.in_range", Unit::Count}, {"rows.counts", Unit::Count}};
}

bool read_timeline_args(QueryArgs& args, uint64_t from, uint64_t to, uint64_t* t0, uint64_t* t1, size_t* bins) {
  *t0 = args.u64("t0_ns", from);
  *t1 = args.u64("t1_ns", std::max(from, to));
  *bins = static_cast<size_t>(args.u64("bins", 400, 1, 4000));
  if (!args.ok()) return false;
  if (*t1 < *t0) {
    args.fail("argument \"t1_ns\" must not be before \"t0_ns\"");
    return false;
  }
  return true;
}

Timeline::Timeline(uint64_t t0_ns, uint64_t t1_ns, size_t bins, size_t rows)
    : t0_(t0_ns), t1_(std::max(t0_ns, t1_ns)), bins_(std::max<size_t>(1, std::min(bins, kMaxCells / std::max<size_t>(1, rows)))) {}

size_t Timeline::row(std::string name, std::string detail) {
  Row r;
  r.name = std::move(name);
  r.detail = std::move(detail);
  r.counts.assign(bins_, 0);
  rows_.push_back(std::move(r));
  return rows_.size() - 1;
}

double Timeline::position(uint64_t t) const {
  double offset = t >= t0_ ? static_cast<double>(t - t0_) : -static_cast<double>(t0_ - t);
  return offset / (static_cast<double>(t1_ - t0_) + 1) * static_cast<double>(bins_);
}

size_t Timeline::bin_of(uint64_t t) const {
  return static_cast<size_t>(std::min(static_cast<double>(bins_ - 1), std::max(0.0, std::floor(position(t)))));
}

void Timeline::add(size_t index, uint64_t t, uint64_t count) {
  Row& r = rows_[index];
  r.total += count;
  if (t < t0_ || t > t1_) return;
  r.counts[bin_of(t)] += static_cast<double>(count);
  r.in_range += static_cast<double>(count);
}

void Timeline::add_ordered(size_t index, uint64_t total, const std::function<uint64_t(uint64_t)>& count_before) {
  Row& r = rows_[index];
  r.total += total;
  // Up to t1 inclusive (add() counts a time of UINT64_MAX in range when t1 is UINT64_MAX too).
  uint64_t through_end = t1_ == UINT64_MAX ? total : count_before(t1_ + 1);
  uint64_t at_start = count_before(t0_), previous = at_start;
  // Each bin's first time: the least t in [t0, t1] that bin_of puts in it or a later one (bin_of
  // never decreases with t), found by halving, so that the counts are add()'s to the message.
  uint64_t first = t0_;
  for (size_t bin = 1; bin <= bins_; ++bin) {
    bool last = bin == bins_ || bin_of(t1_) < bin;  // no time in [t0, t1] reaches this bin
    if (!last) {
      uint64_t hi = t1_;
      while (first < hi) {
        uint64_t mid = first + (hi - first) / 2;
        if (bin_of(mid) >= bin) hi = mid; else first = mid + 1;
      }
    }
    uint64_t upto = last ? through_end : count_before(first);
    r.counts[bin - 1] += static_cast<double>(upto - previous);
    previous = upto;
    if (last) break;
  }
  r.in_range += static_cast<double>(previous - at_start);
}

void Timeline::spread(size_t index, uint64_t start, uint64_t end, uint64_t count) {
  if (end < start) std::swap(start, end);
  if (start == end || count == 0) return add(index, start, count);
  Row& r = rows_[index];
  r.total += count;
  double from = position(start), to = position(end);
  double density = static_cast<double>(count) / (to - from);
  double lo = std::max(0.0, from), hi = std::min(static_cast<double>(bins_), to);
  if (!(hi > lo)) return;  // the span lies outside the range
  r.in_range += density * (hi - lo);
  for (size_t bin = static_cast<size_t>(std::floor(lo)); bin < bins_ && static_cast<double>(bin) < hi; ++bin) {
    double a = std::max(lo, static_cast<double>(bin)), b = std::min(hi, static_cast<double>(bin + 1));
    if (b > a) r.counts[bin] += density * (b - a);
  }
}

Json Timeline::to_json(const std::string& resolution) const {
  Json j = Json::object();
  j["t0_ns"] = std::to_string(t0_);
  j["t1_ns"] = std::to_string(t1_);
  j["bins"] = bins_;
  j["bin_ns"] = (static_cast<double>(t1_ - t0_) + 1) / static_cast<double>(bins_);
  j["resolution"] = resolution;
  Json rows = Json::array();
  for (const Row& r : rows_) {
    Json row = Json::object();
    row["name"] = r.name;
    row["detail"] = r.detail;
    row["total"] = r.total;
    row["in_range"] = r.in_range;
    Json counts = Json::array();
    for (double c : r.counts) counts.push_back(c);
    row["counts"] = std::move(counts);
    rows.push_back(std::move(row));
  }
  j["rows"] = std::move(rows);
  return j;
}

}  // namespace logscope
