#include "rosbag/demo.h"

#include <cmath>
#include <cstring>

#include "rosbag/writer.h"

namespace logscope::rosbag {
namespace {

struct TypeInfo {
  const char* type;
  const char* md5;
  const char* definition;
};
const TypeInfo kTypes[] = {
#include "rosbag/demo_types.inc"
};
const TypeInfo& type_info(const char* name) {
  for (const TypeInfo& t : kTypes)
    if (std::strcmp(t.type, name) == 0) return t;
  return kTypes[0];
}

// ROS1 serialization into a reused buffer.
struct Out {
  std::string bytes;
  template <typename T>
  void put(T v) {
    bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void str(const std::string& s) {
    put<uint32_t>(static_cast<uint32_t>(s.size()));
    bytes += s;
  }
  void time(Time t) {
    put<uint32_t>(t.sec);
    put<uint32_t>(t.nsec);
  }
  void header(uint32_t seq, Time t, const char* frame) {
    put<uint32_t>(seq);
    time(t);
    str(frame);
  }
  void vec3(double x, double y, double z) { put(x), put(y), put(z); }
  void quat_yaw(double yaw) { put(0.0), put(0.0), put(std::sin(yaw / 2)), put(std::cos(yaw / 2)); }
  void doubles(int n, double v) {
    for (int i = 0; i < n; ++i) put(i % 4 == 0 ? v : 0.0);
  }
};

uint64_t next_random(uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

bool write_tiny(BagWriter& writer, ByteSink& sink, uint64_t target) {
  const char* def = "int32 data\n";
  const char* md5 = "da5909fbe378aeaf85e547e830cc1bb7";
  uint32_t conns[4] = {writer.add_connection("/counter", "std_msgs/Int32", md5, def, "/talker"),
                       writer.add_connection("/wheel/left_ticks", "std_msgs/Int32", md5, def, "/base"),
                       writer.add_connection("/wheel/right_ticks", "std_msgs/Int32", md5, def, "/base"),
                       writer.add_connection("/bumper", "std_msgs/Int32", md5, def, "/base")};
  uint64_t ns = 1700000000ull * 1000000000ull;
  for (int32_t i = 0; sink.position() < target; ++i) {
    ns += 1000000;  // 1 kHz
    if (!writer.write(conns[i & 3], Time::from_ns(ns), std::string_view(reinterpret_cast<const char*>(&i), 4))) return false;
  }
  return true;
}

}  // namespace

bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error) {
  return write_demo_file(path, target_bytes, DemoOptions(), error);
}

bool write_demo_file(const std::string& path, uint64_t target_bytes, const DemoOptions& options, std::string* error) {
  FileSink sink;
  if (!sink.open(path, error)) return false;
  WriterOptions wo;
  wo.version = options.version;
  wo.compression = options.version == 200 ? options.compression : "none";
  BagWriter writer(sink, wo);
  auto fail = [&]() {
    if (error) *error = writer.error().empty() ? "write failed" : writer.error();
    return false;
  };
  if (options.tiny) {
    if (!write_tiny(writer, sink, target_bytes) || !writer.close() || !sink.close()) return fail();
    return true;
  }
  auto add = [&](const char* topic, const char* type, const char* caller, bool latching = false) {
    const TypeInfo& t = type_info(type);
    return writer.add_connection(topic, t.type, t.md5, t.definition, caller, latching);
  };
  uint32_t imu = add("/imu/data", "sensor_msgs/Imu", "/imu_driver");
  uint32_t odom = add("/odometry/filtered", "nav_msgs/Odometry", "/ekf_localization");
  uint32_t scan = add("/scan", "sensor_msgs/LaserScan", "/sick_tim");
  uint32_t tf = add("/tf", "tf2_msgs/TFMessage", "/robot_state_publisher");
  uint32_t tf_ekf = add("/tf", "tf2_msgs/TFMessage", "/ekf_localization");
  uint32_t gps = add("/navsat/fix", "sensor_msgs/NavSatFix", "/navsat_driver");
  uint32_t cmd = add("/cmd_vel", "geometry_msgs/Twist", "/move_base");
  uint32_t image = add("/camera/image_raw/compressed", "sensor_msgs/CompressedImage", "/camera_driver");
  uint32_t rosout = add("/rosout", "rosgraph_msgs/Log", "/rosout", true);

  Out out;
  uint64_t random = 0x9E3779B97F4A7C15ull;
  const uint64_t start_ns = 1700000000ull * 1000000000ull + 123456789ull;
  std::string jpeg(38 * 1024, '\0');
  for (uint64_t tick = 0; sink.position() < target_bytes; ++tick) {
    double t = static_cast<double>(tick) * 0.01;  // 100 Hz base clock
    Time stamp = Time::from_ns(start_ns + tick * 10000000ull + next_random(random) % 400000);
    double yaw = 0.05 * t, x = 1.2 * std::cos(yaw) * t * 0.1, y = 1.2 * std::sin(yaw) * t * 0.1;
    auto emit = [&](uint32_t conn) { return writer.write(conn, stamp, out.bytes); };
    out.bytes.clear();
    out.header(static_cast<uint32_t>(tick), stamp, "imu_link");
    out.quat_yaw(yaw);
    out.doubles(9, 0.0025);
    out.vec3(0.001 * std::sin(t), -0.002, 0.05 + 0.01 * std::sin(3 * t));
    out.doubles(9, 0.0001);
    out.vec3(0.12 * std::sin(2 * t), 0.03, 9.81 + 0.05 * std::cos(5 * t));
    out.doubles(9, 0.01);
    if (!emit(imu)) return fail();
    if (tick % 2 == 0) {
      out.bytes.clear();
      out.header(static_cast<uint32_t>(tick / 2), stamp, "odom");
      out.str("base_link");
      out.vec3(x, y, 0);
      out.quat_yaw(yaw);
      out.doubles(36, 0.01);
      out.vec3(1.2, 0, 0);
      out.vec3(0, 0, 0.05);
      out.doubles(36, 0.02);
      if (!emit(odom)) return fail();
      out.bytes.clear();
      out.put<uint32_t>(2);
      out.header(static_cast<uint32_t>(tick / 2), stamp, "odom");
      out.str("base_link");
      out.vec3(x, y, 0);
      out.quat_yaw(yaw);
      out.header(static_cast<uint32_t>(tick / 2), stamp, "base_link");
      out.str("imu_link");
      out.vec3(0.1, 0, 0.2);
      out.quat_yaw(0);
      if (!emit(tick % 4 == 0 ? tf : tf_ekf)) return fail();
    }
    if (tick % 5 == 0) {
      out.bytes.clear();
      out.header(static_cast<uint32_t>(tick / 5), stamp, "laser");
      const int n = 720;
      float angle_min = -2.35619f, inc = 4.71239f / n;
      out.put(angle_min), out.put(-angle_min), out.put(inc), out.put(0.0000694f), out.put(0.05f), out.put(0.05f), out.put(25.0f);
      out.put<uint32_t>(n);
      for (int i = 0; i < n; ++i) out.put(static_cast<float>(4.0 + 2.0 * std::sin(i * 0.02 + t) + (next_random(random) % 100) * 0.001));
      out.put<uint32_t>(n);
      for (int i = 0; i < n; ++i) out.put(static_cast<float>(100 + next_random(random) % 50));
      if (!emit(scan)) return fail();
      out.bytes.clear();
      out.vec3(1.2, 0, 0);
      out.vec3(0, 0, 0.05);
      if (!emit(cmd)) return fail();
    }
    if (tick % 10 == 0) {
      out.bytes.clear();
      out.header(static_cast<uint32_t>(tick / 10), stamp, "camera_optical");
      out.str("jpeg");
      for (size_t i = 0; i + 8 <= jpeg.size(); i += 8) {
        uint64_t r = next_random(random);
        std::memcpy(&jpeg[i], &r, 8);
      }
      jpeg[0] = static_cast<char>(0xFF), jpeg[1] = static_cast<char>(0xD8), jpeg[2] = static_cast<char>(0xFF), jpeg[3] = static_cast<char>(0xE0);
      out.put<uint32_t>(static_cast<uint32_t>(jpeg.size()));
      out.bytes += jpeg;
      if (!emit(image)) return fail();
    }
    if (tick % 20 == 0) {
      out.bytes.clear();
      out.header(static_cast<uint32_t>(tick / 20), stamp, "gps");
      out.put<int8_t>(0);
      out.put<uint16_t>(1);
      out.put(42.3601 + y * 9e-6), out.put(-71.0942 + x * 1.2e-5), out.put(12.5);
      out.doubles(9, 2.5);
      out.put<uint8_t>(2);
      if (!emit(gps)) return fail();
    }
    if (tick % 100 == 0) {
      out.bytes.clear();
      out.header(static_cast<uint32_t>(tick / 100), stamp, "");
      out.put<int8_t>(tick % 1000 == 0 ? 4 : 2);
      out.str("/move_base");
      out.str(tick % 1000 == 0 ? "Clearing costmap to unstuck robot" : "Got new plan");
      out.str("/tmp/binarydeb/ros-noetic-move-base/src/move_base.cpp");
      out.str("MoveBase::executeCycle");
      out.put<uint32_t>(1012);
      out.put<uint32_t>(2);
      out.str("/cmd_vel");
      out.str("/rosout");
      if (!emit(rosout)) return fail();
    }
  }
  if (!writer.close() || !sink.close()) return fail();
  return true;
}

}  // namespace logscope::rosbag
