// `make-demo-images`: a small ROS 1 bag of camera frames, for the Images tab's browser test
// (tests/web/images.test.mjs and its committed fixture) and as a demo: raw rgb8 with padded rows
// at an odd width, 16UC1 depth with holes, Bayer, JPEG as stored (from --jpeg), and damaged
// frames (an unknown encoding, a cut JPEG) that the page names. And `make-demo-camera-bag`, the
// images bench's bag: a 30 Hz 640 x 480 rgb8 camera of a given size (demo_camera.h).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "command.h"
#include "demo_camera.h"
#include "rosbag/writer.h"

namespace logscope::cli {
namespace {

constexpr uint64_t kStart = 1767225600000000000ull;  // 2026-01-01
constexpr uint64_t kPeriod = 100000000ull;           // 10 Hz

const char* kHeader = "================================================================================\n"
                      "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";

void put_u32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
void put_string(std::string* out, const std::string& s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}
std::string header(uint32_t seq, uint64_t ns, const std::string& frame) {
  std::string out;
  put_u32(&out, seq);
  put_u32(&out, static_cast<uint32_t>(ns / 1000000000u));
  put_u32(&out, static_cast<uint32_t>(ns % 1000000000u));
  put_string(&out, frame);
  return out;
}
std::string raw(uint32_t seq, uint64_t ns, uint32_t width, uint32_t height, const std::string& encoding, uint32_t step, const std::string& data,
                bool big = false) {
  std::string out = header(seq, ns, "camera");
  put_u32(&out, height);
  put_u32(&out, width);
  put_string(&out, encoding);
  out.push_back(big ? 1 : 0);  // is_bigendian
  put_u32(&out, step);
  put_string(&out, data);
  return out;
}
std::string compressed(uint32_t seq, uint64_t ns, const std::string& format, const std::string& data) {
  std::string out = header(seq, ns, "camera");
  put_string(&out, format);
  put_string(&out, data);
  return out;
}

int run_make_demo_images(const std::vector<std::string>& raw_args) {
  Arguments args(raw_args, {"--jpeg"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-images takes one OUT path");
  std::string jpeg;
  if (args.has("--jpeg")) {
    std::ifstream in(args.value("--jpeg"), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    jpeg = text.str();
    if (!in || jpeg.size() < 4) return fail(args.value("--jpeg") + ": cannot read the JPEG");
  }
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = "lz4";
  options.chunk_threshold = 16 * 1024;
  rosbag::BagWriter writer(sink, options);
  const std::string image_def = std::string("std_msgs/Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n") + kHeader;
  const std::string compressed_def = std::string("std_msgs/Header header\nstring format\nuint8[] data\n") + kHeader;
  uint32_t rgb = writer.add_connection("/camera/rgb", "sensor_msgs/Image", "060021388200f6f0f447d0fcd9c64743", image_def);
  uint32_t depth = writer.add_connection("/camera/depth", "sensor_msgs/Image", "060021388200f6f0f447d0fcd9c64743", image_def);
  uint32_t bayer = writer.add_connection("/camera/bayer", "sensor_msgs/Image", "060021388200f6f0f447d0fcd9c64743", image_def);
  uint32_t mono16 = writer.add_connection("/camera/mono16", "sensor_msgs/Image", "060021388200f6f0f447d0fcd9c64743", image_def);
  uint32_t jpg = jpeg.empty() ? 0 : writer.add_connection("/camera/compressed", "sensor_msgs/CompressedImage", "8f7a12909da2c9d3332d540a0977563f", compressed_def);
  bool ok = true;
  for (uint32_t i = 0; i < 6; ++i) {
    const uint64_t t = kStart + i * kPeriod;
    // rgb8, 37 x 23, rows padded to 116 bytes: a gradient that moves with the frame, a white square.
    const uint32_t w = 37, h = 23, step = w * 3 + 5;
    std::string pixels(uint64_t(step) * h, '\0');
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        char* p = &pixels[uint64_t(y) * step + x * 3];
        bool square = x >= 4 + 4 * i && x < 10 + 4 * i && y >= 8 && y < 14;
        p[0] = static_cast<char>(square ? 255 : x * 7);
        p[1] = static_cast<char>(square ? 255 : y * 11);
        p[2] = static_cast<char>(square ? 255 : 40 * i);
      }
    // The last rgb message names an encoding no one knows: the page names it.
    ok = ok && writer.write(rgb, rosbag::Time::from_ns(t), raw(i, t, w, h, i == 5 ? "rgb9" : "rgb8", step, pixels));
    // 16UC1 depth, 32 x 24 in mm: a slope from 500 to 4000 mm, a hole (0) in the middle.
    if (i < 3) {
      const uint32_t dw = 32, dh = 24;
      std::string d;
      for (uint32_t y = 0; y < dh; ++y)
        for (uint32_t x = 0; x < dw; ++x) {
          uint16_t mm = (x >= 12 && x < 20 && y >= 9 && y < 15) ? 0 : static_cast<uint16_t>(500 + (x * 3500) / (dw - 1) + i * 10);
          d.push_back(static_cast<char>(mm & 0xff));
          d.push_back(static_cast<char>(mm >> 8));
        }
      ok = ok && writer.write(depth, rosbag::Time::from_ns(t + 1000), raw(i, t + 1000, dw, dh, "16UC1", dw * 2, d));
    }
    // bayer_rggb8, 16 x 12.
    if (i < 2) {
      std::string mosaic(16 * 12, '\0');
      for (uint32_t k = 0; k < mosaic.size(); ++k) mosaic[k] = static_cast<char>((k * 13 + i * 50) & 0xff);
      ok = ok && writer.write(bayer, rosbag::Time::from_ns(t + 2000), raw(i, t + 2000, 16, 12, "bayer_rggb8", 16, mosaic));
    }
    // mono16, 21 x 10, big-endian with rows padded to 45 bytes: a 12-bit sensor's values (400 to
    // ~3600), which cv_bridge's 1/256 shows near-black; the page stretches them.
    if (i < 2) {
      const uint32_t mw = 21, mh = 10, mstep = mw * 2 + 3;
      std::string m(uint64_t(mstep) * mh, '\0');
      for (uint32_t y = 0; y < mh; ++y)
        for (uint32_t x = 0; x < mw; ++x) {
          const uint16_t v = static_cast<uint16_t>(400 + x * 150 + y * 17 + i * 40);
          m[uint64_t(y) * mstep + x * 2] = static_cast<char>(v >> 8);
          m[uint64_t(y) * mstep + x * 2 + 1] = static_cast<char>(v & 0xff);
        }
      ok = ok && writer.write(mono16, rosbag::Time::from_ns(t + 2500), raw(i, t + 2500, mw, mh, "mono16", mstep, m, true));
    }
    // JPEG as stored; the fourth is cut in half.
    if (jpg && i < 4)
      ok = ok && writer.write(jpg, rosbag::Time::from_ns(t + 3000), compressed(i, t + 3000, "jpeg", i == 3 ? jpeg.substr(0, jpeg.size() / 2) : jpeg));
  }
  ok = ok && writer.close();
  if (!ok) return fail("the bag could not be written: " + writer.error());
  return write_demo_output(args.positional()[0], sink.bytes);
}

int run_make_demo_camera_bag(const std::vector<std::string>& raw_args) {
  Arguments args(raw_args, {"--size-mb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-camera-bag takes one OUT path");
  uint64_t target = 1024ull << 20;
  std::string error;
  if (args.has("--size-mb") && !camera_size(args.value("--size-mb"), &target, &error)) return fail(error);
  const std::string& path = args.positional()[0];
  rosbag::FileSink sink;
  if (!sink.open(path, &error)) return fail(path + ": " + error);
  rosbag::WriterOptions options;
  options.chunk_threshold = 4u << 20;  // a few frames a chunk, as a camera recorder's bag holds them
  rosbag::BagWriter writer(sink, options);
  const std::string image_def = std::string("std_msgs/Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n") + kHeader;
  const uint32_t camera = writer.add_connection("/camera/image_raw", "sensor_msgs/Image", "060021388200f6f0f447d0fcd9c64743", image_def);
  bool ok = true;
  uint64_t frames = 0;
  for (uint64_t written = 0; ok && (written < target || frames == 0); ++frames) {
    const uint64_t t = kCameraStart + frames * kCameraPeriod;
    const std::string message = raw(static_cast<uint32_t>(frames), t, kCameraWidth, kCameraHeight, "rgb8", kCameraWidth * 3, camera_rgb8(frames));
    ok = writer.write(camera, rosbag::Time::from_ns(t), message);
    written += message.size();
  }
  ok = ok && writer.close() && sink.close();
  if (!ok) return fail(path + ": the bag could not be written: " + writer.error());
  std::printf("wrote %s: %llu frames\n", path.c_str(), static_cast<unsigned long long>(frames));
  return kExitClean;
}

const CommandRegistrar kMakeDemoCameraBag({"make-demo-camera-bag", "write a ROS 1 bag of a 30 Hz 640 x 480 rgb8 camera (the images bench's input)",
                                           "usage: logscope make-demo-camera-bag OUT [--size-mb N]\n\n"
                                           "/camera/image_raw: sensor_msgs/Image rgb8 640 x 480 at 30 Hz from 2026-01-01, a scene\n"
                                           "that moves, until the bag holds about N MB (default 1024), in uncompressed chunks.",
                                           run_make_demo_camera_bag});

const CommandRegistrar kMakeDemoImages({"make-demo-images", "write a ROS 1 bag of camera frames (raw, depth, Bayer, JPEG, damaged ones)",
                                        "usage: logscope make-demo-images OUT [--jpeg FILE]\n\n"
                                        "Topics (10 Hz from 2026-01-01): /camera/rgb (rgb8 37 x 23, rows padded; its last\n"
                                        "frame names the unknown encoding rgb9), /camera/depth (16UC1 32 x 24 in mm with a\n"
                                        "hole), /camera/bayer (bayer_rggb8 16 x 12), /camera/mono16 (21 x 10, big-endian, 12-bit\n"
                                        "values) and, with --jpeg, /camera/compressed (the\n"
                                        "JPEG as stored, its fourth frame cut in half).",
                                        run_make_demo_images});

}  // namespace
}  // namespace logscope::cli
