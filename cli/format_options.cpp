#include "format_options.h"

#include <algorithm>

namespace logscope::cli {
namespace {

std::string flag_of(const FormatEntry& entry, Operation operation) {
  return "--" + (operation == Operation::Export ? entry.source.one : entry.source.many);
}

void add_once(std::vector<std::string>* list, const std::string& item) {
  if (std::find(list->begin(), list->end(), item) == list->end()) list->push_back(item);
}

}  // namespace

std::vector<std::string> source_flags(Operation operation) {
  std::vector<std::string> flags;
  for (const FormatEntry& entry : formats())
    if (entry.supports(operation) && !entry.source.one.empty()) add_once(&flags, flag_of(entry, operation));
  return flags;
}

std::vector<std::string> extract_option_flags() {
  std::vector<std::string> flags;
  for (const FormatEntry& entry : formats())
    for (const ExtractOption& option : entry.extract_options) add_once(&flags, "--" + option.name);
  return flags;
}

std::string formats_taking(const std::string& flag, Operation operation) {
  std::string labels;
  for (const FormatEntry& entry : formats())
    if (entry.supports(operation) && flag_of(entry, operation) == flag) labels += (labels.empty() ? "" : ", ") + entry.label;
  return labels.empty() ? "no format" : labels;
}

std::string source_flags_help(Operation operation) {
  std::string text;
  for (const FormatEntry& entry : formats()) {
    if (!entry.supports(operation) || entry.source.one.empty()) continue;
    text += "  " + entry.label + ": " + flag_of(entry, operation) + (operation == Operation::Export ? " NAME" : " A,B");
    for (const ExtractOption& option : entry.extract_options)
      if (operation != Operation::Export) {
        text += " [--" + option.name + " ";
        for (size_t i = 0; i < option.choices.size(); ++i)
          if (!option.choices[i].empty()) text += (text.back() == ' ' ? "" : "|") + option.choices[i];
        text += "]";
      }
    text += "\n";
  }
  return text;
}

std::string wrap_text(const std::string& text, size_t indent, size_t width) {
  std::string out, word;
  size_t column = indent;
  auto flush = [&] {
    if (word.empty()) return;
    if (column > indent && column + 1 + word.size() > width) out += "\n" + std::string(indent, ' '), column = indent;
    else if (column > indent) out += ' ', ++column;
    out += word, column += word.size(), word.clear();
  };
  for (char c : text) {
    if (c == ' ') flush();
    else word += c;
  }
  flush();
  return out;
}

const FormatEntry* entry_of(const OpenFile& file) { return file.inspector ? find_format(file.detection.family) : nullptr; }

}  // namespace logscope::cli
