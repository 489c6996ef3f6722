// `extract` (a time span and a selection of topics/series/actors into a new file of the same
// format) and `repair` (an indexed, valid copy of what a damaged file holds complete). Both write
// through a FileOutputSink, never touch the input, and re-read the output with the codec's check
// before saying done.
#include <sys/stat.h>

#include <algorithm>

#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "core/file_output_sink.h"
#include "format_options.h"
#include "temp_spill.h"

namespace logscope::cli {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(',', begin);
    if (end == std::string::npos) end = text.size();
    if (end > begin) items.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Re-reads the written file with the codec's full check and prints the verdict.
int verify_output(const std::string& path) {
  auto file = open_file(path);
  if (!file) return kExitUnreadable;
  if (!file->inspector) return fail(path + ": the written file is not recognised (" + file->detection.diagnosis + ")");
  Report report = file->inspector->check(terminal_progress("checking the output"));
  size_t errors = report.count(Severity::Error), warnings = report.count(Severity::Warning);
  std::printf("check of %s: %s", path.c_str(), report.format_label.c_str());
  if (const Json* checksum = report.details.find("checksum"))
    if (const Json* status = checksum->find("status")) std::printf(", checksum %s", status->as_string().c_str());
  std::printf(", %zu error%s, %zu warning%s\n", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  for (const Problem& p : report.problems)
    if (p.severity != Severity::Info)
      std::printf("  %s @%llu %s: %s\n", severity_name(p.severity), static_cast<unsigned long long>(p.offset), p.code.c_str(),
                  p.message.c_str());
  std::printf("verdict: %s\n", errors + warnings ? "the written file has problems" : "the written file is valid");
  return errors + warnings ? kExitProblems : kExitClean;
}

// A log that is a folder (a rosbag2 bag) repaired into a new folder, which is then checked.
int run_folder_repair(OpenFile& input, const FormatEntry& entry, const std::string& out) {
  ExtractResult result = entry.repair_folder(*input.folder, input.detection, out, terminal_progress("repairing"));
  if (!result.ok) {
    for (const std::string& line : result.dropped) std::printf("dropped: %s\n", line.c_str());
    return fail(input.path + ": " + result.error + "; nothing written");
  }
  std::printf("repair: %s -> %s, %llu bytes\n", input.path.c_str(), out.c_str(), static_cast<unsigned long long>(result.bytes_written));
  for (const std::string& line : result.kept) std::printf("kept: %s\n", line.c_str());
  for (const std::string& line : result.dropped) std::printf("dropped: %s\n", line.c_str());
  if (result.dropped.empty()) std::printf("dropped: nothing\n");
  return verify_output(out);
}

int run_write(const std::vector<std::string>& raw, bool repair) {
  const char* name = repair ? "repair" : "extract";
  std::vector<std::string> sources = source_flags(repair ? Operation::Repair : Operation::Extract);
  std::vector<std::string> options = extract_option_flags();
  std::vector<std::string> valued = {"--from", "--to"};
  valued.insert(valued.end(), sources.begin(), sources.end());
  valued.insert(valued.end(), options.begin(), options.end());
  Arguments args(raw, valued);
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 2) return fail(std::string(name) + " takes IN and OUT (see `logscope " + name + " --help`)");
  const std::string& in = args.positional()[0];
  const std::string& out = args.positional()[1];
  std::string source_flag;
  int selections = 0;
  for (const std::string& flag : sources)
    if (args.has(flag)) ++selections, source_flag = flag;
  if (repair && (selections || args.has("--from") || args.has("--to")))
    return fail("repair keeps everything complete; use `logscope extract` to select");
  if (selections > 1) return fail("give one source list, not several");
  ExtractSelection selection;
  std::string error;
  if (args.has("--from") && !parse_time_bound(args.value("--from"), &selection.from, &error)) return fail("--from: " + error);
  if (args.has("--to") && !parse_time_bound(args.value("--to"), &selection.to, &error)) return fail("--to: " + error);

  // Detection only: each format's extract and repair read the file themselves, in bounded memory.
  auto input = open_file(in, false);
  if (!input) return kExitUnreadable;
  if (same_file(in, out)) return fail(out + " is the input; " + name + " never overwrites it");
  const FormatEntry* entry = find_format(input->detection.family);
  if (!entry) return fail(in + ": unknown format (" + input->detection.diagnosis + ")");
  Operation operation = repair ? Operation::Repair : Operation::Extract;
  if (repair && input->folder && entry->repair_folder) return run_folder_repair(*input, *entry, out);
  if (!entry->supports(operation) || !(repair ? entry->repair : entry->extract))
    return fail(std::string(name) + " is not available for " + input->detection.label + " yet; nothing written");
  if (!source_flag.empty()) {
    if (source_flag != "--" + entry->source.many)
      return fail(source_flag + " is for " + formats_taking(source_flag, Operation::Extract) + "; " + in + " is " + input->detection.label);
    selection.sources = split_list(args.value(source_flag));
  }
  for (const std::string& flag : options) {
    if (!args.has(flag)) continue;
    const ExtractOption* known = nullptr;
    for (const ExtractOption& option : entry->extract_options)
      if ("--" + option.name == flag) known = &option;
    if (!known) return fail(flag + " is not an option for " + input->detection.label);
    std::string value = args.value(flag);
    if (!known->choices.empty() && std::find(known->choices.begin(), known->choices.end(), value) == known->choices.end())
      return fail(flag + ": not one of the choices (see `logscope " + name + " --help`): " + value);
    selection.options.emplace_back(known->name, value);
  }

  FileOutputSink sink;
  if (!sink.open(out)) return fail(sink.error());
  // Without a temporary file, a writer holds in memory what it would have set aside there.
  std::string spill_error;
  std::unique_ptr<SpillFile> spill = open_temp_spill(&spill_error);
  if (!spill) std::fprintf(stderr, "logscope: %s; a BDDF output then holds its new index in memory\n", spill_error.c_str());
  selection.spill = spill.get();
  ProgressFn progress = terminal_progress(repair ? "repairing" : "extracting");
  ExtractResult result = (repair ? entry->repair : entry->extract)(*input->cached, input->detection, selection, sink, progress);
  bool closed = sink.close();
  if (!result.ok || !closed) {
    std::remove(out.c_str());
    std::string why = result.ok ? sink.error() : result.error;
    // Engines that refuse before writing may say so themselves.
    return fail(in + ": " + why + (why.find("nothing written") == std::string::npos ? "; nothing written" : ""));
  }
  std::printf("%s: %s -> %s, %llu bytes\n", name, in.c_str(), out.c_str(), static_cast<unsigned long long>(result.bytes_written));
  for (const std::string& line : result.kept) std::printf("kept: %s\n", line.c_str());
  for (const std::string& line : result.dropped) std::printf("dropped: %s\n", line.c_str());
  if (result.dropped.empty()) std::printf("dropped: nothing\n");
  return verify_output(out);
}

int run_extract(const std::vector<std::string>& raw) { return run_write(raw, false); }
int run_repair(const std::vector<std::string>& raw) { return run_write(raw, true); }

std::string extract_help() {
  std::string text;
  for (const FormatEntry& entry : formats())
    if (entry.supports(Operation::Extract)) text += "  " + entry.label + ": " + wrap_text(entry.extract_summary, 4 + entry.label.size()) + "\n";
  return text;
}

std::string repair_help() {
  std::string text;
  for (const FormatEntry& entry : formats())
    if (entry.supports(Operation::Repair)) text += "  " + entry.label + ": " + wrap_text(entry.repair_summary, 4 + entry.label.size()) + "\n";
  for (const FormatEntry& entry : formats())
    for (const ExtractOption& option : entry.extract_options)
      if (entry.supports(Operation::Repair)) text += "  --" + option.name + " (" + entry.label + "): " + option.help + "\n";
  return text;
}

const CommandRegistrar kExtract(
    {"extract", "write a new file with the chosen sources (topics, series, actors) in a time span",
     "usage: logscope extract IN OUT [SOURCES] [--from S] [--to S]\n\n"
     "SOURCES, by format (a list separated by commas; without one, every source):\n" +
         source_flags_help(Operation::Extract) +
         "\nWrites a new, valid file of the input's format (docs/extract.md), then checks it:\n" + extract_help() +
         "Times: +S is S seconds after the file's first timestamp, S alone is absolute (Unix seconds).\n"
         "The input is never modified. Exit status: 0 the written file checks clean, 1 it has problems,\n"
         "2 nothing could be written.",
     run_extract});
const CommandRegistrar kRepair(
    {"repair", "write an indexed, valid copy of what a damaged file holds complete",
     "usage: logscope repair IN OUT [OPTIONS]\n\n" + repair_help() +
         "Prints what was kept and what was dropped, with byte offsets, then checks the written file.\n"
         "Exit status: 0 the written file checks clean, 1 it has problems, 2 nothing could be written.",
     run_repair});

}  // namespace
}  // namespace logscope::cli
