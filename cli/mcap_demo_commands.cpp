// `make-demo-cdr`: an MCAP whose CDR channels cover every kind of ROS 2 field (mcap/cdr_demo.h),
// for the decode tests and the comparison with @foxglove/rosmsg2-serialization.

#include "command.h"
#include "mcap/cdr_demo.h"

namespace logscope::cli {
namespace {

int run_make_demo_cdr(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--messages", "--compression"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-cdr takes one OUT path");
  mcap::CdrDemoOptions options;
  if (args.has("--messages")) {
    double n = 0;
    if (!parse_double(args.value("--messages"), &n) || n < 1 || n > 1000000 || n != static_cast<uint32_t>(n))
      return fail("--messages needs a whole number from 1 to 1000000");
    options.messages_per_channel = static_cast<uint32_t>(n);
  }
  options.compression = args.value("--compression", "zstd");
  if (options.compression == "none") options.compression = "";
  if (options.compression != "" && options.compression != "lz4" && options.compression != "zstd")
    return fail("--compression is none, lz4 or zstd");
  return write_demo_output(args.positional()[0], mcap::cdr_demo(options));
}

const CommandRegistrar kMakeDemoCdr({"make-demo-cdr", "write an MCAP (ros2 profile) with CDR channels of every ROS 2 field kind",
                                     "usage: logscope make-demo-cdr OUT [--messages N] [--compression none|lz4|zstd]\n\n"
                                     "Channels: /imu (XCDR1 little-endian), /scan (XCDR2 little-endian), /pose (XCDR2\n"
                                     "big-endian), /all_kinds (every primitive, fixed arrays, bounded and unbounded sequences,\n"
                                     "strings, nested and empty types, in XCDR1/XCDR2 and both byte orders in turn),\n"
                                     "/mismatch (a definition that does not fit its bytes), /legacy (ros1msg) and /status\n"
                                     "(json); N messages each (default 20).",
                                     run_make_demo_cdr});

}  // namespace
}  // namespace logscope::cli
