#include "mcap/demo.h"

#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstring>

#include "core/file_output_sink.h"
#include "mcap/writer.h"

namespace logscope::mcap {
namespace {

// ROS 2's CDR (little endian): a 4-byte encapsulation header, then each value aligned to its size
// counted from after that header.
class Cdr {
 public:
  Cdr() { bytes.assign("\x00\x01\x00\x00", 4); }
  template <typename T>
  void put(T value) {
    align(sizeof(T));
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void str(const std::string& s) {
    put<uint32_t>(static_cast<uint32_t>(s.size() + 1));
    bytes += s;
    bytes.push_back('\0');
  }
  void blob(std::string_view data) {
    put<uint32_t>(static_cast<uint32_t>(data.size()));
    bytes.append(data.data(), data.size());
  }
  std::string bytes;

 private:
  void align(size_t n) {
    while ((bytes.size() - 4) % n) bytes.push_back('\0');
  }
};

const char* kSeparator = "================================================================================\n";

std::string compressed_image_definition() {
  return std::string("std_msgs/Header header\nstring format\nuint8[] data\n") + kSeparator +
         "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n" + kSeparator +
         "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";
}

std::string log_definition() {
  return std::string("builtin_interfaces/Time stamp\nuint8 level\nstring name\nstring msg\nstring file\nstring function\nuint32 line\n") +
         kSeparator + "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";
}

const char* kImuSchema =
    R"({"type":"object","properties":{"t":{"type":"number"},"angular_velocity":{"type":"array"},"linear_acceleration":{"type":"array"}}})";
const char* kOdomSchema = R"({"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"},"yaw":{"type":"number"},"speed":{"type":"number"}}})";

uint64_t next_random(uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", v);
  return text;
}


}  // namespace

bool write_demo(OutputSink& sink, uint64_t target_bytes, const DemoOptions& options, std::string* error) {
  WriterOptions wo;
  wo.profile = "ros2";
  wo.library = "logscope make-demo-mcap";
  wo.compression = options.compression;
  wo.chunked = options.chunked;
  wo.summary = options.summary;
  wo.chunk_size = options.chunk_size;
  Writer w(wo, &sink);
  w.keep_ledger(false);
  uint16_t imu_schema = w.add_schema("demo/Imu", "jsonschema", kImuSchema);
  uint16_t odom_schema = w.add_schema("demo/Odometry", "jsonschema", kOdomSchema);
  uint16_t image_schema = w.add_schema("sensor_msgs/msg/CompressedImage", "ros2msg", compressed_image_definition());
  uint16_t log_schema = w.add_schema("rcl_interfaces/msg/Log", "ros2msg", log_definition());
  uint16_t imu = w.add_channel(imu_schema, "/imu", "json", {{"frame_id", "imu_link"}});
  uint16_t odom = w.add_channel(odom_schema, "/odom", "json");
  uint16_t image = w.add_channel(image_schema, "/camera/image/compressed", "cdr", {{"offered_qos_profiles", ""}});
  uint16_t rosout = w.add_channel(log_schema, "/rosout", "cdr");
  w.write_metadata("robot", {{"name", "demo rover"}, {"site", "test yard"}});

  const uint64_t start_ns = 1700000000ull * 1000000000ull + 123456789ull;
  uint64_t random = 0x9E3779B97F4A7C15ull;
  std::string jpeg(24 * 1024, '\0');
  uint32_t seq[4] = {};
  for (uint64_t tick = 0; tick < 100 || w.bytes_written() < target_bytes; ++tick) {
    if (!w.ok()) break;
    double t = static_cast<double>(tick) * 0.01;  // 100 Hz
    uint64_t ns = start_ns + tick * 10000000ull + next_random(random) % 400000;
    std::string json = "{\"t\":" + number(t) + ",\"angular_velocity\":[" + number(0.001 * std::sin(t)) + ",-0.002," +
                       number(0.05 + 0.01 * std::sin(3 * t)) + "],\"linear_acceleration\":[" + number(0.12 * std::sin(2 * t)) +
                       ",0.03," + number(9.81 + 0.05 * std::cos(5 * t)) + "]}";
    w.write_message(imu, seq[0]++, ns, ns, json);
    if (tick % 2 == 0) {
      double yaw = 0.05 * t;
      json = "{\"x\":" + number(1.2 * std::cos(yaw) * t * 0.1) + ",\"y\":" + number(1.2 * std::sin(yaw) * t * 0.1) +
             ",\"yaw\":" + number(yaw) + ",\"speed\":1.2}";
      w.write_message(odom, seq[1]++, ns + 1000, ns + 1000, json);
    }
    if (tick % 10 == 0) {
      // A JPEG-sized blob that compresses about as a real one does: mostly noise.
      for (size_t i = 0; i < jpeg.size(); i += 8) {
        uint64_t r = next_random(random);
        std::memcpy(&jpeg[i], &r, 8);
      }
      for (size_t i = 0; i < jpeg.size() / 4; ++i) jpeg[i] = static_cast<char>(i & 0x0F);
      Cdr c;
      c.put<int32_t>(static_cast<int32_t>(ns / 1000000000ull));
      c.put<uint32_t>(static_cast<uint32_t>(ns % 1000000000ull));
      c.str("camera_optical");
      c.str("jpeg");
      c.blob(jpeg);
      w.write_message(image, seq[2]++, ns + 2000, ns, c.bytes);
    }
    if (tick % 100 == 0) {
      Cdr c;
      c.put<int32_t>(static_cast<int32_t>(ns / 1000000000ull));
      c.put<uint32_t>(static_cast<uint32_t>(ns % 1000000000ull));
      c.put<uint8_t>(20);
      c.str("planner");
      c.str("replanned: " + std::to_string(tick / 100) + " waypoints ahead");
      c.str("planner.cpp");
      c.str("replan");
      c.put<uint32_t>(120);
      w.write_message(rosout, seq[3]++, ns + 3000, ns + 3000, c.bytes);
    }
    if (tick == 50) w.write_attachment("calibration.yaml", "application/yaml", ns, ns, "camera_matrix: [600, 0, 320, 0, 600, 240, 0, 0, 1]\n");
  }
  w.finish();
  if (!w.ok()) {
    if (error) *error = sink.error().empty() ? "write failed" : sink.error();
    return false;
  }
  return true;
}

std::vector<uint8_t> tiny_file(const std::string& compression, bool chunked) {
  WriterOptions options;
  options.compression = compression;
  options.chunked = chunked;
  options.chunk_size = 256;
  Writer w(options);
  uint16_t imu = w.add_schema("demo/Imu", "jsonschema", "{}");
  uint16_t pose = w.add_schema("demo/Pose", "ros2msg", "float64 x\n");
  uint16_t channels[] = {w.add_channel(imu, "/imu", "json", {{"k", "v"}}), w.add_channel(pose, "/pose", "cdr"),
                         w.add_channel(0, "/log", "json")};
  for (uint32_t i = 0; i < 24; ++i) {
    uint64_t t = 1700000000000000000ull + i * 1000000ull;
    w.write_message(channels[i % 3], i, t, t, "{\"i\":" + std::to_string(i) + "}");
    if (i == 12) {
      w.write_attachment("a.txt", "text/plain", t, t, "attached");
      w.write_metadata("m", {{"key", "value"}});
    }
  }
  std::string bytes = w.finish();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

bool write_demo_file(const std::string& path, uint64_t target_bytes, const DemoOptions& options, std::string* error) {
  FileOutputSink sink;
  if (!sink.open(path) || !write_demo(sink, target_bytes, options, error) || !sink.close()) {
    if (error && error->empty()) *error = sink.error();
    return false;
  }
  return true;
}

}  // namespace logscope::mcap
