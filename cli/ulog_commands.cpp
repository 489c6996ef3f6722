// ULog commands: `make-demo-ulog` (a realistic multicopter flight from our writer, streamed, of any size).
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "ulog/demo.h"

namespace logscope::cli {
namespace {

int run_make_demo(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--size-mb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-ulog takes one OUT path");
  double size_mb = 3;
  if (args.has("--size-mb") && (!parse_double(args.value("--size-mb"), &size_mb) || size_mb <= 0))
    return fail("--size-mb needs a positive number");
  std::string error;
  const std::string& out = args.positional()[0];
  if (!ulog::write_demo_file(out, static_cast<uint64_t>(size_mb * 1024 * 1024), &error)) return fail(error);
  std::printf("%s\n", out.c_str());
  return kExitClean;
}

const CommandRegistrar kMakeDemo({"make-demo-ulog", "write a realistic demo PX4 ULog flight log with logscope's writer",
                                  "usage: logscope make-demo-ulog OUT [--size-mb N]\n\n"
                                  "Writes a multicopter's flight of about N MiB (default 3): takeoff to 10 m and circles of 40 m\n"
                                  "around PX4's SITL home, with vehicle_attitude, two sensor_accel instances, local and global\n"
                                  "position, a nested position_setpoint_triplet, battery_status and vehicle_status; logged strings\n"
                                  "plain and tagged, parameters with their defaults and a change in flight, info and multi-info,\n"
                                  "sync messages and one dropout. Streamed: memory stays bounded at any size.",
                                  run_make_demo});

}  // namespace
}  // namespace logscope::cli
