// What the CLI's export, extract and repair take from the format table: the flags that name a
// format's sources (`--topic`, `--series`, `--actor`; plural for extract) and its extract options.
#pragma once

#include <string>
#include <vector>

#include "command.h"
#include "core/format_table.h"

namespace logscope::cli {

// `--topic`, `--series`, ... for the formats that support `operation` (export: singular, extract
// and repair: plural), each once, in table order.
std::vector<std::string> source_flags(Operation operation);
// `--compression`, ...: every format's extract options, each once.
std::vector<std::string> extract_option_flags();
// "ROS bag" for `--topics`: the labels of the formats that take `flag`, for messages.
std::string formats_taking(const std::string& flag, Operation operation);
// One line per format that supports `operation`: "  ROS bag: --topics a,b  (what it selects)".
std::string source_flags_help(Operation operation);
// `text` wrapped to lines of at most `width` columns, each after `indent` spaces but the first
// (which follows what the caller printed).
std::string wrap_text(const std::string& text, size_t indent, size_t width = 96);
// The table entry of an opened file (null for unknown files).
const FormatEntry* entry_of(const OpenFile& file);

}  // namespace logscope::cli
