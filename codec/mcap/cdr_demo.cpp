#include "mcap/cdr_demo.h"

#include <cmath>
#include <limits>

#include "cdr/writer.h"
#include "mcap/writer.h"

namespace logscope::mcap {
namespace {

const std::string kSep = "================================================================================\n";

std::string header_sections() {
  return kSep + "MSG: std_msgs/Header\n# Standard metadata\nbuiltin_interfaces/Time stamp\nstring frame_id\n" + kSep +
         "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";
}

std::string imu_definition() {
  return "std_msgs/Header header\ngeometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance # row major\n"
         "geometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\n"
         "geometry_msgs/Vector3 linear_acceleration\nfloat64[9] linear_acceleration_covariance\n" +
         header_sections() + kSep + "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n" + kSep +
         "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n";
}

std::string scan_definition() {
  return "std_msgs/Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\nfloat32 time_increment\n"
         "float32 scan_time\nfloat32 range_min\nfloat32 range_max\nfloat32[] ranges\nfloat32[] intensities\n" +
         header_sections();
}

std::string pose_definition() {
  return "std_msgs/Header header\ngeometry_msgs/Pose pose\n" + header_sections() + kSep +
         "MSG: geometry_msgs/Pose\ngeometry_msgs/Point position\ngeometry_msgs/Quaternion orientation\n" + kSep +
         "MSG: geometry_msgs/Point\nfloat64 x\nfloat64 y\nfloat64 z\n" + kSep +
         "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n";
}

std::string all_kinds_definition() {
  return "# every kind of field\nbool b\nbyte by\nchar ch\nfloat32 f32\nfloat64 f64\nint8 i8\nuint8 u8\nint16 i16\nuint16 u16\n"
         "int32 i32\nuint32 u32\nint64 i64\nuint64 u64\nstring s\nstring<=10 bounded_s \"dflt # not a comment\"\n"
         "int32 CONST_A=7\nstring CONST_S=\"x\"\nint16[3] fixed_i16\nuint8[4] fixed_u8\nbool[2] fixed_bool\n"
         "float64[<=4] bounded_f64\nuint8[] blob\nint64[] seq_i64\nstring[] names\nstring<=5[<=3] short_names\n"
         "demo_msgs/Point[2] corners\ndemo_msgs/Point[] path\ndemo_msgs/Empty nothing\nuint8 after_empty\nfloat32[70] long_fixed\n" +
         kSep + "MSG: demo_msgs/Point\nfloat64 x\nfloat64 y\n" + kSep + "MSG: demo_msgs/Empty\n";
}

void put_header(cdr::CdrWriter& w, uint64_t ns, const std::string& frame) {
  w.put<int32_t>(static_cast<int32_t>(ns / 1000000000ull));
  w.put<uint32_t>(static_cast<uint32_t>(ns % 1000000000ull));
  w.string(frame);
}

std::string imu(uint32_t i, uint64_t ns) {
  cdr::CdrWriter w(1, false);
  put_header(w, ns, "imu_link");
  double t = i * 0.01;
  for (double v : {0.0, 0.0, std::sin(t / 2), std::cos(t / 2)}) w.put<double>(v);
  for (int k = 0; k < 9; ++k) w.put<double>(k % 4 == 0 ? 0.01 : 0.0);
  for (double v : {0.001 * i, -0.002, 0.05}) w.put<double>(v);
  for (int k = 0; k < 9; ++k) w.put<double>(k % 4 == 0 ? 0.0004 : 0.0);
  for (double v : {0.12 * std::sin(t), 0.03, 9.81 + 0.05 * std::cos(t)}) w.put<double>(v);
  for (int k = 0; k < 9; ++k) w.put<double>(k == 4 ? -1.0 : 0.0);
  return w.bytes();
}

std::string scan(uint32_t i, uint64_t ns) {
  cdr::CdrWriter w(2, false);
  put_header(w, ns, "laser");
  for (float v : {-1.57f, 1.57f, 0.1f, 0.0001f, 0.1f, 0.05f, 30.0f}) w.put<float>(v);
  uint32_t n = 5 + i % 7;
  w.sequence_length(n);
  for (uint32_t k = 0; k < n; ++k) w.put<float>(1.0f + 0.25f * static_cast<float>(k) + 0.001f * static_cast<float>(i));
  w.sequence_length(i % 2 ? n : 0);
  for (uint32_t k = 0; i % 2 && k < n; ++k) w.put<float>(100.0f + static_cast<float>(k));
  return w.bytes();
}

std::string pose(uint32_t i, uint64_t ns) {
  cdr::CdrWriter w(2, true);
  put_header(w, ns, "map");
  for (double v : {1.0 + i, -2.5 * i, 0.125}) w.put<double>(v);
  for (double v : {0.0, 0.0, 0.7071067811865476, 0.7071067811865476}) w.put<double>(v);
  return w.bytes();
}

std::string all_kinds(uint32_t i) {
  cdr::CdrWriter w(1 + static_cast<int>(i % 4) / 2, i % 2 == 1);  // XCDR1/2, little/big in turn
  w.put<uint8_t>(i % 2);
  w.put<uint8_t>(static_cast<uint8_t>(200 + i % 50));
  w.put<uint8_t>(static_cast<uint8_t>('A' + i % 26));
  w.put<float>(0.1f * static_cast<float>(i) - 1.0f);
  w.put<double>(i == 3 ? std::numeric_limits<double>::infinity() : 1e-300 * i - 2.5);
  w.put<int8_t>(static_cast<int8_t>(-128 + i));
  w.put<uint8_t>(static_cast<uint8_t>(255 - i));
  w.put<int16_t>(static_cast<int16_t>(-32768 + i));
  w.put<uint16_t>(static_cast<uint16_t>(65535 - i));
  w.put<int32_t>(-2147483647 - 1 + static_cast<int32_t>(i));
  w.put<uint32_t>(4294967295u - i);
  w.put<int64_t>(i % 3 == 0 ? std::numeric_limits<int64_t>::min() : -9007199254740993ll * i);
  w.put<uint64_t>(i % 3 == 1 ? std::numeric_limits<uint64_t>::max() : 9007199254740993ull + i);
  w.string(i % 5 == 0 ? "" : "message " + std::to_string(i) + " \"quoted\", é");
  w.string(std::string(i % 11, 'b'));
  for (int k = 0; k < 3; ++k) w.put<int16_t>(static_cast<int16_t>(k * 1000 - static_cast<int>(i)));
  for (int k = 0; k < 4; ++k) w.put<uint8_t>(static_cast<uint8_t>(k + i));
  w.put<uint8_t>(1);
  w.put<uint8_t>(i % 2);
  uint32_t nb = i % 5;
  w.sequence_length(nb);
  for (uint32_t k = 0; k < nb; ++k) w.put<double>(k * 0.5 - i);
  uint32_t nblob = (i * 7) % 13;
  w.sequence_length(nblob);
  for (uint32_t k = 0; k < nblob; ++k) w.put<uint8_t>(static_cast<uint8_t>(k * 31 + i));
  w.sequence_length(i % 3);
  for (uint32_t k = 0; k < i % 3; ++k) w.put<int64_t>(static_cast<int64_t>(k) * 1000000000000ll - i);
  w.sequence_length(2);
  w.string("alpha");
  w.string(std::to_string(i));
  w.sequence_length(i % 4);
  for (uint32_t k = 0; k < i % 4; ++k) w.string(std::string(k + 1, 'z'));
  for (int k = 0; k < 2; ++k) w.put<double>(k + 0.5 * i), w.put<double>(-k - 0.25 * i);
  uint32_t np = i % 3;
  w.sequence_length(np);
  for (uint32_t k = 0; k < np; ++k) w.put<double>(k), w.put<double>(i);
  w.put<uint8_t>(0);  // demo_msgs/Empty: one placeholder octet
  w.put<uint8_t>(static_cast<uint8_t>(i));
  for (int k = 0; k < 70; ++k) w.put<float>(static_cast<float>(k) / 3.0f);
  if (i % 3 == 2) w.pad_end();
  return w.bytes();
}

}  // namespace

std::string cdr_demo(const CdrDemoOptions& options) {
  WriterOptions wo;
  wo.profile = "ros2";
  wo.library = "logscope make-demo-cdr";
  wo.compression = options.compression;
  wo.chunk_size = 16 * 1024;
  wo.message_indexes = options.message_indexes;
  Writer w(wo);
  StringPairs qos{{"offered_qos_profiles", ""}};
  uint16_t imu_ch = w.add_channel(w.add_schema("sensor_msgs/msg/Imu", "ros2msg", imu_definition()), "/imu", "cdr", qos);
  uint16_t scan_ch = w.add_channel(w.add_schema("sensor_msgs/msg/LaserScan", "ros2msg", scan_definition()), "/scan", "cdr", qos);
  uint16_t pose_ch = w.add_channel(w.add_schema("geometry_msgs/msg/PoseStamped", "ros2msg", pose_definition()), "/pose", "cdr", qos);
  uint16_t all_ch = w.add_channel(w.add_schema("demo_msgs/msg/AllKinds", "ros2msg", all_kinds_definition()), "/all_kinds", "cdr", qos);
  uint16_t bad_ch = w.add_channel(w.add_schema("demo_msgs/msg/Wide", "ros2msg", "float64 a\nfloat64 b\n"), "/mismatch", "cdr", qos);
  uint16_t ros1_ch = w.add_channel(w.add_schema("std_msgs/Float64", "ros1msg", "float64 data\n"), "/legacy", "ros1");
  uint16_t json_ch = w.add_channel(w.add_schema("demo.Status", "jsonschema", "{\"type\":\"object\"}"), "/status", "json");
  const uint64_t start = 1700000000ull * 1000000000ull + 250000000ull;
  for (uint32_t i = 0; i < options.messages_per_channel; ++i) {
    uint64_t ns = start + i * 50000000ull;
    w.write_message(imu_ch, i, ns, ns, imu(i, ns));
    w.write_message(scan_ch, i, ns + 1000, ns + 1000, scan(i, ns));
    w.write_message(pose_ch, i, ns + 2000, ns + 2000, pose(i, ns));
    w.write_message(all_ch, i, ns + 3000, ns + 3000, all_kinds(i));
    cdr::CdrWriter one(1);
    one.put<double>(i);
    w.write_message(bad_ch, i, ns + 4000, ns + 4000, one.bytes());
    double value = 0.5 * i;
    w.write_message(ros1_ch, i, ns + 5000, ns + 5000, std::string(reinterpret_cast<const char*>(&value), 8));
    w.write_message(json_ch, i, ns + 6000, ns + 6000, "{\"ok\":" + std::string(i % 2 ? "true" : "false") + ",\"n\":" + std::to_string(i) + "}");
  }
  return w.finish();
}

}  // namespace logscope::mcap
