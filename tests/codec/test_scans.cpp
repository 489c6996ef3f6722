// The scans view (codec/views/scans.h, scan_points.h) on files our writers make: sensor_msgs
// LaserScan and PointCloud2 (several datatypes, both byte orders, padded rows, a cut cloud) in a
// bag (ROS 1, lz4 chunks) and in an MCAP (CDR); the scan at a time, its points against what the
// test wrote, decimation and the named problems. The real samples: tests/codec/test_scans_real.cpp.
#include <cmath>
#include <cstring>

#include "cdr/writer.h"
#include "inspector.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "rosbag/inspector.h"
#include "rosbag/model.h"
#include "rosbag/writer.h"
#include "scan_fixtures.h"
#include "test_support.h"
#include "views/scan_points.h"

using namespace logscope;
using namespace scan_fixtures;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::string scene_bag() {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = "lz4";
  options.chunk_threshold = 2048;
  rosbag::BagWriter writer(sink, options);
  uint32_t scan = writer.add_connection("/scan", "sensor_msgs/LaserScan", kLaserScanMd5, kLaserScanRos1);
  uint32_t cloud = writer.add_connection("/cloud", "sensor_msgs/PointCloud2", kPointCloud2Md5, kPointCloud2Ros1);
  for (const Written& w : scene())
    REQUIRE(writer.write(w.is_cloud ? cloud : scan, rosbag::Time::from_ns(w.time_ns), w.is_cloud ? cloud_ros1(w.cloud) : scan_ros1(w.scan)));
  REQUIRE(writer.close());
  return sink.bytes;
}

std::string scene_mcap() {
  mcap::WriterOptions options;
  options.chunk_size = 1024;
  mcap::Writer writer(options);
  uint16_t scan = writer.add_channel(writer.add_schema("sensor_msgs/msg/LaserScan", "ros2msg", kLaserScanRos2), "/scan", "cdr");
  uint16_t cloud = writer.add_channel(writer.add_schema("sensor_msgs/msg/PointCloud2", "ros2msg", kPointCloud2Ros2), "/cloud", "cdr");
  uint32_t sequence = 0;
  for (const Written& w : scene())
    writer.write_message(w.is_cloud ? cloud : scan, sequence++, w.time_ns, w.time_ns, w.is_cloud ? cloud_cdr(w.cloud) : scan_cdr(w.scan));
  return writer.finish();
}

Json ask(FormatInspector& inspector, Json args) {
  Json answer = inspector.query("scan", args, nullptr);
  const Json* error = answer.find("error");
  REQUIRE_MESSAGE(!error, (error ? error->as_string() : ""));
  return answer;
}

Json args_at(const std::string& topic, std::optional<uint64_t> at_ns, uint64_t max_points = 0) {
  Json args = Json::object();
  args["topic"] = topic;
  if (at_ns) args["at_ns"] = std::to_string(*at_ns);
  if (max_points) args["max_points"] = max_points;
  return args;
}

uint64_t ns_of(const Json* j) { return std::stoull(j->as_string()); }

// The answer's points equal the expected ones (x, y, z exactly as the test computed them from the
// same values; the value, or null).
void same_points(const Json& scan, const std::vector<Expected>& expected) {
  const Json& points = *scan.find("points");
  REQUIRE(points.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    const Json& p = points[i];
    CHECK(p[0].as_double() == doctest::Approx(expected[i].x).epsilon(1e-12));
    CHECK(p[1].as_double() == doctest::Approx(expected[i].y).epsilon(1e-12));
    CHECK(p[2].as_double() == doctest::Approx(expected[i].z).epsilon(1e-12));
    if (expected[i].has_value) CHECK(p[3].as_double() == expected[i].value);
    else CHECK(p[3].is_null());
  }
}

std::vector<std::string> problem_codes(const Json& scan) {
  std::vector<std::string> out;
  for (const Json& p : scan.find("problems")->elements()) out.push_back(p.find("code")->as_string());
  return out;
}

// Every message of the scene, asked at its own time, gives what was written; between messages the
// one before; before the first, none.
void check_scene(FormatInspector& inspector) {
  std::vector<Written> written = scene();
  Json topics = inspector.query("scan", *Json::parse(R"({"topics_only": true})"), nullptr);
  CHECK(topics.find("topics")->size() == 2);
  size_t scans = 0, clouds = 0;
  for (const Written& w : written) {
    CAPTURE(w.label);
    const std::string topic = w.is_cloud ? "/cloud" : "/scan";
    Json answer = ask(inspector, args_at(topic, w.time_ns + 1000));  // just after it: still this message
    CHECK(answer.find("type")->as_string().find(w.is_cloud ? "PointCloud2" : "LaserScan") != std::string::npos);
    CHECK(answer.find("index")->as_uint() == (w.is_cloud ? clouds++ : scans++));
    const Json& scan = *answer.find("scan");
    REQUIRE(!scan.find("error"));
    CHECK(ns_of(scan.find("time_ns")) == w.time_ns);
    CHECK(ns_of(scan.find("stamp_ns")) == w.time_ns - 5000);
    CHECK(scan.find("frame_id")->as_string() == w.frame);
    CHECK(scan.find("kind")->as_string() == (w.is_cloud ? "point_cloud2" : "laser_scan"));
    CHECK(scan.find("count")->as_uint() == w.expected.size());
    CHECK(scan.find("invalid")->as_uint() == w.invalid);
    CHECK(scan.find("declared")->as_uint() == w.declared);
    CHECK(!scan.find("decimated")->as_bool());
    CHECK(problem_codes(scan) == w.problems);
    CHECK((w.value_name.empty() ? scan.find("value")->is_null() : scan.find("value")->as_string() == w.value_name));
    same_points(scan, w.expected);
    if (!w.expected.empty()) {
      double lo = INFINITY, hi = -INFINITY;
      for (const Expected& e : w.expected) lo = std::min(lo, e.x), hi = std::max(hi, e.x);
      CHECK(scan.find("bounds")->find("min_x")->as_double() == doctest::Approx(lo).epsilon(1e-12));
      CHECK(scan.find("bounds")->find("max_x")->as_double() == doctest::Approx(hi).epsilon(1e-12));
    }
  }
  // Before the first message: none; no time: the first; the neighbours' times for stepping.
  Json before = ask(inspector, args_at("/cloud", kStart - 1));
  CHECK(!before.find("scan"));
  CHECK(before.find("index")->is_null());
  Json first = ask(inspector, args_at("/scan", std::nullopt));
  CHECK(ns_of(first.find("scan")->find("time_ns")) == kStart);
  CHECK(first.find("previous_ns")->is_null());
  CHECK(ns_of(first.find("next_ns")) == kStart + 2 * kSecond);
  CHECK(first.find("messages")->as_uint() == 2);
  // Decimated: max_points of the valid points, spread evenly (point j kept when floor((j+1)n/N) grows).
  const Written& big = written[3];
  REQUIRE(big.expected.size() == 15);
  Json three = ask(inspector, args_at("/cloud", big.time_ns, 3));
  const Json& scan = *three.find("scan");
  CHECK(scan.find("decimated")->as_bool());
  CHECK(scan.find("count")->as_uint() == 15);
  CHECK(scan.find("shown")->as_uint() == 3);
  same_points(scan, {big.expected[4], big.expected[9], big.expected[14]});
  CHECK(three.find("undecoded")->as_uint() == 0);
  // A topic of another type, and no such topic, are errors.
  CHECK(inspector.query("scan", args_at("/nope", std::nullopt), nullptr).find("error"));
}

}  // namespace

TEST_CASE("scans: a bag's LaserScan and PointCloud2 (every datatype, both byte orders, padded rows, a cut cloud) as points") {
  std::string bytes = scene_bag();
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  check_scene(*inspector);
}

TEST_CASE("scans: sensor_msgs/msg/LaserScan and PointCloud2 in an MCAP (CDR) give the same points") {
  std::string bytes = scene_mcap();
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = mcap::open_inspector(source);
  REQUIRE(inspector);
  check_scene(*inspector);
}

TEST_CASE("scans: Foxglove's LaserScan and PointCloud (protobuf's shapes, defaults left out, a pose)") {
  auto parse = [](const char* text) { return *Json::parse(text); };
  std::vector<std::pair<views::ScanPoint, bool>> seen;
  auto collect = [&](const views::ScanPoint& p, bool valid) { seen.push_back({p, valid}); };
  // Three ranges from 0 to pi/2, both ends included; a scan origin 1 m along x, turned 90 deg about z.
  Json scan = parse(R"({"frame_id": "base", "timestamp": {"seconds": "12", "nanos": 5}, "start_angle": 0, "end_angle": 1.5707963267948966,
    "ranges": [1, "NaN", 2], "intensities": [7, 8, 9],
    "pose": {"position": {"x": 1}, "orientation": {"z": 0.7071067811865476, "w": 0.7071067811865476}}})");
  views::ScanMessage m;
  std::string error;
  REQUIRE_MESSAGE(m.read("foxglove.LaserScan", scan, &error), error);
  CHECK(*m.stamp_ns == 12000000005ull);
  CHECK(m.value_name == "intensity");
  m.for_each(collect);
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].second);
  CHECK(seen[0].first.x == doctest::Approx(1));  // (1, 0) turned to (0, 1), then moved to (1, 1)
  CHECK(seen[0].first.y == doctest::Approx(1));
  CHECK(!seen[1].second);  // "NaN" is no number
  CHECK(seen[2].second);
  CHECK(seen[2].first.x == doctest::Approx(1 - 2));  // (0, 2) at pi/2 turned to (-2, 0)
  CHECK(seen[2].first.y == doctest::Approx(0).epsilon(1e-9));
  CHECK(seen[2].first.value == 9);
  // A PointCloud: fields by NumericType, by number or by name; little-endian; a stride of 13 (odd).
  std::string data;
  auto put = [&](auto v) {
    char raw[sizeof v];
    std::memcpy(raw, &v, sizeof v);
    data.append(raw, sizeof v);
  };
  for (int i = 0; i < 2; ++i) {
    put(static_cast<float>(i + 0.5f));
    put(static_cast<float>(-i));
    put(static_cast<uint16_t>(300 + i));
    put(static_cast<uint8_t>(0));
    put(static_cast<int16_t>(-7 * i));
  }
  std::string hex;
  for (unsigned char c : data) hex += "0123456789abcdef"[c >> 4], hex += "0123456789abcdef"[c & 15];
  Json cloud = parse(R"({"frame_id": "lidar", "point_stride": 13, "fields": [{"name": "x", "type": 7}, {"name": "y", "offset": 4, "type": "FLOAT32"},
    {"name": "intensity", "offset": 8, "type": "UINT16"}, {"name": "z", "offset": 11, "type": 4}]})");
  cloud["data"] = hex;
  views::ScanMessage c;
  REQUIRE_MESSAGE(c.read("foxglove.PointCloud", cloud, &error), error);
  CHECK(c.problems.empty());
  CHECK(c.declared == 2);
  seen.clear();
  c.for_each(collect);
  REQUIRE(seen.size() == 2);
  CHECK(seen[1].first.x == 1.5);
  CHECK(seen[1].first.y == -1);
  CHECK(seen[1].first.z == -7);
  CHECK(seen[1].first.value == 301);
  // One byte too many: a named problem, the complete points kept.
  cloud["data"] = hex + "00";
  views::ScanMessage cut;
  REQUIRE(cut.read("foxglove.PointCloud", cloud, &error));
  REQUIRE(cut.problems.size() == 1);
  CHECK(cut.problems[0].code == "scan.data.short");
  CHECK(cut.declared == 3);
}

TEST_CASE("scans: what cannot be read is named, never guessed") {
  auto parse = [](const char* text) { return *Json::parse(text); };
  views::ScanMessage m;
  std::string error;
  // A previewed array (a decoder's first 16 elements) is no scan.
  CHECK(!m.read("sensor_msgs/LaserScan", parse(R"({"header": {"frame_id": "l"}, "angle_min": 0, "angle_increment": 0.1, "range_min": 0,
    "range_max": 5, "ranges": {"length": 700, "first": [1, 2]}, "intensities": []})"), &error));
  CHECK(error == "field \"ranges\" came as a preview, not whole");
  CHECK(!m.read("sensor_msgs/PointCloud2", parse(R"({"header": {"frame_id": "l"}, "height": 1, "width": 1, "fields": [], "is_bigendian": false,
    "point_step": 4, "row_step": 4, "data": {"length": 4, "hex": "00"}})"), &error));
  CHECK(error.find("no field \"x\"") != std::string::npos);
  CHECK(!m.read("sensor_msgs/PointCloud2", parse(R"({"header": {"frame_id": "l"}, "height": 1, "width": 1,
    "fields": [{"name": "x", "offset": 0, "datatype": 9, "count": 1}, {"name": "y", "offset": 0, "datatype": 7, "count": 1}],
    "is_bigendian": false, "point_step": 4, "row_step": 4, "data": {"length": 4, "hex": "00000000"}})"), &error));
  CHECK(error.find("no known datatype") != std::string::npos);
  CHECK(!m.read("sensor_msgs/PointCloud2", parse(R"({"header": {"frame_id": "l"}, "height": 1, "width": 1,
    "fields": [{"name": "x", "offset": 0, "datatype": 7, "count": 1}, {"name": "y", "offset": 0, "datatype": 7, "count": 1}],
    "is_bigendian": false, "point_step": 4, "row_step": 4, "data": {"length": 8, "hex": "0000"}})"), &error));
  CHECK(error.find("preview") != std::string::npos);
  CHECK(!m.read("std_msgs/String", parse("{}"), &error));
  // A lying width and height with point_step 0, and rows that overlap: named, bounded.
  views::ScanMessage zero;
  REQUIRE(zero.read("sensor_msgs/PointCloud2", parse(R"({"header": {"frame_id": "l"}, "height": 4294967295, "width": 4294967295,
    "fields": [{"name": "x", "offset": 0, "datatype": 7, "count": 1}, {"name": "y", "offset": 0, "datatype": 7, "count": 1}],
    "is_bigendian": false, "point_step": 0, "row_step": 0, "data": {"length": 4, "hex": "0000803f"}})"), &error));
  REQUIRE(zero.problems.size() == 3);  // x and y end past a point_step of 0, which reads no point
  CHECK(zero.problems[0].code == "scan.field.past_point_step");
  CHECK(zero.problems[2].code == "scan.point_step.zero");
  size_t count = 0;
  zero.for_each([&](const views::ScanPoint&, bool) { ++count; });
  CHECK(count == 0);
  views::ScanMessage overlap;
  REQUIRE(overlap.read("sensor_msgs/PointCloud2", parse(R"({"header": {"frame_id": "l"}, "height": 4294967295, "width": 2,
    "fields": [{"name": "x", "offset": 0, "datatype": 7, "count": 1}, {"name": "y", "offset": 0, "datatype": 7, "count": 1}],
    "is_bigendian": false, "point_step": 4, "row_step": 0, "data": {"length": 8, "hex": "0000803f00000040"}})"), &error));
  CHECK(overlap.problems.size() == 1);
  CHECK(overlap.problems[0].code == "scan.row_step.too_small");
  count = 0;
  overlap.for_each([&](const views::ScanPoint& p, bool valid) { count += valid && p.x == p.y; });
  CHECK(count == 2);
  // Finite numbers whose sums overflow (fuzz_scans, regressions/scans/S1): an angle past the
  // largest double, and a pose that moves a huge point past it, make invalid points, never inf or NaN.
  Json steep_json = parse(R"({"header": {"frame_id": "l"}, "angle_min": 0, "angle_increment": 1e308,
    "range_min": 0, "range_max": 1e308, "ranges": [1, 2, 3, 4], "intensities": []})");
  views::ScanMessage steep;
  REQUIRE(steep.read("sensor_msgs/LaserScan", steep_json, &error));
  std::vector<bool> valid_steps;
  steep.for_each([&](const views::ScanPoint& p, bool valid) {
    valid_steps.push_back(valid);
    if (valid) CHECK((std::isfinite(p.x) && std::isfinite(p.y)));
  });
  CHECK(valid_steps == std::vector<bool>{true, true, false, false});  // 2e308 is past the largest double
  Json far_json = parse(R"({"frame_id": "l", "start_angle": 0, "end_angle": 0, "ranges": [1.5e308],
    "pose": {"position": {"x": 1e308}, "orientation": {"w": 1}}})");
  views::ScanMessage far;
  REQUIRE(far.read("foxglove.LaserScan", far_json, &error));
  size_t far_points = 0;
  far.for_each([&](const views::ScanPoint&, bool valid) {
    CHECK(!valid);
    ++far_points;
  });
  CHECK(far_points == 1);
  CHECK(views::is_scan_type("sensor_msgs/msg/PointCloud2"));
  CHECK(views::is_scan_type("sensor_msgs/PointCloud"));
  CHECK(!views::is_scan_type("sensor_msgs/Image"));
}

// Asked again and again with a slice budget, the scans' times are read a slice of time at a time
// (codec/views/view_support.h): each answer counts the scans read so far and shows the one at
// the time asked among them, and the last equals one whole walk's answer.
TEST_CASE("scans: a long bag's scan times read a slice of time at a time end as one whole walk") {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;  // uncompressed: a chunk's bytes are its threshold's
  options.chunk_threshold = 8192;
  rosbag::BagWriter writer(sink, options);
  uint32_t topic = writer.add_connection("/scan", "sensor_msgs/LaserScan", kLaserScanMd5, kLaserScanRos1);
  constexpr uint64_t kScans = 4000, kStep = 100000000;  // 10 Hz
  for (uint64_t i = 0; i < kScans; ++i) {
    ScanSpec scan{"laser", kStart + i * kStep, -1.0f, 0.01f, 0.1f, 30.0f, std::vector<float>(200, 1.0f + float(i % 7)), {}};
    REQUIRE(writer.write(topic, rosbag::Time::from_ns(kStart + i * kStep), scan_ros1(scan)));
  }
  REQUIRE(writer.close());
  MemoryByteSource whole_bytes(bytes_of(sink.bytes)), sliced_bytes(bytes_of(sink.bytes));
  CountingByteSource whole_source(whole_bytes), sliced_source(sliced_bytes);
  auto whole = rosbag::open_inspector(whole_source, rosbag::Format::RosbagV20);
  auto sliced = rosbag::open_inspector(sliced_source, rosbag::Format::RosbagV20);
  whole_source.reset();
  sliced_source.reset();
  const uint64_t at = kStart + 3210 * kStep + 5;
  Json args = args_at("/scan", at, 50);
  args["slice_ms"] = 1;
  Json answer = ask(*sliced, args);
  // 4,000 scans of 200 ranges do not decode in 1 ms: the first answer is a part, of the first scans.
  REQUIRE(answer.find("reading"));
  uint64_t through = ns_of(answer.find("reading")->find("through_ns"));
  CHECK(answer.find("messages")->as_uint() == (through - kStart) / kStep + 1);
  CHECK(ns_of(answer.find("last_ns")) <= through);
  CHECK(ns_of(answer.find("reading")->find("last_ns")) == kStart + (kScans - 1) * kStep);
  int answers = 1;
  for (; answer.find("reading"); ++answers) {
    REQUIRE(answers < 100000);
    answer = ask(*sliced, args);
  }
  CAPTURE(answers);
  CHECK(answers > 2);
  CHECK(answer.dump() == ask(*whole, args_at("/scan", at, 50)).dump());
  // Slices end just before a chunk's first time (IndexedTimes::chunk_starts): each chunk is read
  // once, as by the whole walk, and each answer reads its one scan again (a chunk).
  CAPTURE(whole_source.bytes_read());
  CAPTURE(sliced_source.bytes_read());
  CHECK(sliced_source.bytes_read() <= whole_source.bytes_read() + static_cast<uint64_t>(answers) * (options.chunk_threshold + 2048));
  CHECK(answer.find("messages")->as_uint() == kScans);
  CHECK(answer.find("index")->as_uint() == 3210);
}
