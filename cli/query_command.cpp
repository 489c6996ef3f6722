// `logscope query FILE NAME [--args JSON]`: one question of the format's query table, answered as
// JSON (the same call as the page's and the wasm module's), for scripts and agreement tests.
#include <cstdio>
#include <optional>

#include "command.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

int run_query_command(const std::vector<std::string>& raw) {
  std::vector<std::string> valued{"--args"};
  for (const std::string& flag : schema_flags()) valued.push_back(flag);
  Arguments args(raw, valued);
  if (!args.ok()) return fail(args.error());
  if (args.positional().empty() || args.positional().size() > 2)
    return fail("query takes FILE and a query NAME (see `logscope query --help`)");
  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  if (!file->inspector)
    return fail(file->path + ": unknown format (" + file->detection.kind + "): " + file->detection.diagnosis);
  std::string schema_error;
  if (!apply_schema_flags(args, *file, &schema_error)) return fail(schema_error);
  if (args.positional().size() == 1) {
    std::printf("%s\n", query_table_json(file->inspector->queries()).dump(2).c_str());
    return kExitClean;
  }
  Json query_args = Json::object();
  if (args.has("--args")) {
    std::string error;
    std::optional<Json> parsed = Json::parse(args.value("--args"), &error);
    if (!parsed) return fail("--args is not JSON: " + error);
    if (!parsed->is_object()) return fail("--args must be a JSON object");
    query_args = std::move(*parsed);
  }
  Json answer = file->inspector->query(args.positional()[1], query_args, terminal_progress("querying"));
  if (std::string why = remote_failure(*file); !why.empty()) return fail(why);
  if (const Json* error = answer.find("error")) return fail(file->path + ": " + error->as_string());
  std::printf("%s\n", answer.dump().c_str());
  return kExitClean;
}

const CommandRegistrar kQuery({"query", "one question of the format's query table, answered as JSON",
                               "usage: logscope query FILE [NAME [--args JSON]] [--msg-path DIR | --definitions-from FILE]\n"
                               "                      [--descriptors FILE | --proto-path DIR]\n\n"
                               "Without NAME: the format's query table (names, arguments, units of the answer).\n"
                               "With NAME: that query's answer on one line of JSON, typed by its units, as the\n"
                               "page and the wasm module get it (docs/architecture.md, \"Add a query\").\n"
                               "  --args JSON  the arguments, an object: '{\"first\": 0, \"count\": 100}'.\n" +
                                   definition_flags_help() + schema_flags_help() +
                               "Exit status: 0 answered, 2 unreadable file, unknown format, bad query or arguments.",
                               run_query_command});

}  // namespace
}  // namespace logscope::cli
