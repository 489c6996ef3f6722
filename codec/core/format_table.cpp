#include "core/format_table.h"

#include <algorithm>

#include "core/inspector.h"

namespace logscope {

const char* operation_name(Operation operation) {
  switch (operation) {
    case Operation::Export: return "export";
    case Operation::Extract: return "extract";
    case Operation::Repair: return "repair";
    case Operation::Plot: return "plot";
  }
  return "";
}

const char* helper_name(Helper helper) {
  switch (helper) {
    case Helper::Decompress: return "decompress";
    case Helper::Hash: return "hash";
  }
  return "";
}

bool FormatEntry::supports(Operation operation) const {
  return std::find(operations.begin(), operations.end(), operation) != operations.end();
}

bool FormatEntry::uses(Helper helper) const { return std::find(helpers.begin(), helpers.end(), helper) != helpers.end(); }

namespace {

Json string_array(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const std::string& item : items) out.push_back(item);
  return out;
}

// The table: built-in entries first, then what add_format() added. Built on first use, so the
// explicit list in codec/formats.cpp is all that registers a format.
std::vector<FormatEntry>& table() {
  static std::vector<FormatEntry> entries = builtin_formats();
  return entries;
}

size_t builtin_count() {
  static const size_t count = builtin_formats().size();
  return count;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// A folder's own name from its name or path ("logs/run/" -> "run").
std::string folder_base_name(std::string folder) {
  while (!folder.empty() && folder.back() == '/') folder.pop_back();
  size_t slash = folder.find_last_of('/');
  return slash == std::string::npos ? folder : folder.substr(slash + 1);
}

}  // namespace

bool FolderRule::is_split(const std::string& folder, const std::string& file) const {
  std::string stem = folder_base_name(folder);
  if (stem.empty()) return false;
  std::string prefix = stem + "_";
  if (file.compare(0, prefix.size(), prefix) != 0) return false;
  for (const std::string& ending : split_endings) {
    if (file.size() <= prefix.size() + ending.size() || !ends_with(file, ending)) continue;
    std::string digits = file.substr(prefix.size(), file.size() - prefix.size() - ending.size());
    if (digits.size() > split_digits || (digits.size() > 1 && digits[0] == '0')) continue;
    if (std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return true;
  }
  return false;
}

std::optional<FolderRule::Clause> FolderRule::match(const std::string& folder, const std::vector<std::string>& files) const {
  for (const std::string& name : names)
    if (contains(files, name)) return Clause::Name;
  for (const std::string& file : files)
    for (const std::string& ending : endings)
      if (ends_with(file, ending)) return Clause::Ending;
  for (const std::string& file : files) {
    bool is_companion = std::any_of(companions.begin(), companions.end(), [&](const std::string& c) { return ends_with(file, c); });
    if (is_companion) continue;
    for (const std::string& companion : companions)
      if (contains(files, file + companion)) return Clause::Companion;
  }
  for (const std::string& file : files)
    if (is_split(folder, file)) return Clause::Split;
  return std::nullopt;
}

bool FolderRule::empty() const { return names.empty() && endings.empty() && companions.empty() && split_endings.empty(); }

Json FolderRule::to_json() const {
  Json j = Json::object();
  j["names"] = string_array(names);
  j["endings"] = string_array(endings);
  j["companions"] = string_array(companions);
  j["split_endings"] = string_array(split_endings);
  j["split_digits"] = static_cast<uint64_t>(split_digits);
  return j;
}

Json FormatEntry::to_json() const {
  Json j = Json::object();
  j["name"] = name;
  j["label"] = label;
  j["summary"] = summary;
  j["endings"] = string_array(file_endings);
  Json ops = Json::array();
  for (Operation op : operations) ops.push_back(operation_name(op));
  j["operations"] = ops;
  Json noun = Json::object();
  noun["one"] = source.one;
  noun["many"] = source.many;
  j["source"] = noun;
  Json options = Json::array();
  for (const ExtractOption& option : extract_options) {
    Json o = Json::object();
    o["name"] = option.name;
    o["help"] = option.help;
    o["choices"] = string_array(option.choices);
    options.push_back(std::move(o));
  }
  j["extract_options"] = options;
  j["extract_summary"] = extract_summary;
  j["repair_summary"] = repair_summary;
  Json helper_names = Json::array();
  for (Helper helper : helpers) helper_names.push_back(helper_name(helper));
  j["helpers"] = helper_names;
  j["shape"] = shape == LogShape::Folder ? "folder" : "file";
  if (shape == LogShape::Folder) j["folder_rule"] = folder_rule.to_json();
  j["module"] = read_in_full_module ? "full" : "view";
  return j;
}

FormatEntry with_parts(FormatEntry entry, std::initializer_list<void (*)(FormatEntry&)> parts) {
  for (auto add : parts) add(entry);
  return entry;
}

const std::vector<FormatEntry>& formats() { return table(); }

const FormatEntry* find_format(std::string_view name) {
  for (const FormatEntry& entry : table())
    if (entry.name == name) return &entry;
  return nullptr;
}

void add_format(FormatEntry entry) {
  std::vector<FormatEntry>& entries = table();
  for (FormatEntry& existing : entries)
    if (existing.name == entry.name) {
      existing = std::move(entry);
      return;
    }
  entries.push_back(std::move(entry));
}

void remove_format(std::string_view name) {
  std::vector<FormatEntry>& entries = table();
  for (size_t i = builtin_count(); i < entries.size(); ++i)
    if (entries[i].name == name) {
      entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
}

Json formats_json() {
  Json out = Json::array();
  for (const FormatEntry& entry : table()) out.push_back(entry.to_json());
  return out;
}

std::string format_labels() {
  std::string text;
  const auto& entries = table();
  for (size_t i = 0; i < entries.size(); ++i) text += (i == 0 ? "" : i + 1 == entries.size() ? " and " : ", ") + entries[i].label;
  return text;
}

}  // namespace logscope
