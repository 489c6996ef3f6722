// Helpers of the export tests: an RFC 4180 CSV reader and value comparison with a reference reader.
#pragma once

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace export_support {

using Row = std::vector<std::string>;

// Parses CSV text (quoted cells, doubled quotes, CRLF or LF line ends). False on a malformed quote.
inline bool parse_csv(const std::string& text, std::vector<Row>* rows) {
  rows->clear();
  Row row;
  std::string cell;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c != '"') cell += c;
      else if (i + 1 < text.size() && text[i + 1] == '"') cell += '"', ++i;
      else quoted = false;
      continue;
    }
    if (c == '"') {
      if (!cell.empty()) return false;
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(std::move(cell));
      cell.clear();
      any = true;
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(std::move(cell));
      cell.clear();
      rows->push_back(std::move(row));
      row.clear();
      any = false;
    } else {
      cell += c;
      any = true;
    }
  }
  if (quoted) return false;
  if (any) row.push_back(std::move(cell)), rows->push_back(std::move(row));
  return true;
}

// Our number text against the reference's float64 value: the same float64, or, for a float32
// field, the same float32 (the reference widens float32 values exactly to float64).
inline bool same_float(double ours, double theirs) {
  if (ours == theirs) return true;
  auto narrow = static_cast<float>(theirs);
  return static_cast<double>(narrow) == theirs && static_cast<float>(ours) == narrow;
}

// Compares one of our values (a Json parsed from our cell) with the reference's; `why` says where
// they differ. Integers must be equal exactly; strings are not compared (numeric fields only).
inline bool same_value(const logscope::Json& ours, const logscope::Json& theirs, std::string* why) {
  using Type = logscope::Json::Type;
  if (theirs.type() == Type::UInt) {  // exact: both parsed as 64-bit integers, never as doubles
    if (ours.type() == Type::UInt && ours.as_uint() == theirs.as_uint()) return true;
  } else if (theirs.type() == Type::Int) {
    if (ours.type() == Type::Int && ours.as_int() == theirs.as_int()) return true;
  } else if (theirs.type() == Type::Double) {
    if (ours.is_number() && same_float(ours.as_double(), theirs.as_double())) return true;
  } else if (theirs.type() == Type::Bool) {
    if (ours.type() == Type::Bool && ours.as_bool() == theirs.as_bool()) return true;
  } else if (theirs.type() == Type::String || theirs.type() == Type::Null) {
    return true;
  } else if (theirs.type() == Type::Array) {
    if (ours.type() == Type::Array && ours.size() == theirs.size()) {
      for (size_t i = 0; i < theirs.size(); ++i)
        if (!same_value(ours.elements()[i], theirs.elements()[i], why)) return false;
      return true;
    }
  } else if (theirs.type() == Type::Object) {
    if (ours.type() == Type::Object && ours.size() == theirs.size()) {
      for (const auto& [key, value] : theirs.items()) {
        const logscope::Json* mine = ours.find(key);
        if (!mine || !same_value(*mine, value, why)) return false;
      }
      return true;
    }
  }
  *why = "ours " + ours.dump().substr(0, 200) + ", python3-rosbag " + theirs.dump().substr(0, 200);
  return false;
}

// One CSV cell as a Json value: numbers, true/false, JSON arrays/objects; anything else a string.
inline logscope::Json cell_value(const std::string& cell) {
  if (cell == "true" || cell == "false" || (!cell.empty() && (cell[0] == '[' || cell[0] == '{' || cell[0] == '-' ||
                                                              (cell[0] >= '0' && cell[0] <= '9')))) {
    std::string error;
    if (auto parsed = logscope::Json::parse(cell, &error)) return *parsed;
  }
  return logscope::Json(cell);
}

// JSON Lines text as one value per line; null in place of a line that is not JSON.
inline std::vector<logscope::Json> jsonl_rows(const std::string& text) {
  std::vector<logscope::Json> rows;
  for (size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1)
    rows.push_back(logscope::Json::parse(std::string_view(text).substr(at, end - at)).value_or(logscope::Json()));
  return rows;
}

}  // namespace export_support
