// The one JSON data model the codec hands to the CLI, the wasm bindings and the tests: Debian's
// nlohmann-json (parser, value tree, printer) behind the small interface the code was written
// against. Objects keep insertion order so output is stable.
//
// How: `Json` derives from an nlohmann `basic_json` whose arrays are `std::vector<Json>` and whose
// objects are `ordered_map<std::string, Json>`, so every node of a tree really is a `Json` and a
// child can be handed out as `Json&` without a cast the standard leaves undefined. `Json` adds no
// data; its methods hide the library's where ours differ (find returns a pointer, as_uint clamps,
// dump never throws on invalid UTF-8, parse never throws).
#pragma once

#ifndef JSON_USE_IMPLICIT_CONVERSIONS
#define JSON_USE_IMPLICIT_CONVERSIONS 0  // no silent `std::string s = json;` that throws on a number
#endif
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace logscope {

class Json;

namespace json_detail {
// nlohmann's container parameters, with the element type fixed to Json.
template <typename Key, typename Value, typename... Rest>
using Members = nlohmann::ordered_map<Key, Json>;
template <typename Value, typename... Rest>
using Elements = std::vector<Json>;
using Tree = nlohmann::basic_json<Members, Elements>;
}  // namespace json_detail

}  // namespace logscope

// Json is not a value nlohmann should convert (it would pick its "compatible type" constructor,
// which reads a Json as a string, over the base class's copy and move): no to_json for it.
template <>
struct nlohmann::adl_serializer<logscope::Json, void> {};

namespace logscope {

class Json : public json_detail::Tree {
 public:
  using Tree = json_detail::Tree;
  using Members = json_detail::Members<std::string, Json>;  // vector of pair<const string, Json>
  using Elements = std::vector<Json>;
  // Int is only ever negative: a non-negative integer is UInt, however it was made.
  enum class Type { Null, Bool, Int, UInt, Double, String, Array, Object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool value) : Tree(value) {}
  template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value, int>::type = 0>
  Json(T value) : Tree(std::is_signed<T>::value && static_cast<long long>(value) < 0 ? Tree(static_cast<number_integer_t>(value))
                                                                                     : Tree(static_cast<number_unsigned_t>(value))) {}
  Json(double value) : Tree(value) {}
  Json(float value) : Tree(static_cast<double>(value)) {}
  Json(const char* value) : Tree(std::string(value)) {}
  Json(std::string value) : Tree(std::move(value)) {}
  Json(std::string_view value) : Tree(std::string(value)) {}
  // The library makes plain basic_json values (while parsing, or inserting into a container).
  Json(const Tree& value) : Tree(value) {}
  Json(Tree&& value) : Tree(std::move(value)) {}

  static Json array() { return Json(Tree::array()); }
  static Json object() { return Json(Tree::object()); }

  Type type() const;
  // is_null, is_object, is_array, is_string, is_number are the library's, with the same meaning.

  // Never throw: a value of another type gives false / 0 / an empty string. Out-of-range doubles
  // clamp instead of wrapping (casting them is undefined behaviour): -1 -> 0, 1e30 -> max, NaN -> 0.
  bool as_bool() const;
  long long as_int() const;
  unsigned long long as_uint() const;
  double as_double() const;
  const std::string& as_string() const;

  // Object access. operator[] inserts (turning anything but an object into an empty object);
  // find() does not.
  Json& operator[](const std::string& key);
  const Json* find(const std::string& key) const;
  bool contains(const std::string& key) const { return find(key) != nullptr; }
  const Members& items() const;

  // Array access. push_back and the non-const elements() turn anything but an array into an
  // empty array first.
  void push_back(Json value) { elements().push_back(std::move(value)); }
  const Elements& elements() const;
  Elements& elements();
  const Json& operator[](size_t index) const { return elements()[index]; }

  // Members of an object, elements of an array, 0 for anything else.
  size_t size() const { return is_object() ? items().size() : is_array() ? elements().size() : 0; }

  // indent < 0: compact one line; otherwise pretty-printed with that many spaces. Invalid UTF-8
  // in strings (file content) prints as U+FFFD.
  std::string dump(int indent = -1) const;
  // Strict RFC 8259 (nothing after the value, no comments); at most 200 levels of nesting, so
  // printing, copying and comparing (recursive in the library) stay shallow.
  static std::optional<Json> parse(std::string_view text, std::string* error = nullptr);

  bool operator==(const Json& other) const;
  bool operator!=(const Json& other) const { return !(*this == other); }
};

// JSON string escaping, also used by text renderers that quote file strings.
std::string json_escape(std::string_view text);

}  // namespace logscope
