// `logscope info` text: a header of file facts, then the series table.
#include <algorithm>
#include <cstdio>

#include "core/time_math.h"
#include "bddf/format.h"
#include "bddf/summary.h"

namespace logscope::bddf {
namespace {

std::string pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}
std::string pad_left(std::string text, size_t width) {
  if (text.size() < width) text.insert(0, width - text.size(), ' ');
  return text;
}

}  // namespace

std::string info_text(const FileModel& model, const InfoOptions& options) {
  std::string out;
  char line[512];
  auto row = [&](const char* key, const std::string& value) {
    std::snprintf(line, sizeof line, "%-12s %s\n", key, value.c_str());
    out += line;
  };
  row("path:", options.path);
  row("format:", "BDDF " + (model.have_file_descriptor ? model.version() : std::string("(no file descriptor)")));
  row("size:", format_bytes(model.size) + " (" + std::to_string(model.size) + " bytes)");
  row("checksum:", checksum_type_name(model.checksum_type) + std::string(model.trailer.present ? "" : " (no trailer)"));
  row("index:", model.indexed ? "FileIndex at " + std::to_string(model.trailer.index_offset)
                              : "missing or damaged; rebuilt by a forward scan");
  for (const auto& [key, value] : model.annotations) row("annotation:", key + " = " + value);
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const Series& s : model.series) {
    if (s.entries.empty()) continue;
    if (s.entries.times_ascending() && time_math::in_range(s.entries.front().timestamp_ns) &&
        time_math::in_range(s.entries.back().timestamp_ns)) {  // every time between is in range
      first = std::min(first, s.entries.front().timestamp_ns);
      last = std::max(last, s.entries.back().timestamp_ns);
      continue;
    }
    for (const BlockEntry& e : s.entries) {
      if (!time_math::in_range(e.timestamp_ns)) continue;  // a placeholder or damage (summary's warning)
      first = std::min(first, e.timestamp_ns);
      last = std::max(last, e.timestamp_ns);
    }
  }
  if (first <= last) {
    std::snprintf(line, sizeof line, "%s .. %s (%.3f s)", short_time(first).c_str(), short_time(last).c_str(),
                  span_seconds(first, last));
    row("time:", line);
  }
  row("series:", std::to_string(model.series.size()) + ", " + std::to_string(model.data_block_count()) + " data blocks");
  if (model.recovery.performed) row("recovery:", model.recovery.message());
  if (model.series.empty()) return out;

  // The series table, columns sized to their content.
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"#", "series", "type", "blocks", "first", "last", "rate Hz", "bytes"});
  for (const Series& s : model.series) {
    std::vector<std::string> r;
    r.push_back(std::to_string(s.index));
    r.push_back(s.channel());
    r.push_back(s.type_label());
    r.push_back(std::to_string(s.entries.size()));
    r.push_back(s.entries.empty() ? "-" : short_time(s.entries.front().timestamp_ns).substr(11));
    r.push_back(s.entries.empty() ? "-" : short_time(s.entries.back().timestamp_ns).substr(11));
    double rate = series_rate_hz(s);
    if (rate > 0) {
      std::snprintf(line, sizeof line, rate >= 100 ? "%.0f" : "%.2f", rate);
      // "~": an estimate, when the last POD block's size could not be read.
      bool estimate = s.pod_sample_size() && !s.last_block_payload;
      r.push_back((estimate ? "~" : "") + std::string(line));
    } else {
      r.push_back("-");
    }
    r.push_back(format_bytes(s.total_bytes));
    rows.push_back(std::move(r));
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  width[1] = std::min<size_t>(width[1], 48);
  out += "\n";
  for (const auto& r : rows) {
    std::string text;
    for (size_t c = 0; c < r.size(); ++c) {
      bool numeric = c == 0 || c == 3 || c == 6 || c == 7;
      std::string cell = r[c].size() > width[c] ? r[c].substr(0, width[c] - 1) + "~" : r[c];
      text += (c ? "  " : "") + (numeric ? pad_left(cell, width[c]) : pad(cell, width[c]));
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

}  // namespace logscope::bddf
