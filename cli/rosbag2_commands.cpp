// rosbag2 commands: `make-demo-rosbag2`.
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "rosbag2/writer.h"

namespace logscope::cli {
namespace {

int run_make_demo(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--size-mb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-rosbag2 takes one OUT folder");
  double size_mb = 3;
  if (args.has("--size-mb") && (!parse_double(args.value("--size-mb"), &size_mb) || size_mb <= 0))
    return fail("--size-mb needs a positive number");
  std::string error;
  if (!rosbag2::write_demo_bag(args.positional()[0], static_cast<uint64_t>(size_mb * 1024 * 1024), &error)) return fail(error);
  std::printf("wrote %s\n", args.positional()[0].c_str());
  return kExitClean;
}

const CommandRegistrar kMakeDemo({"make-demo-rosbag2", "write a demo rosbag2 bag folder (SQLite, schema 4) with logscope's writer",
                                  "usage: logscope make-demo-rosbag2 OUT_FOLDER [--size-mb N]\n\n"
                                  "Writes OUT_FOLDER/metadata.yaml and OUT_FOLDER/<name>_0.db3 of about N MiB (default 3):\n"
                                  "an IMU, a chatter and compressed camera frames of 1 to 64 KB, with their definitions.",
                                  run_make_demo});

}  // namespace
}  // namespace logscope::cli
