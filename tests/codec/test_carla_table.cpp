// The CARLA packet table (codec/carla/packet_table.h): its entries agree with the ids the code
// names, the numberings are consistent, and every layout writes back exactly the payload it read,
// on the real samples and on our writer's files in every variant.
#include <cstddef>
#include <set>
#include <string>

#include "../fuzz/tiny_files.h"
#include "carla/decode.h"
#include "carla/reader.h"
#include "carla/stream.h"
#include "carla/writer.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

// Decodes every packet of a log and writes each decoded payload back through its entry's layout.
// Returns how many payloads were compared; every one must come back byte for byte.
size_t round_trip_every_payload(const std::vector<uint8_t>& bytes, const std::string& what, std::set<std::string>* kinds = nullptr) {
  MemoryByteSource source(bytes.data(), bytes.size());
  ScanResult scan = scan_log(source, nullptr);
  REQUIRE_MESSAGE(scan.header_ok, what);
  const Variant& variant = scan.variant.variant;
  size_t compared = 0;
  auto visit = [&](const FrameStartRecord&, const PacketRef& packet, const uint8_t* payload) {
    DecodedPacket p;
    if (!decode_packet(packet.id, payload, packet.size, variant, &p) || !p.type || !p.list) return;
    std::vector<uint8_t> written;
    PayloadWriter w(written, variant);
    p.type->write_payload(w, p.list);
    CHECK_MESSAGE(written == std::vector<uint8_t>(payload, payload + packet.size), what << ": " << p.type->name() << " at " << packet.offset);
    if (kinds) kinds->insert(p.type->name());
    ++compared;
  };
  stream_packets(source, scan, nullptr, [](uint8_t) { return true; }, visit);
  return compared;
}

}  // namespace

TEST_CASE("carla packet table: the ids the code names are the entries of those names") {
  const char* names[] = {"FrameStart", "FrameEnd",     "EventAdd",   "EventDel",      "EventParent",    "Collision",        "Position",
                         "State",      "AnimVehicle",  "AnimWalker", "VehicleLight",  "SceneLight",     "Kinematics",       "BoundingBox",
                         "PlatformTime", "PhysicsControl", "TrafficLightTime", "TriggerVolume", "FrameCounter", "WalkerBones", "VisualTime"};
  for (IdOrder order : {IdOrder::Release0915, IdOrder::DevDoors, IdOrder::Release0916}) {
    Variant v;
    v.order = order;
    for (uint8_t id = kFrameStart; id <= kVisualTime; ++id) {
      const PacketType* type = packet_type(id, v);
      REQUIRE(type);
      CHECK(std::string(type->name()) == names[id]);
      CHECK(!order_dependent(id));
    }
    // One entry per id in each numbering, and each entry's id finds it back.
    std::set<uint8_t> ids;
    for (const PacketType* type : packet_types()) {
      uint8_t id = type->id(order);
      if (id == kNoId) continue;
      CHECK(ids.insert(id).second);
      CHECK(packet_type(id, v) == type);
    }
  }
  CHECK(packet_type(101, Variant()) == nullptr);
  CHECK(packet_name(101, Variant()) == "user packet 101");
  CHECK(packet_name(50, Variant()) == "unknown packet 50");
  CHECK(packet_name(23, Variant()) == "unknown packet 23");  // no id 23 in the 0.9.15 numbering
}

TEST_CASE("carla packet table: numberings and releases come from the entries") {
  CHECK(order_dependent_range() == "21-23");
  CHECK(id_order_name(IdOrder::Release0915) == "0.9.15 (21 AnimVehicleWheels, 22 AnimBiker)");
  CHECK(id_order_name(IdOrder::DevDoors) == "dev 2023-2025 (21 VehicleDoor, 22 AnimVehicleWheels, 23 AnimBiker)");
  CHECK(id_order_name(IdOrder::Release0916) == "0.9.16 (21 AnimVehicleWheels, 22 AnimBiker, 23 VehicleDoor)");
  Release release;
  CHECK((release_of_id(kAnimWalker, &release) && release == Release::k0_9_6));
  CHECK((release_of_id(kTriggerVolume, &release) && release == Release::k0_9_10));
  CHECK((release_of_id(kVisualTime, &release) && release == Release::k0_9_14));
  CHECK((release_of_id(21, &release) && release == Release::k0_9_15));  // VehicleDoor (dev) or AnimVehicleWheels
  CHECK(!release_of_id(50, &release));
  // The scan's per-id facts.
  CHECK(vector_sized_id(kPosition));
  CHECK(vector_sized_id(kEventAdd));
  CHECK(!vector_sized_id(kPhysicsControl));  // judged by its wheels
  CHECK(variable_size_id(22));               // AnimVehicleWheels in the dev numbering
  CHECK(event_id(kCollision));
  CHECK(!event_id(kFrameStart));
  CHECK(!event_id(kPosition));
  LogWriter doors_in_0915;
  CHECK(doors_in_0915.id_of(packets::VehicleDoor) == 23);  // its id in the latest numbering that has it
}

TEST_CASE("carla packet table: every layout writes back the payloads it reads (real samples)") {
  if (!test_support::have_samples()) return;
  for (const char* name : {"scenario_runner_0.9.10_DistanceToLaneCenter.log", "scenario_runner_0.9.13_DistanceBetweenVehicles.log"}) {
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(std::string("carla/") + name));
    CHECK(round_trip_every_payload(bytes, name) > 1000);
  }
}

TEST_CASE("carla packet table: every layout writes back the payloads it reads (every variant)") {
  std::set<std::string> kinds;
  for (bool doubles : {false, true})
    for (int wheels : {48, 36})
      for (IdOrder order : {IdOrder::Release0915, IdOrder::DevDoors, IdOrder::Release0916}) {
        Variant v;
        v.doubles = doubles, v.wheel_bytes = wheels, v.order = order;
        LogWriter w(v);
        w.header(1637671165, "Town05");
        w.frame_start(1, -1.0, 0);
        w.write(packets::FrameCounter, {7});
        w.write(packets::VisualTime, {0.25});
        w.write(packets::EventParent, {{3, 4}});
        w.write(packets::AnimVehicleWheels, {{3, {{0, 1.5, 2.5}, {1, 0, 3}}}});
        w.write(packets::AnimBiker, {{3, 1, 0.5}});
        w.write(packets::TriggerVolume, {{9, {1, 2, 3}, {40, 50, 60}}});
        if (order != IdOrder::Release0915) w.write(packets::VehicleDoor, {{3, 5, true}});
        w.write(packets::WalkerBones, {{4, {{"crl_root", {1, 2, 3}, {4, 5, 6}}}}});
        if (!doubles) {
          PhysicsControlRecord p;
          p.id = 3, p.max_rpm = 5800, p.center_of_mass = {0.5, 0, -0.25}, p.torque_curve = {{0, 400}, {5000, 500}};
          p.forward_gears = {{3.5, 0.2, 0.35}}, p.steering_curve = {{0, 1}};
          WheelControl wheel;
          wheel.radius = 35, wheel.lat_stiff_value = 17, wheel.has_stiffness = wheels == 48, wheel.position = {1, 2, 3};
          p.wheels = {wheel, wheel};
          w.write(packets::PhysicsControl, {p});
        }
        w.frame_end();
        std::vector<uint8_t> bytes = logscope_fuzz::tiny_carla(v);
        std::vector<uint8_t> more = w.take();
        bytes.insert(bytes.end(), more.begin() + static_cast<std::ptrdiff_t>(2 + 2 + 14 + 8 + 2 + 6), more.end());  // frames only
        CHECK(round_trip_every_payload(bytes, variant_label(v), &kinds) > 50);
      }
  CHECK(kinds.size() == packet_types().size());  // every entry of the table was read and written back
}
