#include "rosbag/msgdef.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

#include "core/cursor.h"
#include "core/report.h"

namespace logscope::rosbag {
namespace {

constexpr int kMaxDepth = 32;  // nesting deeper than any real message; stops self-referencing definitions

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool builtin(std::string_view name, Primitive* out) {
  static const std::pair<const char*, Primitive> table[] = {
      {"bool", Primitive::Bool},       {"int8", Primitive::Int8},       {"byte", Primitive::Int8},
      {"uint8", Primitive::UInt8},     {"char", Primitive::UInt8},      {"int16", Primitive::Int16},
      {"uint16", Primitive::UInt16},   {"int32", Primitive::Int32},     {"uint32", Primitive::UInt32},
      {"int64", Primitive::Int64},     {"uint64", Primitive::UInt64},   {"float32", Primitive::Float32},
      {"float64", Primitive::Float64}, {"string", Primitive::String},   {"time", Primitive::Time},
      {"duration", Primitive::Duration}};
  for (const auto& entry : table)
    if (name == entry.first) {
      *out = entry.second;
      return true;
    }
  return false;
}

size_t primitive_size(Primitive p) {
  switch (p) {
    case Primitive::Bool: case Primitive::Int8: case Primitive::UInt8: return 1;
    case Primitive::Int16: case Primitive::UInt16: return 2;
    case Primitive::Int32: case Primitive::UInt32: case Primitive::Float32: return 4;
    case Primitive::Int64: case Primitive::UInt64: case Primitive::Float64: case Primitive::Time: case Primitive::Duration: return 8;
    case Primitive::String: return 4;  // at least its length
    case Primitive::Message: return 0;
  }
  return 0;
}

std::string package_of(const std::string& type) {
  size_t slash = type.find('/');
  return slash == std::string::npos ? std::string() : type.substr(0, slash);
}

// The least number of bytes one value of a field's type occupies (its own array length aside):
// fixed arrays count their elements, variable arrays their 4-byte length, nesting stops at
// kMaxDepth. Memoized per (type, depth): a self-referencing type with k fields of itself would
// otherwise cost k^kMaxDepth calls. Saturates instead of wrapping.
class MinSizes {
 public:
  uint64_t of(const FieldSpec& field, int depth) {
    if (field.primitive != Primitive::Message) return primitive_size(field.primitive);
    if (field.message->fixed_size >= 0) return static_cast<uint64_t>(field.message->fixed_size);
    if (depth > kMaxDepth) return 0;
    auto key = std::make_pair(field.message, depth);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    uint64_t n = 0;
    for (const FieldSpec& f : field.message->fields) {
      uint64_t one = f.array < 0 ? 4 : of(f, depth + 1);
      if (f.array > 0) one = one > kCap / static_cast<uint64_t>(f.array) ? kCap : one * static_cast<uint64_t>(f.array);
      n = std::min(kCap, n + one);
    }
    memo_[key] = n;
    return n;
  }

 private:
  static constexpr uint64_t kCap = uint64_t{1} << 62;
  std::map<std::pair<const MessageSpec*, int>, uint64_t> memo_;
};

// A field path ("pose.points[3].x"), spelled out only when an error names it: building it for
// every element made arrays of small messages with long field names quadratic.
struct Path {
  const Path* parent;
  const std::string* name;  // a field; null for an array element
  uint64_t index;
};

std::string path_string(const Path* path) {
  if (!path) return std::string();
  std::string head = path_string(path->parent);
  if (path->name) return head.empty() ? *path->name : head + "." + *path->name;
  return head + "[" + std::to_string(path->index) + "]";
}

// Parses one section's lines into `spec` (field types stay unresolved names).
bool parse_section(std::string_view text, MessageSpec* spec, std::string* error) {
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.empty() || line[0] == '#') continue;
    size_t space = line.find_first_of(" \t");
    if (space == std::string_view::npos) {
      *error = "line '" + std::string(line) + "' of " + spec->name + " has a type but no name";
      return false;
    }
    std::string type(line.substr(0, space));
    std::string_view rest = trim(line.substr(space + 1));
    size_t eq = rest.find('=');
    size_t hash = rest.find('#');
    if (eq != std::string_view::npos && (hash == std::string_view::npos || eq < hash || type == "string")) {
      ConstantSpec constant;
      constant.type = type;
      constant.name = std::string(trim(rest.substr(0, eq)));
      std::string_view value = rest.substr(eq + 1);
      if (type != "string") {  // a string constant keeps '#' as part of its value
        size_t h = value.find('#');
        if (h != std::string_view::npos) value = value.substr(0, h);
      }
      constant.value = std::string(trim(value));
      spec->constants.push_back(std::move(constant));
      continue;
    }
    if (hash != std::string_view::npos) rest = trim(rest.substr(0, hash));
    size_t name_end = rest.find_first_of(" \t");
    FieldSpec field;
    field.name = std::string(name_end == std::string_view::npos ? rest : rest.substr(0, name_end));
    size_t bracket = type.find('[');
    if (bracket != std::string::npos) {
      size_t close = type.find(']', bracket);
      if (close == std::string::npos || close != type.size() - 1) {
        *error = "field '" + field.name + "' of " + spec->name + " has a malformed array type '" + type + "'";
        return false;
      }
      std::string count = type.substr(bracket + 1, close - bracket - 1);
      if (count.empty()) {
        field.array = -1;
      } else {
        field.array = 0;
        for (char ch : count) {
          if (!std::isdigit(static_cast<unsigned char>(ch)) || field.array > 100000000) {
            *error = "field '" + field.name + "' of " + spec->name + " has a bad array length '" + count + "'";
            return false;
          }
          field.array = field.array * 10 + (ch - '0');
        }
      }
      type = type.substr(0, bracket);
    }
    if (type.empty()) {
      *error = "field '" + field.name + "' of " + spec->name + " has an array length but no type";
      return false;
    }
    field.type_name = type;
    spec->fields.push_back(std::move(field));
  }
  return true;
}

}  // namespace

std::unique_ptr<MessageSchema> MessageSchema::parse(const std::string& root_type, const std::string& definition, std::string* error) {
  auto schema = std::unique_ptr<MessageSchema>(new MessageSchema());
  // Split at separator lines (a run of '=' at the start of a line).
  std::vector<std::pair<std::string, std::string_view>> sections;
  std::string_view text(definition);
  std::string current_name = root_type;
  size_t section_start = 0, pos = 0;
  auto close_section = [&](size_t end) { sections.emplace_back(current_name, text.substr(section_start, end - section_start)); };
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = trim(text.substr(pos, eol - pos));
    if (line.size() >= 3 && line.substr(0, 3) == "===") {
      close_section(pos);
      // The next non-empty line names the type: "MSG: pkg/Type".
      size_t next = eol + 1;
      current_name.clear();
      while (next < text.size()) {
        size_t e = text.find('\n', next);
        if (e == std::string_view::npos) e = text.size();
        std::string_view l = trim(text.substr(next, e - next));
        next = e + 1;
        if (l.empty()) continue;
        if (l.substr(0, 4) == "MSG:") current_name = std::string(trim(l.substr(4)));
        break;
      }
      if (current_name.empty()) {
        *error = "a '===' separator in the definition of " + root_type + " is not followed by 'MSG: pkg/Type'";
        return nullptr;
      }
      section_start = pos = std::min(next, text.size());
      continue;
    }
    pos = eol + 1;
  }
  close_section(text.size());
  for (const auto& section : sections) {
    auto spec = std::make_unique<MessageSpec>();
    spec->name = section.first;
    if (!parse_section(section.second, spec.get(), error)) return nullptr;
    if (!schema->types_.count(spec->name)) schema->types_[spec->name] = std::move(spec);
  }
  // Resolve field types: builtins, Header, pkg/Type, or a name relative to the containing package.
  for (auto& entry : schema->types_) {
    MessageSpec& spec = *entry.second;
    for (FieldSpec& field : spec.fields) {
      if (builtin(field.type_name, &field.primitive)) continue;
      field.primitive = Primitive::Message;
      std::string name = field.type_name;
      if (name == "Header") name = "std_msgs/Header";
      else if (name.find('/') == std::string::npos) name = package_of(spec.name) + "/" + name;
      auto it = schema->types_.find(name);
      if (it == schema->types_.end()) {
        for (auto& candidate : schema->types_) {  // tolerate a package the writer left implicit
          const std::string& n = candidate.first;
          if (n.size() > field.type_name.size() && n.compare(n.size() - field.type_name.size(), std::string::npos, field.type_name) == 0 &&
              n[n.size() - field.type_name.size() - 1] == '/') {
            it = schema->types_.find(n);
            break;
          }
        }
      }
      if (it == schema->types_.end()) {
        *error = "field '" + field.name + "' of " + spec.name + " has type " + field.type_name + ", which the definition does not define";
        return nullptr;
      }
      field.type_name = it->first;
      field.message = it->second.get();
    }
  }
  schema->root_ = schema->types_[root_type].get();
  // Fixed sizes, innermost first (a definition referring to itself stays variable).
  for (int pass = 0; pass < kMaxDepth; ++pass) {
    bool changed = false;
    for (auto& entry : schema->types_) {
      MessageSpec& spec = *entry.second;
      if (spec.fixed_size >= 0) continue;
      int64_t total = 0;
      for (const FieldSpec& f : spec.fields) {
        int64_t one = f.primitive == Primitive::Message ? f.message->fixed_size
                      : f.primitive == Primitive::String ? -1
                                                          : static_cast<int64_t>(primitive_size(f.primitive));
        if (one < 0 || f.array < 0 || (f.array > 0 && one > 0 && f.array > (int64_t{1} << 40) / one)) {
          total = -1;
          break;
        }
        total += f.array > 0 ? one * f.array : one;
        if (total > (int64_t{1} << 40)) {  // bigger than any record: treat as variable, never overflow
          total = -1;
          break;
        }
      }
      if (total >= 0) spec.fixed_size = total, changed = true;
    }
    if (!changed) break;
  }
  return schema;
}

namespace {

struct Decoder {
  Cursor cursor;
  const DecodeOptions& options;
  std::string* error;
  bool failed = false;
  MinSizes sizes;

  void fail(const Path* path, const std::string& what) {
    if (failed) return;
    failed = true;
    *error = "field '" + path_string(path) + "': " + what + " (at message byte " + std::to_string(cursor.position()) + ")";
  }

  Json primitive(Primitive p, bool build) {
    switch (p) {
      case Primitive::Bool: return cursor.u8() != 0;
      case Primitive::Int8: return static_cast<int>(static_cast<int8_t>(cursor.u8()));
      case Primitive::UInt8: return cursor.u8();
      case Primitive::Int16: return static_cast<int>(cursor.read<int16_t>());
      case Primitive::UInt16: return cursor.u16();
      case Primitive::Int32: return cursor.i32();
      case Primitive::UInt32: return cursor.u32();
      case Primitive::Int64: return cursor.i64();
      case Primitive::UInt64: return cursor.u64();
      case Primitive::Float32: return static_cast<double>(cursor.f32());
      case Primitive::Float64: return cursor.f64();
      case Primitive::String: {
        uint32_t len = cursor.u32();
        std::string_view bytes = cursor.bytes(len);
        return build ? Json(bytes) : Json();
      }
      case Primitive::Time: case Primitive::Duration: {
        Json t = Json::object();
        if (p == Primitive::Time) {
          uint32_t s = cursor.u32(), n = cursor.u32();
          if (build) t["secs"] = s, t["nsecs"] = n;
        } else {
          int32_t s = cursor.i32(), n = cursor.i32();
          if (build) t["secs"] = s, t["nsecs"] = n;
        }
        return t;
      }
      case Primitive::Message: break;
    }
    return Json();
  }

  Json value(const FieldSpec& field, const Path* path, int depth, bool build) {
    if (field.primitive == Primitive::Message) return message(*field.message, path, depth + 1, build);
    return primitive(field.primitive, build);
  }

  Json array(const FieldSpec& field, const Path* path, int depth, bool build) {
    uint64_t count = field.array >= 0 ? static_cast<uint64_t>(field.array) : cursor.u32();
    if (!cursor.ok()) {
      fail(path, "the message ends before the array length");
      return Json();
    }
    uint64_t element_min = sizes.of(field, depth);
    if (element_min > 0 && count > cursor.remaining() / element_min) {
      fail(path, "array of " + std::to_string(count) + " " + field.type_name + " needs at least " +
                     std::to_string(count * element_min) + " bytes, " + std::to_string(cursor.remaining()) + " remain");
      return Json();
    }
    if (field.primitive == Primitive::UInt8) {  // uint8[] and char[] are bytes
      std::string_view bytes = cursor.bytes(static_cast<size_t>(count));
      if (!build) return Json();
      return bytes_json(bytes, options.bytes_preview, options.raw_bytes);
    }
    Json elements = Json::array();
    size_t fixed = field.primitive == Primitive::Message || field.primitive == Primitive::String ? 0 : primitive_size(field.primitive);
    for (uint64_t i = 0; i < count && !failed; ++i) {
      // Elements of a type that holds no bytes are kept to 16 whatever the preview: nothing bounds their count.
      bool keep = build && i < options.array_preview && (element_min > 0 || i < 16);
      if (!keep && fixed) {  // skip the rest of a fixed-size array at once
        cursor.skip(static_cast<size_t>((count - i) * fixed));
        break;
      }
      // A message type of minimum size 0 has no data at all: every element reads nothing and fails
      // (nesting too deep) or not alike, so after the first the remaining ones are skipped.
      if (!keep && element_min == 0 && i > 0) break;
      Path element_path{path, nullptr, i};
      Json element = value(field, &element_path, depth, keep);
      if (!cursor.ok()) {
        fail(&element_path, "the message ends inside this element");
        break;
      }
      if (keep) elements.push_back(std::move(element));
    }
    if (!build) return Json();
    if (count <= options.array_preview && elements.size() == count) return elements;
    Json j = Json::object();
    j["length"] = count;
    j["first"] = std::move(elements);
    return j;
  }

  Json message(const MessageSpec& spec, const Path* path, int depth, bool build) {
    if (depth > kMaxDepth) {
      fail(path, "nesting deeper than " + std::to_string(kMaxDepth) + " levels (a self-referencing definition?)");
      return Json();
    }
    Json j = Json::object();
    for (const FieldSpec& field : spec.fields) {
      if (failed) break;
      Path field_path{path, &field.name, 0};
      Json v = field.array != 0 ? array(field, &field_path, depth, build) : value(field, &field_path, depth, build);
      if (!cursor.ok()) fail(&field_path, "the message ends inside this field");
      if (build) j[field.name] = std::move(v);
    }
    return j;
  }
};

}  // namespace

namespace {

// decode() without output: the same checks in the same order, so it fails exactly when decode()
// reports an error.
struct Validator {
  const uint8_t* p;
  size_t left;
  MinSizes sizes;

  bool skip(uint64_t n) {
    if (n > left) return false;
    p += n;
    left -= static_cast<size_t>(n);
    return true;
  }
  bool u32(uint32_t* v) {
    if (left < 4) return false;
    std::memcpy(v, p, 4);
    p += 4;
    left -= 4;
    return true;
  }
  bool value(const FieldSpec& field, int depth) {
    if (field.primitive == Primitive::Message) return message(*field.message, depth + 1);
    if (field.primitive == Primitive::String) {
      uint32_t len;
      return u32(&len) && skip(len);
    }
    return skip(primitive_size(field.primitive));
  }
  bool message(const MessageSpec& spec, int depth) {
    if (depth > kMaxDepth) return false;
    if (spec.fixed_size >= 0) return skip(static_cast<uint64_t>(spec.fixed_size));
    for (const FieldSpec& field : spec.fields) {
      if (field.array == 0) {
        if (!value(field, depth)) return false;
        continue;
      }
      uint64_t count;
      if (field.array > 0) {
        count = static_cast<uint64_t>(field.array);
      } else {
        uint32_t n;
        if (!u32(&n)) return false;
        count = n;
      }
      uint64_t element_min = sizes.of(field, depth);
      if (element_min > 0 && count > left / element_min) return false;
      if (field.primitive != Primitive::Message && field.primitive != Primitive::String) {
        if (!skip(count * primitive_size(field.primitive))) return false;
        continue;
      }
      if (field.primitive == Primitive::Message && field.message->fixed_size >= 0) {
        if (depth + 1 > kMaxDepth || !skip(count * static_cast<uint64_t>(field.message->fixed_size))) return false;
        continue;
      }
      if (element_min == 0) {  // elements that hold no data: the first fails (too deep) or none does
        if (count > 0 && !value(field, depth)) return false;
        continue;
      }
      for (uint64_t i = 0; i < count; ++i)
        if (!value(field, depth)) return false;
    }
    return true;
  }
};

}  // namespace

bool MessageSchema::validate(const uint8_t* data, size_t size) const {
  Validator v{data, size, {}};
  return v.message(*root_, 0) && v.left == 0;
}

Json MessageSchema::decode(const uint8_t* data, size_t size, const DecodeOptions& options, std::string* error) const {
  error->clear();
  Decoder decoder{Cursor(data, size), options, error, false, {}};
  Json result = decoder.message(*root_, nullptr, 0, true);
  if (!decoder.failed && decoder.cursor.remaining() > 0)
    *error = std::to_string(decoder.cursor.remaining()) + " bytes are left after decoding: the definition does not match the data";
  return result;
}

}  // namespace logscope::rosbag
