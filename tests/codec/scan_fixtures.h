// Scan messages the scans view's tests write (tests/codec/test_scans.cpp): sensor_msgs/LaserScan
// and PointCloud2 serialised for ROS 1 and as CDR, and a scene of them (several datatypes, both
// byte orders, padded rows, a field past point_step, a cut cloud) with the points each must give,
// computed here from the values written.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cdr/writer.h"

namespace scan_fixtures {

constexpr uint64_t kStart = 1767225600000000000ull;
constexpr uint64_t kSecond = 1000000000ull;
inline const char* kLaserScanMd5 = "90c7ef2dc6895d81024acba2ac42f369";
inline const char* kPointCloud2Md5 = "1158d486dd51d683ce2f1be655c3c181";

inline const char* kLaserScanRos1 =
    "Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\nfloat32 time_increment\nfloat32 scan_time\n"
    "float32 range_min\nfloat32 range_max\nfloat32[] ranges\nfloat32[] intensities\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";
inline const char* kPointCloud2Ros1 =
    "Header header\nuint32 height\nuint32 width\nPointField[] fields\nbool is_bigendian\nuint32 point_step\nuint32 row_step\n"
    "uint8[] data\nbool is_dense\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: sensor_msgs/PointField\nuint8 INT8=1\nuint8 UINT8=2\nuint8 INT16=3\nuint8 UINT16=4\nuint8 INT32=5\nuint8 UINT32=6\n"
    "uint8 FLOAT32=7\nuint8 FLOAT64=8\nstring name\nuint32 offset\nuint8 datatype\nuint32 count\n";
inline const char* kLaserScanRos2 =
    "std_msgs/Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\nfloat32 time_increment\nfloat32 scan_time\n"
    "float32 range_min\nfloat32 range_max\nfloat32[] ranges\nfloat32[] intensities\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";
inline const char* kPointCloud2Ros2 =
    "std_msgs/Header header\nuint32 height\nuint32 width\nPointField[] fields\nbool is_bigendian\nuint32 point_step\nuint32 row_step\n"
    "uint8[] data\nbool is_dense\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
    "================================================================================\n"
    "MSG: sensor_msgs/PointField\nuint8 INT8=1\nuint8 UINT8=2\nuint8 INT16=3\nuint8 UINT16=4\nuint8 INT32=5\nuint8 UINT32=6\n"
    "uint8 FLOAT32=7\nuint8 FLOAT64=8\nstring name\nuint32 offset\nuint8 datatype\nuint32 count\n";

enum : uint8_t { kInt8 = 1, kUInt8, kInt16, kUInt16, kInt32, kUInt32, kFloat32, kFloat64 };

struct ScanSpec {
  std::string frame;
  uint64_t stamp_ns = 0;
  float angle_min = 0, angle_increment = 0, range_min = 0, range_max = 0;
  std::vector<float> ranges, intensities;
};

struct CloudField {
  std::string name;
  uint32_t offset;
  uint8_t datatype;
};

struct CloudSpec {
  std::string frame;
  uint64_t stamp_ns = 0;
  uint32_t height = 0, width = 0, point_step = 0, row_step = 0;
  bool big_endian = false;
  std::vector<CloudField> fields;
  std::string data;
};

struct Expected {
  double x, y, z, value;
  bool has_value;
};

struct Written {
  std::string label;
  bool is_cloud = false;
  uint64_t time_ns = 0;
  std::string frame;
  ScanSpec scan;
  CloudSpec cloud;
  std::vector<Expected> expected;  // the valid points, in order
  uint64_t invalid = 0, declared = 0;
  std::vector<std::string> problems;  // their codes
  std::string value_name;
};

inline size_t datatype_size(uint8_t t) { return t <= kUInt8 ? 1 : t <= kUInt16 ? 2 : t <= kFloat32 ? 4 : 8; }

// `v` as `datatype` at `at`, in the byte order asked; returns the value as the type holds it.
inline double put_value(std::string& data, size_t at, uint8_t datatype, double v, bool big_endian) {
  char raw[8];
  double held = 0;
  switch (datatype) {
    case kInt8: { int8_t x = static_cast<int8_t>(v); std::memcpy(raw, &x, 1); held = x; break; }
    case kUInt8: { uint8_t x = static_cast<uint8_t>(v); std::memcpy(raw, &x, 1); held = x; break; }
    case kInt16: { int16_t x = static_cast<int16_t>(v); std::memcpy(raw, &x, 2); held = x; break; }
    case kUInt16: { uint16_t x = static_cast<uint16_t>(v); std::memcpy(raw, &x, 2); held = x; break; }
    case kInt32: { int32_t x = static_cast<int32_t>(v); std::memcpy(raw, &x, 4); held = x; break; }
    case kUInt32: { uint32_t x = static_cast<uint32_t>(v); std::memcpy(raw, &x, 4); held = x; break; }
    case kFloat32: { float x = static_cast<float>(v); std::memcpy(raw, &x, 4); held = x; break; }
    default: { std::memcpy(raw, &v, 8); held = v; break; }
  }
  size_t n = datatype_size(datatype);
  if (data.size() < at + n) data.resize(at + n, '\0');
  for (size_t i = 0; i < n; ++i) data[at + i] = raw[big_endian ? n - 1 - i : i];
  return held;
}

// A cloud of width x height points: `value_of(point, field)` gives each field's value; rows padded
// to row_step with 0xAA. Fills `expected` with x, y, z (0 when absent) and the value field's value.
template <class ValueOf>
CloudSpec make_cloud(const std::string& frame, uint32_t width, uint32_t height, uint32_t point_step, uint32_t row_step, bool big_endian,
                     std::vector<CloudField> fields, const std::string& value_field, ValueOf value_of, std::vector<Expected>* expected,
                     uint64_t* invalid) {
  CloudSpec c{frame, 0, height, width, point_step, row_step, big_endian, fields, std::string(size_t(row_step) * height, '\xaa')};
  for (uint32_t r = 0; r < height; ++r)
    for (uint32_t i = 0; i < width; ++i) {
      uint32_t point = r * width + i;
      Expected e{0, 0, 0, 0, false};
      for (size_t f = 0; f < fields.size(); ++f) {
        double held = put_value(c.data, size_t(r) * row_step + size_t(i) * point_step + fields[f].offset, fields[f].datatype,
                                value_of(point, f), big_endian);
        if (fields[f].name == "x") e.x = held;
        if (fields[f].name == "y") e.y = held;
        if (fields[f].name == "z") e.z = held;
        if (fields[f].name == value_field) e.value = held, e.has_value = std::isfinite(held);
      }
      if (std::isfinite(e.x) && std::isfinite(e.y) && std::isfinite(e.z)) expected->push_back(e);
      else ++*invalid;
    }
  c.data.resize(size_t(row_step) * height, '\xaa');
  return c;
}

inline Written written(std::string label, bool is_cloud, uint64_t time_ns) {
  Written w;
  w.label = std::move(label);
  w.is_cloud = is_cloud;
  w.time_ns = time_ns;
  return w;
}

// The scene: in time order, scans on /scan and clouds on /cloud.
inline std::vector<Written> scene() {
  std::vector<Written> out;
  auto at = [](int halves) { return kStart + uint64_t(halves) * kSecond / 2; };
  {  // A scan: out of range, infinite, NaN; with intensities.
    Written w = written("scan with intensities", false, at(0));
    w.scan = {"laser", 0, -1.0f, 0.25f, 0.5f, 10.0f, {1, 2, INFINITY, 0.2f, 11, NAN, 3, 4}, {10, 11, 12, 13, 14, 15, 16, 17}};
    for (size_t i = 0; i < w.scan.ranges.size(); ++i) {
      double r = w.scan.ranges[i];
      if (!(std::isfinite(r) && r >= w.scan.range_min && r <= w.scan.range_max)) { ++w.invalid; continue; }
      double a = double(w.scan.angle_min) + double(i) * double(w.scan.angle_increment);
      w.expected.push_back({r * std::cos(a), r * std::sin(a), 0, double(w.scan.intensities[i]), true});
    }
    w.declared = 8;
    w.value_name = "intensity";
    out.push_back(w);
  }
  {  // float32 x, y, z and uint16 intensity, little-endian, one row; a NaN point.
    Written w = written("float32 + uint16, little-endian", true, at(1));
    w.cloud = make_cloud("velodyne", 6, 1, 16, 96, false, {{"x", 0, kFloat32}, {"y", 4, kFloat32}, {"z", 8, kFloat32}, {"intensity", 12, kUInt16}},
                         "intensity", [](uint32_t p, size_t f) { return p == 2 && f == 1 ? NAN : f == 3 ? 1000.0 + p : 0.1 * p - 0.3 * f; },
                         &w.expected, &w.invalid);
    w.declared = 6;
    w.value_name = "intensity";
    out.push_back(w);
  }
  {  // A scan without intensities.
    Written w = written("scan without intensities", false, at(4));
    w.scan = {"laser", 0, 0.0f, 0.5f, 0.0f, 100.0f, {5, 6, 7, 8, 9}, {}};
    for (size_t i = 0; i < 5; ++i) {
      double r = w.scan.ranges[i], a = double(i) * 0.5;
      w.expected.push_back({r * std::cos(a), r * std::sin(a), 0, 0, false});
    }
    w.declared = 5;
    out.push_back(w);
  }
  {  // float64 x, y, z and int8 intensity, big-endian, 3 rows of 5 padded by 7 bytes.
    Written w = written("float64 + int8, big-endian, padded rows", true, at(5));
    w.cloud = make_cloud("os1", 5, 3, 32, 5 * 32 + 7, true, {{"x", 0, kFloat64}, {"y", 8, kFloat64}, {"z", 16, kFloat64}, {"intensity", 24, kInt8}},
                         "intensity", [](uint32_t p, size_t f) { return f == 3 ? -60.0 + 9 * p : 1.0 / 3 * p + f * 100.25; }, &w.expected, &w.invalid);
    w.declared = 15;
    w.value_name = "intensity";
    out.push_back(w);
  }
  {  // int16 x, y, z and uint32 ring (no intensity: the value is the first other field), big-endian, padded rows.
    Written w = written("int16 + uint32 ring, big-endian", true, at(6));
    w.cloud = make_cloud("sonar", 4, 2, 10, 43, true, {{"x", 0, kInt16}, {"y", 2, kInt16}, {"z", 4, kInt16}, {"ring", 6, kUInt32}},
                         "ring", [](uint32_t p, size_t f) { return f == 3 ? 4000000000.0 + p : -1000.0 * f + 37 * p; }, &w.expected, &w.invalid);
    w.declared = 8;
    w.value_name = "ring";
    out.push_back(w);
  }
  {  // Unaligned fields of every other datatype: uint8 x, int32 y, float32 z, float64 intensity, and int8, uint8, uint16 beside.
    Written w = written("unaligned uint8, int32, float32, float64", true, at(7));
    w.cloud = make_cloud("radar", 3, 1, 22, 66, false,
                         {{"x", 0, kUInt8}, {"y", 1, kInt32}, {"z", 5, kFloat32}, {"rgb", 9, kFloat32}, {"intensity", 13, kFloat64}, {"t", 21, kInt8}},
                         "intensity", [](uint32_t p, size_t f) { return f == 0 ? 250.0 + p : f == 1 ? -2000000000.0 + p : f == 4 ? 1e-3 * p : 2.5 * p; },
                         &w.expected, &w.invalid);
    w.declared = 3;
    w.value_name = "intensity";
    out.push_back(w);
  }
  {  // A field past point_step: the intensity reads into the next point's bytes (the last point's lie in the data).
    Written w = written("a field past point_step", true, at(8));
    w.cloud = make_cloud("cam", 3, 1, 10, 30, false, {{"x", 0, kFloat32}, {"y", 4, kFloat32}}, "", [](uint32_t p, size_t f) { return p + 0.5 * f; },
                         &w.expected, &w.invalid);
    w.cloud.fields.push_back({"intensity", 8, kFloat32});
    w.cloud.data += std::string("\x01\x02", 2);
    for (size_t i = 0; i < w.expected.size(); ++i) {
      float v;
      std::memcpy(&v, w.cloud.data.data() + i * 10 + 8, 4);
      w.expected[i].value = v, w.expected[i].has_value = std::isfinite(v);
    }
    w.declared = 3;
    w.value_name = "intensity";
    w.problems = {"scan.field.past_point_step"};
    out.push_back(w);
  }
  {  // A cut cloud: 2 rows of 3 (row_step 40), the data cut 5 bytes into the second row's second point.
    Written w = written("a cut cloud", true, at(9));
    std::vector<Expected> all;
    w.cloud = make_cloud("cut", 3, 2, 12, 40, false, {{"x", 0, kFloat32}, {"y", 4, kFloat32}, {"z", 8, kFloat32}}, "",
                         [](uint32_t p, size_t f) { return 10.0 * p + f; }, &all, &w.invalid);
    w.cloud.data.resize(40 + 12 + 5);
    w.expected = {all[0], all[1], all[2], all[3]};
    w.declared = 6;
    w.problems = {"scan.data.short"};
    out.push_back(w);
  }
  for (Written& w : out) {
    w.scan.stamp_ns = w.cloud.stamp_ns = w.time_ns - 5000;
    w.frame = w.is_cloud ? w.cloud.frame : w.scan.frame;
  }
  return out;
}

inline void put_u32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
inline void put_f32(std::string* out, float v) {
  char raw[4];
  std::memcpy(raw, &v, 4);
  out->append(raw, 4);
}
inline void put_string(std::string* out, const std::string& s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}
inline void put_header_ros1(std::string* out, uint64_t stamp_ns, const std::string& frame) {
  put_u32(out, 7);
  put_u32(out, static_cast<uint32_t>(stamp_ns / kSecond));
  put_u32(out, static_cast<uint32_t>(stamp_ns % kSecond));
  put_string(out, frame);
}

inline std::string scan_ros1(const ScanSpec& s) {
  std::string out;
  put_header_ros1(&out, s.stamp_ns, s.frame);
  float angle_max = s.angle_min + s.angle_increment * float(s.ranges.size() ? s.ranges.size() - 1 : 0);
  for (float v : {s.angle_min, angle_max, s.angle_increment, 0.0f, 0.1f, s.range_min, s.range_max}) put_f32(&out, v);
  for (const auto* list : {&s.ranges, &s.intensities}) {
    put_u32(&out, static_cast<uint32_t>(list->size()));
    for (float v : *list) put_f32(&out, v);
  }
  return out;
}

inline std::string cloud_ros1(const CloudSpec& c) {
  std::string out;
  put_header_ros1(&out, c.stamp_ns, c.frame);
  put_u32(&out, c.height);
  put_u32(&out, c.width);
  put_u32(&out, static_cast<uint32_t>(c.fields.size()));
  for (const CloudField& f : c.fields) {
    put_string(&out, f.name);
    put_u32(&out, f.offset);
    out.push_back(static_cast<char>(f.datatype));
    put_u32(&out, 1);
  }
  out.push_back(c.big_endian ? 1 : 0);
  put_u32(&out, c.point_step);
  put_u32(&out, c.row_step);
  put_string(&out, c.data);
  out.push_back(1);
  return out;
}

inline void put_header_cdr(logscope::cdr::CdrWriter& w, uint64_t stamp_ns, const std::string& frame) {
  w.put<int32_t>(static_cast<int32_t>(stamp_ns / kSecond));
  w.put<uint32_t>(static_cast<uint32_t>(stamp_ns % kSecond));
  w.string(frame);
}

inline std::string scan_cdr(const ScanSpec& s) {
  logscope::cdr::CdrWriter w;
  put_header_cdr(w, s.stamp_ns, s.frame);
  float angle_max = s.angle_min + s.angle_increment * float(s.ranges.size() ? s.ranges.size() - 1 : 0);
  for (float v : {s.angle_min, angle_max, s.angle_increment, 0.0f, 0.1f, s.range_min, s.range_max}) w.put<float>(v);
  for (const auto* list : {&s.ranges, &s.intensities}) {
    w.sequence_length(static_cast<uint32_t>(list->size()));
    for (float v : *list) w.put<float>(v);
  }
  return w.bytes();
}

inline std::string cloud_cdr(const CloudSpec& c) {
  logscope::cdr::CdrWriter w;
  put_header_cdr(w, c.stamp_ns, c.frame);
  w.put<uint32_t>(c.height);
  w.put<uint32_t>(c.width);
  w.sequence_length(static_cast<uint32_t>(c.fields.size()));
  for (const CloudField& f : c.fields) {
    w.string(f.name);
    w.put<uint32_t>(f.offset);
    w.put<uint8_t>(f.datatype);
    w.put<uint32_t>(1);
  }
  w.put<uint8_t>(c.big_endian ? 1 : 0);
  w.put<uint32_t>(c.point_step);
  w.put<uint32_t>(c.row_step);
  w.sequence_length(static_cast<uint32_t>(c.data.size()));
  w.octets(c.data);
  w.put<uint8_t>(1);
  return w.bytes();
}

}  // namespace scan_fixtures
