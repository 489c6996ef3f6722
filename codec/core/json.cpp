#include "core/json.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace logscope {

Json::Type Json::type() const {
  switch (Tree::type()) {
    case value_t::boolean: return Type::Bool;
    case value_t::number_integer: return get_ref<const number_integer_t&>() < 0 ? Type::Int : Type::UInt;
    case value_t::number_unsigned: return Type::UInt;
    case value_t::number_float: return Type::Double;
    case value_t::string: return Type::String;
    case value_t::array: return Type::Array;
    case value_t::object: return Type::Object;
    default: return Type::Null;  // null, and binary or discarded, which text never makes
  }
}

bool Json::as_bool() const { return is_boolean() && get_ref<const boolean_t&>(); }

static long long clamped_to_int(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 9223372036854775808.0) return INT64_MAX;
  if (value < -9223372036854775808.0) return INT64_MIN;
  return static_cast<long long>(value);
}

long long Json::as_int() const {
  switch (Tree::type()) {
    case value_t::number_integer: return get_ref<const number_integer_t&>();
    case value_t::number_unsigned: {
      number_unsigned_t value = get_ref<const number_unsigned_t&>();
      return value > static_cast<number_unsigned_t>(INT64_MAX) ? INT64_MAX : static_cast<long long>(value);
    }
    case value_t::number_float: return clamped_to_int(get_ref<const number_float_t&>());
    default: return 0;
  }
}

unsigned long long Json::as_uint() const {
  switch (Tree::type()) {
    case value_t::number_integer: {
      number_integer_t value = get_ref<const number_integer_t&>();
      return value < 0 ? 0 : static_cast<unsigned long long>(value);
    }
    case value_t::number_unsigned: return get_ref<const number_unsigned_t&>();
    case value_t::number_float: {
      double value = get_ref<const number_float_t&>();
      if (!(value > 0)) return 0;
      if (value >= 18446744073709551616.0) return ~0ULL;
      return static_cast<unsigned long long>(value);
    }
    default: return 0;
  }
}

double Json::as_double() const {
  switch (Tree::type()) {
    case value_t::number_integer: return static_cast<double>(get_ref<const number_integer_t&>());
    case value_t::number_unsigned: return static_cast<double>(get_ref<const number_unsigned_t&>());
    case value_t::number_float: return get_ref<const number_float_t&>();
    default: return 0;
  }
}

const std::string& Json::as_string() const {
  static const std::string empty;
  return is_string() ? get_ref<const string_t&>() : empty;
}

Json& Json::operator[](const std::string& key) {
  if (!is_object()) *this = object();
  // The library's operator[] returns its base class; the element it refers to is a Json.
  return static_cast<Json&>(Tree::operator[](key));
}

const Json* Json::find(const std::string& key) const {
  for (const auto& member : items())
    if (member.first == key) return &member.second;
  return nullptr;
}

const Json::Members& Json::items() const {
  static const Members empty;
  return is_object() ? get_ref<const object_t&>() : empty;
}

const Json::Elements& Json::elements() const {
  static const Elements empty;
  return is_array() ? get_ref<const array_t&>() : empty;
}

Json::Elements& Json::elements() {
  if (!is_array()) *this = array();
  return get_ref<array_t&>();
}

bool Json::operator==(const Json& other) const {
  // Numbers compare by value, but a negative integer never equals an unsigned one (the library
  // casts the unsigned to signed: -1 would equal 2^64-1).
  if (is_number() && other.is_number()) {
    Type a = type(), b = other.type();
    if (a == Type::Double || b == Type::Double) return as_double() == other.as_double();
    if ((a == Type::Int) != (b == Type::Int)) return false;
    return a == Type::Int ? as_int() == other.as_int() : as_uint() == other.as_uint();
  }
  if (Tree::type() != other.Tree::type()) return false;
  if (is_array()) return elements() == other.elements();  // element by element, with this operator
  if (is_object()) return items() == other.items();
  return static_cast<const Tree&>(*this) == static_cast<const Tree&>(other);
}

std::string Json::dump(int indent) const {
  // The default handler throws on invalid UTF-8, which strings from files may hold.
  return Tree::dump(indent, ' ', false, error_handler_t::replace);
}

namespace {

// Builds a Json tree from the library's parser events (its SAX interface): the tree's nodes are
// Json, nesting is bounded, and a syntax error comes back as text, never as an exception.
class TreeBuilder {
 public:
  static constexpr size_t kMaxDepth = 200;

  bool null() { return add(Json()); }
  bool boolean(bool value) { return add(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return add(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return add(Json(value)); }
  bool number_float(Json::number_float_t value, const std::string&) { return add(Json(value)); }
  bool string(std::string& value) { return add(Json(std::move(value))); }
  bool binary(Json::binary_t&) { return fail("binary value"); }  // only binary formats have them
  bool start_object(size_t) { return open(Json::object()); }
  bool key(std::string& name) {
    key_ = std::move(name);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(size_t) { return open(Json::array()); }
  bool end_array() { return close(); }
  bool parse_error(size_t, const std::string&, const Json::exception& error) {
    // "[json.exception.parse_error.101] parse error at line 1, column 4: ...": the id names an
    // exception that is never thrown here.
    std::string what = error.what();
    size_t id_end = what.rfind("] ", what.find(' '));
    return fail(what[0] == '[' && id_end != std::string::npos ? what.substr(id_end + 2) : what);
  }

  Json& root() { return root_; }
  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  // Places a value in the open array or object (after its key), or as the root.
  Json* place(Json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.elements().back();
    }
    Json& slot = parent[key_];  // a repeated key keeps its first place and its last value
    slot = std::move(value);
    return &slot;
  }
  bool add(Json value) {
    place(std::move(value));
    return true;
  }
  // Containers are only ever added to while they are the innermost open one, so the pointers
  // to the enclosing ones stay valid.
  bool open(Json container) {
    if (open_.size() >= kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    open_.push_back(place(std::move(container)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  Json root_;
  std::vector<Json*> open_;
  std::string key_;
  std::string error_;
};

}  // namespace

std::optional<Json> Json::parse(std::string_view text, std::string* error) {
  TreeBuilder builder;
  // Strict: the whole text is one value; no comments.
  if (!Tree::sax_parse(text.data(), text.data() + text.size(), &builder)) {
    if (error) *error = builder.error().empty() ? "not JSON" : builder.error();
    return std::nullopt;
  }
  return std::move(builder.root());
}

std::string json_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

}  // namespace logscope
