#include "ulog/format.h"

#include <cstring>
#include <functional>

namespace logscope::ulog {

bool looks_like_ulog(std::string_view head) {
  return head.size() >= kMagicSize + 1 && head.substr(0, kMagicSize) == std::string_view(kMagic, kMagicSize) &&
         static_cast<uint8_t>(head[kMagicSize]) <= 1;
}

std::string diagnose_ulog_head(std::string_view head, uint64_t size) {
  std::string_view magic(kMagic, kMagicSize);
  if (head.empty()) return "";
  if (head.size() < kMagicSize) {
    if (magic.substr(0, head.size()) == head) return "the file ends inside the ULog magic (" + std::to_string(size) + " bytes)";
    return "";
  }
  if (head.substr(0, kMagicSize) != magic) return "";
  if (head.size() == kMagicSize) return "the file ends after the ULog magic, before its version byte";
  if (static_cast<uint8_t>(head[kMagicSize]) > 1)
    return "ULog version " + std::to_string(static_cast<uint8_t>(head[kMagicSize])) + " (this reader knows versions 0 and 1)";
  if (size < kHeaderSize) return "the file ends inside the 16-byte ULog header (" + std::to_string(size) + " bytes)";
  return "";
}

bool known_message_type(uint8_t type) {
  switch (type) {
    case 'B': case 'F': case 'I': case 'M': case 'P': case 'Q': case 'A': case 'R': case 'D': case 'L': case 'C': case 'S': case 'O':
      return true;
    default:
      return false;
  }
}

std::string type_name(uint8_t type) {
  switch (type) {
    case 'B': return "flag bits";
    case 'F': return "format";
    case 'I': return "info";
    case 'M': return "info multiple";
    case 'P': return "parameter";
    case 'Q': return "default parameter";
    case 'A': return "add subscription";
    case 'R': return "remove subscription";
    case 'D': return "data";
    case 'L': return "logged string";
    case 'C': return "tagged logged string";
    case 'S': return "sync";
    case 'O': return "dropout";
    default: break;
  }
  return "unknown type " + std::to_string(type);
}

BaseType base_type(std::string_view name) {
  static const std::pair<const char*, BaseType> kTypes[] = {
      {"int8_t", BaseType::Int8},   {"uint8_t", BaseType::UInt8},   {"int16_t", BaseType::Int16}, {"uint16_t", BaseType::UInt16},
      {"int32_t", BaseType::Int32}, {"uint32_t", BaseType::UInt32}, {"int64_t", BaseType::Int64}, {"uint64_t", BaseType::UInt64},
      {"float", BaseType::Float},   {"double", BaseType::Double},   {"bool", BaseType::Bool},     {"char", BaseType::Char}};
  for (const auto& [text, type] : kTypes)
    if (name == text) return type;
  return BaseType::Nested;
}

size_t base_size(BaseType type) {
  switch (type) {
    case BaseType::Int8: case BaseType::UInt8: case BaseType::Bool: case BaseType::Char: return 1;
    case BaseType::Int16: case BaseType::UInt16: return 2;
    case BaseType::Int32: case BaseType::UInt32: case BaseType::Float: return 4;
    case BaseType::Int64: case BaseType::UInt64: case BaseType::Double: return 8;
    case BaseType::Nested: break;
  }
  return 0;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r' || s.back() == '\0')) s.remove_suffix(1);
  return s;
}

// "float[3]" -> ("float", 3); "uint8_t" -> ("uint8_t", 0). False on a malformed count.
bool split_array(std::string_view text, std::string_view* type, uint32_t* count) {
  size_t open = text.find('[');
  if (open == std::string_view::npos) {
    *type = text;
    *count = 0;
    return !text.empty();
  }
  if (text.back() != ']' || open == 0 || open + 2 >= text.size()) return false;
  uint64_t n = 0;
  for (char c : text.substr(open + 1, text.size() - open - 2)) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<uint64_t>(c - '0');
    if (n > 65535) return false;  // a message is at most 65535 bytes
  }
  *type = text.substr(0, open);
  *count = static_cast<uint32_t>(n);
  return n > 0;
}

}  // namespace

bool parse_format(std::string_view text, Format* out, std::string* error) {
  text = trim(text);
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    *error = "no 'name:' at the start of the format";
    return false;
  }
  out->name = std::string(text.substr(0, colon));
  out->fields.clear();
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    size_t semi = rest.find(';');
    std::string_view item = trim(rest.substr(0, semi));
    rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
    if (item.empty()) continue;
    size_t space = item.rfind(' ');
    if (space == std::string_view::npos) {
      *error = "field '" + std::string(item) + "' has no type and name";
      return false;
    }
    Field f;
    std::string_view type;
    if (!split_array(trim(item.substr(0, space)), &type, &f.array)) {
      *error = "field '" + std::string(item) + "' has a malformed type";
      return false;
    }
    f.type = std::string(type);
    f.name = std::string(trim(item.substr(space + 1)));
    f.base = base_type(type);
    if (f.name.empty()) {
      *error = "field '" + std::string(item) + "' has no name";
      return false;
    }
    out->fields.push_back(std::move(f));
  }
  if (out->fields.empty()) {
    *error = "format '" + out->name + "' has no fields";
    return false;
  }
  return true;
}

void FormatSet::add(Format format) {
  auto it = by_name.find(format.name);
  if (it != by_name.end()) {
    formats[it->second] = std::move(format);
    return;
  }
  by_name.emplace(format.name, formats.size());
  formats.push_back(std::move(format));
}

const Format* FormatSet::find(std::string_view name) const {
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : &formats[it->second];
}

void FormatSet::resolve() {
  enum State { Unvisited, Visiting, Done };
  std::vector<State> state(formats.size(), Unvisited);
  std::function<bool(size_t)> visit = [&](size_t i) -> bool {
    Format& f = formats[i];
    if (state[i] == Done) return f.resolved;
    if (state[i] == Visiting) {
      f.error = "format '" + f.name + "' contains itself";
      return false;
    }
    state[i] = Visiting;
    f.resolved = false;
    f.error.clear();
    f.timestamp_field = -1;
    uint64_t offset = 0;
    bool ok = true;
    for (size_t k = 0; k < f.fields.size(); ++k) {
      Field& field = f.fields[k];
      uint64_t element = base_size(field.base);
      if (field.base == BaseType::Nested) {
        auto it = by_name.find(field.type);
        if (it == by_name.end()) {
          f.error = "field '" + field.name + "' has the unknown type '" + field.type + "'";
          ok = false;
          break;
        }
        field.nested = static_cast<int>(it->second);
        if (!visit(it->second)) {
          f.error = "field '" + field.name + "': " + formats[it->second].error;
          ok = false;
          break;
        }
        element = formats[it->second].size;
      }
      field.offset = static_cast<uint32_t>(offset);
      uint64_t size = element * field.count();
      offset += size;
      if (offset > 65535) {
        f.error = "format '" + f.name + "' is larger than a message can be";
        ok = false;
        break;
      }
      field.size = static_cast<uint32_t>(size);
      if (field.name == "timestamp" && field.base == BaseType::UInt64 && field.array == 0) f.timestamp_field = static_cast<int>(k);
    }
    state[i] = Done;
    if (!ok) return false;
    f.size = static_cast<uint32_t>(offset);
    f.data_size = f.size;
    for (size_t k = f.fields.size(); k-- > 0 && f.fields[k].padding();) f.data_size = f.fields[k].offset;
    f.resolved = true;
    return true;
  };
  for (size_t i = 0; i < formats.size(); ++i) visit(i);
}

bool flatten(const FormatSet& set, const Format& format, std::vector<Leaf>* out, std::string* error, size_t max_leaves) {
  std::function<bool(const Format&, const std::string&, uint32_t, int)> walk = [&](const Format& f, const std::string& prefix, uint32_t base,
                                                                                    int depth) -> bool {
    if (depth > 32) {
      *error = "types nest deeper than 32 levels";
      return false;
    }
    for (const Field& field : f.fields) {
      if (field.padding()) continue;
      if (field.base == BaseType::Char && field.array) {
        out->push_back(Leaf{prefix + field.name, BaseType::Char, base + field.offset, field.array});
      } else if (field.base != BaseType::Nested) {
        for (uint32_t i = 0; i < field.count(); ++i) {
          std::string name = field.array ? prefix + field.name + "[" + std::to_string(i) + "]" : prefix + field.name;
          out->push_back(Leaf{std::move(name), field.base, base + field.offset + i * static_cast<uint32_t>(base_size(field.base)), 0});
        }
      } else {
        if (field.nested < 0) {
          *error = "field '" + field.name + "' has an unknown type";
          return false;
        }
        const Format& inner = set.formats[static_cast<size_t>(field.nested)];
        for (uint32_t i = 0; i < field.count(); ++i) {
          std::string name = field.array ? prefix + field.name + "[" + std::to_string(i) + "]." : prefix + field.name + ".";
          if (!walk(inner, name, base + field.offset + i * inner.size, depth + 1)) return false;
        }
      }
      if (out->size() > max_leaves) {
        *error = "format '" + format.name + "' flattens to more than " + std::to_string(max_leaves) + " columns";
        return false;
      }
    }
    return true;
  };
  out->clear();
  if (!format.resolved) {
    *error = format.error.empty() ? "format '" + format.name + "' is not resolved" : format.error;
    return false;
  }
  return walk(format, "", 0, 0);
}

std::string char_string(const uint8_t* data, size_t size) {
  const void* nul = std::memchr(data, 0, size);
  size_t n = nul ? static_cast<size_t>(static_cast<const uint8_t*>(nul) - data) : size;
  return std::string(reinterpret_cast<const char*>(data), n);
}

double scalar_as_double(BaseType type, const uint8_t* p) {
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (type) {
    case BaseType::Int8: return get(int8_t{});
    case BaseType::UInt8: return get(uint8_t{});
    case BaseType::Int16: return get(int16_t{});
    case BaseType::UInt16: return get(uint16_t{});
    case BaseType::Int32: return get(int32_t{});
    case BaseType::UInt32: return get(uint32_t{});
    case BaseType::Int64: return static_cast<double>(get(int64_t{}));
    case BaseType::UInt64: return static_cast<double>(get(uint64_t{}));
    case BaseType::Float: return get(float{});
    case BaseType::Double: return get(double{});
    case BaseType::Bool: return get(uint8_t{}) ? 1 : 0;
    case BaseType::Char: return get(uint8_t{});
    case BaseType::Nested: break;
  }
  return 0;
}

}  // namespace logscope::ulog
