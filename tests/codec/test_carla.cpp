// CARLA recorder logs: real samples, every layout variant through our writer, the three official
// queries' text layouts, the tree and the CLI.
#include <cstdlib>
#include <cstring>
#include <string>

#include "carla/decode.h"
#include "carla/demo.h"
#include "carla/export.h"
#include "carla/inspector.h"
#include "carla/queries.h"
#include "carla/reader.h"
#include "carla/writer.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

using test_support::has_code;

const bool kUtc = (test_support::use_utc(), true);

EventAddRecord actor(uint32_t id, uint8_t type, const std::string& blueprint, Vec3 where, const std::string& role = "") {
  EventAddRecord a;
  a.id = id, a.type = type, a.blueprint = blueprint, a.location = where, a.description_uid = 7;
  if (!role.empty()) a.attributes.push_back({3, "role_name", role});
  return a;
}

PhysicsControlRecord one_physics(uint32_t id) {
  PhysicsControlRecord p;
  p.id = id, p.max_rpm = 5800, p.mass = 1500, p.center_of_mass = Vec3{0.5, 0, -0.25};
  p.torque_curve = {{0, 400}, {5000, 500}};
  p.forward_gears = {{3.5, 0.2, 0.35}};
  p.steering_curve = {{0, 1}};
  WheelControl w;
  w.tire_friction = 3.5, w.radius = 35, w.lat_stiff_value = 17, w.position = Vec3{1, 2, 3};
  p.wheels = {w, w, w, w};
  return p;
}

// A small log that uses every packet the variant has, 4 frames at 0.5 s.
std::vector<uint8_t> every_packet_log(const Variant& variant, bool with_high_ids) {
  LogWriter w(variant);
  w.header(1637671165, "Town05");
  for (uint64_t f = 1; f <= 4; ++f) {
    w.frame_start(f, f == 4 ? -1.0 : 0.5, (f - 1) * 0.5);
    w.write(packets::VisualTime, {(f - 1) * 0.5});
    w.write(packets::EventAdd, f == 1 ? std::vector<EventAddRecord>{actor(10, 1, "vehicle.tesla.model3", {100, 200, 30}, "hero"),
                                                     actor(11, 2, "walker.pedestrian.0001", {0, 0, 90}), actor(12, 5, "sensor.other.collision", {})}
                       : std::vector<EventAddRecord>{});
    w.write(packets::EventDel, f == 4 ? std::vector<uint32_t>{11} : std::vector<uint32_t>{});
    w.write(packets::EventParent, f == 1 ? std::vector<ParentRecord>{{12, 10}} : std::vector<ParentRecord>{});
    w.write(packets::Collision, f == 2 ? std::vector<CollisionRecord>{{1, 10, 11, true, false}} : std::vector<CollisionRecord>{});
    if (with_high_ids && variant.order != IdOrder::Release0915) w.write(packets::VehicleDoor, {{10, 0, true}});
    w.write(packets::Position, {{10, {100.0 + f, 200, 30}, {0, 0, 90}}, {11, {0, 0, 90}, {0, 0, 0}}});
    w.write(packets::State, {{20, false, 1.5, 2}});
    w.write(packets::AnimVehicle, {{10, 0.1, 0.5, 0.0, false, 1}});
    w.write(packets::AnimWalker, {{11, 1.25}});
    w.write(packets::VehicleLight, {{10, 0x3}});
    w.write(packets::SceneLight, {{7, 100, 1, 0.5, 0.25, 1, true, 0}});
    if (with_high_ids) {
      w.write(packets::AnimVehicleWheels, {{10, {{0, 5, 90}, {1, 5, 90}, {2, 0, 90}, {3, 0, 90}}}});
      w.write(packets::AnimBiker, {{10, 3.5, 0.5}});
    }
    w.write(packets::Kinematics, {{10, {100, 0, 0}, {0, 0, 1}}});
    w.write(packets::BoundingBox, f == 1 ? std::vector<BoxRecord>{{10, {0, 0, 70}, {240, 100, 75}}} : std::vector<BoxRecord>{});
    w.write(packets::TriggerVolume, {{30, {5, 5, 0}, {100, 100, 50}}});
    w.write(packets::PlatformTime, {f * 0.51});
    if (f == 1 && !variant.doubles) w.write(packets::PhysicsControl, {one_physics(10)});
    w.write(packets::TrafficLightTime, {{20, 10, 3, 12}});
    w.write(packets::WalkerBones, {{11, {{"crl_root", {0, 0, 1}, {0, 90, 0}}, {"crl_hips__C", {0, 0, 2}, {0, 0, 0}}}}});
    w.frame_end();
  }
  return w.take();
}

ScanResult scan_bytes(const std::vector<uint8_t>& bytes) {
  MemoryByteSource source(bytes.data(), bytes.size());
  return scan_log(source, nullptr);
}

}  // namespace

TEST_CASE("carla samples read end to end with the right variant, frames and duration") {
  if (!test_support::have_samples()) return;
  struct Expect {
    const char* file;
    uint64_t frames;
    const char* duration_line;
    int wheel_bytes;
  } expected[] = {{"carla/scenario_runner_0.9.10_DistanceToLaneCenter.log", 461, "Duration: 15.8809 seconds", 36},
                  {"carla/scenario_runner_0.9.13_DistanceToLaneCenter.log", 432, "Duration: 12.5282 seconds", 48}};
  for (const Expect& e : expected) {
    CAPTURE(e.file);
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(e.file));
    REQUIRE(!bytes.empty());
    ScanResult scan = scan_bytes(bytes);
    CHECK(scan.header_ok);
    CHECK(scan.header.version == 1);
    CHECK(scan.header.map == "Town01");
    CHECK(scan.frames.size() == e.frames);
    CHECK(scan.frames.back().id == e.frames);
    CHECK(scan.frames.back().duration == -1.0);
    CHECK(scan.data_end == bytes.size());
    CHECK_FALSE(scan.recovery.damaged);
    CHECK(scan.variant.misfits == 0);
    CHECK(scan.variant.variant.wheel_bytes == e.wheel_bytes);
    CHECK(scan.variant.decisive_wheels);
    CHECK_FALSE(scan.variant.variant.doubles);
    CHECK_FALSE(has_code(scan.problems, "carla.packet.size_mismatch"));
    // Ids 0-16 are all present, except SceneLight (11): one packet (216 lights) in 0.9.10, none in 0.9.13.
    for (int id = 0; id <= 16; ++id)
      if (id != 11) CHECK(scan.packet_counts[id] > 0);
    CHECK(scan.packet_counts[11] == (e.wheel_bytes == 36 ? 1u : 0u));
    // Every packet decodes with its declared size matching the layout.
    MemoryByteSource source(bytes.data(), bytes.size());
    auto inspector = open_inspector(source);
    Report report = inspector->check(nullptr);
    CHECK(report.count(Severity::Error) == 0);
    CHECK(report.count(Severity::Warning) == 0);
    std::string info = inspector->info_text(InfoOptions{});
    CHECK(info.rfind("Version: 1\nMap: Town01\nDate: ", 0) == 0);
    CHECK(info.find("\n\nFrame 1 at 0 seconds\n Create ") != std::string::npos);
    std::string tail = "\nFrames: " + std::to_string(e.frames) + "\n" + e.duration_line + "\n";
    CHECK(info.substr(info.size() - tail.size()) == tail);
    InfoOptions all;
    all.all = true;
    std::string full = inspector->info_text(all);
    CHECK(full.find(" Positions: ") != std::string::npos);
    CHECK(full.find(" Physics Control events: 1\n") != std::string::npos);
    CHECK(full.substr(full.size() - tail.size()) == tail);
    Json summary = inspector->summary().to_json();
    CHECK(summary.find("details")->find("file_info")->find("frames")->as_uint() == e.frames);
  }
}

TEST_CASE("carla 0.9.13 sample: the header date, a known event line and the sensors' parents") {
  if (!test_support::have_samples()) return;
  std::vector<uint8_t> bytes = test_support::read_file(test_support::sample("carla/scenario_runner_0.9.13_DistanceToLaneCenter.log"));
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  std::string info = inspector->info_text(InfoOptions{});
  CHECK(info.rfind("Version: 1\nMap: Town01\nDate: 11/23/21 12:39:25\n\n", 0) == 0);
  CHECK(info.find(" Create 1: spectator (0) at (542.481, 4236.74, 490.868)\n") != std::string::npos);
  Json actors = inspector->query("actors", Json::object(), nullptr);
  bool found_camera = false;
  for (const Json& a : actors.find("actors")->elements())
    if (a.find("blueprint")->as_string() == "sensor.camera.rgb") found_camera = a.find("parent")->as_uint() == 234;
  CHECK(found_camera);
}

TEST_CASE("carla variants written by our writer are detected on their evidence and decode") {
  struct Case {
    const char* name;
    Variant variant;
    bool high_ids;
  };
  Variant v36, v48, ue5, dev, v0916, v0915;
  v36.wheel_bytes = 36;
  ue5.doubles = true;
  dev.order = IdOrder::DevDoors;
  v0916.order = IdOrder::Release0916;
  Case cases[] = {{"0.9.10 (36-byte wheels)", v36, false}, {"0.9.14 (48-byte wheels, ids 19-20)", v48, false},
                  {"0.9.15 order", v0915, true},            {"dev order with doors", dev, true},
                  {"0.9.16 order", v0916, true},            {"UE5 doubles", ue5, false}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::vector<uint8_t> bytes = every_packet_log(c.variant, c.high_ids);
    ScanResult scan = scan_bytes(bytes);
    CHECK(scan.frames.size() == 4);
    CHECK(scan.variant.misfits == 0);
    CHECK(scan.variant.variant.doubles == c.variant.doubles);
    if (!c.variant.doubles) {
      CHECK(scan.variant.variant.wheel_bytes == c.variant.wheel_bytes);
      CHECK(scan.variant.decisive_wheels);
    } else {
      CHECK(scan.variant.decisive_vectors);
    }
    if (c.high_ids) {
      CHECK(scan.variant.variant.order == c.variant.order);
      CHECK(scan.variant.decisive_order);
    }
    CHECK_FALSE(has_code(scan.problems, "carla.packet.size_mismatch"));
    CHECK(scan.variant.to_json().find("evidence")->size() >= 2);
    // Decode every packet under the detected variant and compare a few values.
    MemoryByteSource source(bytes.data(), bytes.size());
    auto inspector = open_inspector(source);
    uint64_t packets = inspector->child_count("f0");
    CHECK(packets >= 18);
    bool saw_position = false, saw_bones = false;
    for (const TreeNode& node : inspector->children("f0", 0, packets)) {
      Json decoded = inspector->decode(node.id);
      CHECK(decoded.find("layout_ok")->as_bool());
      std::string kind = decoded.find("kind")->as_string();
      if (kind == "Position") {
        saw_position = true;
        CHECK(decoded.find("records")->elements()[0].find("location")->find("x")->as_double() == 101.0);
      }
      if (kind == "WalkerBones") {
        saw_bones = true;
        CHECK(decoded.find("records")->elements()[0].find("bones")->elements()[1].find("name")->as_string() == "crl_hips__C");
      }
      if (kind == "VehicleDoor") CHECK(decoded.find("records")->elements()[0].find("door")->as_string() == "front_left");
      if (kind == "PhysicsControl") CHECK(decoded.find("records")->elements()[0].find("wheels")->size() == 4);
    }
    CHECK(saw_position);
    CHECK(saw_bones);
  }
}

TEST_CASE("carla show_all text follows CARLA's layout line for line") {
  Variant dev;
  dev.order = IdOrder::DevDoors;
  std::vector<uint8_t> bytes = every_packet_log(dev, true);
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  InfoOptions all;
  all.all = true;
  std::string text = inspector->info_text(all);
  const char* expected_frame1 =
      "Version: 1\nMap: Town05\nDate: 11/23/21 12:39:25\n\n"
      "Frame 1 at 0 seconds\n"
      " Create 10: vehicle.tesla.model3 (1) at (100, 200, 30)\n"
      "  role_name = hero\n"
      " Create 11: walker.pedestrian.0001 (2) at (0, 0, 90)\n"
      " Create 12: sensor.other.collision (5) at (0, 0, 0)\n"
      " Parenting 12 with 10 (parent)\n"
      " Vehicle door animations: 1\n"
      "  Id: 10\n"
      "  Doors opened:  Front Left \n"
      " Positions: 2\n"
      "  Id: 10 Location: (101, 200, 30) Rotation: (0, 0, 90)\n"
      "  Id: 11 Location: (0, 0, 90) Rotation: (0, 0, 0)\n"
      " State traffic lights: 1\n"
      "  Id: 20 state: 2 frozen: 0 elapsedTime: 1.5\n"
      " Vehicle animations: 1\n"
      "  Id: 10 Steering: 0.1 Throttle: 0.5 Brake: 0 Handbrake: 0 Gear: 1\n"
      " Walker animations: 1\n"
      "  Id: 11 speed: 1.25\n"
      " Vehicle light animations: 1\n"
      "  Id: 10 Position LowBeam\n"
      " Scene light changes: 1\n"
      "  Id: 7 enabled: True intensity: 100 RGB_color: (1, 0.5, 0.25)\n"
      " Dynamic actors: 1\n"
      "  Id: 10 linear_velocity: (100, 0, 0) angular_velocity: (0, 0, 1)\n"
      " Actor bounding boxes: 1\n"
      "  Id: 10 origin: (0, 0, 70) extension: (240, 100, 75)\n"
      " Actor trigger volumes: 1\n"
      "  Id: 30 origin: (5, 5, 0) extension: (100, 100, 50)\n"
      " Current platform time: 0.51\n"
      " Physics Control events: 1\n"
      "  Id: 10\n"
      "   max_rpm = 5800\n"
      "   MOI = 0\n"
      "   damping_rate_full_throttle = 0\n"
      "   damping_rate_zero_throttle_clutch_engaged = 0\n"
      "   damping_rate_zero_throttle_clutch_disengaged = 0\n"
      "   use_gear_auto_box = false\n"
      "   gear_switch_time = 0.5\n"
      "   clutch_strength = 0\n"
      "   final_ratio = 0\n"
      "   mass = 1500\n"
      "   drag_coefficient = 0\n"
      "   center_of_mass = (0.5, 0, -0.25)\n"
      "   torque_curve = (0, 400) (5000, 500)\n"
      "   steering_curve = (0, 1)\n"
      "   forward_gears:\n"
      "    gear 0: ratio 3.5 down_ratio 0.2 up_ratio 0.35\n"
      "   wheels:\n"
      "    wheel 0: tire_friction 3.5 damping_rate 0 max_steer_angle 0 radius 35 max_brake_torque 0 max_handbrake_torque 0 position (1, 2, 3)\n";
  REQUIRE(text.size() > std::string(expected_frame1).size());
  CHECK(text.substr(0, std::string(expected_frame1).size()) == expected_frame1);
  CHECK(text.find(" Traffic Light time events: 1\n  Id: 20 green_time: 10 yellow_time: 3 red_time: 12\n Walkers Bones: 1\n  Id: 11\n"
                  "     Bone: \"crl_root\" relative: Loc(0, 0, 1) Rot(0, 90, 0)\n     Bone: \"crl_hips__C\" relative: Loc(0, 0, 2) Rot(0, 0, 0)\n\n"
                  "Frame 2 at 0.5 seconds\n Collision id 1 between 10 (hero)  with 11\n") != std::string::npos);
  CHECK(text.find("Frame 4 at 1.5 seconds\n Destroy 11\n") != std::string::npos);
  std::string tail = "\nFrames: 4\nDuration: 1.5 seconds\n";
  CHECK(text.substr(text.size() - tail.size()) == tail);
  // Without show_all, only frames with events, and only their events.
  std::string brief = inspector->info_text(InfoOptions{});
  CHECK(brief ==
        "Version: 1\nMap: Town05\nDate: 11/23/21 12:39:25\n\n"
        "Frame 1 at 0 seconds\n"
        " Create 10: vehicle.tesla.model3 (1) at (100, 200, 30)\n"
        "  role_name = hero\n"
        " Create 11: walker.pedestrian.0001 (2) at (0, 0, 90)\n"
        " Create 12: sensor.other.collision (5) at (0, 0, 0)\n"
        " Parenting 12 with 10 (parent)\n"
        "Frame 2 at 0.5 seconds\n"
        " Collision id 1 between 10 (hero)  with 11\n"
        "Frame 4 at 1.5 seconds\n"
        " Destroy 11\n"
        "\nFrames: 4\nDuration: 1.5 seconds\n");
}

TEST_CASE("carla collisions and blocked queries: CARLA's tables, with its bugs fixed") {
  LogWriter w;
  w.header(1637671165, "Town03");
  const int frames = 900;  // 90 s at 10 Hz
  for (int f = 1; f <= frames; ++f) {
    double t = (f - 1) * 0.1;
    w.frame_start(f, f == frames ? -1.0 : 0.1, t);
    std::vector<EventAddRecord> adds;
    if (f == 1) {
      adds = {actor(1, 1, "vehicle.yamaha.yzf", {0, 0, 0}, "hero"), actor(2, 1, "vehicle.dodge_charger.police", {0, 0, 0}),
              actor(3, 4, "traffic.stop", {0, 0, 0}), actor(4, 2, "walker.pedestrian.0002", {0, 0, 0})};
    }
    w.write(packets::EventAdd, adds);
    w.write(packets::EventDel, f == 850 ? std::vector<uint32_t>{4} : std::vector<uint32_t>{});
    w.write(packets::EventParent, {});
    std::vector<CollisionRecord> collisions;
    if (f >= 160 && f <= 162) collisions.push_back({static_cast<uint32_t>(f), 1, 2, true, false});  // one row: it continues
    if (f == 200) collisions.push_back({200, 2, 3, false, false});                                    // a traffic sign: 'o', not 'h'
    if (f == 300) collisions.push_back({300, 1, kNoActor, true, false});                              // a wall
    w.write(packets::Collision, collisions);
    // Car 2 stands still from t=10 to t=50 (40 s); walker 4 stands still from t=30 until destroyed at 84.9.
    double x2 = t < 10 ? t * 1000 : (t < 50 ? 10000 : 10000 + (t - 50) * 1000);
    double x4 = t < 30 ? t * 100 : 3000;
    w.write(packets::Position, {{1, {t * 1500, 0, 0}, {}}, {2, {x2, 500, 0}, {}}, {4, {x4, 900, 0}, {}}});
    w.frame_end();
  }
  std::vector<uint8_t> bytes = w.take();
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  Json args = Json::object();
  Json all = inspector->query("collisions", args, nullptr);
  std::string header = "Version: 1\nMap: Town03\nDate: 11/23/21 12:39:25\n\n";
  std::string table_head = "    Time  Types     Id Actor 1                                 Id Actor 2                            \n";
  CHECK(all.find("text")->as_string() ==
        header + table_head +
            "      16   v v       1 vehicle.yamaha.yzf                       2 vehicle.dodge_charger.police       \n"
            "      20   v o       2 vehicle.dodge_charger.police             3 traffic.stop                       \n"
            "      30   v o       1 vehicle.yamaha.yzf                  4294967295                                    \n"
            "\nFrames: 900\nDuration: 90 seconds\n");
  CHECK(all.find("collisions")->size() == 3);
  CHECK(all.find("collisions")->elements()[2].find("id2")->is_null());
  args["type1"] = "h";
  args["type2"] = "v";
  Json hero = inspector->query("collisions", args, nullptr);
  CHECK(hero.find("collisions")->size() == 1);
  args["type1"] = "w";
  Json none = inspector->query("collisions", args, nullptr);
  CHECK(none.find("text")->as_string() == header + table_head + "\nFrames: 900\nDuration: 89.9 seconds\n");

  Json blocked_args = Json::object();
  Json blocked = inspector->query("blocked", blocked_args, nullptr);
  std::string text = blocked.find("text")->as_string();
  CHECK(text == header +
                    "    Time     Id Actor                                 Duration\n"
                    "      30      4 walker.pedestrian.0002                      55\n"
                    "      10      2 vehicle.dodge_charger.police                40\n"
                    "\nFrames: 900\nDuration: 89.9 seconds\n");
  blocked_args["min_time"] = 50.0;
  CHECK(inspector->query("blocked", blocked_args, nullptr).find("blocked")->size() == 1);

  Json trajectory_args = Json::object();
  trajectory_args["actor"] = 2;
  Json trajectory = inspector->query("trajectory", trajectory_args, nullptr);
  CHECK(trajectory.find("points")->as_uint() == 900);
  CHECK(trajectory.find("location")->find("x")->elements()[200].as_double() == 10000.0);
  Json actors = inspector->query("actors", Json::object(), nullptr);
  REQUIRE(actors.find("actors")->size() == 4);
  CHECK(actors.find("actors")->elements()[3].find("destroy_frame")->as_uint() == 850);
  CHECK(actors.find("actors")->elements()[0].find("role_name")->as_string() == "hero");
}

TEST_CASE("carla tree, spans, locate and decode read only what they show") {
  std::vector<uint8_t> bytes = every_packet_log(Variant(), false);
  MemoryByteSource memory(bytes.data(), bytes.size());
  CountingByteSource counting(memory);
  auto inspector = open_inspector(counting);
  CHECK(inspector->child_count("") == 5);  // header + 4 frames
  std::vector<TreeNode> top = inspector->children("", 0, 10);
  REQUIRE(top.size() == 5);
  CHECK(top[0].id == "header");
  CHECK(top[2].label.find("Frame 2 at 0.5 s") == 0);
  std::vector<TreeNode> packets = inspector->children(top[1].id, 0, 100);
  REQUIRE(packets.size() == inspector->child_count(top[1].id));
  const TreeNode* adds = nullptr;
  for (const TreeNode& p : packets)
    if (p.label.rfind("EventAdd", 0) == 0) adds = &p;
  REQUIRE(adds);
  CHECK(adds->child_count == 3);
  std::vector<TreeNode> records = inspector->children(adds->id, 1, 5);
  REQUIRE(records.size() == 2);
  CHECK(records[0].label.find("walker.pedestrian.0001") != std::string::npos);
  CHECK(inspector->decode(records[0].id).find("record")->find("blueprint")->as_string() == "walker.pedestrian.0001");
  std::vector<std::string> path = inspector->locate(records[1].offset + 2);
  REQUIRE(path.size() == 3);
  CHECK(path[0] == top[1].id);
  CHECK(path[1] == adds->id);
  CHECK(path[2] == records[1].id);
  std::vector<Span> spans = inspector->spans(top[2].offset, 16);
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].name == "Frame 2");
  CHECK(!spans[0].children.empty());
  counting.reset();
  inspector->decode(adds->id);
  CHECK(counting.bytes_read() <= adds->length + 64 * 1024);
  CHECK(inspector->checksum(nullptr).find("status")->as_string() == "not_applicable");
}

TEST_CASE("carla demo file is realistic and reads cleanly") {
  std::string path = test_support::scratch_dir("carla") + "/demo.log";
  std::string error;
  REQUIRE(write_demo_file(path, 2 << 20, &error));
  std::vector<uint8_t> bytes = test_support::read_file(path);
  CHECK(bytes.size() > (3u << 19));
  CHECK(bytes.size() < (5u << 20));
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  Report report = inspector->check(nullptr);
  CHECK(report.count(Severity::Error) == 0);
  CHECK(report.count(Severity::Warning) == 0);
  Json collisions = inspector->query("collisions", Json::object(), nullptr);
  CHECK(collisions.find("collisions")->size() >= 1);
}

TEST_CASE("carla CLI: info, collisions, blocked and actors, as text and JSON") {
  std::string path = test_support::scratch_dir("carla") + "/cli.log";
  int status = -1;
  test_support::run_cli("make-demo-carla '" + path + "' --size-mb 1", &status);
  REQUIRE(status == 0);
  std::string info = test_support::run_cli("info '" + path + "'", &status);
  CHECK(status == 0);
  CHECK(info.rfind("Version: 1\nMap: Town03\n", 0) == 0);
  CHECK(info.find("\nFrames: ") != std::string::npos);
  std::string collisions = test_support::run_cli("collisions '" + path + "' --types h a", &status);
  CHECK(status == 0);
  CHECK(collisions.find("    Time  Types     Id Actor 1") != std::string::npos);
  std::string json = test_support::run_cli("blocked '" + path + "' --min-time 5 --json", &status);
  CHECK(status == 0);
  auto parsed = Json::parse(json);
  REQUIRE(parsed);
  CHECK(parsed->find("blocked"));
  std::string actors = test_support::run_cli("actors '" + path + "'", &status);
  CHECK(status == 0);
  CHECK(actors.find("vehicle.lincoln.mkz_2020") != std::string::npos);
  test_support::run_cli("collisions '" + path + "' --types x a", &status);
  CHECK(status == 2);
}

namespace {
float float_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
std::string info_all(const std::vector<uint8_t>& bytes) {
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  InfoOptions all;
  all.all = true;
  return inspector->info_text(all);
}
}  // namespace

TEST_CASE("carla show_all wording follows the release the file comes from (PR #6628)") {
  // 0.9.10-0.9.14 (CarlaRecorderQuery.cpp before PR #6628): "Rotation (" and "Brake " without colons.
  Variant v48;
  std::string old_text = info_all(every_packet_log(v48, false));
  CHECK(old_text.find("  Id: 10 Location: (101, 200, 30) Rotation (0, 0, 90)\n  Id: 11 Location: (0, 0, 90) Rotation (0, 0, 0)\n") !=
        std::string::npos);
  CHECK(old_text.find("  Id: 10 Steering: 0.1 Throttle: 0.5 Brake 0 Handbrake: 0 Gear: 1\n") != std::string::npos);
  CHECK(old_text.find("Rotation: (") == std::string::npos);
  CHECK(old_text.find("Brake:") == std::string::npos);
  Variant v36;
  v36.wheel_bytes = 36;
  CHECK(info_all(every_packet_log(v36, false)).find(" Rotation (0, 0, 90)\n") != std::string::npos);
  // 0.9.15 (its AnimVehicleWheels packet, id 21, is written every frame): the colons.
  Variant v0915;
  std::string new_text = info_all(every_packet_log(v0915, true));
  CHECK(new_text.find("  Id: 10 Location: (101, 200, 30) Rotation: (0, 0, 90)\n") != std::string::npos);
  CHECK(new_text.find("  Id: 10 Steering: 0.1 Throttle: 0.5 Brake: 0 Handbrake: 0 Gear: 1\n") != std::string::npos);
  Variant ue5;
  ue5.doubles = true;
  CHECK(info_all(every_packet_log(ue5, false)).find(" Rotation: (0, 0, 90)\n") != std::string::npos);

  // 0.9.5 (ids 0-7 only): "Location (" too. The whole text, line for line.
  LogWriter w;
  w.header(1637671165, "Town01");
  for (uint64_t f = 1; f <= 2; ++f) {
    w.frame_start(f, f == 2 ? -1.0 : 0.05, (f - 1) * 0.05);
    w.write(packets::EventAdd, f == 1 ? std::vector<EventAddRecord>{actor(3, 1, "vehicle.audi.tt", {10, 20, 0.5})} : std::vector<EventAddRecord>{});
    w.write(packets::EventDel, {});
    w.write(packets::EventParent, {});
    w.write(packets::Collision, {});
    w.write(packets::Position, {{3, {10, 20.5, 0.25}, {0, -1.5, 180}}});
    w.write(packets::State, {});
    w.frame_end();
  }
  std::vector<uint8_t> bytes = w.take();
  CHECK(info_all(bytes) ==
        "Version: 1\nMap: Town01\nDate: 11/23/21 12:39:25\n\n"
        "Frame 1 at 0 seconds\n"
        " Create 3: vehicle.audi.tt (1) at (10, 20, 0.5)\n"
        " Positions: 1\n"
        "  Id: 3 Location (10, 20.5, 0.25) Rotation (0, -1.5, 180)\n"
        " State traffic lights: 0\n"
        "Frame 2 at 0.05 seconds\n"
        " Positions: 1\n"
        "  Id: 3 Location (10, 20.5, 0.25) Rotation (0, -1.5, 180)\n"
        " State traffic lights: 0\n"
        "\nFrames: 2\nDuration: 0.05 seconds\n");
  MemoryByteSource source(bytes.data(), bytes.size());
  ScanResult scan = scan_log(source, nullptr);
  CHECK(info_wording(scan) == InfoWording::Carla095);
  CHECK(file_info_json(source, scan).find("text_wording")->as_string() == "0.9.5-0.9.9");
}

TEST_CASE("carla PhysicsControl text is what CARLA prints after its engine round trip") {
  Variant v48;
  LogWriter w(v48);
  w.header(1637671165, "Town05");
  w.frame_start(1, -1.0, 0);
  w.write(packets::EventAdd, {});
  w.write(packets::EventDel, {});
  w.write(packets::EventParent, {});
  w.write(packets::Collision, {});
  w.write(packets::Position, {});
  w.write(packets::VehicleLight, {});
  PhysicsControlRecord p = one_physics(10);
  // center_of_mass goes m -> cm -> m in float: 0.0116845 comes back as 0.0116844.
  p.center_of_mass = Vec3{float_from_bits(0x3c3f7023u), 0, -0.25};
  // FRichCurve::AddKey sorts the keys by time; equal times come out in reverse file order.
  p.torque_curve = {{5000, 500}, {0, 400}, {2500, 450}, {2500, 460}};
  p.steering_curve = {{120, 0.3}, {0, 1}};
  p.wheels.resize(1);
  w.write(packets::PhysicsControl, {p});
  w.frame_end();
  std::string text = info_all(w.take());
  CHECK(text.find("   gear_switch_time = 0.5\n") != std::string::npos);
  CHECK(text.find("   center_of_mass = (0.0116844, 0, -0.25)\n") != std::string::npos);
  CHECK(text.find("   torque_curve = (0, 400) (2500, 460) (2500, 450) (5000, 500)\n   steering_curve = (0, 1) (120, 0.3)\n") != std::string::npos);
}

TEST_CASE("carla blocked query measures distance in float, as FVector::Distance does") {
  // A move whose float length is exactly 10 (not < 10 cm: moving) but whose exact length is
  // 9.9999999: CARLA (UE4 floats) sees the actor move at frame 2 and stop again from frame 3.
  const Vec3 step{4.40649033f, 8.65114594f, 2.3959372f};
  LogWriter w;
  w.header(1637671165, "Town03");
  const int frames = 40;
  for (int f = 1; f <= frames; ++f) {
    w.frame_start(f, f == frames ? -1.0 : 0.1, (f - 1) * 0.1);
    w.write(packets::EventAdd, f == 1 ? std::vector<EventAddRecord>{actor(5, 1, "vehicle.mini.cooper_s", {})} : std::vector<EventAddRecord>{});
    w.write(packets::EventDel, {});
    w.write(packets::EventParent, {});
    w.write(packets::Collision, {});
    w.write(packets::Position, {{5, f == 1 ? Vec3{} : step, {}}});
    w.frame_end();
  }
  std::vector<uint8_t> bytes = w.take();
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  Json args = Json::object();
  args["min_time"] = 1.0;
  Json blocked = inspector->query("blocked", args, nullptr);
  REQUIRE(blocked.find("blocked")->size() == 1);
  const Json& row = blocked.find("blocked")->elements()[0];
  CHECK(row.find("time")->as_double() == doctest::Approx(0.2));
  CHECK(row.find("duration")->as_double() == doctest::Approx(3.7));
  CHECK(blocked.find("text")->as_string() ==
        "Version: 1\nMap: Town03\nDate: 11/23/21 12:39:25\n\n"
        "    Time     Id Actor                                 Duration\n"
        "       0      5 vehicle.mini.cooper_s                        4\n"
        "\nFrames: 40\nDuration: 3.9 seconds\n");
}

TEST_CASE("carla node ids are parsed strictly and query arguments are checked by the query table") {
  std::string path = test_support::scratch_dir("carla") + "/ids.log";
  std::string error;
  REQUIRE(write_demo_file(path, 1 << 20, &error));
  std::vector<uint8_t> bytes = test_support::read_file(path);
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  REQUIRE(inspector->child_count("f0") > 0);
  // "fx" used to be read as frame 0 (strtoull without a check).
  for (const char* bad : {"fx", "f", "f-1", "f 0", "p", "px", "r12"}) {
    CAPTURE(bad);
    CHECK(inspector->child_count(bad) == 0);
    CHECK(inspector->children(bad, 0, 10).empty());
  }
  CHECK(inspector->decode("fx").find("frame") == nullptr);
  auto error_of = [&](const char* name, const char* args) {
    Json out = inspector->query(name, *Json::parse(args), nullptr);
    const Json* e = out.find("error");
    return e ? e->as_string() : std::string();
  };
  CHECK(error_of("frames", R"({"first": 0, "count": 2})").empty());
  CHECK(error_of("frames", R"({"first": -1})") == R"(frames: argument "first" must be a whole number from 0 to 2^64-1, got -1)");
  CHECK(error_of("blocked", R"({"min_time": "long"})") == R"(blocked: argument "min_time" must be a number, got "long")");
  CHECK(error_of("trajectory", R"({"actor": 4294967296})") == R"(trajectory: argument "actor" must be from 0 to 4294967295, got 4294967296)");
  CHECK(error_of("collision", "{}").rfind("unknown query: collision (this format answers: frames, file_info, collisions", 0) == 0);
}

TEST_CASE("carla info lists a frame's long EventDel and EventParent packets (the scan keeps event packets whole)") {
  LogWriter w;
  w.header(1700000000, "Town03");
  std::vector<EventAddRecord> adds;
  for (uint32_t id = 1; id <= 10; ++id) adds.push_back(actor(id, 1, "vehicle.tesla.model3", {0, 0, 0}));
  for (uint64_t f = 1; f <= 3; ++f) {
    w.frame_start(f, f == 3 ? -1.0 : 0.5, (f - 1) * 0.5);
    w.write(packets::EventAdd, f == 1 ? adds : std::vector<EventAddRecord>{});
    w.write(packets::EventParent, f == 1 ? std::vector<ParentRecord>{{2, 1}, {3, 1}, {4, 1}, {5, 1}} : std::vector<ParentRecord>{});
    w.write(packets::EventDel, f == 2 ? std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10} : std::vector<uint32_t>{});
    w.frame_end();
  }
  std::vector<uint8_t> bytes = w.take();
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  REQUIRE(inspector);
  std::string info = inspector->info_text(InfoOptions{});
  CAPTURE(info);
  size_t destroys = 0, parents = 0;
  for (size_t at = info.find("Destroy"); at != std::string::npos; at = info.find("Destroy", at + 1)) ++destroys;
  for (size_t at = info.find("Parenting"); at != std::string::npos; at = info.find("Parenting", at + 1)) ++parents;
  CHECK(destroys == 10);
  CHECK(parents == 4);
}

// The summary (and so `info --json` and the page's summary) lists the first 1,000 frames with
// events; the file_info query up to 100,000. A 100 GB log has about 180,000: their JSON took some
// 150 MB in the summary.
TEST_CASE("carla summary: the first 1,000 frames with events, the file_info query lists more") {
  LogWriter w;
  w.header(1637671165, "Town05");
  const uint64_t frames = 1200;
  for (uint64_t f = 1; f <= frames; ++f) {
    w.frame_start(f, f == frames ? -1.0 : 0.05, (f - 1) * 0.05);
    w.write(packets::Collision, std::vector<CollisionRecord>{{static_cast<uint32_t>(f), 10, 11, true, false}});
    w.frame_end();
  }
  std::vector<uint8_t> bytes = w.take();
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  Json summary = inspector->summary().to_json();
  const Json& info = *summary.find("details")->find("file_info");
  CHECK(info.find("events")->size() == 1000);
  CHECK(info.find("events_truncated")->as_bool());
  CHECK(info.find("events")->elements().back().find("frame")->as_uint() == 1000);
  Json all = inspector->query("file_info", Json::object(), nullptr);
  CHECK(all.find("events")->size() == frames);
  CHECK(all.find("events_truncated") == nullptr);
}

// An actor's export reads the log once, over the scan the inspector keeps: it scanned the log
// again and held a second frame index (2 x 120 MB at 100 GB), and read it twice.
TEST_CASE("carla export of an actor reads the log once, over the kept scan") {
  std::string path = test_support::scratch_dir("carla") + "/export-once.log";
  std::string error;
  REQUIRE(write_demo_file(path, 1 << 20, &error));
  std::vector<uint8_t> bytes = test_support::read_file(path);
  MemoryByteSource memory(bytes.data(), bytes.size());
  CountingByteSource source(memory);
  auto inspector = open_inspector(source);
  inspector->summary();  // the scan, kept
  source.reset();
  StringSink sink;
  ExportRequest request;
  ExportResult result = inspector->export_rows("100", request, sink, nullptr);
  REQUIRE(result.error == "");
  CHECK(result.rows > 0);
  MESSAGE("the export read " << source.bytes_read() << " bytes of a " << bytes.size() << "-byte log");
  CHECK(source.bytes_read() <= bytes.size());
  // The same rows as the export of a fresh log (which scans it first).
  MemoryByteSource fresh(bytes.data(), bytes.size());
  StringSink again;
  export_actor(fresh, 100, request, again);
  CHECK(again.text() == sink.text());
}
