// `make-demo-camera-mcap`: the images bench's MCAP (bench/browser-images.mjs), a 30 Hz camera of
// JPEG frames (the files of --jpeg-dir in turn, as stored) as sensor_msgs/msg/CompressedImage in
// CDR, written as it goes, until it holds about --size-mb.
#include <cstdio>

#include "cdr/writer.h"
#include "command.h"
#include "core/file_output_sink.h"
#include "demo_camera.h"
#include "mcap/writer.h"

namespace logscope::cli {
namespace {

const char* kDefinition =
    "std_msgs/Header header\nstring format\nuint8[] data\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";

std::string compressed_image(uint64_t t, const std::string& jpeg) {
  cdr::CdrWriter w;
  w.put<int32_t>(static_cast<int32_t>(t / 1000000000u));
  w.put<uint32_t>(static_cast<uint32_t>(t % 1000000000u));
  w.string("camera");
  w.string("jpeg");
  w.sequence_length(static_cast<uint32_t>(jpeg.size()));
  w.octets(jpeg);
  return w.bytes();
}

int run_make_demo_camera_mcap(const std::vector<std::string>& raw_args) {
  Arguments args(raw_args, {"--size-mb", "--jpeg-dir"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1 || !args.has("--jpeg-dir")) return fail("usage: logscope make-demo-camera-mcap OUT --jpeg-dir DIR [--size-mb N]");
  uint64_t target = 1024ull << 20;
  std::string error;
  if (args.has("--size-mb") && !camera_size(args.value("--size-mb"), &target, &error)) return fail(error);
  const std::vector<std::string> jpegs = camera_jpegs(args.value("--jpeg-dir"), &error);
  if (jpegs.empty()) return fail(error);
  const std::string& path = args.positional()[0];
  FileOutputSink sink;
  if (!sink.open(path)) return fail(path + ": " + sink.error());
  mcap::WriterOptions options;
  options.profile = "ros2";
  options.compression = "";          // JPEG does not compress
  options.chunk_size = 4u << 20;     // a few frames a chunk
  mcap::Writer writer(options, &sink);
  const uint16_t schema = writer.add_schema("sensor_msgs/msg/CompressedImage", "ros2msg", kDefinition);
  const uint16_t channel = writer.add_channel(schema, "/camera/image_raw/compressed", "cdr");
  uint64_t frames = 0;
  for (uint64_t written = 0; writer.ok() && (written < target || frames == 0); ++frames) {
    const uint64_t t = kCameraStart + frames * kCameraPeriod;
    const std::string message = compressed_image(t, jpegs[frames % jpegs.size()]);
    writer.write_message(channel, static_cast<uint32_t>(frames), t, t, message);
    written += message.size();
  }
  writer.finish();
  if (!writer.ok() || !sink.close()) return fail(path + ": cannot write: " + sink.error());
  std::printf("wrote %s: %llu frames\n", path.c_str(), static_cast<unsigned long long>(frames));
  return kExitClean;
}

const CommandRegistrar kMakeDemoCameraMcap({"make-demo-camera-mcap", "write an MCAP of a 30 Hz JPEG camera (the images bench's input)",
                                            "usage: logscope make-demo-camera-mcap OUT --jpeg-dir DIR [--size-mb N]\n\n"
                                            "/camera/image_raw/compressed: sensor_msgs/msg/CompressedImage (CDR) at 30 Hz from\n"
                                            "2026-01-01, the .jpg files of DIR in turn as stored, until the file holds about N MB\n"
                                            "(default 1024), in uncompressed chunks.",
                                            run_make_demo_camera_mcap});

}  // namespace
}  // namespace logscope::cli
