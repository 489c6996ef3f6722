// The robot's own log messages, one view for every format (docs/views.md): rosgraph_msgs/Log
// (ROS 1), rcl_interfaces/msg/Log (ROS 2) and foxglove.Log, each turned from its decoded fields
// into one row with a normalised level. Formats hand their messages through MessageSource.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/message_source.h"
#include "core/query.h"

namespace logscope::views {

// Normalised: ROS 1 numbers its levels 1,2,4,8,16, ROS 2 10,20,30,40,50 and foxglove 1..5, so a
// raw number means nothing without its type. Unknown: a number none of them defines (0 is
// ROS 2's UNSET and foxglove's UNKNOWN).
enum class LogLevel : uint8_t { Unknown, Debug, Info, Warn, Error, Fatal };
constexpr int kLogLevels = 6;
const char* level_name(LogLevel level);  // "UNKNOWN", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"
// "debug", "info", "warn"/"warning", "error", "fatal" (any case); nullopt for anything else.
std::optional<LogLevel> parse_level(std::string_view name);

// Whether a view of log messages shows messages of this type.
bool is_log_type(std::string_view type);

struct LogRow {
  uint64_t time_ns = 0;               // the file's time of the message
  std::optional<uint64_t> stamp_ns;   // the message's own stamp, where it has one
  LogLevel level = LogLevel::Unknown;
  int64_t raw_level = 0;              // as the message stores it
  std::string node, text, file, function;
  uint64_t line = 0;
};

// The row of one decoded log message of `type` (its fields, as the format's decoder gives them:
// times as {secs, nsecs}, {sec, nanosec}, {sec, nsec} or {seconds, nanos}; levels as numbers or
// enum names). False with `error` when a field it needs is missing or of another kind.
bool log_row(std::string_view type, const Json& message, uint64_t time_ns, LogRow* row, std::string* error);

// The `robot_log` query over a file's messages: filters (level at least, node, regex on the text,
// topic, time range), a page of rows and the totals by level (docs/views.md).
QuerySpec robot_log_query(MessageSource& source);

}  // namespace logscope::views
