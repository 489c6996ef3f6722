// Small but complete files of every format, written with the project's own writers: fuzz seeds
// (tests/fuzz/make_seeds.cpp) and the mutation sweep of tests/codec/test_hostile_inputs.cpp.
// Each one is a few hundred bytes to a few KB and uses most of its format's structure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bddf/writer.h"
#include "carla/writer.h"
#include "mcap/demo.h"
#include "rosbag/writer.h"

namespace logscope_fuzz {

// Two message series (one with an additional index), two POD series (scalar, 3-vector), with SHA1.
inline std::vector<uint8_t> tiny_bddf(bool sha1 = true) {
  using namespace logscope::bddf;
  std::vector<uint8_t> out;
  Writer::Options options;
  options.sha1 = sha1;
  options.pod_block_size = 64;
  options.annotations = {{"robot", "fuzz"}};
  Writer writer([&](const void* data, size_t size) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    out.insert(out.end(), p, p + size);
    return true;
  }, options);
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  SeriesOptions comment_options;
  comment_options.spec = {{"bosdyn:channel", "comments"}};
  comment_options.type_name = "bosdyn.api.OperatorComment";
  comment_options.additional_index_names = {"seq"};
  int comment = writer.add_series(comment_options);
  int voltage = writer.add_pod_channel("power/battery_voltage", 10, {}, {{"units", "V"}});
  int accel = writer.add_pod_channel("imu/accel", 9, {3});
  const int64_t t0 = 1700000000LL * 1000000000LL;
  for (int i = 0; i < 12; ++i) {
    int64_t ts = t0 + i * 50000000LL;
    // A tiny protobuf: field 1 (varint), field 2 (string), field 3 (nested {1: varint}).
    uint8_t payload[] = {0x08, static_cast<uint8_t>(i), 0x12, 0x02, 'o', 'k', 0x1a, 0x02, 0x08, 0x07};
    writer.write_block(state, ts, payload, sizeof payload);
    double v = 24.0 + i * 0.01;
    writer.write_pod_sample(voltage, ts, &v);
    float a[3] = {0.1f * i, 0.0f, 9.81f};
    writer.write_pod_sample(accel, ts, a);
    if (i % 5 == 2) writer.write_block(comment, ts + 1000, "note", 4, {i});
  }
  writer.finish();
  return out;
}

// V2.0 (none/lz4/bz2 chunks, several chunks) or V1.2: two topics, one of them a nested type with
// strings, arrays and a time, so the message decoder has work.
inline std::vector<uint8_t> tiny_bag(int version = 200, const std::string& compression = "none") {
  using namespace logscope::rosbag;
  MemorySink sink;
  WriterOptions options;
  options.version = version;
  options.compression = compression;
  options.chunk_threshold = 300;
  BagWriter writer(sink, options);
  const char* pose_def =
      "Header header\nfloat64[3] position\nstring frame\nint32[] ids\n"
      "================================================================================\n"
      "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";
  uint32_t pose = writer.add_connection("/pose", "demo_msgs/Pose", "0123456789abcdef0123456789abcdef", pose_def, "/node_a");
  uint32_t count = writer.add_connection("/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n", "/node_b", true);
  for (uint32_t i = 0; i < 10; ++i) {
    Time t{1700000000u + i / 4, (i % 4) * 250000000u};
    if (i % 2 == 0) {
      std::string m;
      auto put32 = [&](uint32_t v) { m.append(reinterpret_cast<const char*>(&v), 4); };
      put32(i);                      // header.seq
      put32(t.sec), put32(t.nsec);   // header.stamp
      put32(3), m += "map";          // header.frame_id
      for (int k = 0; k < 3; ++k) {  // position
        double d = i + k * 0.5;
        m.append(reinterpret_cast<const char*>(&d), 8);
      }
      put32(4), m += "base";  // frame
      put32(2), put32(7), put32(9);  // ids
      writer.write(pose, t, m);
    } else {
      int32_t v = static_cast<int32_t>(i * 11);
      writer.write(count, t, std::string_view(reinterpret_cast<const char*>(&v), 4));
    }
  }
  writer.close();
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

// Four frames with most packet kinds: an added car, walker and collision sensor, a collision, a
// parent link, positions, states, animations, lights, kinematics, boxes, bones, a deletion.
inline std::vector<uint8_t> tiny_carla(const logscope::carla::Variant& variant = logscope::carla::Variant()) {
  using namespace logscope::carla;
  auto actor = [](uint32_t id, uint8_t type, const std::string& blueprint, Vec3 location, const std::string& role = "") {
    EventAddRecord r;
    r.id = id;
    r.type = type;
    r.location = location;
    r.blueprint = blueprint;
    if (!role.empty()) r.attributes.push_back({8, "role_name", role});
    return r;
  };
  LogWriter w(variant);
  w.header(1637671165, "Town05");
  for (uint64_t f = 1; f <= 4; ++f) {
    w.frame_start(f, f == 4 ? -1.0 : 0.5, (f - 1) * 0.5);
    w.write(packets::EventAdd, f == 1 ? std::vector<EventAddRecord>{actor(10, 1, "vehicle.tesla.model3", {100, 200, 30}, "hero"),
                                                     actor(11, 2, "walker.pedestrian.0001", {0, 0, 90}),
                                                     actor(12, 5, "sensor.other.collision", {})}
                       : std::vector<EventAddRecord>{});
    w.write(packets::EventDel, f == 4 ? std::vector<uint32_t>{11} : std::vector<uint32_t>{});
    w.write(packets::EventParent, f == 1 ? std::vector<ParentRecord>{{12, 10}} : std::vector<ParentRecord>{});
    w.write(packets::Collision, f == 2 ? std::vector<CollisionRecord>{{1, 10, 11, true, false}} : std::vector<CollisionRecord>{});
    w.write(packets::Position, {{10, {100.0 + f, 200, 30}, {0, 0, 90}}, {11, {0, 0, 90}, {0, 0, 0}}});
    w.write(packets::State, {{20, false, 1.5, 2}});
    w.write(packets::AnimVehicle, {{10, 0.1, 0.5, 0.0, false, 1}});
    w.write(packets::AnimWalker, {{11, 1.25}});
    w.write(packets::VehicleLight, {{10, 0x3}});
    w.write(packets::SceneLight, {{7, 100, 1, 0.5, 0.25, 1, true, 0}});
    w.write(packets::Kinematics, {{10, {100, 0, 0}, {0, 0, 1}}});
    w.write(packets::BoundingBox, f == 1 ? std::vector<BoxRecord>{{10, {0, 0, 70}, {240, 100, 75}}} : std::vector<BoxRecord>{});
    w.write(packets::PlatformTime, {f * 0.51});
    w.write(packets::TrafficLightTime, {{20, 10, 3, 12}});
    w.write(packets::FrameCounter, {f});
    w.write(packets::WalkerBones, {{11, {{"crl_root", {0, 0, 1}, {0, 90, 0}}}}});
    w.frame_end();
  }
  return w.take();
}

// MCAP's tiny file (codec/mcap/demo.h, also the format table's small_demo) in each layout.
inline std::vector<uint8_t> tiny_mcap(const std::string& compression = "zstd", bool chunked = true) {
  return logscope::mcap::tiny_file(compression, chunked);
}

}  // namespace logscope_fuzz
