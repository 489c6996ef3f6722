// `logscope diag FILE [--at S] [--level warn] [--json]`: each diagnostics component
// (diagnostic_msgs/DiagnosticArray) with its worst level, updates and time in each level, and its
// status at a time with its key/values, through the diagnostics query (codec/views/diagnostics.h).
#include <cstdio>

#include "command.h"
#include "view_command.h"
#include "core/export.h"
#include "core/message_source.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

double seconds_of(const Json* ns_text) {
  uint64_t ns = 0;
  if (ns_text && ns_text->is_string()) parse_u64(ns_text->as_string(), &ns);
  return static_cast<double>(ns) / 1e9;
}

void print_component(const Json& c) {
  std::string name = c.find("name")->as_string();
  const std::string& hw = c.find("hardware_id")->as_string();
  if (!hw.empty()) name += " [" + hw + "]";
  std::string times;
  for (const char* level : {"OK", "WARN", "ERROR", "STALE", "UNKNOWN"}) {
    double s = seconds_of(c.find("time_in_level")->find(level));
    if (s <= 0) continue;
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.3f s", times.empty() ? "" : ", ", level, s);
    times += part;
  }
  std::printf("%-7s %s  (%s, %llu updates; %s)\n", c.find("worst")->as_string().c_str(), name.c_str(), c.find("topic")->as_string().c_str(),
              static_cast<unsigned long long>(c.find("updates")->as_uint()), times.empty() ? "one update" : times.c_str());
  const Json* at = c.find("at");
  if (!at || at->is_null()) {
    std::printf("        at the time: no update yet\n");
    return;
  }
  std::printf("        at the time: %s \"%s\" (updated at %s)\n", at->find("level")->as_string().c_str(),
              at->find("message")->as_string().c_str(), seconds_text(at->find("time_ns")).c_str());
  for (const Json& kv : at->find("values")->elements())
    std::printf("          %s: %s\n", kv.find("key")->as_string().c_str(), kv.find("value")->as_string().c_str());
}

int run_diag_command(const std::vector<std::string>& raw) {
  Arguments args(raw, view_flags({"--at", "--level"}));
  if (!args.ok()) return fail(args.error());
  int exit = 0;
  auto file = open_view_file(args, "diag", "diagnostics", &exit);
  if (!file) return exit;
  std::string error;
  Json query = Json::object();
  if (args.has("--at")) {
    uint64_t ns = 0;
    if (!view_time(args, "--at", *file, &ns, &error)) return fail(error);
    query["at_ns"] = ns;
  }
  if (args.has("--level")) query["level"] = args.value("--level");
  Json answer = file->inspector->query("diagnostics", query, terminal_progress("reading the diagnostics"));
  if (std::string why = view_answer_failure(answer, *file); !why.empty()) return fail(why);
  if (args.has("--json")) {
    std::printf("%s\n", answer.dump(2).c_str());
  } else {
    std::printf("diagnostics at %s: %llu components, %llu messages\n", seconds_text(answer.find("at_ns")).c_str(),
                static_cast<unsigned long long>(answer.find("component_count")->as_uint()),
                static_cast<unsigned long long>(answer.find("messages")->as_uint()));
    for (const Json& c : answer.find("components")->elements()) print_component(c);
    print_findings(answer);
  }
  print_walk_account(answer, "diagnostics");  // topics without a schema, messages that did not decode, damage
  if (answer.find("topics")->size() == 0) std::fprintf(stderr, "logscope: %s holds no diagnostics topics\n", file->path.c_str());
  return kExitClean;
}

const CommandRegistrar kDiag({"diag", "each diagnostics component (diagnostic_msgs/DiagnosticArray): worst level, time in each level, status at a time",
                              "usage: logscope diag FILE [--at S] [--level warn] [--json]\n"
                              "                     [--msg-path DIR | --definitions-from FILE] [--descriptors FILE | --proto-path DIR]\n\n"
                              "Each component (a status's name and hardware id, per topic) with its worst level over the\n"
                              "log (OK, WARN, ERROR, STALE; a level byte none of them names is UNKNOWN), its updates and\n"
                              "the time it spent in each level; then its status at a time (default: the last message):\n"
                              "level, message and key/values. Then the findings: components that were ERROR or STALE,\n"
                              "unknown levels, damaged messages (docs/views.md).\n"
                              "  --at S       seconds: +12.5 after the start, or absolute like 1700000000.25\n"
                              "  --level L    only components whose worst level is at least L: ok, warn, error, stale\n"
                              "  --json       the diagnostics query's answer\n" +
                                  definition_flags_help() + schema_flags_help() +
                                  "Diagnostics topics without a schema, undecodable messages and damage are named on stderr.\n"
                                  "Exit status: 0 read, 2 unreadable file, unknown format or bad arguments.",
                              run_diag_command});

}  // namespace
}  // namespace logscope::cli
