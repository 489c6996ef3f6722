// MCAP commands: `make-demo-mcap` (a realistic file from our writer, streamed, of any size).
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "mcap/demo.h"

namespace logscope::cli {
namespace {

int run_make_demo(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--size-mb", "--compression", "--chunk-kb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-mcap takes one OUT path");
  double size_mb = 3;
  if (args.has("--size-mb") && (!parse_double(args.value("--size-mb"), &size_mb) || size_mb <= 0))
    return fail("--size-mb needs a positive number");
  mcap::DemoOptions options;
  std::string compression = args.value("--compression", "zstd");
  if (compression != "zstd" && compression != "lz4" && compression != "none") return fail("--compression is zstd, lz4 or none");
  options.compression = compression == "none" ? "" : compression;
  options.chunked = !args.has("--unchunked");
  options.summary = !args.has("--no-summary");
  if (args.has("--chunk-kb")) {
    uint64_t kb = 0;
    if (!parse_u64(args.value("--chunk-kb"), &kb) || kb == 0 || kb > 65536) return fail("--chunk-kb is 1 to 65536");
    options.chunk_size = kb << 10;
  }
  std::string error;
  const std::string& out = args.positional()[0];
  if (!mcap::write_demo_file(out, static_cast<uint64_t>(size_mb * 1024 * 1024), options, &error)) return fail(error);
  std::printf("%s\n", out.c_str());
  return kExitClean;
}

const CommandRegistrar kMakeDemo({"make-demo-mcap", "write a realistic demo MCAP file with logscope's writer",
                                  "usage: logscope make-demo-mcap OUT [--size-mb N] [--compression zstd|lz4|none] [--chunk-kb K]\n"
                                  "                              [--unchunked] [--no-summary]\n\n"
                                  "Writes a ROS 2 robot's log of about N MiB (default 3): /imu and /odom as JSON, a compressed\n"
                                  "camera image and /rosout as CDR, an attachment and metadata, indexed (chunk and message\n"
                                  "indexes, statistics, summary offsets, every CRC). Streamed: memory stays bounded at any size.\n"
                                  "  --compression  chunk compression (default zstd)\n"
                                  "  --chunk-kb     uncompressed records per chunk (default 1024)\n"
                                  "  --unchunked    messages in the data section, no chunks\n"
                                  "  --no-summary   no summary section: readers must scan",
                                  run_make_demo});

}  // namespace
}  // namespace logscope::cli
