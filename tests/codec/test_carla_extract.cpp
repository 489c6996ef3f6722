// CARLA extract (codec/carla/extract.cpp): a time span and/or chosen actors cut out of writer-made
// logs (UE4 and UE5 layouts, actors spawned before the cut, parents, destroyed actors, collisions)
// and of the shared samples. The cut is compared with the source through a model written here
// in terms of decoded records (JSON), not the extractor's code: frame by frame, packet by packet,
// the actor table, and the codec's check.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "carla/decode.h"
#include "carla/extract.h"
#include "carla/queries.h"
#include "carla/reader.h"
#include "carla/walker.h"
#include "carla/writer.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "inspector.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

// --- The logs ------------------------------------------------------------------------------------

EventAddRecord actor(uint32_t id, uint8_t type, const std::string& blueprint, const std::string& role) {
  EventAddRecord a;
  a.id = id, a.type = type, a.blueprint = blueprint, a.description_uid = id * 7;
  a.location = Vec3{id * 100.0, id * -50.0, 30.5};
  a.rotation = Vec3{0, 0, id * 10.0};
  a.attributes = {{3, "role_name", role}, {1, "number_of_wheels", "4"}};
  return a;
}

PhysicsControlRecord physics(uint32_t id) {
  PhysicsControlRecord p;
  p.id = id, p.max_rpm = 5000 + id, p.mass = 1500, p.center_of_mass = Vec3{0.5, 0, -0.25};
  p.torque_curve = {{0, 400}, {5000, 450}};
  p.forward_gears = {{3.5, 0.2, 0.4}};
  p.steering_curve = {{0, 1}, {100, 0.5}};
  WheelControl wheel;
  wheel.radius = 35, wheel.position = Vec3{80, 140, 35};
  p.wheels = {wheel, wheel};
  return p;
}

// 100 frames at 20 Hz (elapsed 0 ... 4.95 s). Actors (frame of creation - of destruction):
//   5 hero car (1-), 6 sensor on 5 (1-), 7 walker (1-), 8 traffic light (1-), 14 walker controller
//   on 7 (3-), 9 car (5-12), 10 car (12-50), 11 car (30-), 12 sensor on 11 (30-), 13 car (70-);
//   collisions 5/10 (frame 30), 5/static (35), 10/11 (45). Seconds 1-3 are frames 21-61.
std::vector<uint8_t> make_log(const Variant& variant) {
  LogWriter w(variant);
  w.header(1700000000, "Town04");
  std::map<uint32_t, EventAddRecord> alive;
  bool doors = variant.order != IdOrder::Release0915;
  for (int f = 1; f <= 100; ++f) {
    double elapsed = (f - 1) * 0.05;
    w.frame_start(f, f == 100 ? -1.0 : 0.05, elapsed);
    w.write(packets::VisualTime, {elapsed + 10});
    std::vector<EventAddRecord> adds;
    std::vector<uint32_t> dels;
    std::vector<ParentRecord> parents;
    std::vector<CollisionRecord> collisions;
    if (f == 1) {
      adds = {actor(5, 1, "vehicle.tesla.model3", "hero"), actor(6, 5, "sensor.other.collision", "front"),
              actor(7, 2, "walker.pedestrian.0001", "pedestrian"), actor(8, 3, "traffic.traffic_light", "")};
      parents = {{6, 5}};
    }
    if (f == 3) adds = {actor(14, 0, "controller.ai.walker", "")}, parents = {{14, 7}};
    if (f == 5) adds = {actor(9, 1, "vehicle.audi.a2", "autopilot")};
    if (f == 12) adds = {actor(10, 1, "vehicle.mini.cooper", "autopilot")}, dels = {9};
    if (f == 30) adds = {actor(11, 1, "vehicle.ford.mustang", "autopilot"), actor(12, 5, "sensor.camera.rgb", "cam")}, parents = {{12, 11}};
    if (f == 50) dels = {10};
    if (f == 70) adds = {actor(13, 1, "vehicle.nissan.patrol", "autopilot")};
    if (f == 30) collisions = {{1, 5, 10, true, false}};
    if (f == 35) collisions = {{2, 5, kNoActor, true, false}};
    if (f == 45) collisions = {{3, 10, 11, false, false}};
    for (const EventAddRecord& a : adds) alive[a.id] = a;
    for (uint32_t id : dels) alive.erase(id);
    w.write(packets::EventAdd, adds);
    w.write(packets::EventDel, dels);
    w.write(packets::EventParent, parents);
    w.write(packets::Collision, collisions);
    std::vector<uint32_t> cars;
    for (const auto& [id, a] : alive)
      if (a.type == 1) cars.push_back(id);
    if (doors) {
      std::vector<DoorRecord> door_records;
      for (uint32_t id : cars) door_records.push_back({id, static_cast<uint8_t>(f % 7), f % 2 == 0});
      w.write(packets::VehicleDoor, door_records);
    }
    std::vector<PositionRecord> positions;
    std::vector<KinematicsRecord> kinematics;
    for (const auto& [id, a] : alive)
      if (a.type == 1 || a.type == 2) {
        positions.push_back({id, {id * 100.0 + f, f * 2.0, 30}, {0, 0, f * 1.5}});
        kinematics.push_back({id, {f * 1.0, 0, 0}, {0, 0, 0.5}});
      }
    w.write(packets::Position, positions);
    w.write(packets::State, {{8, false, elapsed, static_cast<uint8_t>(f / 20 % 3)}});
    std::vector<AnimVehicleRecord> controls;
    std::vector<VehicleLightRecord> lights;
    std::vector<VehicleWheelsRecord> wheels;
    for (uint32_t id : cars) {
      controls.push_back({id, 0.1, 0.5, 0, false, 2});
      lights.push_back({id, 1});
      wheels.push_back({id, {{0, 5, f * 1.0}, {1, 5, f * 1.0}}});
    }
    w.write(packets::AnimVehicle, controls);
    w.write(packets::AnimWalker, {{7, 1.4}});
    w.write(packets::VehicleLight, lights);
    if (doors) w.write(packets::AnimVehicleWheels, wheels);
    w.write(packets::Kinematics, kinematics);
    std::vector<BoxRecord> boxes;
    for (const EventAddRecord& a : adds)
      if (a.type == 1 || a.type == 2) boxes.push_back({a.id, {0, 0, 70}, {240, 100, 75.0 + a.id}});
    w.write(packets::BoundingBox, boxes);
    w.write(packets::PlatformTime, {elapsed * 1.1});
    std::vector<PhysicsControlRecord> physics_records;
    for (const EventAddRecord& a : adds)
      if (a.type == 1) physics_records.push_back(physics(a.id));
    if (!physics_records.empty()) w.write(packets::PhysicsControl, physics_records);
    if (f == 1) w.write(packets::TrafficLightTime, {{8, 10, 3, 12}});
    if (f == 15) w.write(packets::TrafficLightTime, {{8, 12, 3, 10}});  // changed before the cut: the last one is carried
    w.frame_end();
  }
  return w.take();
}

Variant ue5_variant() {
  Variant v;
  v.doubles = true;
  v.order = IdOrder::DevDoors;
  return v;
}

// --- Reading them back ---------------------------------------------------------------------------

struct Packet {
  uint8_t id = 0;
  std::vector<uint8_t> payload;
};
struct Frame {
  FrameEntry entry;
  std::vector<Packet> packets;  // FrameStart included
};
struct Log {
  ScanResult scan;
  std::vector<Frame> frames;
  const Variant& variant() const { return scan.variant.variant; }
};

Log read_log(const std::vector<uint8_t>& bytes) {
  Log log;
  MemoryByteSource source(bytes.data(), bytes.size());
  log.scan = scan_log(source, nullptr);
  ChunkReader reader(source);
  for (const FrameEntry& f : log.scan.frames) {
    Frame frame;
    frame.entry = f;
    PacketWalker walker(reader, f.offset, f.end);
    PacketRef ref;
    while (walker.next(&ref) == PacketWalker::Step::Packet) {
      const uint8_t* payload = reader.get(ref.payload(), ref.size);
      REQUIRE(payload);
      frame.packets.push_back({ref.id, std::vector<uint8_t>(payload, payload + ref.size)});
    }
    log.frames.push_back(std::move(frame));
  }
  return log;
}

// The records of a packet as JSON, when it carries records that decode (else false).
bool records_of(const Packet& packet, const Variant& variant, std::vector<Json>* records) {
  DecodedPacket p;
  decode_packet(packet.id, packet.payload.data(), packet.payload.size(), variant, &p);
  records->clear();
  if (!p.ok || !p.type || p.type->single() || (!p.list && p.total)) return false;
  if (p.type->ue4_only() && variant.doubles) return false;
  for (size_t i = 0; i < record_count(p); ++i) records->push_back(record_to_json(p, i));
  return true;
}

// The actors a record names, read from its JSON: collisions name two (null: not an actor), scene
// lights none, every other record its "id".
std::vector<uint32_t> actors_named(uint8_t id, const Json& record) {
  std::vector<uint32_t> ids;
  if (id == kCollision) {
    for (const char* side : {"actor1", "actor2"})
      if (const Json* a = record.find(side); a && !a->is_null()) ids.push_back(static_cast<uint32_t>(a->as_uint()));
  } else if (const Json* a = record.find("id"); a && id != kSceneLight) {
    ids.push_back(static_cast<uint32_t>(a->as_uint()));
  }
  return ids;
}

std::vector<uint8_t> run_extract(const std::vector<uint8_t>& input, const CarlaExtractOptions& options, ExtractResult* result,
                                 const ProgressFn& progress = nullptr) {
  MemoryByteSource source(input.data(), input.size());
  MemoryOutputSink out;
  *result = extract_carla(source, out, options, progress);
  return std::vector<uint8_t>(out.bytes.begin(), out.bytes.end());
}

CarlaExtractOptions span(const char* from, const char* to, std::vector<uint32_t> actors = {}) {
  CarlaExtractOptions o;
  if (from) REQUIRE(parse_time_bound(from, &o.from, nullptr));
  if (to) REQUIRE(parse_time_bound(to, &o.to, nullptr));
  o.actors = std::move(actors);
  return o;
}

// The frames of the source a span [from_s, to_s] (seconds after the start) holds.
std::pair<size_t, size_t> frames_in(const Log& log, double from_s, double to_s) {
  size_t first = SIZE_MAX, last = 0;
  for (size_t i = 0; i < log.frames.size(); ++i) {
    long long ns = std::llround(log.frames[i].entry.elapsed * 1e9);
    if (ns < std::llround(from_s * 1e9) || ns > std::llround(to_s * 1e9)) continue;
    first = std::min(first, i);
    last = i;
  }
  REQUIRE(first != SIZE_MAX);
  return {first, last};
}

Report check_of(const std::vector<uint8_t>& bytes) {
  MemoryByteSource source(bytes.data(), bytes.size());
  Detection d = detect(source);
  auto inspector = open_inspector(source, d);
  REQUIRE(inspector);
  return inspector->check(nullptr);
}

// Warnings and errors of the check, as text, for a failing assertion to show.
std::string findings(const Report& report) {
  std::string text;
  for (const Problem& p : report.problems)
    if (p.severity != Severity::Info) text += p.code + " @" + std::to_string(p.offset) + ": " + p.message + "\n";
  return text;
}

// --- The model of a cut --------------------------------------------------------------------------

// The actors alive after the source's first `cut` frames, in creation order, each with the last
// record of each kind the cut's first frame re-creates (EventAdd, EventParent, and the records
// written at spawn), as JSON.
struct Alive {
  uint32_t id;
  std::map<uint8_t, Json> records;
};
std::vector<Alive> alive_before(const Log& log, size_t cut) {
  std::vector<Alive> alive;
  auto find = [&](uint32_t id) {
    return std::find_if(alive.begin(), alive.end(), [id](const Alive& a) { return a.id == id; });
  };
  std::vector<Json> records;
  for (size_t f = 0; f < cut; ++f)
    for (const Packet& packet : log.frames[f].packets) {
      bool carried = packet.id == kEventParent || packet.id == kBoundingBox || packet.id == kTriggerVolume || packet.id == kPhysicsControl ||
                     packet.id == kTrafficLightTime;
      if (packet.id != kEventAdd && packet.id != kEventDel && !carried) continue;
      if (!records_of(packet, log.variant(), &records)) continue;
      for (const Json& r : records) {
        uint32_t id = static_cast<uint32_t>(r.find("id")->as_uint());
        auto it = find(id);
        if (packet.id == kEventDel) {
          if (it != alive.end()) alive.erase(it);
        } else if (packet.id == kEventAdd) {
          if (it != alive.end()) alive.erase(it);
          alive.push_back({id, {{kEventAdd, r}}});
        } else if (it != alive.end()) {
          it->records[packet.id] = r;
        }
      }
    }
  return alive;
}

// Checks a cut against the source's frames [first, last]: frame starts renumbered, every other
// packet the source's (with `kept`, only the records of those actors), and the first frame's
// records preceded by the re-created actors'.
void check_cut(const Log& source, const Log& cut, size_t first, size_t last, const std::set<uint32_t>* kept) {
  REQUIRE(cut.frames.size() == last - first + 1);
  CHECK(cut.scan.header.map == source.scan.header.map);
  CHECK(cut.scan.header.version == source.scan.header.version);
  const Variant& variant = source.variant();
  CHECK(variant_label(cut.variant()) == variant_label(variant));
  auto keeps = [&](uint8_t id, const Json& record) {
    if (!kept) return true;
    for (uint32_t a : actors_named(id, record))
      if (!kept->count(a)) return false;
    return true;
  };
  // What the first frame re-creates, per packet id.
  std::vector<Alive> alive = alive_before(source, first);
  std::map<uint8_t, std::vector<Json>> added;
  for (const Alive& a : alive) {
    if (kept && !kept->count(a.id)) continue;
    for (const auto& [id, record] : a.records) {
      if (id == kEventParent) {
        uint32_t parent = static_cast<uint32_t>(record.find("parent")->as_uint());
        bool there = std::any_of(alive.begin(), alive.end(), [&](const Alive& b) { return b.id == parent; });
        if (!there || (kept && !kept->count(parent))) continue;
      }
      added[id].push_back(record);
    }
  }
  double e0 = source.frames[first].entry.elapsed;
  std::vector<Json> records;
  for (size_t j = 0; j < cut.frames.size(); ++j) {
    const Frame& in = source.frames[first + j];
    const Frame& out = cut.frames[j];
    CAPTURE(j);
    CHECK(out.entry.id == j + 1);
    CHECK(out.entry.elapsed == in.entry.elapsed - e0);
    CHECK(out.entry.duration == (first + j == last ? -1.0 : in.entry.duration));
    REQUIRE(!out.packets.empty());
    CHECK(out.packets.front().id == kFrameStart);
    // The expected packets after FrameStart: (id, records or bytes).
    struct Expected {
      uint8_t id;
      bool has_records;
      std::vector<Json> records;
      std::vector<uint8_t> bytes;
    };
    std::vector<Expected> expected;
    for (size_t k = 1; k < in.packets.size(); ++k) {
      const Packet& p = in.packets[k];
      Expected e{p.id, records_of(p, variant, &records), {}, p.payload};
      bool holds_records = packet_type(p.id, variant) && !packet_type(p.id, variant)->single();
      if (kept && holds_records && !e.has_records) continue;  // records that cannot be told apart: dropped whole
      for (const Json& r : records)
        if (keeps(p.id, r)) e.records.push_back(r);
      expected.push_back(std::move(e));
    }
    if (j > 0) {
      REQUIRE(out.packets.size() == expected.size() + 1);
      for (size_t k = 0; k < expected.size(); ++k) {
        const Packet& p = out.packets[k + 1];
        CAPTURE(k);
        CHECK(p.id == expected[k].id);
        if (!kept || !expected[k].has_records) {
          CHECK(p.payload == expected[k].bytes);  // byte for byte
        } else {
          REQUIRE(records_of(p, variant, &records));
          CHECK(Json(records).dump() == Json(expected[k].records).dump());  // text: NaN (null) equals itself
        }
      }
      continue;
    }
    // The first frame: per packet id, the re-created records, then the source's.
    std::map<uint8_t, std::vector<Json>> want = added, got;
    std::vector<std::vector<uint8_t>> want_bytes, got_bytes;  // packets without records, in order
    for (const Expected& e : expected) {
      if (e.has_records)
        want[e.id].insert(want[e.id].end(), e.records.begin(), e.records.end());
      else
        want_bytes.push_back(e.bytes);
    }
    for (size_t k = 1; k < out.packets.size(); ++k) {
      if (records_of(out.packets[k], variant, &records))
        got[out.packets[k].id].insert(got[out.packets[k].id].end(), records.begin(), records.end());
      else
        got_bytes.push_back(out.packets[k].payload);
    }
    for (auto& entry : want) {
      int packet_id = entry.first;  // a local: doctest's CAPTURE cannot capture a structured binding (clang 14)
      CAPTURE(packet_id);
      CHECK(Json(got[entry.first]).dump() == Json(entry.second).dump());
    }
    CHECK(got.size() == want.size());
    CHECK(got_bytes == want_bytes);
  }
}

// The source's actor lives in frames [first, last] as `actors --json` of the cut must list them:
// from the actor table of the source up to `last` (destroyed, parents), positions counted in
// the span (the table up to `last` minus the table before `first`), frames and times renumbered.
Json expected_actors(const std::vector<uint8_t>& bytes, const Log& source, size_t first, size_t last, const std::set<uint32_t>* kept) {
  auto table_until = [&](size_t frame_end) {  // the actor table of the log's first frames
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<long>(frame_end));
    MemoryByteSource source_prefix(prefix.data(), prefix.size());
    ScanResult scan = scan_log(source_prefix, nullptr);
    return query_actors(source_prefix, scan, nullptr).actors;
  };
  std::vector<ActorInfo> until_last = table_until(source.frames[last].entry.end);
  std::vector<ActorInfo> before = first ? table_until(source.frames[first - 1].entry.end) : std::vector<ActorInfo>();
  uint64_t first_id = source.frames[first].entry.id;
  double e0 = source.frames[first].entry.elapsed;
  ActorsResult expected;
  for (ActorInfo a : until_last) {
    if (a.destroy_frame && a.destroy_frame < first_id) continue;  // gone before the span
    if (kept && !kept->count(a.id)) continue;
    uint64_t earlier = 0;
    for (const ActorInfo& b : before)
      if (b.id == a.id && b.spawn_frame == a.spawn_frame) earlier = b.positions;
    a.positions -= earlier;
    if (a.spawn_frame < first_id) {
      a.spawn_frame = 1, a.spawn_time = 0;
    } else {
      a.spawn_frame -= first_id - 1, a.spawn_time -= e0;
    }
    if (a.destroy_frame) a.destroy_frame -= first_id - 1, a.destroy_time -= e0;
    expected.actors.push_back(a);
  }
  return actors_json(expected);
}

Json actors_of(const std::vector<uint8_t>& bytes) {
  MemoryByteSource source(bytes.data(), bytes.size());
  ScanResult scan = scan_log(source, nullptr);
  return actors_json(query_actors(source, scan, nullptr));
}

// Extracts [from_s, to_s] (seconds after the start) and checks everything a cut promises.
void check_extract(const std::vector<uint8_t>& bytes, double from_s, double to_s, std::vector<uint32_t> actors = {},
                   std::set<uint32_t> kept_expected = {}) {
  Log source = read_log(bytes);
  auto [first, last] = frames_in(source, from_s, to_s);
  CarlaExtractOptions options;
  options.from = TimeBound{true, true, from_s};
  options.to = TimeBound{true, true, to_s};
  options.actors = actors;
  ExtractResult result;
  std::vector<uint8_t> out = run_extract(bytes, options, &result);
  REQUIRE_MESSAGE(result.ok, result.error);
  CHECK(result.bytes_written == out.size());
  Log cut = read_log(out);
  CHECK_FALSE(cut.scan.recovery.damaged);
  const std::set<uint32_t>* kept = actors.empty() ? nullptr : &kept_expected;
  check_cut(source, cut, first, last, kept);
  CHECK(actors_of(out).dump() == expected_actors(bytes, source, first, last, kept).dump());
  Report report = check_of(out);
  CHECK_MESSAGE(report.count(Severity::Error) + report.count(Severity::Warning) == 0, findings(report));
  // What `logscope info` prints: the frames of the span and its duration.
  MemoryByteSource cut_source(out.data(), out.size());
  Json info = file_info_json(cut_source, cut.scan);
  CHECK(info.find("frames")->as_uint() == last - first + 1);
  CHECK(info.find("duration")->as_double() == source.frames[last].entry.elapsed - source.frames[first].entry.elapsed);
}

}  // namespace

TEST_CASE("carla extract: seconds 1-3 of writer-made logs (UE4 and UE5 layouts): frames, packets, actors, check") {
  Variant ue4;
  for (const Variant& variant : {ue4, ue5_variant()}) {
    CAPTURE(variant_label(variant));
    std::vector<uint8_t> bytes = make_log(variant);
    Log source = read_log(bytes);
    REQUIRE(variant_label(source.variant()) == variant_label(variant));
    check_extract(bytes, 1, 3);
    // The re-created actors: alive at frame 21 (9 was destroyed in frame 12, 13 comes later).
    ExtractResult result;
    std::vector<uint8_t> out = run_extract(bytes, span("+1", "+3"), &result);
    REQUIRE(result.ok);
    Json actors = actors_of(out);
    std::vector<uint64_t> ids;
    for (const Json& a : actors.find("actors")->elements()) ids.push_back(a.find("id")->as_uint());
    CHECK(ids == std::vector<uint64_t>{5, 6, 7, 8, 10, 11, 12, 14});
    // A cut of a cut from its start is the same cut: nothing before it to re-create.
    ExtractResult again;
    CHECK(run_extract(out, span(nullptr, nullptr), &again) == out);
  }
}

TEST_CASE("carla extract: the date moves by the whole seconds cut away, the header is otherwise the source's") {
  std::vector<uint8_t> bytes = make_log(Variant());
  ExtractResult result;
  std::vector<uint8_t> out = run_extract(bytes, span("+2.5", nullptr), &result);
  REQUIRE_MESSAGE(result.ok, result.error);
  Log source = read_log(bytes), cut = read_log(out);
  CHECK(cut.scan.header.date == source.scan.header.date + 2);
  CHECK(cut.scan.header.size == source.scan.header.size);
  std::vector<uint8_t> head_in(bytes.begin(), bytes.begin() + 18), head_out(out.begin(), out.begin() + 18);
  CHECK(head_in == head_out);
  CHECK(std::equal(bytes.begin() + 26, bytes.begin() + static_cast<long>(source.scan.header.size), out.begin() + 26));
  CHECK(cut.frames.size() == 50);  // 2.5 ... 4.95 s
  // Absolute bounds: the same frames as the relative ones.
  ExtractResult absolute;
  std::vector<uint8_t> out_absolute = run_extract(bytes, span("1700000002.5", nullptr), &absolute);
  REQUIRE_MESSAGE(absolute.ok, absolute.error);
  CHECK(out_absolute == out);
}

TEST_CASE("carla extract --actors: the chosen actors and their parents, collisions with a dropped actor are dropped") {
  for (const Variant& variant : {Variant(), ue5_variant()}) {
    CAPTURE(variant_label(variant));
    std::vector<uint8_t> bytes = make_log(variant);
    // 6 is attached to 5 (before the cut), 12 to 11 (in the span): their parents come along.
    check_extract(bytes, 1, 3, {6, 12}, {5, 6, 11, 12});
    check_extract(bytes, 1, 3, {10}, {10});
    check_extract(bytes, 0, 4.95, {14, 8}, {7, 8, 14});
    ExtractResult result;
    run_extract(bytes, span("+1", "+3", {6, 12}), &result);
    REQUIRE(result.ok);
    std::string said;
    for (const std::string& line : result.kept) said += "kept: " + line + "\n";
    for (const std::string& line : result.dropped) said += "dropped: " + line + "\n";
    INFO(said);
    CHECK(said.find("actors 6, 12 and of the parents they are attached to, 5, 11") != std::string::npos);
    // Frame 30: 5 with 10 (10 dropped); frame 45: 10 with 11. Frame 35: 5 with static geometry, kept.
    CHECK(said.find("2 Collision records of other actors") != std::string::npos);
    CHECK(said.find("2 of those collisions involve a kept actor and a dropped one") != std::string::npos);
    if (variant.doubles) CHECK(said.find("PhysicsControl packets whole") != std::string::npos);
  }
}

TEST_CASE("carla extract: ranges at the edges, empty ranges and unknown actors write nothing") {
  std::vector<uint8_t> bytes = make_log(Variant());
  Log source = read_log(bytes);
  // Before the start / past the end: clipped to the log.
  check_extract(bytes, 0, 1);
  check_extract(bytes, 3, 1000);
  ExtractResult result;
  std::vector<uint8_t> whole = run_extract(bytes, span(nullptr, "+1000"), &result);
  REQUIRE(result.ok);
  CHECK(whole == bytes);  // everything, from frame 1: the log itself
  CHECK(result.dropped.empty());
  std::vector<uint8_t> from_before = run_extract(bytes, span("1600000000", "+0.5"), &result);  // an absolute time before the date
  REQUIRE(result.ok);
  CHECK(read_log(from_before).frames.size() == 11);
  // No frame in the range: a clear error, nothing written.
  struct Refused {
    CarlaExtractOptions options;
    const char* says;
  };
  std::vector<Refused> refused = {
      {span("+6", nullptr), "no complete frame lies between +6 s and the end"},
      {span("+3", "+1"), "no complete frame lies between +3 s and +1 s"},
      {span("+1.01", "+1.02"), "between +1.01 s and +1.02 s (the log's 100 complete frames run from 0 to 4.95 s"},
      {span(nullptr, "1600000000"), "between the start and 1600000000 (Unix seconds)"},
      {span("+1", "+3", {5, 13}), "actor 13 does not exist in frames 21-61"},
      {span("+1", "+3", {9}), "actor 9 does not exist"},
  };
  for (const Refused& r : refused) {
    CAPTURE(r.says);
    ExtractResult refusal;
    std::vector<uint8_t> out = run_extract(bytes, r.options, &refusal);
    CHECK_FALSE(refusal.ok);
    CHECK(refusal.error.find(r.says) != std::string::npos);
    CHECK(refusal.error.find("nothing written") != std::string::npos);
    CHECK(out.empty());
  }
}

TEST_CASE("carla extract: cancel stops every pass, progress runs to the end") {
  std::vector<uint8_t> bytes;
  {
    // Big enough for several progress calls (every 4 MB).
    LogWriter w;
    w.header(1700000000, "Town01");
    EventAddRecord car = actor(5, 1, "vehicle.audi.a2", "hero");
    std::vector<PositionRecord> positions(2000, PositionRecord{5, {1, 2, 3}, {0, 0, 0}});
    for (int f = 1; f <= 400; ++f) {
      w.frame_start(f, f == 400 ? -1.0 : 0.05, (f - 1) * 0.05);
      w.write(packets::EventAdd, f == 1 ? std::vector<EventAddRecord>{car} : std::vector<EventAddRecord>{});
      w.write(packets::Position, positions);
      w.frame_end();
    }
    bytes = w.take();
  }
  REQUIRE(bytes.size() > 20u << 20);
  double size = static_cast<double>(bytes.size());
  // Thresholds in the scan, in the pass over the span's parents (--actors) and in the copy.
  for (bool actors : {false, true}) {
    std::vector<double> stops = actors ? std::vector<double>{0, 0.5, 1.4, 2.6, 4} : std::vector<double>{0, 0.5, 1.6, 4};
    for (double stop : stops) {
      CAPTURE(actors);
      CAPTURE(stop);
      int calls = 0;
      uint64_t last_done = 0, total = 0;
      bool monotonic = true;
      ProgressFn progress = [&](uint64_t done, uint64_t all) {
        monotonic = monotonic && done >= last_done && done <= all;
        last_done = done, total = all;
        ++calls;
        return done < stop * size;
      };
      ExtractResult result;
      run_extract(bytes, span("+5", "+15", actors ? std::vector<uint32_t>{5} : std::vector<uint32_t>{}), &result, progress);
      CHECK(monotonic);
      CHECK(total == bytes.size() * (actors ? 3 : 2));
      if (stop < 4) {
        CHECK(result.cancelled);
        CHECK_FALSE(result.ok);
        CHECK(result.error == "cancelled");
        CHECK(last_done >= stop * size);
        CHECK(last_done < (stop + 0.5) * size);  // it stopped in the pass it was cancelled in
      } else {
        CHECK(result.ok);
        CHECK(calls > 5);
      }
    }
  }
}

TEST_CASE("carla extract: a log cut mid-frame gives its complete frames, the cut part is said") {
  std::vector<uint8_t> bytes = make_log(Variant());
  Log whole = read_log(bytes);
  uint64_t cut_at = whole.frames[79].entry.offset + 40;  // inside frame 80
  std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(cut_at));
  check_extract(cut, 1, 100);
  ExtractResult result;
  std::vector<uint8_t> out = run_extract(cut, span("+1", nullptr), &result);
  REQUIRE(result.ok);
  CHECK(read_log(out).frames.size() == 59);  // frames 21-79
  bool said = false;
  for (const std::string& line : result.dropped)
    said |= line.find("40 bytes from byte " + std::to_string(whole.frames[79].entry.offset)) != std::string::npos;
  CHECK(said);
  // A span wholly in the lost part: nothing.
  CHECK_FALSE(run_extract(cut, span("+4.5", nullptr), &result).size());
  CHECK_FALSE(result.ok);
}

TEST_CASE("carla extract: seconds 1-3 of every shared CARLA sample") {
  if (!test_support::have_samples()) return;
  int done = 0;
  for (const char* name : {"scenario_runner_0.9.10_DistanceBetweenVehicles.log", "scenario_runner_0.9.10_DistanceToLaneCenter.log",
                           "scenario_runner_0.9.13_DistanceBetweenVehicles.log", "scenario_runner_0.9.13_DistanceToLaneCenter.log"}) {
    CAPTURE(name);
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(std::string("carla/") + name));
    if (bytes.empty()) continue;
    check_extract(bytes, 1, 3);
    // The hero (role_name "hero") alone; then a sensor attached to it, in a span around the
    // sensor's creation: the hero comes along, through an attachment made inside the span.
    Json actors = actors_of(bytes);
    uint32_t hero = 0;
    for (const Json& a : actors.find("actors")->elements())
      if (a.find("role_name")->as_string() == "hero") hero = static_cast<uint32_t>(a.find("id")->as_uint());
    REQUIRE(hero);
    check_extract(bytes, 1, 3, {hero}, {hero});
    const Json* sensor = nullptr;
    for (const Json& a : actors.find("actors")->elements())
      if (const Json* parent = a.find("parent"); parent && !parent->is_null() && parent->as_uint() == hero && !sensor) sensor = &a;
    REQUIRE(sensor);
    double created = sensor->find("spawn_time")->as_double();
    uint32_t id = static_cast<uint32_t>(sensor->find("id")->as_uint());
    check_extract(bytes, std::max(0.0, created - 1), created + 2, {id}, {id, hero});
    ++done;
  }
  CHECK(done == 4);
}

TEST_CASE("carla extract on the command line: info and check of the cut, refusals exit 2 and leave no file") {
  test_support::use_utc();
  std::string dir = test_support::scratch_dir("extract-carla-cli");
  std::string in = dir + "/run.log", out = dir + "/cut.log";
  test_support::write_file(in, make_log(Variant()));
  std::remove(out.c_str());
  int status = -1;
  std::string said = test_support::run_cli("extract '" + in + "' '" + out + "' --from +1 --to +3 --actors 6", &status);
  INFO(said);
  CHECK(status == 0);
  CHECK(said.find("kept: frames 21-61 (41 frames at 1-3 s") != std::string::npos);
  CHECK(said.find("verdict: the written file is valid") != std::string::npos);
  std::string info = test_support::run_cli("info '" + out + "'", &status);
  CHECK(status == 0);
  CHECK(info.find("Frame 1 at 0 seconds\n Create 5: vehicle.tesla.model3 (1) at (500, -250, 30.5)\n  role_name = hero\n") != std::string::npos);
  CHECK(info.find(" Create 6: sensor.other.collision (5)") != std::string::npos);
  CHECK(info.find(" Parenting 6 with 5 (parent)") != std::string::npos);
  CHECK(info.find("Create 7") == std::string::npos);
  CHECK(info.find("Frame 15 at 0.7 seconds\n Collision id 2 between 5 (hero)  with 4294967295") != std::string::npos);
  CHECK(info.find("Collision id 1") == std::string::npos);  // 5 with 10, which is not kept
  CHECK(info.find("Frames: 41\nDuration: 2 seconds") != std::string::npos);
  std::string check = test_support::run_cli("check '" + out + "'", &status);
  CHECK(status == 0);

  for (const char* arguments : {"--from +7", "--from +1 --actors 99", "--actors x"}) {
    CAPTURE(arguments);
    said = test_support::run_cli("extract '" + in + "' '" + out + ".2' " + arguments, &status);
    CHECK(status == 2);
    CHECK(test_support::read_file(out + ".2").empty());
    bool explained = said.find("nothing written") != std::string::npos || said.find("--actors takes actor ids") != std::string::npos;
    CHECK(explained);
  }
}
