// `logscope log FILE`: the robot's own log messages (rosgraph_msgs/Log, rcl_interfaces/msg/Log,
// foxglove.Log) of any format, through the robot_log query (codec/views/robot_log.h), a page at a time.
#include <cstdio>

#include "command.h"
#include "view_command.h"
#include "core/export.h"
#include "core/message_source.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

constexpr uint64_t kPage = 10000;

void print_row(const Json& row) {
  std::string where = row.find("file") ? row.find("file")->as_string() : "";
  std::string function = row.find("function") ? row.find("function")->as_string() : "";
  uint64_t line = row.find("line") ? row.find("line")->as_uint() : 0;
  if (!where.empty() || !function.empty() || line) where += ":" + function + ":" + std::to_string(line);
  std::printf("%s  %-5s  %s  %s%s%s\n", seconds_text(row.find("time_ns")).c_str(), row.find("level")->as_string().c_str(),
              row.find("node")->as_string().c_str(), row.find("text")->as_string().c_str(), where.empty() ? "" : "  ", where.c_str());
}

int run_log_command(const std::vector<std::string>& raw) {
  Arguments args(raw, view_flags({"--level", "--node", "--grep", "--topic", "--from", "--to"}));
  if (!args.ok()) return fail(args.error());
  int exit = 0;
  auto file = open_view_file(args, "log", "log rows", &exit);
  if (!file) return exit;
  Json query = Json::object();
  for (const char* flag : {"--level", "--node", "--grep", "--topic"})
    if (args.has(flag)) query[flag + 2] = args.value(flag);
  for (const char* flag : {"--from", "--to"}) {
    uint64_t ns = 0;
    std::string error;
    if (!args.has(flag)) continue;
    if (!view_time(args, flag, *file, &ns, &error)) return fail(error);
    query[std::string(flag) == "--from" ? "t0_ns" : "t1_ns"] = ns;
  }
  bool json = args.has("--json");
  ProgressFn progress = terminal_progress("reading the log");
  Json last;
  for (uint64_t first = 0;; first += kPage) {
    query["first"] = first;
    query["count"] = kPage;
    Json answer = file->inspector->query("robot_log", query, progress);
    if (std::string why = view_answer_failure(answer, *file); !why.empty()) return fail(why);
    for (const Json& row : answer.find("rows")->elements()) {
      if (json) std::printf("%s\n", row.dump().c_str());
      else print_row(row);
    }
    last = std::move(answer);
    if (!last.find("more")->as_bool()) break;
  }
  print_walk_account(last, "log");  // topics without a schema, messages that did not decode, damage
  if (!json) {
    std::string totals;
    for (const Json& l : last.find("levels")->elements())
      if (l.find("count")->as_uint()) totals += (totals.empty() ? "" : ", ") + std::to_string(l.find("count")->as_uint()) + " " + l.find("level")->as_string();
    std::fprintf(stderr, "%llu of %llu log messages%s%s\n", static_cast<unsigned long long>(last.find("selected")->as_uint()),
                 static_cast<unsigned long long>(last.find("total")->as_uint()), totals.empty() ? "" : " (before --level: ", totals.empty() ? "" : (totals + ")").c_str());
  }
  return kExitClean;
}

const CommandRegistrar kLog({"log", "the robot's own log messages (rosgraph_msgs/Log, rcl_interfaces/msg/Log, foxglove.Log)",
                             "usage: logscope log FILE [--level warn] [--node N] [--grep RE] [--topic T] [--from S --to S] [--json]\n"
                             "                    [--msg-path DIR | --definitions-from FILE] [--descriptors FILE | --proto-path DIR]\n\n"
                             "Every log message of the file in time order, one per line: time (s since the epoch),\n"
                             "level, node, text, file:function:line. Levels are normalised (DEBUG INFO WARN ERROR\n"
                             "FATAL) from ROS 1's 1,2,4,8,16, ROS 2's 10..50 and foxglove's 1..5 (docs/views.md).\n"
                             "  --level L   at least L: debug, info, warn, error, fatal\n"
                             "  --node N    only messages whose name (node) is N\n"
                             "  --grep RE   only messages whose text matches RE (POSIX extended regular expression)\n"
                             "  --topic T   only this log topic\n"
                             "  --from/--to seconds: +12.5 after the start, or absolute like 1700000000.25\n"
                             "  --json      one JSON object per row (the robot_log query's rows)\n" +
                                 definition_flags_help() + schema_flags_help() +
                                 "Log topics without a schema, undecodable messages and damage are named on stderr.\n"
                                 "Exit status: 0 read, 2 unreadable file, unknown format or bad arguments.",
                             run_log_command});

}  // namespace
}  // namespace logscope::cli
