// The report model shared by every format: a summary, problems, and byte spans.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"

namespace logscope {

enum class Severity { Info, Warning, Error };
const char* severity_name(Severity severity);

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

// A table in the summary (series, topics, actors...). Rows hold one value per column.
struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<Json>> rows;
};

// What a format reports about a file. `facts` is an ordered object of key facts
// (format-specific keys; the UI shows them generically); `details` carries
// format-specific data for scripts (`logscope info --json`).
struct Report {
  std::string format;        // "bddf", "rosbag", "carla"
  std::string format_label;  // e.g. "BDDF 1.0.0", "ROS bag V2.0"
  Json facts = Json::object();
  std::vector<Table> tables;
  std::vector<Problem> problems;
  Json details = Json::object();

  void add_problem(Severity severity, uint64_t offset, std::string code, std::string message) {
    problems.push_back(Problem{severity, offset, std::move(code), std::move(message)});
  }
  size_t count(Severity severity) const;
  Json to_json() const;
};

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

}  // namespace logscope
