#include "cdr/schema.h"

#include <cctype>
#include <string_view>
#include <utility>

namespace logscope::cdr {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// ROS 2's builtin field types (rosidl: `byte` and `char` are octets, uint8 on the wire).
bool builtin(std::string_view name, Primitive* out) {
  static const std::pair<const char*, Primitive> table[] = {
      {"bool", Primitive::Bool},     {"byte", Primitive::UInt8},     {"char", Primitive::UInt8},
      {"int8", Primitive::Int8},     {"uint8", Primitive::UInt8},    {"int16", Primitive::Int16},
      {"uint16", Primitive::UInt16}, {"int32", Primitive::Int32},    {"uint32", Primitive::UInt32},
      {"int64", Primitive::Int64},   {"uint64", Primitive::UInt64},  {"float32", Primitive::Float32},
      {"float64", Primitive::Float64}, {"string", Primitive::String}, {"wstring", Primitive::WString}};
  for (const auto& entry : table)
    if (name == entry.first) {
      *out = entry.second;
      return true;
    }
  return false;
}

bool parse_count(std::string_view digits, uint64_t* out) {
  if (digits.empty() || digits.size() > 12) return false;
  uint64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = n;
  return true;
}

// Where the comment starts: the first '#' outside single or double quotes (with '\' escapes).
size_t comment_start(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      return i;
    }
  }
  return std::string_view::npos;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// One line "TYPE NAME", "TYPE NAME DEFAULT" or "TYPE NAME=VALUE" of `type`.
bool parse_line(std::string_view line, MessageType* type, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "line '" + std::string(line) + "' of " + type->name + ": " + why;
    return false;
  };
  size_t space = line.find_first_of(" \t");
  if (space == std::string_view::npos) return fail("a type but no name");
  std::string_view type_text = line.substr(0, space);
  std::string_view rest = trim(line.substr(space + 1));
  size_t name_end = 0;
  while (name_end < rest.size() && is_name_char(rest[name_end])) ++name_end;
  if (name_end == 0) return fail("no field name");
  std::string name(rest.substr(0, name_end));
  std::string_view after = trim(rest.substr(name_end));
  if (!after.empty() && after[0] == '=') {
    Constant constant;
    constant.type = std::string(type_text);
    constant.name = name;
    std::string_view value = after.substr(1);
    size_t hash = comment_start(value);
    constant.value = std::string(trim(hash == std::string_view::npos ? value : value.substr(0, hash)));
    type->constants.push_back(std::move(constant));
    return true;
  }
  size_t hash = comment_start(after);
  if (hash != std::string_view::npos) after = trim(after.substr(0, hash));
  if (!after.empty() && name_end < rest.size() && !std::isspace(static_cast<unsigned char>(rest[name_end])))
    return fail("the name '" + name + "' is followed by '" + std::string(after) + "'");

  Field field;
  field.name = name;
  field.default_value = std::string(after);
  // The array suffix: [N], [<=N] or [].
  size_t bracket = type_text.find('[');
  if (bracket != std::string_view::npos) {
    if (type_text.back() != ']') return fail("a malformed array type");
    std::string_view inside = type_text.substr(bracket + 1, type_text.size() - bracket - 2);
    if (inside.empty()) {
      field.array = ArrayKind::Unbounded;
    } else if (inside.substr(0, 2) == "<=") {
      field.array = ArrayKind::Bounded;
      if (!parse_count(inside.substr(2), &field.array_size)) return fail("a bad sequence bound");
    } else {
      field.array = ArrayKind::Fixed;
      if (!parse_count(inside, &field.array_size) || field.array_size > Schema::kMaxFixedArray) return fail("a bad array length");
    }
    type_text = type_text.substr(0, bracket);
  }
  // The string bound: string<=N, wstring<=N.
  size_t bound = type_text.find("<=");
  if (bound != std::string_view::npos) {
    if (!parse_count(type_text.substr(bound + 2), &field.string_bound)) return fail("a bad string bound");
    type_text = type_text.substr(0, bound);
    if (type_text != "string" && type_text != "wstring") return fail("a bound on a type that is not a string");
  }
  if (type_text.empty()) return fail("no type");
  field.type_name = std::string(type_text);
  type->fields.push_back(std::move(field));
  return true;
}

// The package of "pkg/Type" or "pkg/msg/Type".
std::string package_of(const std::string& name) {
  size_t slash = name.find('/');
  return slash == std::string::npos ? std::string() : name.substr(0, slash);
}
std::string last_part(const std::string& name) {
  size_t slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace

size_t primitive_size(Primitive p) {
  switch (p) {
    case Primitive::Bool: case Primitive::Int8: case Primitive::UInt8: return 1;
    case Primitive::Int16: case Primitive::UInt16: return 2;
    case Primitive::Int32: case Primitive::UInt32: case Primitive::Float32: return 4;
    case Primitive::Int64: case Primitive::UInt64: case Primitive::Float64: return 8;
    case Primitive::String: case Primitive::WString: return 4;
    case Primitive::Message: return 0;
  }
  return 0;
}

const char* primitive_name(Primitive p) {
  switch (p) {
    case Primitive::Bool: return "bool";
    case Primitive::Int8: return "int8";
    case Primitive::UInt8: return "uint8";
    case Primitive::Int16: return "int16";
    case Primitive::UInt16: return "uint16";
    case Primitive::Int32: return "int32";
    case Primitive::UInt32: return "uint32";
    case Primitive::Int64: return "int64";
    case Primitive::UInt64: return "uint64";
    case Primitive::Float32: return "float32";
    case Primitive::Float64: return "float64";
    case Primitive::String: return "string";
    case Primitive::WString: return "wstring";
    case Primitive::Message: return "message";
  }
  return "?";
}

std::unique_ptr<Schema> Schema::parse_ros2msg(const std::string& root_name, const std::string& definition, std::string* error) {
  auto schema = std::unique_ptr<Schema>(new Schema());
  std::vector<std::unique_ptr<MessageType>> parsed;
  auto current = std::make_unique<MessageType>();
  current->name = root_name;
  bool want_name = false;  // after a '=' separator: the next line must be "MSG: pkg/Type"
  std::string_view text(definition);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line.substr(0, 2) == "==") {
      parsed.push_back(std::move(current));
      current = std::make_unique<MessageType>();
      want_name = true;
      continue;
    }
    if (want_name) {
      if (line.substr(0, 4) != "MSG:") {
        *error = "a '=' separator in the definition of " + root_name + " is not followed by 'MSG: pkg/Type'";
        return nullptr;
      }
      std::string_view name = trim(line.substr(4));
      size_t end = name.find_first_of(" \t#");
      current->name = std::string(end == std::string_view::npos ? name : name.substr(0, end));
      want_name = false;
      if (current->name.empty()) {
        *error = "an empty 'MSG:' name in the definition of " + root_name;
        return nullptr;
      }
      continue;
    }
    if (line.substr(0, 3) == "---") {
      *error = "the definition of " + root_name + " is a service or action ('---' separates its parts), not a message";
      return nullptr;
    }
    if (!parse_line(line, current.get(), error)) return nullptr;
  }
  if (want_name) {
    *error = "the definition of " + root_name + " ends with a '=' separator";
    return nullptr;
  }
  parsed.push_back(std::move(current));
  for (auto& type : parsed) {
    std::string key = type->name;
    if (!schema->types_.count(key)) schema->types_[key] = std::move(type);  // a repeated type: the first wins
  }
  if (!schema->finish(root_name, error)) return nullptr;
  return schema;
}

bool Schema::finish(const std::string& root_name, std::string* error) {
  auto root = types_.find(root_name);
  if (root == types_.end()) {
    *error = "the definition does not define its root type " + root_name;
    return false;
  }
  root_ = root->second.get();

  // builtin_interfaces/Time and Duration when the text does not define them (ROS 1 style `time`).
  auto builtin_time = [&](const std::string& name) -> const MessageType* {
    auto it = types_.find(name);
    if (it != types_.end()) return it->second.get();
    auto type = std::make_unique<MessageType>();
    type->name = name;
    Field sec, nanosec;
    sec.name = "sec", sec.type_name = "int32", sec.primitive = Primitive::Int32;
    nanosec.name = "nanosec", nanosec.type_name = "uint32", nanosec.primitive = Primitive::UInt32;
    type->fields = {sec, nanosec};
    const MessageType* raw = type.get();
    types_[name] = std::move(type);
    return raw;
  };

  // Resolve each field's type: a builtin, or a type of the text by its full name, with or without
  // "/msg/", relative to the package of the type that uses it, or by its last part when only one
  // type has that name.
  std::vector<MessageType*> all;
  for (auto& entry : types_) all.push_back(entry.second.get());
  for (MessageType* type : all) {
    for (Field& field : type->fields) {
      if (builtin(field.type_name, &field.primitive)) continue;
      field.primitive = Primitive::Message;
      const std::string& t = field.type_name;
      std::vector<std::string> candidates{t};
      if (t == "time" || t == "duration") {
        field.message = builtin_time(t == "time" ? "builtin_interfaces/Time" : "builtin_interfaces/Duration");
        field.type_name = field.message->name;
        continue;
      }
      if (t == "Header") candidates.push_back("std_msgs/Header"), candidates.push_back("std_msgs/msg/Header");
      std::string package = package_of(type->name);
      if (t.find('/') == std::string::npos) {
        candidates.push_back(package + "/" + t);
        candidates.push_back(package + "/msg/" + t);
      } else if (t.find("/msg/") != std::string::npos) {
        candidates.push_back(package_of(t) + "/" + last_part(t));
      } else {
        candidates.push_back(package_of(t) + "/msg/" + last_part(t));
      }
      const MessageType* found = nullptr;
      for (const std::string& name : candidates) {
        auto it = types_.find(name);
        if (it != types_.end()) {
          found = it->second.get();
          break;
        }
      }
      if (!found) {
        const MessageType* only = nullptr;
        int matches = 0;
        for (const auto& entry : types_)
          if (last_part(entry.first) == last_part(t) && (t.find('/') == std::string::npos || package_of(entry.first) == package_of(t)))
            only = entry.second.get(), ++matches;
        if (matches == 1) found = only;
      }
      if (!found && (t == "builtin_interfaces/Time" || t == "builtin_interfaces/msg/Time")) found = builtin_time(t);
      if (!found && (t == "builtin_interfaces/Duration" || t == "builtin_interfaces/msg/Duration")) found = builtin_time(t);
      if (!found) {
        *error = "field '" + field.name + "' of " + type->name + " has type " + t + ", which the definition does not define";
        return false;
      }
      field.message = found;
      field.type_name = found->name;
    }
  }
  return true;
}

}  // namespace logscope::cdr
