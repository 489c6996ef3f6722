#include "core/export.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "core/json.h"

namespace logscope {

namespace {

// The shortest text that reads back as the same value. Not std::to_chars: Emscripten 3.1.6's
// libc++ has no floating-point to_chars, and the CLI and the page must print the same text.
// %g with 15 significant digits (6 for float) is the shortest form whenever one that short
// round-trips (%g drops trailing zeros); otherwise one more digit at a time, up to 17 (9).
template <typename T>
std::string shortest(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  constexpr bool is_float = std::is_same<T, float>::value;
  char buffer[64];
  for (int digits = is_float ? 6 : 15; digits <= (is_float ? 9 : 17); ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, static_cast<double>(value));
    T back = is_float ? static_cast<T>(std::strtof(buffer, nullptr)) : static_cast<T>(std::strtod(buffer, nullptr));
    if (back == value) break;
  }
  return buffer;
}

template <typename T>
void append_json_number(std::string& out, T value) {
  if (std::isfinite(value)) {
    out += shortest(value);
  } else {
    out += '"';
    out += shortest(value);
    out += '"';
  }
}

// A column belongs to a requested field when it is that field or lies below it.
bool selects(const std::string& field, const std::string& column) {
  if (column.compare(0, field.size(), field) != 0) return false;
  return column.size() == field.size() || column[field.size()] == '.' || column[field.size()] == '[';
}

void append_csv_cell(std::string& out, std::string_view value) {
  bool quote = value.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) {
    out.append(value);
    return;
  }
  out += '"';
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

std::string format_f64(double value) { return shortest(value); }
std::string format_f32(float value) { return shortest(value); }
void append_json_f64(std::string& out, double value) { append_json_number(out, value); }
void append_json_f32(std::string& out, float value) { append_json_number(out, value); }
void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  out += json_escape(text);
  out += '"';
}

bool TableWriter::start(const std::vector<std::string>& columns, std::string* error) {
  columns_ = columns;
  slot_.assign(columns.size(), -1);
  output_names_.clear();
  auto take = [&](size_t i) {
    if (slot_[i] >= 0) return;
    slot_[i] = static_cast<int>(output_names_.size());
    output_names_.push_back(columns_[i]);
  };
  if (!columns_.empty()) take(0);  // the receive time always comes first
  if (fields_.empty()) {
    for (size_t i = 0; i < columns_.size(); ++i) take(i);
  } else {
    for (const std::string& field : fields_) {
      bool found = false;
      for (size_t i = 0; i < columns_.size(); ++i)
        if (selects(field, columns_[i])) take(i), found = true;
      if (!found) {
        std::string some;
        for (size_t i = 0; i < columns_.size() && i < 12; ++i) some += (i ? ", " : "") + columns_[i];
        if (columns_.size() > 12) some += ", ...";
        *error = "no column is named \"" + field + "\" (columns: " + some + ")";
        return false;
      }
    }
  }
  row_.assign(output_names_.size(), {Kind::Empty, std::string()});
  if (format_ == ExportFormat::Csv) {
    line_.clear();
    for (size_t i = 0; i < output_names_.size(); ++i) {
      if (i) line_ += ',';
      append_csv_cell(line_, output_names_[i]);
    }
    line_ += "\r\n";  // RFC 4180 line ends
    if (!sink_.write(line_)) failed_ = true;
  }
  return !failed_;
}

std::vector<std::string> TableWriter::written(const std::vector<std::string>& names) const {
  std::vector<std::string> kept;
  for (const std::string& name : names)
    for (size_t i = 0; i < columns_.size(); ++i)
      if (columns_[i] == name && slot_[i] >= 0) {
        kept.push_back(name);
        break;
      }
  return kept;
}

void TableWriter::cell(Kind kind, std::string_view value) {
  size_t column = cells_++;
  if (column >= slot_.size() || slot_[column] < 0) return;
  auto& target = row_[static_cast<size_t>(slot_[column])];
  target.first = kind;
  target.second.assign(value.data(), value.size());
}

bool TableWriter::skip_unselected() {
  if (cells_ >= slot_.size() || slot_[cells_] >= 0) return false;
  ++cells_;
  return true;
}

void TableWriter::integer(int64_t value) {
  if (skip_unselected()) return;
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  number(std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)));
}

void TableWriter::unsigned_integer(uint64_t value) {
  if (skip_unselected()) return;
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  number(std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)));
}

void TableWriter::f32(float value) {
  if (skip_unselected()) return;
  if (std::isfinite(value)) number(shortest(value));
  else cell(Kind::Text, shortest(value));
}

void TableWriter::f64(double value) {
  if (skip_unselected()) return;
  if (std::isfinite(value)) number(shortest(value));
  else cell(Kind::Text, shortest(value));
}

bool TableWriter::end_row() {
  while (cells_ < columns_.size()) empty();
  line_.clear();
  if (format_ == ExportFormat::Csv) {
    for (size_t i = 0; i < row_.size(); ++i) {
      if (i) line_ += ',';
      append_csv_cell(line_, row_[i].second);
    }
    line_ += "\r\n";
  } else {
    line_ += '{';
    for (size_t i = 0; i < row_.size(); ++i) {
      if (i) line_ += ',';
      append_json_string(line_, output_names_[i]);
      line_ += ':';
      const auto& [kind, value] = row_[i];
      if (kind == Kind::Empty) line_ += "null";
      else if (kind == Kind::Text) append_json_string(line_, value);
      else line_ += value;  // numbers, booleans and JSON cells are JSON already
    }
    line_ += "}\n";
  }
  for (auto& cell : row_) cell.first = Kind::Empty, cell.second.clear();
  if (!sink_.write(line_)) failed_ = true;
  return !failed_;
}

bool parse_export_time(const std::string& text, uint64_t start_ns, uint64_t* ns) {
  std::string_view s = text;
  bool relative = !s.empty() && s[0] == '+';
  if (relative) s.remove_prefix(1);
  size_t dot = s.find('.');
  std::string_view whole = s.substr(0, dot), fraction = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  if (whole.empty() && fraction.empty()) return false;
  uint64_t secs = 0, nanos = 0;
  for (char c : whole) {
    if (c < '0' || c > '9' || secs > (UINT64_MAX / 1000000000ULL - 9) / 10) return false;
    secs = secs * 10 + static_cast<uint64_t>(c - '0');
  }
  if (fraction.size() > 9) return false;  // finer than a nanosecond
  for (size_t i = 0; i < 9; ++i) {
    char c = i < fraction.size() ? fraction[i] : '0';
    if (c < '0' || c > '9') return false;
    nanos = nanos * 10 + static_cast<uint64_t>(c - '0');
  }
  uint64_t offset = secs * 1000000000ULL + nanos;
  if (!relative) {
    *ns = offset;
    return true;
  }
  *ns = offset > UINT64_MAX - start_ns ? UINT64_MAX : start_ns + offset;
  return true;
}

const char* TableWriter::kind_name(Kind kind) {
  switch (kind) {
    case Kind::Number: return "number";
    case Kind::Bool: return "bool";
    case Kind::Text: return "text";
    case Kind::Json: return "json";
    case Kind::Empty: break;
  }
  return "empty";
}

}  // namespace logscope
