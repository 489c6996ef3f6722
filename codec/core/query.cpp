#include "core/query.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace logscope {
namespace {

constexpr double kTwo64 = 18446744073709551616.0, kTwo63 = 9223372036854775808.0;

bool is_whole(const Json& v) { return v.type() != Json::Type::Double || std::floor(v.as_double()) == v.as_double(); }

// A whole number's decimal digits ("-" first for a negative one), nothing else around them.
bool decimal_text(const std::string& text) {
  size_t digits = !text.empty() && text[0] == '-' ? 1 : 0;
  if (digits == text.size()) return false;
  for (size_t i = digits; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return true;
}

template <typename T>
bool parse_decimal(const std::string& text, T* out) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

// Why `v` is not a `type`, or "" when it is.
std::string type_problem(const Json& v, ArgType type) {
  if (v.is_string() && (type == ArgType::U64 || type == ArgType::I64)) {
    const std::string& text = v.as_string();
    if (!decimal_text(text)) return "a whole number";
    uint64_t u;
    int64_t i;
    if (type == ArgType::U64 && !parse_decimal(text, &u)) return "a whole number from 0 to 2^64-1";
    if (type == ArgType::I64 && !parse_decimal(text, &i)) return "a whole number from -2^63 to 2^63-1";
    return "";
  }
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

// Of a value type_problem() accepted.
uint64_t to_u64(const Json& v) {
  uint64_t out = 0;
  if (v.is_string()) return parse_decimal(v.as_string(), &out) ? out : 0;
  return v.type() == Json::Type::Double ? static_cast<uint64_t>(v.as_double()) : v.as_uint();
}
int64_t to_i64(const Json& v) {
  int64_t out = 0;
  if (v.is_string()) return parse_decimal(v.as_string(), &out) ? out : 0;
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

namespace {

bool ns_unit(Unit unit) { return unit == Unit::TimeNs || unit == Unit::DurationNs; }

// An ns number (or each of a list of them) as its exact decimal digits.
void ns_as_text(Json& value) {
  if (value.is_array()) {
    for (Json& element : value.elements()) ns_as_text(element);
  } else if (value.type() == Json::Type::UInt) {
    value = std::to_string(value.as_uint());
  } else if (value.type() == Json::Type::Int) {
    value = std::to_string(value.as_int());
  } else if (value.type() == Json::Type::Double) {
    value = std::to_string(std::llround(value.as_double()));
  }
}

std::string member_path(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
Json::object_t& members(Json& object) { return object.get_ref<Json::object_t&>(); }
const Json::object_t& members(const Json& object) { return object.get_ref<const Json::object_t&>(); }

// Walks a result: for every path with a unit in `units`, the value is typed (`on_unit`); every
// other value is descended into, or, when it holds no members, reported untyped (`on_untyped`).
// The result's own "units" member is not part of it.
template <typename Value, typename OnUnit, typename OnUntyped>
void walk(Value& value, const std::string& path, const std::map<std::string, Unit>& units, OnUnit& on_unit, OnUntyped& on_untyped) {
  if (!path.empty()) {
    auto it = units.find(path);
    if (it != units.end()) return on_unit(value, path, it->second);
  }
  if (value.is_object()) {
    for (auto& [key, child] : members(value)) {
      if (path.empty() && key == "units") continue;
      walk(child, member_path(path, key), units, on_unit, on_untyped);
    }
  } else if (value.is_array()) {
    for (auto& element : value.elements()) walk(element, path, units, on_unit, on_untyped);
  } else {
    on_untyped(path);
  }
}

}  // namespace

Json with_units(Json result, const ResultUnits& units) {
  if (!result.is_object() || (result.size() == 1 && result.find("error"))) return result;
  std::map<std::string, Unit> lookup(units.begin(), units.end());
  Json present = Json::object();
  auto on_unit = [&](Json& value, const std::string& path, Unit unit) {
    if (ns_unit(unit)) ns_as_text(value);
    if (!present.find(path)) present[path] = unit_name(unit);
  };
  auto on_untyped = [](const std::string&) {};
  walk(result, "", lookup, on_unit, on_untyped);
  result["units"] = std::move(present);
  return result;
}

std::vector<std::string> untyped_paths(const Json& result) {
  std::map<std::string, Unit> lookup;
  if (const Json* units = result.find("units"))
    for (const auto& member : units->items()) lookup[member.first] = Unit::Text;  // any unit will do
  std::vector<std::string> out;
  auto on_unit = [](const Json&, const std::string&, Unit) {};
  auto on_untyped = [&](const std::string& path) {
    if (std::find(out.begin(), out.end(), path) == out.end()) out.push_back(path);
  };
  walk(result, "", lookup, on_unit, on_untyped);
  return out;
}

ResultUnits problem_units(const std::string& path) {
  return {{path + ".severity", Unit::Text}, {path + ".category", Unit::Text}, {path + ".offset", Unit::Offset},
          {path + ".code", Unit::Text}, {path + ".message", Unit::Text}};
}

ResultUnits join_units(ResultUnits first, const ResultUnits& more) {
  first.insert(first.end(), more.begin(), more.end());
  return first;
}

Json run_query(const std::vector<QuerySpec>& table, const std::string& name, const Json& args, const ProgressFn& progress) {
  for (const QuerySpec& spec : table) {
    if (spec.name != name) continue;
    QueryArgs checked(args, spec.args);
    if (!checked.ok()) return QueryArgs::error_json(name + ": " + checked.error());
    Json out = spec.run(checked, progress);
    // Range errors found while the handler read its arguments.
    if (!checked.ok()) return QueryArgs::error_json(name + ": " + checked.error());
    return with_units(std::move(out), spec.units);
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
    Json units = Json::object();
    for (const auto& [path, unit] : spec.units) units[path] = unit_name(unit);
    q["units"] = std::move(units);
    list.push_back(std::move(q));
  }
  Json out = Json::object();
  out["queries"] = std::move(list);
  return out;
}

}  // namespace logscope
