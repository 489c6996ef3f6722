// Diagnostics, one view for every format (docs/views.md): diagnostic_msgs/DiagnosticArray (ROS 1
// and ROS 2). After one walk over the diagnostics topics, each component (a status's name and
// hardware_id, per topic) as runs of one level (OK, WARN, ERROR, STALE, or an unknown level byte,
// named), its worst level and the time in each level; the status at a time (level, message,
// key/values) is read again from the file, only around that time; and the findings: a component
// that was ERROR or STALE, an unknown level, damaged messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/message_source.h"
#include "core/query.h"

namespace logscope::views {

// Whether the diagnostics view shows messages of this type.
bool is_diagnostics_type(std::string_view type);

// diagnostic_msgs/DiagnosticStatus: OK=0 WARN=1 ERROR=2 STALE=3; any other byte is UNKNOWN.
const char* diagnostic_level_name(int level);

struct DiagnosticStatus {
  int level = 0;  // the byte as stored, 0..255 (ROS 1's signed byte read back as unsigned)
  std::string name, message, hardware_id;
  std::vector<std::pair<std::string, std::string>> values;  // filled only when asked
};

// The statuses one decoded DiagnosticArray holds. False with `error` (naming the status and the
// field) when a field it needs is missing or of another kind; nothing is added then.
bool diagnostic_statuses(const Json& message, bool with_values, std::vector<DiagnosticStatus>* out, std::string* error);

// The `diagnostics` query: every component's runs of levels, worst level and time in each level,
// its status at a time (at_ns; the last update when absent), and the findings (docs/views.md).
QuerySpec diagnostics_query(MessageSource& source);

}  // namespace logscope::views
