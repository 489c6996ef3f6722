// A small ordered JSON value: the one data model the codec hands to the CLI,
// the wasm bindings and the tests. Objects keep insertion order so output is stable.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace logscope {

class Json {
 public:
  enum class Type { Null, Bool, Int, UInt, Double, String, Array, Object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool value) : type_(Type::Bool), bool_(value) {}
  template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value, int>::type = 0>
  Json(T value) {
    if (std::is_signed<T>::value && static_cast<long long>(value) < 0) {
      type_ = Type::Int;
      int_ = static_cast<long long>(value);
    } else {
      type_ = Type::UInt;
      uint_ = static_cast<unsigned long long>(value);
    }
  }
  Json(double value) : type_(Type::Double), double_(value) {}
  Json(float value) : type_(Type::Double), double_(value) {}
  Json(const char* value) : type_(Type::String), string_(value) {}
  Json(std::string value) : type_(Type::String), string_(std::move(value)) {}
  Json(std::string_view value) : type_(Type::String), string_(value) {}

  static Json array() { Json j; j.type_ = Type::Array; return j; }
  static Json object() { Json j; j.type_ = Type::Object; return j; }

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_object() const { return type_ == Type::Object; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_string() const { return type_ == Type::String; }
  bool is_number() const { return type_ == Type::Int || type_ == Type::UInt || type_ == Type::Double; }

  bool as_bool() const { return type_ == Type::Bool && bool_; }
  long long as_int() const;
  unsigned long long as_uint() const;
  double as_double() const;
  const std::string& as_string() const { return string_; }

  // Object access. operator[] inserts (turning null into an object); find() does not.
  Json& operator[](const std::string& key);
  const Json* find(const std::string& key) const;
  bool contains(const std::string& key) const { return find(key) != nullptr; }
  const std::vector<std::pair<std::string, Json>>& items() const { return members_; }

  // Array access.
  void push_back(Json value);
  const std::vector<Json>& elements() const { return elements_; }
  std::vector<Json>& elements() { return elements_; }
  const Json& operator[](size_t index) const { return elements_[index]; }

  size_t size() const { return type_ == Type::Array ? elements_.size() : members_.size(); }

  // indent < 0: compact one line; otherwise pretty-printed with that many spaces.
  std::string dump(int indent = -1) const;
  static std::optional<Json> parse(std::string_view text, std::string* error = nullptr);

  bool operator==(const Json& other) const;
  bool operator!=(const Json& other) const { return !(*this == other); }

 private:
  void dump_to(std::string& out, int indent, int depth) const;

  Type type_ = Type::Null;
  bool bool_ = false;
  long long int_ = 0;
  unsigned long long uint_ = 0;
  double double_ = 0;
  std::string string_;
  std::vector<Json> elements_;
  std::vector<std::pair<std::string, Json>> members_;
};

// JSON string escaping, also used by text renderers that quote file strings.
std::string json_escape(std::string_view text);

}  // namespace logscope
