#include "core/report.h"

#include "core/format_table.h"
#include "core/time_findings.h"
#include "core/time_math.h"

#include <cstdio>

namespace logscope {

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

const char* unit_name(Unit unit) {
  switch (unit) {
    case Unit::Text: return "text";
    case Unit::Flag: return "flag";
    case Unit::Count: return "count";
    case Unit::Bytes: return "bytes";
    case Unit::Offset: return "offset";
    case Unit::Id: return "id";
    case Unit::TimeNs: return "time_ns";
    case Unit::DurationNs: return "duration_ns";
    case Unit::Seconds: return "s";
    case Unit::UnixSeconds: return "unix_s";
    case Unit::Hz: return "hz";
    case Unit::Ratio: return "ratio";
    case Unit::Number: return "number";
    case Unit::Ns: return "ns";
    case Unit::Data: return "data";
  }
  return "text";
}

const char* problem_category(const std::string& code) {
  // Codes that mean data was lost, or found only by scanning because the index was unusable.
  // Each format's table entry lists them.
  if (const FormatEntry* entry = find_format(std::string_view(code).substr(0, code.find('.'))))
    for (const std::string& c : entry->recovery_codes)
      if (code == c) return "recovery";
  // Otherwise the area, the middle part of `format.area.what`.
  size_t a = code.find('.'), b = code.find('.', a == std::string::npos ? a : a + 1);
  std::string area = a == std::string::npos || b == std::string::npos ? "" : code.substr(a + 1, b - a - 1);
  if (area == "check") return "cancelled";
  if (area == "checksum") return "checksum";
  // A stored CRC or checksum that the bytes do not match, whatever holds it (a chunk, a summary).
  auto ends_with = [&](std::string_view what) { return code.size() >= what.size() && code.compare(code.size() - what.size(), what.size(), what) == 0; };
  if (ends_with(".crc_mismatch") || ends_with(".checksum_mismatch")) return "checksum";
  if (area == "index" || area == "index_data" || area == "chunk_info" || area == "summary" || area == "statistics" ||
      area == "footer" || area == "data_end" || area == "summary_offset")
    return "index";
  if (area == "header" || area == "trailer" || area == "block" || area == "chunk" || area == "chunks" || area == "record" ||
      area == "packet" || area == "frame" || area == "file")
    return "structure";
  return "content";
}

void Facts::set(const std::string& key, Json value, Unit unit) {
  for (Fact& f : items_)
    if (f.key == key) {
      f.value = std::move(value);
      f.unit = unit;
      return;
    }
  items_.push_back(Fact{key, std::move(value), unit});
}

const Json* Facts::find(const std::string& key) const {
  for (const Fact& f : items_)
    if (f.key == key) return &f.value;
  return nullptr;
}

// ns values go out as strings (exact in JavaScript); everything else as it is.
static Json value_in_unit(const Json& value, Unit unit) {
  if ((unit == Unit::TimeNs || unit == Unit::DurationNs) && value.is_number())
    return value.type() == Json::Type::Double ? Json(std::to_string(value.as_int())) :
           value.type() == Json::Type::Int ? Json(std::to_string(value.as_int())) : Json(std::to_string(value.as_uint()));
  return value;
}

static Json counts_json(const std::vector<Count>& counts) {
  Json j = Json::object();
  for (const Count& c : counts) j[c.name] = c.value;
  return j;
}

Json file_facts_to_json(const FileFacts& file) {
  Json j = Json::object();
  j["size_bytes"] = file.size_bytes;
  bool times = file.start_ns && file.end_ns;
  j["start_ns"] = times ? Json(std::to_string(*file.start_ns)) : Json();
  j["end_ns"] = times ? Json(std::to_string(*file.end_ns)) : Json();
  std::optional<int64_t> duration = times ? time_math::span(*file.start_ns, *file.end_ns) : std::nullopt;
  j["duration_ns"] = duration ? Json(std::to_string(*duration)) : Json();
  j["counts"] = counts_json(file.counts);
  return j;
}

void report_out_of_range_time(Report& report, uint64_t offset, const std::string& what, const std::string& value) {
  std::string code = report.format + ".time.out_of_range";
  std::string message = what + " is " + value +
                        ", beyond the times a log can hold (more than 2^62 ns from 1970): a placeholder or damage, left out of every time span";
  for (const Problem& p : report.problems)
    if (p.code == code && p.offset == offset && p.message == message) return;  // said once
  report.add_problem(Severity::Warning, offset, code, std::move(message));
}

void drop_out_of_range_times(Report& report, uint64_t offset) {
  FileFacts& file = report.file;
  if (!file.start_ns || !file.end_ns) {
    file.start_ns.reset(), file.end_ns.reset();
    return;
  }
  bool start_ok = time_math::in_range(*file.start_ns), end_ok = time_math::in_range(*file.end_ns);
  if (start_ok && end_ok) return;
  if (!start_ok) report_out_of_range_time(report, offset, "the first time", std::to_string(*file.start_ns) + " ns");
  if (!end_ok) report_out_of_range_time(report, offset, "the last time", std::to_string(*file.end_ns) + " ns");
  file.start_ns.reset(), file.end_ns.reset();
}

Json recovery_to_json(const Recovery& recovery) {
  if (!recovery.performed) return Json();
  Json j = Json::object();
  j["reason"] = recovery.reason;
  j["message"] = recovery.message;
  j["ends_at"] = recovery.ends_at;
  j["recovered"] = counts_json(recovery.recovered);
  return j;
}

size_t Report::count(Severity severity) const {
  size_t n = 0;
  for (const Problem& p : problems) n += p.severity == severity;
  return n;
}

Json problem_to_json(const Problem& problem) {
  Json j = Json::object();
  j["severity"] = severity_name(problem.severity);
  j["category"] = problem_category(problem.code);
  j["offset"] = problem.offset;
  j["code"] = problem.code;
  j["message"] = problem.message;
  return j;
}

Json span_to_json(const Span& span) {
  Json j = Json::object();
  j["offset"] = span.offset;
  j["length"] = span.length;
  j["name"] = span.name;
  j["kind"] = span.kind;
  if (!span.children.empty()) {
    Json children = Json::array();
    for (const Span& child : span.children) children.push_back(span_to_json(child));
    j["children"] = std::move(children);
  }
  return j;
}

Json table_to_json(const Table& table) {
  Json j = Json::object();
  j["name"] = table.name;
  Json columns = Json::array();
  for (const auto& c : table.columns) columns.push_back(c);
  j["columns"] = std::move(columns);
  auto unit = [&](size_t i) { return i < table.units.size() ? table.units[i] : Unit::Text; };
  Json units = Json::array();
  for (size_t i = 0; i < table.columns.size(); ++i) units.push_back(unit_name(unit(i)));
  j["units"] = std::move(units);
  Json rows = Json::array();
  for (const auto& row : table.rows) {
    Json r = Json::array();
    for (size_t i = 0; i < row.size(); ++i) r.push_back(value_in_unit(row[i], unit(i)));
    rows.push_back(std::move(r));
  }
  j["rows"] = std::move(rows);
  return j;
}

Json Report::to_json() const {
  Json j = Json::object();
  j["format"] = format;
  j["format_label"] = format_label;
  j["file"] = file_facts_to_json(file);
  Json f = Json::array();
  for (const Fact& fact : facts.items()) {
    Json item = Json::object();
    item["key"] = fact.key;
    item["value"] = value_in_unit(fact.value, fact.unit);
    item["unit"] = unit_name(fact.unit);
    f.push_back(std::move(item));
  }
  j["facts"] = std::move(f);
  Json l = Json::array();
  for (const auto& key : later) l.push_back(key);
  j["later"] = std::move(l);
  Json t = Json::array();
  for (const Table& table : tables) t.push_back(table_to_json(table));
  j["tables"] = std::move(t);
  Json p = Json::array();
  for (const Problem& problem : problems) p.push_back(problem_to_json(problem));
  j["problems"] = std::move(p);
  j["recovery"] = recovery_to_json(recovery);
  j["details"] = details;
  return j;
}

std::string format_bytes(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buf[32];
  if (unit == 0) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else std::snprintf(buf, sizeof buf, "%.1f %s", value, units[unit]);
  return buf;
}

Json bytes_json(std::string_view bytes, size_t preview, bool raw) {
  Json j = Json::object();
  j["length"] = bytes.size();
  j[raw ? "raw" : "hex"] = raw ? std::string(bytes) : hex_string(reinterpret_cast<const uint8_t*>(bytes.data()), std::min(bytes.size(), preview));
  return j;
}

std::string hex_string(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out(size * 2, '\0');
  // Written in place: a protobuf camera frame's data (a megabyte) goes through here on every step.
  char* o = out.empty() ? nullptr : &out[0];
  for (size_t i = 0; i < size; ++i) {
    o[2 * i] = digits[data[i] >> 4];
    o[2 * i + 1] = digits[data[i] & 15];
  }
  return out;
}

}  // namespace logscope
