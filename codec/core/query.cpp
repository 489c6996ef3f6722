#include "core/query.h"

#include <cmath>

namespace logscope {
namespace {

constexpr double kTwo64 = 18446744073709551616.0, kTwo63 = 9223372036854775808.0;

bool is_whole(const Json& v) { return v.type() != Json::Type::Double || std::floor(v.as_double()) == v.as_double(); }

// Why `v` is not a `type`, or "" when it is.
std::string type_problem(const Json& v, ArgType type) {
  switch (type) {
    case ArgType::U64:
      if (!v.is_number() || !is_whole(v)) return "a whole number";
      if (v.type() == Json::Type::Int || (v.type() == Json::Type::Double && (v.as_double() < 0 || v.as_double() >= kTwo64)))
        return "a whole number from 0 to 2^64-1";
      return "";
    case ArgType::I64:
      if (!v.is_number() || !is_whole(v)) return "a whole number";
      if ((v.type() == Json::Type::UInt && v.as_uint() > static_cast<unsigned long long>(INT64_MAX)) ||
          (v.type() == Json::Type::Double && (v.as_double() < -kTwo63 || v.as_double() >= kTwo63)))
        return "a whole number from -2^63 to 2^63-1";
      return "";
    case ArgType::Double: return v.is_number() ? "" : "a number";
    case ArgType::String: return v.is_string() ? "" : "a string";
    case ArgType::Bool: return v.type() == Json::Type::Bool ? "" : "true or false";
    case ArgType::U64List:
      if (v.is_array()) {
        for (const Json& e : v.elements())
          if (!type_problem(e, ArgType::U64).empty()) return "a whole number >= 0 or a list of them";
        return "";
      }
      return type_problem(v, ArgType::U64).empty() ? "" : "a whole number >= 0 or a list of them";
  }
  return "valid";
}

uint64_t to_u64(const Json& v) { return v.type() == Json::Type::Double ? static_cast<uint64_t>(v.as_double()) : v.as_uint(); }
int64_t to_i64(const Json& v) {
  if (v.type() == Json::Type::UInt) return static_cast<int64_t>(v.as_uint());  // checked <= INT64_MAX
  return v.type() == Json::Type::Double ? static_cast<int64_t>(v.as_double()) : v.as_int();
}

}  // namespace

const char* arg_type_name(ArgType type) {
  switch (type) {
    case ArgType::U64: return "u64";
    case ArgType::I64: return "i64";
    case ArgType::Double: return "number";
    case ArgType::String: return "string";
    case ArgType::Bool: return "bool";
    case ArgType::U64List: return "u64 or [u64]";
  }
  return "?";
}

QueryArgs::QueryArgs(const Json& args, const std::vector<ArgSpec>& schema) : args_(args) {
  if (!args.is_object() && !args.is_null()) {
    fail("the arguments must be a JSON object");
    return;
  }
  for (const auto& [name, value] : args.items()) {
    const ArgSpec* spec = nullptr;
    for (const ArgSpec& s : schema)
      if (s.name == name) spec = &s;
    if (!spec) {
      std::string known;
      for (const ArgSpec& s : schema) known += (known.empty() ? "" : ", ") + s.name;
      fail("unknown argument \"" + name + "\" (this query takes: " + (known.empty() ? "none" : known) + ")");
      continue;
    }
    if (value.is_null()) continue;  // null means "not given"
    std::string want = type_problem(value, spec->type);
    if (!want.empty()) fail("argument \"" + name + "\" must be " + want + ", got " + value.dump());
  }
}

uint64_t QueryArgs::u64(const std::string& name, uint64_t fallback, uint64_t lo, uint64_t hi) {
  const Json* v = args_.find(name);
  if (!v || v->is_null() || !type_problem(*v, ArgType::U64).empty()) return fallback;
  uint64_t value = to_u64(*v);
  if (value < lo || value > hi) {
    fail("argument \"" + name + "\" must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + std::to_string(value));
    return fallback;
  }
  return value;
}

int64_t QueryArgs::i64(const std::string& name, int64_t fallback, int64_t lo, int64_t hi) {
  const Json* v = args_.find(name);
  if (!v || v->is_null() || !type_problem(*v, ArgType::I64).empty()) return fallback;
  int64_t value = to_i64(*v);
  if (value < lo || value > hi) {
    fail("argument \"" + name + "\" must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + std::to_string(value));
    return fallback;
  }
  return value;
}

double QueryArgs::f64(const std::string& name, double fallback) {
  const Json* v = args_.find(name);
  if (!v || !v->is_number()) return fallback;
  if (!std::isfinite(v->as_double())) {
    fail("argument \"" + name + "\" must be a finite number");
    return fallback;
  }
  return v->as_double();
}

std::string QueryArgs::str(const std::string& name, const std::string& fallback) const {
  const Json* v = args_.find(name);
  return v && v->is_string() ? v->as_string() : fallback;
}

bool QueryArgs::flag(const std::string& name) const {
  const Json* v = args_.find(name);
  return v && v->as_bool();
}

std::vector<uint64_t> QueryArgs::u64_list(const std::string& name) const {
  std::vector<uint64_t> out;
  const Json* v = args_.find(name);
  if (!v || !type_problem(*v, ArgType::U64List).empty()) return out;
  if (v->is_array())
    for (const Json& e : v->elements()) out.push_back(to_u64(e));
  else if (!v->is_null())
    out.push_back(to_u64(*v));
  return out;
}

Json QueryArgs::error_json(const std::string& message) {
  Json j = Json::object();
  j["error"] = message;
  return j;
}

Json run_query(const std::vector<QuerySpec>& table, const std::string& name, const Json& args, const ProgressFn& progress) {
  for (const QuerySpec& spec : table) {
    if (spec.name != name) continue;
    QueryArgs checked(args, spec.args);
    if (!checked.ok()) return QueryArgs::error_json(name + ": " + checked.error());
    Json out = spec.run(checked, progress);
    // Range errors found while the handler read its arguments.
    if (!checked.ok()) return QueryArgs::error_json(name + ": " + checked.error());
    return out;
  }
  std::string known;
  for (const QuerySpec& spec : table) known += (known.empty() ? "" : ", ") + spec.name;
  return QueryArgs::error_json("unknown query: " + name + " (this format answers: " + (known.empty() ? "none" : known) + ")");
}

Json query_table_json(const std::vector<QuerySpec>& table) {
  Json list = Json::array();
  for (const QuerySpec& spec : table) {
    Json q = Json::object();
    q["name"] = spec.name;
    q["help"] = spec.help;
    Json args = Json::array();
    for (const ArgSpec& a : spec.args) {
      Json arg = Json::object();
      arg["name"] = a.name;
      arg["type"] = arg_type_name(a.type);
      arg["help"] = a.help;
      args.push_back(std::move(arg));
    }
    q["args"] = std::move(args);
    list.push_back(std::move(q));
  }
  Json out = Json::object();
  out["queries"] = std::move(list);
  return out;
}

}  // namespace logscope
