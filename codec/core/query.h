// Format-specific questions ("messages", "collisions", "extract"...) as one table per format:
// name -> argument schema + handler. The CLI, the wasm module and the page all go through
// FormatInspector::query(), which checks the arguments against the schema first, so every
// argument error names the argument and no handler sees a wrong type or a negative count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/report.h"

namespace logscope {

enum class ArgType { U64, I64, Double, String, Bool, U64List };
const char* arg_type_name(ArgType type);

struct ArgSpec {
  std::string name;
  ArgType type;
  std::string help;
};

// Arguments already checked against their schema: the getters cannot fail on type; range
// checks (`u64(name, fallback, lo, hi)`) record an error that names the argument.
class QueryArgs {
 public:
  // Checks every given argument: known name, right type, integers exact and in range of their type.
  // U64 and I64 arguments are JSON integers or their decimal digits as a string ("t0_ns":
  // "1767225600123456789"): JavaScript numbers lose digits past 2^53.
  QueryArgs(const Json& args, const std::vector<ArgSpec>& schema);

  bool has(const std::string& name) const { return args_.find(name) != nullptr; }
  uint64_t u64(const std::string& name, uint64_t fallback, uint64_t lo = 0, uint64_t hi = UINT64_MAX);
  int64_t i64(const std::string& name, int64_t fallback, int64_t lo = INT64_MIN, int64_t hi = INT64_MAX);
  double f64(const std::string& name, double fallback);
  std::string str(const std::string& name, const std::string& fallback = "") const;
  bool flag(const std::string& name) const;
  std::vector<uint64_t> u64_list(const std::string& name) const;  // a number or an array of numbers

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  void fail(const std::string& message) {
    if (error_.empty()) error_ = message;
  }
  // {"error": message}: what a handler returns when it cannot answer.
  static Json error_json(const std::string& message);

 private:
  const Json& args_;
  std::string error_;
};

// The unit of every value a result holds, by path (docs/report.md, "Query results"): the names of
// the object members from the result's top down to the value, joined by '.'; arrays add nothing,
// so the elements of a list share its path. A path of unit `Data` holds the file's own content
// (a decoded message, POD samples, annotations): the names inside it are the file's.
using ResultUnits = std::vector<std::pair<std::string, Unit>>;

// `result` typed: its ns values (units TimeNs, DurationNs) as exact decimal strings, and a
// "units" member giving the unit of each path present. A bare {"error": ...} is left as it is.
Json with_units(Json result, const ResultUnits& units);
// The paths of a typed result that hold a value with no unit in its "units" (for the tests).
std::vector<std::string> untyped_paths(const Json& result);
// The units of a list of problems (problem_to_json) at `path`.
ResultUnits problem_units(const std::string& path);
// `first`, then `more`.
ResultUnits join_units(ResultUnits first, const ResultUnits& more);

struct QuerySpec {
  std::string name;
  std::string help;
  std::vector<ArgSpec> args;
  ResultUnits units;  // of every value of the result, applied by run_query (with_units)
  std::function<Json(QueryArgs& args, const ProgressFn& progress)> run;
};

// Checks `args` against the query's schema and runs it; {"error": ...} for an unknown name or bad
// arguments (the message names the query or the argument). The answer is typed by the query's
// units (with_units).
Json run_query(const std::vector<QuerySpec>& table, const std::string& name, const Json& args, const ProgressFn& progress);

// The table as JSON ({"queries": [{"name", "help", "args": [{"name", "type", "help"}], "units": {path: unit}}]}),
// for --help and scripts.
Json query_table_json(const std::vector<QuerySpec>& table);

}  // namespace logscope
