#include "ulog/values.h"

#include <cstring>

#include "core/report.h"

namespace logscope::ulog {
namespace {

Json scalar_json(BaseType type, const uint8_t* p) {
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (type) {
    case BaseType::Int8: return Json(static_cast<int64_t>(get(int8_t{})));
    case BaseType::UInt8: return Json(static_cast<uint64_t>(get(uint8_t{})));
    case BaseType::Int16: return Json(static_cast<int64_t>(get(int16_t{})));
    case BaseType::UInt16: return Json(static_cast<uint64_t>(get(uint16_t{})));
    case BaseType::Int32: return Json(static_cast<int64_t>(get(int32_t{})));
    case BaseType::UInt32: return Json(static_cast<uint64_t>(get(uint32_t{})));
    case BaseType::Int64: return Json(get(int64_t{}));
    case BaseType::UInt64: return Json(get(uint64_t{}));
    case BaseType::Float: return Json(static_cast<double>(get(float{})));
    case BaseType::Double: return Json(get(double{}));
    case BaseType::Bool: return Json(get(uint8_t{}) != 0);
    case BaseType::Char: return Json(std::string(1, static_cast<char>(get(uint8_t{}))));
    case BaseType::Nested: break;
  }
  return Json();
}

Json decode_into(const FormatSet& set, const Format& format, const uint8_t* data, size_t size, int depth) {
  Json out = Json::object();
  if (depth > 32) return out;
  for (const Field& field : format.fields) {
    if (field.padding() || static_cast<size_t>(field.offset) + field.size > size) continue;
    const uint8_t* p = data + field.offset;
    if (field.base == BaseType::Char && field.array) {
      out[field.name] = char_string(p, field.array);
    } else if (field.base != BaseType::Nested) {
      if (!field.array) {
        out[field.name] = scalar_json(field.base, p);
      } else {
        Json list = Json::array();
        for (uint32_t i = 0; i < field.array; ++i) list.push_back(scalar_json(field.base, p + i * base_size(field.base)));
        out[field.name] = std::move(list);
      }
    } else if (field.nested >= 0) {
      const Format& inner = set.formats[static_cast<size_t>(field.nested)];
      if (!field.array) {
        out[field.name] = decode_into(set, inner, p, inner.size, depth + 1);
      } else {
        Json list = Json::array();
        for (uint32_t i = 0; i < field.array; ++i) list.push_back(decode_into(set, inner, p + i * inner.size, inner.size, depth + 1));
        out[field.name] = std::move(list);
      }
    }
  }
  return out;
}

}  // namespace

bool split_key(std::string_view key, std::string* type, std::string* name) {
  size_t space = key.find(' ');
  if (space == std::string_view::npos || space == 0) return false;
  *type = std::string(key.substr(0, space));
  *name = std::string(key.substr(space + 1));
  return true;
}

Json typed_value(std::string_view type, const uint8_t* data, size_t size) {
  std::string_view base_name = type;
  uint64_t count = 0;
  size_t open = type.find('[');
  if (open != std::string_view::npos && type.back() == ']') {
    base_name = type.substr(0, open);
    for (char c : type.substr(open + 1, type.size() - open - 2)) {
      if (c < '0' || c > '9' || count > 1000000) {
        count = 0;
        break;
      }
      count = count * 10 + static_cast<uint64_t>(c - '0');
    }
  }
  BaseType base = base_type(base_name);
  size_t element = base_size(base);
  if (base == BaseType::Char) return char_string(data, size);  // the value's bytes, whatever N says
  if (base == BaseType::Nested || size < element * (count ? count : 1)) return hex_string(data, size);
  if (!count) return scalar_json(base, data);
  Json list = Json::array();
  for (uint64_t i = 0; i < count; ++i) list.push_back(scalar_json(base, data + i * element));
  return list;
}

std::string value_text(const Json& value) { return value.is_string() ? value.as_string() : value.dump(); }

Json decode_fields(const FormatSet& set, const Format& format, const uint8_t* data, size_t size) {
  return decode_into(set, format, data, size, 0);
}

}  // namespace logscope::ulog
