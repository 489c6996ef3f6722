// What extract and repair share across formats: the time bounds the user gives (`+12.5` seconds
// from the start, or absolute seconds) and the account of what was kept and dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/output_sink.h"
#include "core/report.h"

namespace logscope {

class FormatInspector;
class SpillFile;

struct TimeBound {
  bool set = false;
  bool relative = false;  // "+S": seconds after the file's first timestamp
  double seconds = 0;
  // Nanoseconds, or `unset` when no bound was given. Negative results clamp to 0.
  uint64_t resolve(uint64_t start_ns, uint64_t unset) const;
};

// "+12.5", "12.5", "1700000000.25"; false (with `error`) on anything else.
bool parse_time_bound(const std::string& text, TimeBound* bound, std::string* error);

// What extract selects (FormatEntry::source names them: topics, series, actors).
struct ExtractSelection {
  std::vector<std::string> sources;  // as the user names them; empty keeps every source
  TimeBound from, to;                // inclusive
  // The format's extract options (FormatEntry::extract_options) by name; "" or absent: default.
  std::vector<std::pair<std::string, std::string>> options;
  // The caller's inspector of the same source, when it has one open (the page's job worker): a
  // format may use what that read instead of reading it again (BDDF: its index, 140 MB at 100 GB).
  const FormatInspector* open = nullptr;
  // Scratch storage for what a writer must hold until its output ends (core/spill.h); without
  // it, memory. Used by BDDF, whose block index follows its blocks.
  SpillFile* spill = nullptr;
  std::string option(const std::string& name) const {
    for (const auto& [key, value] : options)
      if (key == name) return value;
    return "";
  }
};

struct ExtractResult {
  bool ok = false;
  std::string error;                 // why nothing valid was written (ok == false)
  std::vector<std::string> kept;     // one line each, with byte offsets of the input
  std::vector<std::string> dropped;  // idem: what the output leaves out and why
  uint64_t bytes_written = 0;
  bool cancelled = false;
};

}  // namespace logscope
