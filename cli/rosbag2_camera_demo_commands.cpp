// `make-demo-camera-rosbag2`: the images bench's rosbag2 bag (bench/browser-images.mjs), a 30 Hz
// 640 x 480 rgb8 camera (demo_camera.h) as sensor_msgs/msg/Image in CDR, in one SQLite database
// of about --size-mb, written through rosbag2's writer (codec/rosbag2/writer.h).
#include <cstdio>

#include "cdr/writer.h"
#include "command.h"
#include "demo_camera.h"
#include "rosbag2/writer.h"

namespace logscope::cli {
namespace {

const char* kDefinition =
    "std_msgs/Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";

rosbag2::WriterMessage image(uint64_t i) {
  const uint64_t t = kCameraStart + i * kCameraPeriod;
  cdr::CdrWriter w;
  w.put<int32_t>(static_cast<int32_t>(t / 1000000000u));
  w.put<uint32_t>(static_cast<uint32_t>(t % 1000000000u));
  w.string("camera");
  w.put<uint32_t>(kCameraHeight);
  w.put<uint32_t>(kCameraWidth);
  w.string("rgb8");
  w.put<uint8_t>(0);
  w.put<uint32_t>(kCameraWidth * 3);
  const std::string pixels = camera_rgb8(i);
  w.sequence_length(static_cast<uint32_t>(pixels.size()));
  w.octets(pixels);
  rosbag2::WriterMessage m;
  m.topic = 0;
  m.timestamp_ns = static_cast<int64_t>(t);
  const std::string& bytes = w.bytes();
  m.data.assign(bytes.begin(), bytes.end());
  return m;
}

int run_make_demo_camera_rosbag2(const std::vector<std::string>& raw_args) {
  Arguments args(raw_args, {"--size-mb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-camera-rosbag2 takes one OUT folder");
  uint64_t target = 1024ull << 20;
  std::string error;
  if (args.has("--size-mb") && !camera_size(args.value("--size-mb"), &target, &error)) return fail(error);
  const std::string& folder = args.positional()[0];
  if (!rosbag2::write_bag(folder, {{"/camera/image_raw", "sensor_msgs/msg/Image", kDefinition}}, target, image, &error)) return fail(folder + ": " + error);
  std::printf("wrote %s\n", folder.c_str());
  return kExitClean;
}

const CommandRegistrar kMakeDemoCameraRosbag2({"make-demo-camera-rosbag2", "write a rosbag2 bag of a 30 Hz 640 x 480 rgb8 camera (the images bench's input)",
                                               "usage: logscope make-demo-camera-rosbag2 OUT [--size-mb N]\n\n"
                                               "OUT/OUT_0.db3 and metadata.yaml: /camera/image_raw, sensor_msgs/msg/Image rgb8 640 x 480\n"
                                               "at 30 Hz from 2026-01-01 in CDR, a scene that moves, until about N MB (default 1024).",
                                               run_make_demo_camera_rosbag2});

}  // namespace
}  // namespace logscope::cli
