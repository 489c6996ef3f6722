// `logscope export`: one topic, series or actor as CSV or JSON Lines, streamed to a file or stdout
// through the codec's export engine (core/export.h and each format's export part).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "command.h"
#include "core/export.h"
#include "format_options.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

class FileSink : public ExportSink {
 public:
  explicit FileSink(std::FILE* file) : file_(file) {}
  bool write(std::string_view text) override { return std::fwrite(text.data(), 1, text.size(), file_) == text.size(); }

 private:
  std::FILE* file_;
};

std::vector<std::string> split_fields(const std::string& list) {
  std::vector<std::string> fields;
  std::string rest = list + ",";
  for (size_t start = 0, comma; (comma = rest.find(',', start)) != std::string::npos; start = comma + 1)
    if (comma > start) fields.push_back(rest.substr(start, comma - start));
  return fields;
}

void print_problem(const Problem& p) {
  std::fprintf(stderr, "logscope: %s @%llu %s: %s\n", severity_name(p.severity), static_cast<unsigned long long>(p.offset),
               p.code.c_str(), p.message.c_str());
}

int run_export(const std::vector<std::string>& raw) {
  std::vector<std::string> sources = source_flags(Operation::Export);
  std::vector<std::string> valued = {"--from", "--to", "--format", "--fields", "-o"};
  valued.insert(valued.end(), sources.begin(), sources.end());
  for (const std::string& flag : schema_flags()) valued.push_back(flag);
  Arguments args(raw, valued);
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("export takes one FILE (see `logscope export --help`)");
  std::string source_flag;
  int chosen = 0;
  for (const std::string& flag : sources)
    if (args.has(flag)) ++chosen, source_flag = flag;
  if (chosen != 1) {
    std::string names;
    for (const std::string& flag : sources) names += (names.empty() ? "" : ", ") + flag;
    return fail("export needs one of " + names);
  }

  ExportRequest request;
  std::string format = args.value("--format", "csv");
  if (format == "csv") request.format = ExportFormat::Csv;
  else if (format == "jsonl") request.format = ExportFormat::Jsonl;
  else return fail("--format is csv or jsonl");
  if (args.has("--fields")) {
    request.fields = split_fields(args.value("--fields"));
    if (request.fields.empty()) return fail("--fields needs column names, separated by commas");
  }

  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  if (!file->inspector) return fail(file->path + ": not a format logscope can export (" + file->detection.diagnosis + ")");
  const FormatEntry* entry = entry_of(*file);
  if (!entry || !entry->supports(Operation::Export)) return fail(file->path + ": export is not available for " + file->detection.label);
  if (source_flag != "--" + entry->source.one)
    return fail(file->path + ": " + source_flag + " is for " + formats_taking(source_flag, Operation::Export) + "; this is " + file->detection.label);
  std::string schema_error;
  if (!apply_schema_flags(args, *file, &schema_error)) return fail(schema_error);
  Report summary = file->inspector->summary();
  uint64_t start_ns = summary.file.start_ns && *summary.file.start_ns > 0 ? static_cast<uint64_t>(*summary.file.start_ns) : 0;
  if (args.has("--from") && !parse_export_time(args.value("--from"), start_ns, &request.from_ns))
    return fail("--from needs seconds: +12.5 after the start, or absolute like 1700000000.25");
  if (args.has("--to") && !parse_export_time(args.value("--to"), start_ns, &request.to_ns))
    return fail("--to needs seconds: +12.5 after the start, or absolute like 1700000000.25");
  if (request.from_ns > request.to_ns) return fail("--from is after --to");

  std::FILE* out = stdout;
  std::string out_path = args.value("-o");
  if (!out_path.empty() && out_path != "-") {
    out = std::fopen(out_path.c_str(), "wb");
    if (!out) return fail(out_path + ": cannot write: " + std::strerror(errno));
  }
  FileSink sink(out);
  ProgressFn progress = terminal_progress("exporting");
  ExportResult result = file->inspector->export_rows(args.value(source_flag), request, sink, progress);
  bool closed = out == stdout ? std::fflush(out) == 0 : std::fclose(out) == 0;
  if (!result.error.empty()) return fail(file->path + ": " + result.error);
  if (result.sink_failed || !closed) return fail((out_path.empty() ? std::string("stdout") : out_path) + ": the output could not be written");
  if (result.cancelled) return fail("export cancelled after " + std::to_string(result.rows) + " rows");
  if (!result.json_columns.empty()) {
    std::string names;
    for (size_t i = 0; i < result.json_columns.size() && i < 8; ++i) names += (i ? ", " : "") + result.json_columns[i];
    if (result.json_columns.size() > 8) names += ", ...";
    std::fprintf(stderr, "logscope: export: %zu column(s) hold a whole array as one JSON cell (arrays of varying length or over %zu elements): %s\n",
                 result.json_columns.size(), kExportArrayColumns, names.c_str());
  }
  bool problems = false;  // notes (Info) are printed but are no problem
  for (const Problem& p : result.problems) print_problem(p), problems |= p.severity != Severity::Info;
  std::fprintf(stderr, "logscope: export: %llu rows\n", static_cast<unsigned long long>(result.rows));
  return problems ? kExitProblems : kExitClean;
}

const CommandRegistrar kExport({"export", "one source (a topic, a series, an actor) as CSV or JSON Lines (flattened columns)",
                                "usage: logscope export FILE SOURCE [--from S] [--to S] [--format csv|jsonl] [--fields a,b] [-o OUT]\n"
                                "                       [--descriptors FILE | --proto-path DIR] [--msg-path DIR | --definitions-from FILE]\n\n"
                                "SOURCE, by format:\n" + source_flags_help(Operation::Export) + "\n"
                                "Writes one row per message, block or frame of the source: first the receive time in ns,\n"
                                "then the decoded fields flattened to columns like header.stamp.secs, pose.position.x,\n"
                                "covariance[0]. Arrays of varying length\n"
                                "or over 64 elements are one JSON cell (stderr names them). --from/--to: seconds, +12.5\n"
                                "after the start or absolute; both inclusive. --fields keeps the named columns (a name\n"
                                "also keeps the columns below it, e.g. pose). Without -o the rows go to stdout.\n"
                                "Numbers round-trip: integers exact, floats in their shortest form. See docs/export.md.\n\n"
                                "A BDDF protobuf series is one row per message and a column per numeric field path\n"
                                "(kinematic_state.joint_states[3].position.value), read with the schemas of:\n" +
                                    schema_flags_help() + "See docs/protobuf.md.\n\n"
                                "A rosbag2 bag's CDR topics are decoded by the definitions it stores, else by (MCAP uses its schemas):\n" +
                                    definition_flags_help() + "See docs/rosbag2.md.",
                                run_export});

}  // namespace
}  // namespace logscope::cli
