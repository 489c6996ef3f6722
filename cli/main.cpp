// logscope CLI: the common commands (info, check, hex) and dispatch to format-specific ones.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "batch.h"
#include "core/format_table.h"
#include "command.h"
#include "http_source.h"

namespace logscope::cli {
namespace {

void print_problems(const std::vector<Problem>& problems) {
  for (const Problem& p : problems)
    std::printf("  %-7s @%llu (0x%llx)  %s  %s\n", severity_name(p.severity), static_cast<unsigned long long>(p.offset),
                static_cast<unsigned long long>(p.offset), p.code.c_str(), p.message.c_str());
}

// Unknown formats: say what the file looks like instead, and exit 2.
int report_unknown(const OpenFile& file, bool json) {
  if (json) {
    std::printf("%s\n", file_json(file).dump(2).c_str());
  } else {
    std::printf("path:      %s\nsize:      %llu bytes\nformat:    unknown (%s)\ndiagnosis: %s\n", file.path.c_str(),
                static_cast<unsigned long long>(file.size()), file.detection.kind.c_str(),
                file.detection.diagnosis.c_str());
  }
  return kExitUnreadable;
}

int run_info(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--jobs"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().empty()) return fail("info takes a FILE (see `logscope info --help`)");
  if (is_batch(args)) return run_batch(args, BatchCommand::Info);
  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  bool json = args.has("--json");
  if (!file->inspector) return report_unknown(*file, json);
  if (file->prefetch) file->prefetch(file->inspector->info_report_reads());
  Report report = file->inspector->info_report(terminal_progress("reading"));
  if (std::string why = remote_failure(*file); !why.empty()) return fail(why);
  if (json) {
    Json out = file_json(*file);
    out["summary"] = report.to_json();
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    InfoOptions options;
    options.path = file->path;
    options.all = args.has("--all");
    options.freq = args.has("--freq");
    std::string text = file->inspector->info_text(options);
    std::fwrite(text.data(), 1, text.size(), stdout);
    size_t serious = report.count(Severity::Error) + report.count(Severity::Warning);
    if (serious)
      std::fprintf(stderr, "logscope: %zu problem%s seen while opening; run `logscope check %s` for details\n", serious,
                   serious == 1 ? "" : "s", file->path.c_str());
  }
  return kExitClean;
}

int run_check(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--jobs"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().empty()) return fail("check takes a FILE (see `logscope check --help`)");
  if (is_batch(args)) return run_batch(args, BatchCommand::Check);
  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  bool json = args.has("--json");
  if (!file->inspector) return report_unknown(*file, json);
  Report report = file->inspector->check(terminal_progress("checking"));
  if (std::string why = remote_failure(*file); !why.empty()) return fail(why);
  size_t errors = report.count(Severity::Error), warnings = report.count(Severity::Warning);
  if (json) {
    Json out = file_json(*file);
    out["report"] = report.to_json();
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf("%s: %s, %s\n", file->path.c_str(), report.format_label.c_str(), format_bytes(file->size()).c_str());
    if (const Json* checksum = report.details.find("checksum")) {
      const Json* status = checksum->find("status");
      const Json* message = checksum->find("message");
      std::printf("checksum: %s%s%s\n", status ? status->as_string().c_str() : "unknown",
                  message && !message->as_string().empty() ? " - " : "", message ? message->as_string().c_str() : "");
      // The digest itself, valid or not, so it can be compared with another copy of the file.
      const Json* algorithm = checksum->find("algorithm");
      const Json* computed = checksum->find("computed");
      if (algorithm && computed && computed->is_string())
        std::printf("%s: %s\n", algorithm->as_string().c_str(), computed->as_string().c_str());
    }
    if (report.recovery.performed) std::printf("recovery: %s\n", report.recovery.message.c_str());
    std::printf("problems: %zu error%s, %zu warning%s, %zu note%s\n", errors, errors == 1 ? "" : "s", warnings,
                warnings == 1 ? "" : "s", report.count(Severity::Info), report.count(Severity::Info) == 1 ? "" : "s");
    print_problems(report.problems);
  }
  return errors + warnings ? kExitProblems : kExitClean;
}

// The format table, for scripts: the build writes the page's folder rules from its JSON
// (scripts/write-folder-rules.mjs), so the page groups a folder's files as the codec does.
int run_formats(const std::vector<std::string>& raw) {
  Arguments args(raw, {});
  if (!args.ok()) return fail(args.error());
  if (!args.positional().empty()) return fail("formats takes no FILE (see `logscope formats --help`)");
  if (args.has("--json")) {
    std::printf("%s\n", formats_json().dump(2).c_str());
    return kExitClean;
  }
  for (const FormatEntry& entry : formats()) {
    std::string endings;
    for (const std::string& ending : entry.file_endings) endings += (endings.empty() ? "" : " ") + ending;
    std::printf("%-8s  %-20s  %s%s\n", entry.name.c_str(), entry.label.c_str(), entry.shape == LogShape::Folder ? "folder; " : "",
                endings.c_str());
  }
  return kExitClean;
}

// Annotated hex dump: a line per structure span that starts in the range, then the rows.
void print_span_starts(const std::vector<Span>& spans, uint64_t from, uint64_t to, int depth) {
  for (const Span& span : spans) {
    if (span.offset >= from && span.offset < to)
      std::printf("%*s# 0x%08llx +%llu  %s [%s]\n", depth * 2, "", static_cast<unsigned long long>(span.offset),
                  static_cast<unsigned long long>(span.length), span.name.c_str(), span.kind.c_str());
    if (span.offset < to && span.offset + span.length > from) print_span_starts(span.children, from, to, depth + 1);
  }
}

int run_hex(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--offset", "--length"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("hex takes one FILE (see `logscope hex --help`)");
  uint64_t offset = 0, length = 256;
  if (args.has("--offset") && !parse_u64(args.value("--offset"), &offset)) return fail("--offset needs a number (decimal or 0x hex)");
  if (args.has("--length") && !parse_u64(args.value("--length"), &length)) return fail("--length needs a number (decimal or 0x hex)");
  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  uint64_t size = file->size();
  if (offset > size) return fail(file->path + ": offset " + std::to_string(offset) + " is past the end (" + std::to_string(size) + " bytes)");
  length = std::min(length, size - offset);
  std::vector<Span> spans;
  if (file->inspector) spans = file->inspector->spans(offset, length);
  else std::printf("# %s: unknown format (%s)\n", file->path.c_str(), file->detection.kind.c_str());
  uint64_t row_start = offset - offset % 16;
  uint8_t row[16];
  for (uint64_t at = row_start; at < offset + length; at += 16) {
    uint64_t row_end = std::min(at + 16, offset + length);
    print_span_starts(spans, at == row_start ? 0 : at, row_end, 0);
    size_t n = file->cached->read(at, row, 16);
    std::printf("%08llx  ", static_cast<unsigned long long>(at));
    for (size_t i = 0; i < 16; ++i) {
      bool shown = i < n && at + i >= offset && at + i < offset + length;
      if (shown) std::printf("%02x ", row[i]);
      else std::printf("   ");
      if (i == 7) std::printf(" ");
    }
    std::printf(" |");
    for (size_t i = 0; i < 16; ++i) {
      bool shown = i < n && at + i >= offset && at + i < offset + length;
      std::printf("%c", shown ? (row[i] >= 0x20 && row[i] < 0x7f ? row[i] : '.') : ' ');
    }
    std::printf("|\n");
  }
  if (std::string why = remote_failure(*file); !why.empty()) return fail(why);
  return kExitClean;
}

const CommandRegistrar kInfo({"info", "summary of a log file (format, index, series/topics/actors)",
                              "usage: logscope info FILE... [--json] [--freq] [--all] [--recursive] [--jobs N]\n\n"
                              "Shows what the file holds, read from its index where it has one, in the layout the\n"
                              "format's own tools print (a bag: the rows of `rosbag info`, --freq adds rates; a CARLA\n"
                              "log: show_recorder_file_info, --all = show_all).\n"
                              "  --json  the same facts as JSON, for scripts (JSON Lines for several files).\n"
                              "Several FILEs (or a folder with --recursive): each file's info after a ==> FILE <== line,\n"
                              "N files read at once (--jobs, default: the cores), printed in the order given.\n"
                              "Exit status: 0 read, 2 unreadable or unknown format.",
                              run_info});
const CommandRegistrar kCheck({"check", "validate a file: checksum, index, framing; recover damaged files",
                               "usage: logscope check PATH... [--json] [--recursive] [--jobs N]\n\n"
                               "Reads the whole file and reports every problem with its byte offset and a stable code,\n"
                               "the checksum status where the format has one, and what was recovered from a damaged file.\n"
                               "Several PATHs, or folders with --recursive (sorted within a folder): one line per file\n"
                               "(path, format, size, errors, warnings, verdict) then a total line; with --json, JSON Lines:\n"
                               "the one-file --json object per file, on one line, then {\"totals\": ...}. --jobs N checks\n"
                               "N files at once (default: the cores); output stays in the order given. Files in a folder\n"
                               "that are not logs (README, .json) are listed but do not change the exit status.\n"
                               "Exit status: the worst one: 0 clean, 1 problems found, 2 unreadable or unknown format.",
                               run_check});
const CommandRegistrar kHex({"hex", "annotated hex dump of a byte range",
                             "usage: logscope hex FILE [--offset N] [--length M]\n\n"
                             "Dumps M bytes (default 256) from offset N (default 0; decimal or 0x hex),\n"
                             "with a '#' line wherever a structure (block, record, field) starts.",
                             run_hex});

const CommandRegistrar kFormats({"formats", "the formats logscope reads, with their file endings and folder rules",
                                 "usage: logscope formats [--json]\n\n"
                                 "One line per format: its name, label, whether a log is a folder, its file endings.\n"
                                 "  --json  the format table as the page reads it (names, labels, endings, operations, and\n"
                                 "          for a folder format its folder_rule: the file names that make a folder a log).",
                                 run_formats});

void print_usage() {
  std::printf("logscope: inspect robot logs\n\nformats (recognised by content):\n");
  for (const FormatEntry& entry : formats()) std::printf("  %-8s  %s\n", entry.name.c_str(), entry.summary.c_str());
  std::printf("\nusage: logscope COMMAND FILE [options]\n\ncommands:\n");
  // Common commands first, then the format-specific ones by name; demo writers last.
  std::vector<const Command*> sorted;
  for (const Command& c : commands()) sorted.push_back(&c);
  auto rank = [](const Command* c) {
    if (c->name == "info") return 0;
    if (c->name == "check") return 1;
    if (c->name == "hex") return 2;
    if (c->name == "map") return 3;
    return c->name.rfind("make-demo", 0) == 0 ? 5 : 4;
  };
  std::stable_sort(sorted.begin(), sorted.end(), [&](const Command* a, const Command* b) {
    return rank(a) != rank(b) ? rank(a) < rank(b) : a->name < b->name;
  });
  size_t width = 0;
  for (const Command* c : sorted) width = std::max(width, c->name.size());
  for (const Command* c : sorted) std::printf("  %-*s  %s\n", static_cast<int>(width), c->name.c_str(), c->summary.c_str());
  std::printf("\n`logscope COMMAND --help` tells more about one command.\n");
}

}  // namespace
}  // namespace logscope::cli

int main(int argc, char** argv) {
  using namespace logscope::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_usage();
    return args.empty() ? kExitUnreadable : kExitClean;
  }
  for (const Command& command : commands()) {
    if (command.name != args[0]) continue;
    std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const auto& a : rest)
      if (a == "--help" || a == "-h") {
        std::printf("%s\n", command.usage.c_str());
        return kExitClean;
      }
    // Options for remote files, valid with any command.
    std::vector<std::string> command_args;
    for (const auto& a : rest) {
      if (a == "--download") remote_options().download = true;
      else if (a == "--stats") remote_options().stats = true;
      else command_args.push_back(a);
    }
    int status = command.run(command_args);
    if (remote_options().stats) {
      std::fflush(stdout);  // the stats come last, also when both go to one pipe
      TransferStats stats = transfer_stats();
      std::fprintf(stderr, "logscope: transferred %llu bytes in %llu request%s (%.3f %% of %llu bytes)\n",
                   static_cast<unsigned long long>(stats.bytes), static_cast<unsigned long long>(stats.requests),
                   stats.requests == 1 ? "" : "s", stats.file_size ? 100.0 * stats.bytes / stats.file_size : 0.0,
                   static_cast<unsigned long long>(stats.file_size));
    }
    return status;
  }
  return fail("unknown command '" + args[0] + "' (see `logscope --help`)");
}
