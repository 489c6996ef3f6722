#include "cdr/type_library.h"

#include <cctype>
#include <deque>
#include <set>

namespace logscope::cdr {
namespace {

constexpr size_t kMaxUsedTypes = 10000;  // types one definition may pull in

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_builtin(std::string_view t) {
  static const char* const names[] = {"bool",   "byte",   "char",    "int8",    "uint8",  "int16",   "uint16", "int32", "uint32",
                                      "int64",  "uint64", "float32", "float64", "string", "wstring", "time",   "duration"};
  for (const char* n : names)
    if (t == n) return true;
  return false;
}

std::string package_of(std::string_view type) {
  size_t slash = type.find('/');
  return slash == std::string_view::npos ? "" : std::string(type.substr(0, slash));
}

// The message types a .msg text's fields use, as written ("Header", "geometry_msgs/Vector3").
std::vector<std::string> used_types(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.empty() || line[0] == '#') continue;
    size_t end = 0;
    while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
    std::string_view type = line.substr(0, end);
    size_t cut = type.find_first_of("[<");
    if (cut != std::string_view::npos) type = type.substr(0, cut);
    if (!type.empty() && !is_builtin(type)) out.emplace_back(type);
  }
  return out;
}

}  // namespace

std::string TypeLibrary::canonical(std::string_view type) {
  size_t slash = type.find('/');
  if (slash == std::string_view::npos) return std::string(type);
  if (type.substr(slash, 5) == "/msg/") return std::string(type);
  return std::string(type.substr(0, slash)) + "/msg/" + std::string(type.substr(slash + 1));
}

void TypeLibrary::add(const std::string& type, TypeDefinition definition) {
  std::string key = canonical(type);
  auto it = types_.find(key);
  if (it != types_.end()) {
    if (it->second.text != definition.text)
      warn(key + ": defined again by " + definition.origin + " differently; the first (" + it->second.origin + ") is used");
    return;
  }
  types_.emplace(key, std::move(definition));
}

std::vector<std::string> TypeLibrary::names() const {
  std::vector<std::string> out;
  for (const auto& [name, definition] : types_) out.push_back(name);
  return out;
}

const TypeDefinition* TypeLibrary::find(const std::string& type, std::string* key) const {
  std::string name = canonical(type);
  auto it = types_.find(name);
  if (it == types_.end()) {
    // A flat folder's bare name, when the package is not known there.
    size_t slash = name.rfind('/');
    if (slash != std::string::npos) it = types_.find(name.substr(slash + 1));
  }
  if (it == types_.end()) return nullptr;
  *key = it->first;
  return &it->second;
}

bool TypeLibrary::definition(const std::string& type, std::string* encoding, std::string* text, std::string* error) const {
  std::string key;
  const TypeDefinition* root = find(type, &key);
  if (!root) {
    *error = "no definition of " + type + " among the " + std::to_string(types_.size()) + " supplied";
    return false;
  }
  *encoding = root->encoding;
  *text = root->text;
  if (root->complete) return true;
  // A .msg file: append every type it uses, breadth first, each once.
  std::set<std::string> added{key};
  std::deque<std::pair<std::string, const TypeDefinition*>> queue{{key, root}};
  while (!queue.empty()) {
    auto [name, def] = queue.front();
    queue.pop_front();
    if (def->complete) continue;  // its text already holds what it uses
    std::string package = package_of(name);
    for (const std::string& used : used_types(def->text)) {
      std::string wanted = used == "Header" ? "std_msgs/msg/Header"
                           : used.find('/') == std::string::npos ? (package.empty() ? used : package + "/msg/" + used)
                                                                 : canonical(used);
      std::string found_key;
      const TypeDefinition* dep = find(wanted, &found_key);
      if (!dep) {
        // builtin_interfaces Time and Duration are known to the schema without a definition.
        if (wanted == "builtin_interfaces/msg/Time" || wanted == "builtin_interfaces/msg/Duration") continue;
        *error = name + " uses " + wanted + ", which no supplied definition defines";
        return false;
      }
      if (!added.insert(found_key).second) continue;
      if (added.size() > kMaxUsedTypes) {
        *error = type + " uses more than " + std::to_string(kMaxUsedTypes) + " types";
        return false;
      }
      // Named `pkg/Type`, as rosbag2 and MCAP writers name the types after the root (a flat file's
      // by the name its user wrote, so a reader finds it by package).
      std::string section = found_key.find('/') == std::string::npos ? wanted : found_key;
      size_t msg = section.find("/msg/");
      if (msg != std::string::npos) section.erase(msg, 4);
      *text += "\n================================================================================\nMSG: " + section + "\n" + dep->text;
      queue.emplace_back(section, dep);
    }
  }
  return true;
}

void add_msg_file(TypeLibrary& library, const std::string& relative_path, std::string text, const std::string& origin) {
  std::vector<std::string> parts;
  for (size_t at = 0; at <= relative_path.size();) {
    size_t slash = relative_path.find('/', at);
    if (slash == std::string::npos) slash = relative_path.size();
    if (slash > at) parts.push_back(relative_path.substr(at, slash - at));
    at = slash + 1;
  }
  if (parts.empty()) return;
  std::string type = parts.back();
  if (type.size() > 4 && type.compare(type.size() - 4, 4, ".msg") == 0) type.resize(type.size() - 4);
  if (parts.size() >= 3 && parts[parts.size() - 2] == "msg") type = parts[parts.size() - 3] + "/msg/" + type;
  else if (parts.size() >= 2) type = parts[parts.size() - 2] + "/msg/" + type;
  library.add(type, TypeDefinition{"ros2msg", std::move(text), false, origin});
}

}  // namespace logscope::cdr
