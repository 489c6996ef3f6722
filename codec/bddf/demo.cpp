#include "bddf/demo.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "bddf/writer.h"

namespace logscope::bddf {
namespace {

// Just enough of the protobuf wire format to make plausible messages.
class Wire {
 public:
  std::string bytes;
  void varint(uint64_t v) {
    while (v >= 0x80) {
      bytes.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    bytes.push_back(static_cast<char>(v));
  }
  void tag(uint32_t field, int type) { varint((uint64_t{field} << 3) | static_cast<uint64_t>(type)); }
  void uint(uint32_t field, uint64_t v) { tag(field, 0), varint(v); }
  void dbl(uint32_t field, double v) {
    tag(field, 1);
    bytes.append(reinterpret_cast<const char*>(&v), 8);
  }
  void str(uint32_t field, const std::string& s) { tag(field, 2), varint(s.size()), bytes += s; }
  void msg(uint32_t field, const Wire& m) { str(field, m.bytes); }
  void timestamp(uint32_t field, int64_t ns) {
    Wire t;
    t.uint(1, static_cast<uint64_t>(ns / 1000000000));
    t.uint(2, static_cast<uint64_t>(ns % 1000000000));
    msg(field, t);
  }
  void double_value(uint32_t field, double v) {  // google.protobuf.DoubleValue
    Wire w;
    w.dbl(1, v);
    msg(field, w);
  }
};

const char* kJoints[12] = {"fl.hx", "fl.hy", "fl.kn", "fr.hx", "fr.hy", "fr.kn",
                           "hl.hx", "hl.hy", "hl.kn", "hr.hx", "hr.hy", "hr.kn"};

double joint_angle(int joint, double t) {
  double phase = (joint / 3) * 1.5707963 + (joint % 3) * 0.3;
  double base = joint % 3 == 0 ? 0.0 : joint % 3 == 1 ? 0.75 : -1.45;
  return base + 0.25 * std::sin(2 * 3.14159265 * 1.6 * t + phase);
}

std::string robot_state(int64_t ns, double t, double voltage) {
  Wire kinematic;
  for (int j = 0; j < 12; ++j) {
    Wire joint;
    joint.str(1, kJoints[j]);
    joint.double_value(2, joint_angle(j, t));
    joint.double_value(3, 0.25 * 2 * 3.14159265 * 1.6 * std::cos(2 * 3.14159265 * 1.6 * t + j));
    joint.double_value(5, 12.0 + 6.0 * std::sin(t + j));
    kinematic.msg(2, joint);
  }
  kinematic.timestamp(30, ns);
  Wire battery;
  battery.str(2, "battery-0");  // identifier (field 1 is the timestamp, as in the Spot SDK)
  battery.double_value(3, 100.0 - t / 60.0);  // charge percentage
  battery.double_value(6, voltage);
  Wire power;
  power.timestamp(1, ns);
  power.uint(2, 2);  // motor power ON
  Wire state;
  state.msg(1, power);
  state.msg(2, battery);
  state.msg(6, kinematic);
  return state.bytes;
}

struct Noise {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

// Camera frames as the Spot image service answers them (bosdyn.api.GetImageResponse, field
// numbers from the SDK's image.proto): a fisheye camera's grey image and a depth camera's, both
// FORMAT_RAW, drawn as a scene that moves from frame to frame, so the images view shows them.
// Built in one buffer, so the pixels are written once.
class ImageMaker {
 public:
  static constexpr uint32_t kCols = 256, kRows = 192;            // the fisheye (grey, 8 bits)
  static constexpr uint32_t kDepthCols = 128, kDepthRows = 72;   // the depth camera (mm, 16 bits)

  const std::string& make(int64_t ns, uint64_t frame) {
    std::string grey(size_t{kCols} * kRows, '\0'), depth(size_t{kDepthCols} * kDepthRows * 2, '\0');
    const double shift = static_cast<double>(frame) * 3.0;  // the scene pans as the robot walks
    for (uint32_t y = 0; y < kRows; ++y)
      for (uint32_t x = 0; x < kCols; ++x) {
        // Floor tiles below the horizon, a brighter sky above it, a dark post that drifts by.
        double v = y < kRows / 3 ? 200 - y : ((static_cast<int>((x + shift) / 24) + static_cast<int>(y / 16)) % 2 ? 150 : 90) + y / 4.0;
        if (std::fabs(std::fmod(x + 2 * shift, kCols + 40.0) - 120) < 10) v = 30;
        grey[size_t{y} * kCols + x] = static_cast<char>(static_cast<uint8_t>(std::min(255.0, std::max(0.0, v))));
      }
    for (uint32_t y = 0; y < kDepthRows; ++y)
      for (uint32_t x = 0; x < kDepthCols; ++x) {
        // The floor nears towards the bottom rows; the post stands at 1.2 m; the top third sees nothing (0).
        double mm = y < kDepthRows / 3 ? 0 : 6000.0 * (kDepthRows / 3.0) / (y + 1) + 400;
        if (y >= kDepthRows / 3 && std::fabs(std::fmod(x + shift, kDepthCols + 20.0) - 60) < 6) mm = 1200;
        uint16_t v = static_cast<uint16_t>(mm);
        std::memcpy(&depth[2 * (size_t{y} * kDepthCols + x)], &v, 2);  // little-endian, as Spot's
      }
    Wire response;
    response.msg(2, camera(ns, "frontleft_fisheye_image", kCols, kRows, grey, 1, 0));
    response.msg(2, camera(ns, "frontleft_depth", kDepthCols, kDepthRows, depth, 5, 1000));
    out_ = std::move(response.bytes);
    return out_;
  }

 private:
  // ImageResponse{shot 1: ImageCapture{image 3: Image{cols 2, rows 3, data 4, format 5, pixel_format 6},
  // frame_name_image_sensor 5, acquisition_time 30}, source 2: ImageSource{name 2, cols 4, rows 5,
  // depth_scale 6}, status 4}
  static Wire camera(int64_t ns, const std::string& name, uint32_t cols, uint32_t rows, const std::string& pixels, int pixel_format,
                     double depth_scale) {
    Wire image, shot, source, response;
    image.uint(2, cols);
    image.uint(3, rows);
    image.str(4, pixels);
    image.uint(5, 2);  // FORMAT_RAW
    image.uint(6, static_cast<uint64_t>(pixel_format));
    shot.msg(3, image);
    shot.str(5, name + "_sensor");
    shot.timestamp(30, ns);
    source.str(2, name);
    source.uint(4, cols);
    source.uint(5, rows);
    if (depth_scale > 0) source.dbl(6, depth_scale);
    response.msg(1, shot);
    response.msg(2, source);
    response.uint(4, 1);  // STATUS_OK
    return response;
  }

  std::string out_;
};

}  // namespace

bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error) {
  FileSink file(path);
  if (!file.ok()) {
    if (error) *error = path + ": cannot create the file";
    return false;
  }
  Writer::Options options;
  options.annotations = {{"bosdyn:robot-nickname", "spot-demo"},
                         {"bosdyn:robot-serial-number", "BD-10080042"},
                         {"bosdyn:release", "5.1.4"},
                         {"logscope:generator", "logscope make-demo-bddf"}};
  Writer writer(file.sink(), options);
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  int voltage = writer.add_pod_channel("power/battery_voltage", 10, {}, {{"units", "V"}});
  int estop = writer.add_pod_channel("estop/state", 5, {}, {{"units", "enum"}});
  int imu = writer.add_pod_channel("imu/linear_acceleration", 9, {3}, {{"units", "m/s2"}});
  int joints = writer.add_pod_channel("joints/position", 9, {12}, {{"units", "rad"}});
  SeriesOptions camera;
  camera.spec["bosdyn:channel"] = "spot/images";
  camera.type_name = "bosdyn.api.GetImageResponse";
  camera.additional_index_names = {"frame_number"};
  int images = writer.add_series(camera);
  int comments = writer.add_message_channel("bosdyn.api.OperatorComment", "bosdyn.api.OperatorComment");

  const int64_t start = 1773842400000000000ll + 250000000;  // 2026-03-18 14:00:00.25 UTC
  const int64_t tick = 5000000;                             // 200 Hz
  Noise noise;
  ImageMaker image_maker;
  const char* notes[] = {"starting stair traverse", "payload check ok", "docking attempt", "slipped on wet floor",
                         "battery swap scheduled", "mission lap complete"};
  // Leave room for the index (~24 bytes per block) at the end.
  for (int64_t i = 0;; ++i) {
    uint64_t blocks_estimate = static_cast<uint64_t>(i) / 4 * 2;
    if (writer.bytes_written() + blocks_estimate * 24 >= target_bytes && i >= 200 * 3) break;
    int64_t ns = start + i * tick + static_cast<int64_t>(noise.next() % 40000);  // jitter
    double t = static_cast<double>(i) * 0.005;
    float acc[3] = {static_cast<float>(0.3 * std::sin(t * 9.0)), static_cast<float>(0.2 * std::cos(t * 7.0)),
                    static_cast<float>(9.81 + 0.5 * std::sin(t * 10.0))};
    writer.write_pod_sample(imu, ns, acc);
    if (i % 2 == 0) {
      float q[12];
      for (int j = 0; j < 12; ++j) q[j] = static_cast<float>(joint_angle(j, t));
      writer.write_pod_sample(joints, ns, q);
    }
    if (i % 4 == 0) {
      double v = 58.2 - t / 600.0 + 0.05 * std::sin(t * 3.0);
      std::string payload = robot_state(ns, t, v);
      writer.write_block(state, ns, payload.data(), payload.size());
      writer.write_pod_sample(voltage, ns, &v);
      uint8_t stop = t > 60.0 && static_cast<int64_t>(t) % 300 < 5 ? 2 : 1;
      writer.write_pod_sample(estop, ns, &stop);
    }
    if (i % 40 == 0) {
      const std::string& payload = image_maker.make(ns, static_cast<uint64_t>(i / 40));
      writer.write_block(images, ns, payload.data(), payload.size(), {i / 40});
    }
    if (i % (200 * 30) == 200 * 2) {
      Wire comment;
      comment.str(1, notes[(i / (200 * 30)) % 6]);
      comment.timestamp(2, ns);
      writer.write_block(comments, ns, comment.bytes.data(), comment.bytes.size());
    }
    if (!writer.ok()) break;
  }
  bool ok = writer.finish() && file.close();
  if (!ok && error) *error = path + ": write failed (disk full?)";
  return ok;
}

}  // namespace logscope::bddf
