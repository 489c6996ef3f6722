// `extract` (a time span and a selection of topics/series/actors into a new file of the same
// format) and `repair` (an indexed, valid copy of what a damaged file holds complete). Both write
// through a FileOutputSink, never touch the input, and re-read the output with the codec's check
// before saying done.
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "file_sink.h"
#include "bddf/extract.h"
#include "carla/extract.h"
#include "rosbag/extract.h"

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

int run_write(const std::vector<std::string>& raw, bool repair) {
  const char* name = repair ? "repair" : "extract";
  Arguments args(raw, {"--topics", "--series", "--actors", "--from", "--to", "--compression"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 2) return fail(std::string(name) + " takes IN and OUT (see `logscope " + name + " --help`)");
  const std::string& in = args.positional()[0];
  const std::string& out = args.positional()[1];
  if (repair && (args.has("--topics") || args.has("--series") || args.has("--actors") || args.has("--from") || args.has("--to")))
    return fail("repair keeps everything complete; use `logscope extract` to select");
  int selections = args.has("--topics") + args.has("--series") + args.has("--actors");
  if (selections > 1) return fail("give one of --topics, --series, --actors");
  TimeBound from, to;
  std::string error;
  if (args.has("--from") && !parse_time_bound(args.value("--from"), &from, &error)) return fail("--from: " + error);
  if (args.has("--to") && !parse_time_bound(args.value("--to"), &to, &error)) return fail("--to: " + error);

  // Detection only: each format's engine reads the file itself, in bounded memory.
  auto input = open_file(in, false);
  if (!input) return kExitUnreadable;
  if (same_file(in, out)) return fail(out + " is the input; " + name + " never overwrites it");
  const std::string& family = input->detection.family;
  if (input->detection.format == Format::Unknown) return fail(in + ": unknown format (" + input->detection.diagnosis + ")");
  if (args.has("--topics") && family != "rosbag") return fail("--topics is for ROS bags; " + in + " is " + input->detection.label);
  if (args.has("--series") && family != "bddf") return fail("--series is for BDDF files; " + in + " is " + input->detection.label);
  if (args.has("--actors") && family != "carla") return fail("--actors is for CARLA logs; " + in + " is " + input->detection.label);
  if (args.has("--compression") && family != "rosbag") return fail("--compression is for ROS bags");

  if (family == "carla" && !repair) return fail("extract is not available for CARLA logs yet (repair is); nothing written");

  FileOutputSink sink;
  if (!sink.open(out)) return fail(sink.error());
  ProgressFn progress = terminal_progress(repair ? "repairing" : "extracting");
  ExtractResult result;
  if (family == "rosbag") {
    rosbag::BagExtractOptions options;
    options.topics = split_list(args.value("--topics"));
    options.from = from;
    options.to = to;
    options.compression = args.value("--compression");
    result = rosbag::extract_bag(*input->cached, input->detection.format, sink, options, progress);
  } else if (family == "bddf") {
    bddf::BddfExtractOptions options;
    for (const std::string& item : split_list(args.value("--series"))) {
      uint64_t position = 0;
      if (!parse_u64(item, &position) || position > UINT32_MAX) return fail("--series takes series numbers: " + item);
      options.series.push_back(static_cast<uint32_t>(position));
    }
    options.from = from;
    options.to = to;
    result = bddf::extract_bddf(*input->cached, sink, options, progress);
  } else if (family == "carla" && repair) {
    result = carla::repair_carla(*input->cached, sink, progress);
  } else {
    result.error = std::string(name) + " is not available for " + input->detection.label + " yet";
  }
  bool closed = sink.close();
  if (!result.ok || !closed) {
    std::remove(out.c_str());
    return fail(in + ": " + (result.ok ? sink.error() : result.error) + "; nothing written");
  }
  std::printf("%s: %s -> %s, %llu bytes\n", name, in.c_str(), out.c_str(), static_cast<unsigned long long>(result.bytes_written));
  for (const std::string& line : result.kept) std::printf("kept: %s\n", line.c_str());
  for (const std::string& line : result.dropped) std::printf("dropped: %s\n", line.c_str());
  if (result.dropped.empty()) std::printf("dropped: nothing\n");
  return verify_output(out);
}

int run_extract(const std::vector<std::string>& raw) { return run_write(raw, false); }
int run_repair(const std::vector<std::string>& raw) { return run_write(raw, true); }

const CommandRegistrar kExtract(
    {"extract", "write a new file with the chosen topics/series/actors in a time span",
     "usage: logscope extract IN OUT [--topics a,b | --series 0,2 | --actors 12,40] [--from S] [--to S]\n"
     "                        [--compression none|lz4|bz2]\n\n"
     "Writes a new, valid file of the input's format, then checks it:\n"
     "  ROS bag: a V2.0 bag with the messages of the chosen topics in [from, to], chunked with the\n"
     "           input's compression (or --compression), only the connections used, a complete index.\n"
     "  BDDF:    the data blocks of the chosen series (numbers as `logscope info` lists them) in\n"
     "           [from, to], payloads unchanged, with fresh descriptors, index and SHA1.\n"
     "Times: +S is S seconds after the file's first timestamp, S alone is absolute (Unix seconds).\n"
     "The input is never modified. Exit status: 0 the written file checks clean, 1 it has problems,\n"
     "2 nothing could be written.",
     run_extract});
const CommandRegistrar kRepair(
    {"repair", "write an indexed, valid copy of what a damaged file holds complete",
     "usage: logscope repair IN OUT [--compression none|lz4|bz2]\n\n"
     "  ROS bag (V2.0 unindexed or truncated; V1.2, V1.1 indexed or not, cut anywhere): an indexed\n"
     "           V2.0 bag of every complete message, what `rosbag reindex` keeps, input untouched.\n"
     "  BDDF (no trailer or index, cut mid-block): every complete block, a rebuilt index, a new SHA1.\n"
     "  CARLA (cut mid-frame): the info header and every complete frame; the duration is the last one's.\n"
     "Prints what was kept and what was dropped, with byte offsets, then checks the written file.\n"
     "Exit status: 0 the written file checks clean, 1 it has problems, 2 nothing could be written.",
     run_repair});

}  // namespace
}  // namespace logscope::cli
