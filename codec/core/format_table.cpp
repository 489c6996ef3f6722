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

}  // namespace

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
