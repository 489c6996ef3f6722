#include "core/json.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace logscope {

static long long clamped_to_int(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 9223372036854775808.0) return INT64_MAX;
  if (value < -9223372036854775808.0) return INT64_MIN;
  return static_cast<long long>(value);
}

long long Json::as_int() const {
  switch (type_) {
    case Type::Int: return int_;
    case Type::UInt: return uint_ > static_cast<unsigned long long>(INT64_MAX) ? INT64_MAX : static_cast<long long>(uint_);
    case Type::Double: return clamped_to_int(double_);
    default: return 0;
  }
}

// Out-of-range values clamp instead of wrapping (casting a negative or too large double to an
// integer is undefined behaviour): -1 -> 0, 1e30 -> max, NaN -> 0.
unsigned long long Json::as_uint() const {
  switch (type_) {
    case Type::Int: return 0;  // int_ is only ever negative
    case Type::UInt: return uint_;
    case Type::Double:
      if (!(double_ > 0)) return 0;
      if (double_ >= 18446744073709551616.0) return ~0ULL;
      return static_cast<unsigned long long>(double_);
    default: return 0;
  }
}

double Json::as_double() const {
  switch (type_) {
    case Type::Int: return static_cast<double>(int_);
    case Type::UInt: return static_cast<double>(uint_);
    case Type::Double: return double_;
    default: return 0;
  }
}

Json& Json::operator[](const std::string& key) {
  if (type_ == Type::Null) type_ = Type::Object;
  for (auto& member : members_)
    if (member.first == key) return member.second;
  members_.emplace_back(key, Json());
  return members_.back().second;
}

const Json* Json::find(const std::string& key) const {
  for (auto& member : members_)
    if (member.first == key) return &member.second;
  return nullptr;
}

void Json::push_back(Json value) {
  if (type_ == Type::Null) type_ = Type::Array;
  elements_.push_back(std::move(value));
}

bool Json::operator==(const Json& other) const {
  if (is_number() && other.is_number()) {
    if (type_ == Type::Double || other.type_ == Type::Double) return as_double() == other.as_double();
    if ((type_ == Type::Int) != (other.type_ == Type::Int)) return false;
    return type_ == Type::Int ? int_ == other.int_ : uint_ == other.uint_;
  }
  if (type_ != other.type_) return false;
  switch (type_) {
    case Type::Null: return true;
    case Type::Bool: return bool_ == other.bool_;
    case Type::String: return string_ == other.string_;
    case Type::Array: return elements_ == other.elements_;
    case Type::Object: return members_ == other.members_;
    default: return false;
  }
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

// Strings from files may hold invalid UTF-8; JSON output must stay valid, so bad bytes become U+FFFD.
static std::string sanitize_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = text[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 2;
    if (ok) {
      out.append(text, i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      i += 1;
    }
  }
  return out;
}

static void newline(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<size_t>(indent * depth), ' ');
}

void Json::dump_to(std::string& out, int indent, int depth) const {
  switch (type_) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += bool_ ? "true" : "false"; break;
    case Type::Int: out += std::to_string(int_); break;
    case Type::UInt: out += std::to_string(uint_); break;
    case Type::Double: {
      if (!std::isfinite(double_)) {
        out += "null";
        break;
      }
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", double_);
      // Prefer the shortest text that round-trips.
      for (int precision = 6; precision < 17; ++precision) {
        char shorter[32];
        std::snprintf(shorter, sizeof shorter, "%.*g", precision, double_);
        if (std::strtod(shorter, nullptr) == double_) {
          std::snprintf(buf, sizeof buf, "%s", shorter);
          break;
        }
      }
      out += buf;
      break;
    }
    case Type::String:
      out += '"';
      out += json_escape(sanitize_utf8(string_));
      out += '"';
      break;
    case Type::Array:
      out += '[';
      for (size_t i = 0; i < elements_.size(); ++i) {
        if (i) out += ',';
        newline(out, indent, depth + 1);
        elements_[i].dump_to(out, indent, depth + 1);
      }
      if (!elements_.empty()) newline(out, indent, depth);
      out += ']';
      break;
    case Type::Object:
      out += '{';
      for (size_t i = 0; i < members_.size(); ++i) {
        if (i) out += ',';
        newline(out, indent, depth + 1);
        out += '"';
        out += json_escape(sanitize_utf8(members_[i].first));
        out += indent < 0 ? "\":" : "\": ";
        members_[i].second.dump_to(out, indent, depth + 1);
      }
      if (!members_.empty()) newline(out, indent, depth);
      out += '}';
      break;
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<Json> parse_document(std::string* error) {
    std::optional<Json> value = parse_value(0);
    skip_space();
    if (value && pos_ != text_.size()) fail("trailing characters");
    if (!error_.empty()) {
      if (error) *error = error_ + " at character " + std::to_string(pos_);
      return std::nullopt;
    }
    return value;
  }

 private:
  void fail(const std::string& why) {
    if (error_.empty()) error_ = why;
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t')) ++pos_;
  }
  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool take_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }

  std::optional<Json> parse_value(int depth) {
    if (depth > 200) {
      fail("nesting too deep");
      return std::nullopt;
    }
    skip_space();
    if (pos_ >= text_.size()) {
      fail("unexpected end");
      return std::nullopt;
    }
    char c = text_[pos_];
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') {
      auto s = parse_string();
      if (!s) return std::nullopt;
      return Json(*s);
    }
    if (take_word("true")) return Json(true);
    if (take_word("false")) return Json(false);
    if (take_word("null")) return Json();
    return parse_number();
  }

  std::optional<Json> parse_object(int depth) {
    ++pos_;
    Json object = Json::object();
    if (take('}')) return object;
    do {
      skip_space();
      auto key = parse_string();
      if (!key) return std::nullopt;
      if (!take(':')) {
        fail("expected ':'");
        return std::nullopt;
      }
      auto value = parse_value(depth + 1);
      if (!value) return std::nullopt;
      object[*key] = std::move(*value);
    } while (take(','));
    if (!take('}')) {
      fail("expected '}'");
      return std::nullopt;
    }
    return object;
  }

  std::optional<Json> parse_array(int depth) {
    ++pos_;
    Json array = Json::array();
    if (take(']')) return array;
    do {
      auto value = parse_value(depth + 1);
      if (!value) return std::nullopt;
      array.push_back(std::move(*value));
    } while (take(','));
    if (!take(']')) {
      fail("expected ']'");
      return std::nullopt;
    }
    return array;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::optional<unsigned> parse_hex4() {
    if (pos_ + 4 > text_.size()) return std::nullopt;
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9') code |= h - '0';
      else if (h >= 'a' && h <= 'f') code |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F') code |= h - 'A' + 10;
      else return std::nullopt;
    }
    return code;
  }

  std::optional<std::string> parse_string() {
    if (pos_ >= text_.size() || text_[pos_] != '"') {
      fail("expected string");
      return std::nullopt;
    }
    ++pos_;
    std::string out;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          auto code = parse_hex4();
          if (!code) {
            fail("bad \\u escape");
            return std::nullopt;
          }
          if (*code >= 0xD800 && *code < 0xDC00 && take_word("\\u")) {
            auto low = parse_hex4();
            if (low && *low >= 0xDC00 && *low < 0xE000) *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
          }
          append_utf8(out, *code);
          break;
        }
        default: fail("bad escape"); return std::nullopt;
      }
    }
    fail("unterminated string");
    return std::nullopt;
  }

  // RFC 8259 number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. Anything else after a valid
  // number (`0-0`) is left for the caller, which then fails on it.
  std::optional<Json> parse_number() {
    size_t start = pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative) ++pos_;
    bool leading_zero = pos_ < text_.size() && text_[pos_] == '0';
    size_t int_digits = digits();
    if (int_digits == 0 || (leading_zero && int_digits > 1)) {
      fail(int_digits == 0 ? "unexpected character" : "leading zero in a number");
      return std::nullopt;
    }
    bool is_integer = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      is_integer = false;
      if (digits() == 0) {
        fail("expected a digit after '.'");
        return std::nullopt;
      }
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      is_integer = false;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) {
        fail("expected a digit in the exponent");
        return std::nullopt;
      }
    }
    std::string token(text_.substr(start, pos_ - start));
    if (is_integer) {
      // Integers keep all 64 bits (timestamps in ns exceed 2^53). "-0" stays a negative zero
      // double, as -0.0 prints as "-0" and must read back the same.
      if (negative) {
        long long v = std::strtoll(token.c_str(), nullptr, 10);
        if (v == 0) return Json(-0.0);
        return Json(v);
      }
      unsigned long long v = std::strtoull(token.c_str(), nullptr, 10);
      return Json(v);
    }
    return Json(std::strtod(token.c_str(), nullptr));
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

std::optional<Json> Json::parse(std::string_view text, std::string* error) {
  return Parser(text).parse_document(error);
}

}  // namespace logscope
