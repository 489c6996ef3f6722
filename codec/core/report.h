// The report model shared by every format: a summary, problems, and byte spans.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace logscope {

enum class Severity { Info, Warning, Error };
const char* severity_name(Severity severity);

// What a value means, so that readers (the page, scripts) never guess it from a key's name.
// docs/report.md lists them. Times and durations in ns are written to JSON as decimal strings:
// they pass 2^53 and would lose digits in JavaScript numbers.
enum class Unit {
  Text,        // a string shown as it is
  Flag,        // true / false
  Count,       // how many of something
  Bytes,       // a size in bytes
  Offset,      // a byte position in the file
  Id,          // an identifier or index: digits without separators
  TimeNs,      // ns since the Unix epoch (UTC), as a decimal string
  DurationNs,  // ns, as a decimal string
  Seconds,     // a duration in seconds (double)
  UnixSeconds, // seconds since the Unix epoch (number)
  Hz,          // a rate
  Ratio,       // a fraction (0.25 = 25 %)
  // Units of query results (docs/report.md, "Query results"):
  Number,      // a value as the file records it (a plotted column, a CARLA position in cm)
  Ns,          // ns as a number: a time after a range's start, a bin's width (exact below 2^53)
  Data,        // the file's own content, a whole JSON value (a decoded message, POD samples...)
};
const char* unit_name(Unit unit);

// Where a problem belongs: "recovery" (data past this point is lost or was found without the
// index), "index", "checksum", "structure" (framing and headers), "content" (values), "cancelled".
// Derived in one place from the stable code (see problem_category in report.cpp).
const char* problem_category(const std::string& code);

// One finding of a reader or doctor. `code` is stable (tests and scripts match on it);
// `offset` is the file byte the problem is about.
struct Problem {
  Severity severity = Severity::Error;
  uint64_t offset = 0;
  std::string code;
  std::string message;
};

// A named byte range. Spans nest: record -> header fields -> payload.
// `kind` drives colouring in the hex view (e.g. "header", "index", "data", "trailer").
struct Span {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string name;
  std::string kind;
  std::vector<Span> children;
};

// A table in the summary (series, topics, actors...). Rows hold one value per column; every
// column has a unit.
struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<Json>> rows;
  std::vector<Unit> units;  // one per column
};

// One format-specific fact (version, map, compression...), with its unit.
struct Fact {
  std::string key;
  Json value;
  Unit unit = Unit::Text;
};

// The format-specific facts, in the order they are shown. find() gives the value by key.
class Facts {
 public:
  void set(const std::string& key, Json value, Unit unit);
  const Json* find(const std::string& key) const;
  const std::vector<Fact>& items() const { return items_; }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<Fact> items_;
};

// How many of something the file holds ("messages", "frames", "data_blocks"...).
struct Count {
  std::string name;
  uint64_t value = 0;
};

// What every format states with the same names and units (docs/report.md).
struct FileFacts {
  uint64_t size_bytes = 0;
  std::optional<int64_t> start_ns, end_ns;  // ns since the epoch; both or neither
  std::vector<Count> counts;                // the first one is the file's main unit
  const Count* count(const std::string& name) const {
    for (const Count& c : counts)
      if (c.name == name) return &c;
    return nullptr;
  }
};

// What a reader did when the file was damaged or its index unusable.
struct Recovery {
  bool performed = false;
  std::string reason;    // stable, format-specific ("cut_in_payload", "index_missing"...)
  std::string message;   // one sentence for people
  uint64_t ends_at = 0;  // the first byte not recovered (the file size when nothing was lost)
  std::vector<Count> recovered;  // what was recovered ("chunks", "messages", "frames"...)
};

// What a format reports about a file: the common facts, format facts, tables, problems,
// recovery; `details` carries format-specific data for scripts (`logscope info --json`).
struct Report {
  std::string format;        // "bddf", "rosbag", "carla"
  std::string format_label;  // e.g. "BDDF 1.0.0", "ROS bag V2.0"
  FileFacts file;
  Facts facts;
  std::vector<std::string> later;  // fact keys that info_report() fills in (they cost many reads)
  std::vector<Table> tables;
  std::vector<Problem> problems;
  Recovery recovery;
  Json details = Json::object();

  void add_problem(Severity severity, uint64_t offset, std::string code, std::string message) {
    problems.push_back(Problem{severity, offset, std::move(code), std::move(message)});
  }
  size_t count(Severity severity) const;
  Json to_json() const;
};

// The common facts as JSON, with the duration derived from start and end.
Json file_facts_to_json(const FileFacts& file);
Json recovery_to_json(const Recovery& recovery);
Json problem_to_json(const Problem& problem);
Json span_to_json(const Span& span);
Json table_to_json(const Table& table);

// Long work reports progress; returning false from the callback cancels it.
using ProgressFn = std::function<bool(uint64_t done, uint64_t total)>;

// Calls the callback at most every `step` bytes so hot loops stay cheap.
class ProgressTicker {
 public:
  ProgressTicker(const ProgressFn& fn, uint64_t total, uint64_t step = 4 * 1024 * 1024)
      : fn_(fn), total_(total), step_(step) {}
  // Returns false once the caller cancelled.
  bool update(uint64_t done) {
    if (cancelled_) return false;
    if (!fn_ || (done < next_ && done < total_)) return true;
    next_ = done + step_;
    if (!fn_(done, total_)) cancelled_ = true;
    return !cancelled_;
  }
  bool cancelled() const { return cancelled_; }

 private:
  const ProgressFn& fn_;
  uint64_t total_;
  uint64_t step_;
  uint64_t next_ = 0;
  bool cancelled_ = false;
};

// Human-readable sizes and hex for messages.
std::string format_bytes(uint64_t bytes);
std::string hex_string(const uint8_t* data, size_t size);
// A byte array as the message decoders show it: {"length": N, "hex": its first `preview` bytes},
// or with `raw`, {"length": N, "raw": the bytes themselves} (for the views: DecodeOptions::raw_bytes).
Json bytes_json(std::string_view bytes, size_t preview, bool raw);

}  // namespace logscope
