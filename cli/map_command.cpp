// `logscope map FILE`: what each byte range of the file is, one line per region.
#include <cstdio>

#include "command.h"

namespace logscope::cli {
namespace {

int run_map(const std::vector<std::string>& raw) {
  Arguments args(raw, {});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("map takes one FILE (see `logscope map --help`)");
  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  if (!file->inspector)
    return fail(file->path + ": unknown format (" + file->detection.kind + "): " + file->detection.diagnosis);
  bool full_check = args.has("--check");
  FileMap map = file->inspector->file_map(full_check, terminal_progress(full_check ? "checking" : "reading"));
  if (std::string why = remote_failure(*file); !why.empty()) return fail(why);
  if (args.has("--json")) {
    Json out = file_json(*file);
    out["map"] = map.to_json();
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf("%s: %s, %s, map from the %s\n", file->path.c_str(), file->detection.label.c_str(),
                format_bytes(map.file_size).c_str(), map.source.c_str());
    std::printf("%12s    %-12s %10s  %-11s %s\n", "from", "to", "size", "kind", "what");
    std::string text = map.to_text();
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  size_t serious = 0;
  for (const Problem& p : map.problems) serious += p.severity != Severity::Info;
  return serious ? kExitProblems : kExitClean;
}

const CommandRegistrar kMap({"map", "the regions of a file: header, index, chunks/blocks/frames, damage",
                             "usage: logscope map FILE [--json] [--check]\n\n"
                             "One line per region with its byte offsets: header, descriptor, chunk/block/frame\n"
                             "(runs of one kind merged), index, trailer, padding, unreachable (bytes no index\n"
                             "refers to), damaged (a cut or unreadable structure) and missing (what a cut file\n"
                             "lacks past its end). Problems are listed under the region they are in.\n"
                             "Built from the index alone where the file has one (CARLA: a scan of the frames).\n"
                             "  --check  run the full check first and place its problems and damage on the map.\n"
                             "  --json   the map as JSON (regions with offset, length, kind, label, count, problems).\n"
                             "Exit status: 0 nothing wrong seen, 1 problems, 2 unreadable or unknown format.",
                             run_map});

}  // namespace
}  // namespace logscope::cli
