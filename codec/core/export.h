// The export engine's format-independent half: a table of flattened columns written row by row as
// CSV (RFC 4180) or JSON Lines to an ExportSink. Formats (rosbag/export, bddf/export, carla/export)
// decide the columns and fill the cells; nothing here holds more than one row. See docs/export.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/report.h"

namespace logscope {

// Where exported text goes: a file or stdout in the CLI, a stream in the browser worker.
class ExportSink {
 public:
  virtual ~ExportSink() = default;
  // False when the text could not be written (disk full, closed pipe): the export stops.
  virtual bool write(std::string_view text) = 0;
};

// An ExportSink that keeps everything in memory: tests and small query answers only.
class StringSink : public ExportSink {
 public:
  bool write(std::string_view text) override {
    text_.append(text);
    return true;
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

enum class ExportFormat { Csv, Jsonl };

// Arrays with more elements than this (and arrays whose length varies) are one JSON cell.
constexpr size_t kExportArrayColumns = 64;

// Shortest text that reads back as the same value ("nan", "inf", "-inf" for the non-finite).
std::string format_f64(double value);
std::string format_f32(float value);
// The same inside JSON: a non-finite value becomes the string "nan", "inf" or "-inf".
void append_json_f64(std::string& out, double value);
void append_json_f32(std::string& out, float value);
// A JSON string with its quotes (bytes kept as they are; control characters escaped).
void append_json_string(std::string& out, std::string_view text);

// What the user asked for, shared by every format.
struct ExportRequest {
  ExportFormat format = ExportFormat::Csv;
  uint64_t from_ns = 0;
  uint64_t to_ns = UINT64_MAX;  // inclusive
  std::vector<std::string> fields;  // empty: all; a name also selects the columns below it
  // A plot's sample of a big range: at most this many of the chunks that hold the source, spread
  // evenly over the range (0: every chunk). Formats without chunks read everything.
  uint64_t max_chunks = 0;
};

// What an export did, for the caller's messages on stderr.
struct ExportResult {
  uint64_t rows = 0;
  std::vector<std::string> json_columns;  // columns written as one JSON cell (long or variable arrays)
  std::vector<Problem> problems;          // rows that could not be decoded, damage met on the way
  bool cancelled = false;
  bool sink_failed = false;
  std::string error;  // the export could not start (unknown topic, unknown field)
  // max_chunks: the chunks that hold the source in the range, and those read (fewer when sampled).
  uint64_t chunks_in_range = 0, chunks_read = 0;
};

// Writes rows of a fixed set of columns. Cells are added in column order between begin_row() and
// end_row(); columns not selected by the request's fields are dropped on the way.
class TableWriter {
 public:
  enum class Kind { Number, Bool, Text, Json, Empty };
  // "number", "bool", "text", "json", "empty": a column's kind as the columns and plot queries name it.
  static const char* kind_name(Kind kind);

  TableWriter(ExportSink& sink, const ExportRequest& request) : sink_(sink), format_(request.format), fields_(request.fields) {}

  // Sets the columns (the first is the receive time) and writes the CSV header. False with `error`
  // when a requested field names no column.
  bool start(const std::vector<std::string>& columns, std::string* error);
  const std::vector<std::string>& columns() const { return columns_; }
  // The columns written, in their order (after start()).
  const std::vector<std::string>& output_columns() const { return output_names_; }
  // Keeps the names that are written (for the note about JSON cells).
  std::vector<std::string> written(const std::vector<std::string>& names) const;

  void begin_row() { cells_ = 0; }
  void number(std::string_view text) { cell(Kind::Number, text); }
  void integer(int64_t value);
  void unsigned_integer(uint64_t value);
  void f32(float value);
  void f64(double value);
  void boolean(bool value) { cell(Kind::Bool, value ? "true" : "false"); }
  void text(std::string_view value) { cell(Kind::Text, value); }
  void json(std::string_view value) { cell(Kind::Json, value); }
  void empty() { cell(Kind::Empty, ""); }
  // Writes the row; false when the sink failed. A row with fewer cells than columns is padded empty.
  bool end_row();
  bool failed() const { return failed_; }

 private:
  void cell(Kind kind, std::string_view value);
  // True (and the cell passed over) when the next column is not written: no number text is made.
  bool skip_unselected();

  ExportSink& sink_;
  ExportFormat format_;
  std::vector<std::string> fields_;
  std::vector<std::string> columns_;
  std::vector<int> slot_;  // per column: its place in the output, or -1 when not selected
  std::vector<std::string> output_names_;
  std::vector<std::pair<Kind, std::string>> row_;  // by output place; strings reused across rows
  size_t cells_ = 0;
  std::string line_;
  bool failed_ = false;
};

// Parses a time argument: "+12.5" is seconds after `start_ns`, "1700000000.25" absolute seconds.
// Exact to the nanosecond (no float rounding). False on junk.
bool parse_export_time(const std::string& text, uint64_t start_ns, uint64_t* ns);

}  // namespace logscope
