// The transforms view (codec/views/transforms.h) on files our writers make: tf2_msgs/TFMessage in
// a bag (/tf and /tf_static) and in an MCAP (CDR), foxglove shapes as decoded JSON; the tree at a
// time, rates, ages, staleness and the findings (two parents, a cycle, a gap). And the real bags'
// transforms against python3-rosbag's reading of the same messages.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include "cdr/writer.h"
#include "core/detect.h"
#include "inspector.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "open_log.h"
#include "rosbag_reference.h"
#include "rosbag/inspector.h"
#include "rosbag/model.h"
#include "rosbag/writer.h"
#include "test_support.h"
#include "views/transforms.h"

using namespace logscope;

namespace {

constexpr uint64_t kStart = 1767225600000000000ull;
constexpr uint64_t kSecond = 1000000000ull;
const char* kMd5 = "94810edda583a504dfda3829e70d7eec";

const char* kRos1Definition =
    "geometry_msgs/TransformStamped[] transforms\n"
    "================================================================================\n"
    "MSG: geometry_msgs/TransformStamped\nHeader header\nstring child_frame_id\nTransform transform\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Transform\nVector3 translation\nQuaternion rotation\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Quaternion\nfloat64 x\nfloat64 y\nfloat64 z\nfloat64 w\n";
const char* kRos2Definition =
    "geometry_msgs/TransformStamped[] transforms\n"
    "================================================================================\n"
    "MSG: geometry_msgs/TransformStamped\nstd_msgs/Header header\nstring child_frame_id\nTransform transform\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Transform\nVector3 translation\nQuaternion rotation\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n";

struct Tf {
  std::string parent, child;
  double x, y, z;
  double yaw_deg;  // a rotation about z
};

void quaternion_of_yaw(double yaw_deg, double q[4]) {
  double half = yaw_deg * 3.14159265358979323846 / 360.0;
  q[0] = 0, q[1] = 0, q[2] = std::sin(half), q[3] = std::cos(half);
}

void put_u32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
void put_f64(std::string* out, double v) {
  char raw[8];
  std::memcpy(raw, &v, 8);
  out->append(raw, 8);
}
void put_string(std::string* out, const std::string& s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}

std::string ros1_message(const std::vector<Tf>& list, uint64_t stamp_ns) {
  std::string out;
  put_u32(&out, static_cast<uint32_t>(list.size()));
  for (const Tf& t : list) {
    put_u32(&out, 0);
    put_u32(&out, static_cast<uint32_t>(stamp_ns / kSecond));
    put_u32(&out, static_cast<uint32_t>(stamp_ns % kSecond));
    put_string(&out, t.parent);
    put_string(&out, t.child);
    double q[4];
    quaternion_of_yaw(t.yaw_deg, q);
    for (double v : {t.x, t.y, t.z, q[0], q[1], q[2], q[3]}) put_f64(&out, v);
  }
  return out;
}

std::string ros2_message(const std::vector<Tf>& list, uint64_t stamp_ns) {
  cdr::CdrWriter w;
  w.sequence_length(static_cast<uint32_t>(list.size()));
  for (const Tf& t : list) {
    w.put<int32_t>(static_cast<int32_t>(stamp_ns / kSecond));
    w.put<uint32_t>(static_cast<uint32_t>(stamp_ns % kSecond));
    w.string(t.parent);
    w.string(t.child);
    double q[4];
    quaternion_of_yaw(t.yaw_deg, q);
    for (double v : {t.x, t.y, t.z, q[0], q[1], q[2], q[3]}) w.put<double>(v);
  }
  return w.bytes();
}

// One message of the scene: where it goes, when, what it holds.
struct Written {
  bool is_static;
  uint64_t time_ns;
  std::vector<Tf> transforms;
};

// 10 s of a robot: map->odom at 1 Hz, odom->base_link at 10 Hz with no update from 4 s to 6 s
// (x = the time in s), base_link->laser once on /tf_static at 5 s (recorded late, as latched
// statics often are), and world->odom once at 8 s (odom's second parent). ROS 1 names carry
// tf's leading '/', which the view drops.
std::vector<Written> scene(bool slashes) {
  std::string s = slashes ? "/" : "";
  std::vector<Written> out;
  for (int tenth = 0; tenth <= 100; ++tenth) {
    uint64_t t = kStart + static_cast<uint64_t>(tenth) * kSecond / 10;
    std::vector<Tf> list;
    if (tenth % 10 == 0) list.push_back({s + "map", s + "odom", 1, 2, 0, 90});
    if (tenth <= 40 || tenth >= 60) list.push_back({s + "odom", s + "base_link", tenth / 10.0, 0, 0, 0});
    if (!list.empty()) out.push_back({false, t, list});
    if (tenth == 50) out.push_back({true, t, {{s + "base_link", s + "laser", 0.2, 0, 0.3, 180}}});
    if (tenth == 80) out.push_back({false, t, {{s + "world", s + "odom", 0, 0, 0, 0}}});
  }
  return out;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::string scene_bag(const std::vector<Written>& messages) {
  rosbag::MemorySink sink;
  rosbag::BagWriter writer(sink, rosbag::WriterOptions{});
  uint32_t tf = writer.add_connection("/tf", "tf2_msgs/TFMessage", kMd5, kRos1Definition);
  uint32_t tf_static = writer.add_connection("/tf_static", "tf2_msgs/TFMessage", kMd5, kRos1Definition);
  for (const Written& m : messages) REQUIRE(writer.write(m.is_static ? tf_static : tf, rosbag::Time::from_ns(m.time_ns), ros1_message(m.transforms, m.time_ns)));
  REQUIRE(writer.close());
  return sink.bytes;
}

Json ask(FormatInspector& inspector, std::optional<uint64_t> at_ns = std::nullopt) {
  Json args = Json::object();
  if (at_ns) args["at_ns"] = std::to_string(*at_ns);
  Json answer = inspector.query("transforms", args, nullptr);
  const Json* error = answer.find("error");
  REQUIRE_MESSAGE(!error, (error ? error->as_string() : ""));
  return answer;
}

const Json& edge(const Json& answer, const std::string& parent, const std::string& child) {
  for (const Json& e : answer.find("edges")->elements())
    if (e.find("parent")->as_string() == parent && e.find("child")->as_string() == child) return e;
  FAIL("no edge " << parent << " -> " << child);
  static Json none;
  return none;
}

const Json* finding(const Json& answer, const std::string& code) {
  for (const Json& f : answer.find("findings")->elements())
    if (f.find("code")->as_string() == code) return &f;
  return nullptr;
}

uint64_t ns_of(const Json* j) { return std::stoull(j->as_string()); }

// The scene's answers, for any format that holds it.
void check_scene(FormatInspector& inspector) {
  Json at3 = ask(inspector, kStart + 3 * kSecond + kSecond / 20);  // 3.05 s
  CHECK(at3.find("updates")->as_uint() == 11 + 82 + 1 + 1);
  const Json& base = edge(at3, "odom", "base_link");
  REQUIRE(!base.find("at")->is_null());
  CHECK(ns_of(base.find("at")->find("time_ns")) == kStart + 3 * kSecond);
  CHECK(ns_of(base.find("at")->find("age_ns")) == kSecond / 20);
  CHECK(base.find("at")->find("x")->as_double() == doctest::Approx(3.0));
  CHECK(!base.find("stale")->as_bool());
  CHECK(!base.find("static")->as_bool());
  CHECK(base.find("updates")->as_uint() == 82);
  CHECK(base.find("rate_hz")->as_double() == doctest::Approx(81.0 / 10.0));  // 82 updates over 10 s, 2 s of them missing
  const Json& odom = edge(at3, "map", "odom");
  CHECK(odom.find("at")->find("yaw_deg")->as_double() == doctest::Approx(90.0));
  CHECK(odom.find("at")->find("y")->as_double() == doctest::Approx(2.0));
  // The static edge holds before it was recorded; world -> odom has not appeared yet.
  const Json& laser = edge(at3, "base_link", "laser");
  CHECK(laser.find("static")->as_bool());
  REQUIRE(!laser.find("at")->is_null());
  CHECK(std::fabs(laser.find("at")->find("yaw_deg")->as_double()) == doctest::Approx(180.0));
  CHECK(laser.find("rate_hz")->is_null());
  CHECK(edge(at3, "world", "odom").find("at")->is_null());
  CHECK(at3.find("frames")->as_uint() == 4);
  REQUIRE(at3.find("roots")->size() == 1);
  CHECK((*at3.find("roots"))[0].as_string() == "map");

  // In the gap: the last update is 4.0 s, 1.5 s old, past 5 periods of 0.1 s.
  Json gap = ask(inspector, kStart + 5 * kSecond + kSecond / 2);
  const Json& stale = edge(gap, "odom", "base_link");
  CHECK(ns_of(stale.find("at")->find("time_ns")) == kStart + 4 * kSecond);
  CHECK(stale.find("stale")->as_bool());
  CHECK(!edge(gap, "map", "odom").find("stale")->as_bool());  // 0.5 s old at 1 Hz

  // Findings of the file, whatever the time.
  const Json* gap_finding = finding(gap, "transforms.edge.gap");
  REQUIRE(gap_finding);
  CHECK(ns_of(gap_finding->find("time_ns")) == kStart + 6 * kSecond);
  CHECK(gap_finding->find("message")->as_string().find("2.000 s") != std::string::npos);
  const Json* parents = finding(gap, "transforms.tree.two_parents");
  REQUIRE(parents);
  CHECK(ns_of(parents->find("time_ns")) == kStart + 8 * kSecond);
  CHECK(parents->find("message")->as_string().find("\"odom\" has 2 parents: map, world") != std::string::npos);
  CHECK(!finding(gap, "transforms.tree.cycle"));

  // No time given: the last update (10 s), where both parents of odom are known.
  Json end = ask(inspector);
  CHECK(ns_of(end.find("at_ns")) == kStart + 10 * kSecond);
  CHECK(end.find("roots")->size() == 2);
  CHECK(end.find("undecoded")->as_uint() == 0);
}

}  // namespace

TEST_CASE("transforms: the shapes of each type, and what is no transform") {
  auto parse = [](const char* text) { return *Json::parse(text); };
  std::vector<views::TransformUpdate> out;
  std::string error;
  REQUIRE(views::transform_updates("tf/tfMessage",
                                   parse(R"({"transforms": [{"header": {"seq": 1, "stamp": {"secs": 1, "nsecs": 2}, "frame_id": "/odom"},
                                     "child_frame_id": "/base_link", "transform": {"translation": {"x": 1, "y": 2, "z": 3},
                                     "rotation": {"x": 0, "y": 0, "z": 0, "w": 1}}}]})"),
                                   &out, &error));
  REQUIRE(out.size() == 1);
  CHECK(out[0].parent == "odom");
  CHECK(out[0].child == "base_link");
  CHECK(out[0].translation[2] == 3);
  // foxglove: protobuf leaves zero fields out; a missing rotation is the identity.
  out.clear();
  REQUIRE(views::transform_updates("foxglove.FrameTransform", parse(R"({"parent_frame_id": "a", "child_frame_id": "b", "translation": {"x": 4}})"),
                                   &out, &error));
  CHECK(out[0].translation[0] == 4);
  CHECK(out[0].translation[1] == 0);
  CHECK(out[0].rotation[3] == 1);
  out.clear();
  REQUIRE(views::transform_updates("foxglove.FrameTransforms",
                                   parse(R"({"transforms": [{"parent_frame_id": "a", "child_frame_id": "b", "rotation": {"z": 1}}]})"), &out, &error));
  CHECK(out[0].rotation[2] == 1);
  CHECK(out[0].rotation[3] == 0);
  out.clear();
  CHECK(views::transform_updates("foxglove.FrameTransforms", parse("{}"), &out, &error));  // an empty list is left out
  CHECK(out.empty());
  // What is missing or of another kind is named, and nothing is added.
  CHECK(!views::transform_updates("tf2_msgs/TFMessage", parse(R"({"transforms": [{"header": {"frame_id": "a"}}]})"), &out, &error));
  CHECK(error == "transforms[0]: no field \"transform\"");
  CHECK(!views::transform_updates("tf2_msgs/TFMessage",
                                  parse(R"({"transforms": [{"header": {"frame_id": "a"}, "child_frame_id": "b",
                                    "transform": {"translation": {"x": "1", "y": 0, "z": 0}, "rotation": {"x": 0, "y": 0, "z": 0, "w": 1}}}]})"),
                                  &out, &error));
  CHECK(error == "transforms[0]: field \"transform.translation.x\" is not a number");
  CHECK(!views::transform_updates("tf2_msgs/TFMessage", parse(R"({"transforms": 3})"), &out, &error));
  CHECK(!views::transform_updates("std_msgs/String", parse("{}"), &out, &error));
  CHECK(out.empty());
  CHECK(views::is_transform_type("tf2_msgs/msg/TFMessage"));
  CHECK(!views::is_transform_type("geometry_msgs/TransformStamped"));
}

TEST_CASE("transforms: roll, pitch and yaw as tf's getRPY gives them") {
  double rpy[3];
  double yaw90[4] = {0, 0, std::sin(3.14159265358979323846 / 4), std::cos(3.14159265358979323846 / 4)};
  views::roll_pitch_yaw(yaw90, rpy);
  CHECK(rpy[0] == doctest::Approx(0));
  CHECK(rpy[1] == doctest::Approx(0));
  CHECK(rpy[2] == doctest::Approx(3.14159265358979323846 / 2));
  double roll30_unnormalised[4] = {2 * std::sin(3.14159265358979323846 / 12), 0, 0, 2 * std::cos(3.14159265358979323846 / 12)};
  views::roll_pitch_yaw(roll30_unnormalised, rpy);
  CHECK(rpy[0] == doctest::Approx(3.14159265358979323846 / 6));
  double zero[4] = {0, 0, 0, 0};  // no rotation at all: the identity, not NaN
  views::roll_pitch_yaw(zero, rpy);
  CHECK(rpy[0] == 0);
  CHECK(rpy[2] == 0);
}

TEST_CASE("transforms: a bag's /tf and /tf_static: the tree at any time, rates, ages and the findings") {
  std::string bytes = scene_bag(scene(true));
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  check_scene(*inspector);
}

TEST_CASE("transforms: tf2_msgs/msg/TFMessage in an MCAP (CDR) gives the same tree") {
  mcap::WriterOptions options;
  options.chunk_size = 512;
  mcap::Writer writer(options);
  uint16_t schema = writer.add_schema("tf2_msgs/msg/TFMessage", "ros2msg", kRos2Definition);
  uint16_t tf = writer.add_channel(schema, "/tf", "cdr");
  uint16_t tf_static = writer.add_channel(schema, "/tf_static", "cdr");
  uint32_t sequence = 0;
  for (const Written& m : scene(false))
    writer.write_message(m.is_static ? tf_static : tf, sequence++, m.time_ns, m.time_ns, ros2_message(m.transforms, m.time_ns));
  std::string bytes = writer.finish();
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = mcap::open_inspector(source);
  REQUIRE(inspector);
  check_scene(*inspector);
}

TEST_CASE("transforms: a cycle is an error finding, a damaged message is counted, and nothing has no roots") {
  std::vector<Written> messages = {{false, kStart, {{"a", "b", 0, 0, 0, 0}, {"b", "c", 0, 0, 0, 0}, {"c", "a", 0, 0, 0, 0}}},
                                   {false, kStart + kSecond, {{"a", "b", 1, 0, 0, 0}}}};
  rosbag::MemorySink sink;
  rosbag::BagWriter writer(sink, rosbag::WriterOptions{});
  uint32_t tf = writer.add_connection("/tf", "tf2_msgs/TFMessage", kMd5, kRos1Definition);
  for (const Written& m : messages) REQUIRE(writer.write(tf, rosbag::Time::from_ns(m.time_ns), ros1_message(m.transforms, m.time_ns)));
  std::string cut = ros1_message(messages[0].transforms, kStart);
  REQUIRE(writer.write(tf, rosbag::Time::from_ns(kStart + 2 * kSecond), cut.substr(0, cut.size() / 2)));  // lies about its length
  REQUIRE(writer.close());
  MemoryByteSource source(bytes_of(sink.bytes));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  Json answer = ask(*inspector);
  const Json* cycle = finding(answer, "transforms.tree.cycle");
  REQUIRE(cycle);
  CHECK(cycle->find("severity")->as_string() == "error");
  CHECK(cycle->find("frames")->size() == 3);
  CHECK(answer.find("roots")->size() == 0);
  CHECK(answer.find("frames")->as_uint() == 3);
  CHECK(answer.find("undecoded")->as_uint() == 1);
  REQUIRE(answer.find("problems")->size() == 1);
  CHECK(ns_of((*answer.find("problems"))[0].find("time_ns")) == kStart + 2 * kSecond);
}

TEST_CASE("transforms: the real bags' edges equal python3-rosbag's (updates, last translation and rotation)") {
  if (!test_support::have_samples()) return;
  const std::vector<std::string> paths = rosbag_reference::sample_bags();
  const std::optional<Json> reference = rosbag_reference::read("transforms_reference.py", paths);
  size_t compared = 0;
  for (const std::string& path : paths) {
    CAPTURE(path);
    const Json* theirs = reference->find(path);
    REQUIRE(theirs);
    if (const Json* error = theirs->find("error")) {
      MESSAGE("python3-rosbag cannot read " << path << ": " << error->as_string() << " (not compared)");
      continue;
    }
    if (theirs->find("edges")->size() == 0) continue;
    test_support::OpenedLog log = test_support::open_log(path);
    FormatInspector* inspector = log.inspector.get();
    Json ours = ask(*inspector);
    CHECK(ours.find("edges")->size() == theirs->find("edges")->size());
    for (const Json& e : theirs->find("edges")->elements()) {
      const Json& mine = edge(ours, e.find("parent")->as_string(), e.find("child")->as_string());
      CAPTURE(e.dump());
      CHECK(mine.find("updates")->as_uint() == e.find("updates")->as_uint());
      CHECK(ns_of(mine.find("last_ns")) == ns_of(e.find("last_ns")));
      const Json& at = *mine.find("at");
      const char* names[] = {"x", "y", "z", "qx", "qy", "qz", "qw"};
      for (size_t i = 0; i < 7; ++i) CHECK(at.find(names[i])->as_double() == (*e.find("last"))[i].as_double());
    }
    ++compared;
  }
  CHECK(compared >= 3);
}

// Asked again and again with a slice budget, a long log's transforms are read a slice of time at a
// time (codec/views/view_support.h): each answer's tree is of the updates read so far, and the
// last equals one whole walk's, at any time.
TEST_CASE("transforms: a long bag read a slice of time at a time ends as one whole walk") {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.chunk_threshold = 4096;
  rosbag::BagWriter writer(sink, options);
  uint32_t tf = writer.add_connection("/tf", "tf2_msgs/TFMessage", kMd5, kRos1Definition);
  uint32_t tf_static = writer.add_connection("/tf_static", "tf2_msgs/TFMessage", kMd5, kRos1Definition);
  constexpr uint64_t kUpdates = 20000, kStep = kSecond / 100;  // 100 Hz, silent from 120 s to 125 s
  REQUIRE(writer.write(tf_static, rosbag::Time::from_ns(kStart), ros1_message({{"base_link", "laser", 0.2, 0, 0.3, 180}}, kStart)));
  uint64_t written = 1;
  for (uint64_t i = 0; i < kUpdates; ++i) {
    uint64_t t = kStart + i * kStep;
    if (t >= kStart + 120 * kSecond && t < kStart + 125 * kSecond) continue;
    std::vector<Tf> list{{"odom", "base_link", double(i) / 100.0, 0, 0, double(i % 360)}};
    if (i % 100 == 0) list.push_back({"map", "odom", 1, 2, 0, 90});
    REQUIRE(writer.write(tf, rosbag::Time::from_ns(t), ros1_message(list, t)));
    written += list.size();
  }
  REQUIRE(writer.close());
  MemoryByteSource whole_source(bytes_of(sink.bytes)), sliced_source(bytes_of(sink.bytes));
  auto whole = rosbag::open_inspector(whole_source, rosbag::Format::RosbagV20);
  auto sliced = rosbag::open_inspector(sliced_source, rosbag::Format::RosbagV20);
  REQUIRE(whole);
  REQUIRE(sliced);
  const auto sliced_ask = [&](std::optional<uint64_t> at_ns) {
    Json args = Json::object();
    args["slice_ms"] = 1;
    if (at_ns) args["at_ns"] = std::to_string(*at_ns);
    Json answer = sliced->query("transforms", args, nullptr);
    REQUIRE(!answer.find("error"));
    return answer;
  };
  Json answer = sliced_ask(std::nullopt);
  REQUIRE(answer.find("reading"));
  uint64_t through = ns_of(answer.find("reading")->find("through_ns"));
  CHECK(through < kStart + (kUpdates - 1) * kStep);
  CHECK(ns_of(answer.find("at_ns")) <= through);  // the tree at the last update read
  CHECK(!edge(answer, "odom", "base_link").find("at")->is_null());
  int answers = 1;
  for (; answer.find("reading"); ++answers) {
    REQUIRE(answers < 100000);
    CHECK(ns_of(answer.find("reading")->find("through_ns")) >= through);
    through = ns_of(answer.find("reading")->find("through_ns"));
    answer = sliced_ask(std::nullopt);
  }
  CAPTURE(answers);
  CHECK(answers > 2);
  CHECK(answer.find("updates")->as_uint() == written);
  CHECK(answer.dump() == ask(*whole).dump());
  for (uint64_t at : {kStart, kStart + 122 * kSecond, kStart + 190 * kSecond}) CHECK(sliced_ask(at).dump() == ask(*whole, at).dump());
  const Json* gap = finding(answer, "transforms.edge.gap");
  REQUIRE(gap);
  CHECK(ns_of(gap->find("time_ns")) == kStart + 125 * kSecond);
}
