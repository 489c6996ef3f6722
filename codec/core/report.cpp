#include "core/report.h"

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

size_t Report::count(Severity severity) const {
  size_t n = 0;
  for (const Problem& p : problems) n += p.severity == severity;
  return n;
}

Json problem_to_json(const Problem& problem) {
  Json j = Json::object();
  j["severity"] = severity_name(problem.severity);
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
  Json rows = Json::array();
  for (const auto& row : table.rows) {
    Json r = Json::array();
    for (const auto& cell : row) r.push_back(cell);
    rows.push_back(std::move(r));
  }
  j["rows"] = std::move(rows);
  return j;
}

Json Report::to_json() const {
  Json j = Json::object();
  j["format"] = format;
  j["format_label"] = format_label;
  j["facts"] = facts;
  Json t = Json::array();
  for (const Table& table : tables) t.push_back(table_to_json(table));
  j["tables"] = std::move(t);
  Json p = Json::array();
  for (const Problem& problem : problems) p.push_back(problem_to_json(problem));
  j["problems"] = std::move(p);
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

std::string hex_string(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 15];
  }
  return out;
}

}  // namespace logscope
