#include "carla/demo.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "carla/writer.h"

namespace logscope::carla {
namespace {

constexpr double kStep = 0.05;  // 20 Hz, CARLA's usual fixed_delta_seconds
constexpr double kPi = 3.14159265358979323846;

const char* const kCars[] = {"vehicle.audi.a2", "vehicle.tesla.model3", "vehicle.bmw.grandtourer", "vehicle.citroen.c3",
                             "vehicle.toyota.prius", "vehicle.nissan.patrol", "vehicle.mercedes.coupe", "vehicle.dodge.charger_police",
                             "vehicle.ford.mustang", "vehicle.mini.cooper_s"};

struct Mover {
  uint32_t id;
  uint8_t type;  // 1 vehicle, 2 walker
  std::string blueprint;
  double cx, cy, radius, speed, phase;  // circles around Town03 blocks (cm, cm/s)
};

Vec3 at_time(const Mover& m, double t) {
  double angle = m.phase + m.speed * t / m.radius;
  return Vec3{m.cx + m.radius * std::cos(angle), m.cy + m.radius * std::sin(angle), m.type == 1 ? 30.0 : 95.0};
}

EventAddRecord spawn_record(const Mover& m, const Vec3& where, const std::string& role) {
  EventAddRecord a;
  a.id = m.id;
  a.type = m.type;
  a.location = where;
  a.description_uid = m.type == 1 ? 17 : 41;
  a.blueprint = m.blueprint;
  if (m.type == 1) {
    a.attributes = {{3, "role_name", role}, {1, "number_of_wheels", "4"}, {0, "sticky_control", "true"}, {4, "color", "79,33,85"}};
  } else {
    a.attributes = {{3, "role_name", "pedestrian"}, {0, "is_invincible", "false"}, {2, "speed", "1.4"}};
  }
  return a;
}

PhysicsControlRecord physics_for(uint32_t id) {
  PhysicsControlRecord p;
  p.id = id, p.max_rpm = 5800, p.moi = 1, p.damping_full_throttle = 0.15, p.damping_zero_throttle_engaged = 2;
  p.damping_zero_throttle_disengaged = 0.35, p.use_gear_autobox = true, p.clutch_strength = 10, p.final_ratio = 4, p.mass = 1845;
  p.drag_coefficient = 0.3, p.center_of_mass = Vec3{0.45, 0, -0.3};
  p.torque_curve = {{0, 400}, {1890.76, 500}, {5729.58, 400}};
  p.forward_gears = {{3.59, 0.2, 0.35}, {2.19, 0.2, 0.35}, {1.41, 0.2, 0.35}, {1, 0.2, 0.35}, {0.83, 0.2, 0.35}};
  p.steering_curve = {{0, 1}, {20, 0.9}, {60, 0.8}, {120, 0.7}};
  for (int w = 0; w < 4; ++w) {
    WheelControl wheel;
    wheel.tire_friction = 3.5, wheel.damping_rate = 0.25, wheel.max_steer_angle = w < 2 ? 70 : 0, wheel.radius = 35.5;
    wheel.max_brake_torque = 1500, wheel.max_handbrake_torque = w < 2 ? 0 : 3000;
    wheel.lat_stiff_max_load = 2, wheel.lat_stiff_value = 17, wheel.long_stiff_value = 1000;
    wheel.position = Vec3{w % 2 ? -80.0 : 80.0, w < 2 ? 140.0 : -140.0, 35.5};
    p.wheels.push_back(wheel);
  }
  return p;
}

}  // namespace

bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) {
    if (error) *error = path + ": " + std::strerror(errno);
    return false;
  }
  LogWriter w;  // 0.9.13 layout: float vectors, 48-byte wheels
  w.bytes().reserve(8 << 20);
  w.header(1700000000, "Town03");

  std::vector<Mover> movers;
  movers.push_back({100, 1, "vehicle.lincoln.mkz_2020", 0, 0, 6000, 1100, 0});  // the hero
  for (uint32_t i = 0; i < 30; ++i)
    movers.push_back({102 + i, 1, kCars[i % 10], (i % 5) * 8000.0 - 16000, (i / 5) * 7000.0 - 20000, 2500.0 + 300 * (i % 7), 600.0 + 45 * i,
                      i * 0.7});
  for (uint32_t i = 0; i < 15; ++i) {
    char name[40];
    std::snprintf(name, sizeof name, "walker.pedestrian.%04u", 1 + i % 14);
    movers.push_back({140 + i, 2, name, i * 3000.0 - 20000, 15000, 800.0 + 40 * i, 140, i * 0.4});
  }
  const uint32_t kHero = 100, kSensor = 101, kBlocked = 105, kRespawned = 110;
  std::vector<uint32_t> lights;
  for (uint32_t i = 0; i < 12; ++i) lights.push_back(2 + i);

  uint64_t written = 0, frame = 0;
  double elapsed = 0;
  size_t frame_bytes = 0;
  bool last = false;
  // Per-frame record lists, reused: cleared each frame, their memory kept.
  std::vector<EventAddRecord> adds;
  std::vector<uint32_t> dels;
  std::vector<ParentRecord> parents;
  std::vector<CollisionRecord> collisions;
  std::vector<PositionRecord> positions;
  std::vector<AnimVehicleRecord> vehicles;
  std::vector<WalkerRecord> walkers;
  std::vector<VehicleLightRecord> vehicle_lights;
  std::vector<KinematicsRecord> kinematics;
  std::vector<StateRecord> states;
  std::vector<BoxRecord> boxes;
  std::vector<PhysicsControlRecord> physics;
  while (!last) {
    ++frame;
    adds.clear(), dels.clear(), parents.clear(), collisions.clear(), positions.clear(), vehicles.clear(), walkers.clear(), vehicle_lights.clear(), kinematics.clear(), states.clear(), boxes.clear(), physics.clear();
    size_t before = w.bytes().size();
    last = frame > 20 && written + w.bytes().size() + 2 * frame_bytes >= target_bytes;
    w.frame_start(frame, last ? -1.0 : kStep, elapsed);
    if (frame == 1) {
      EventAddRecord spectator;
      spectator.id = 1, spectator.blueprint = "spectator", spectator.location = Vec3{0, 0, 5000};
      adds.push_back(spectator);
      for (uint32_t id : lights) {
        EventAddRecord light;
        light.id = id, light.type = 3, light.blueprint = "traffic.traffic_light", light.description_uid = 3;
        light.location = Vec3{(id % 4) * 9000.0 - 13500, (id / 4) * 9000.0 - 13500, 10.3};
        adds.push_back(light);
      }
      for (const Mover& m : movers) adds.push_back(spawn_record(m, at_time(m, 0), m.id == kHero ? "hero" : "autopilot"));
      EventAddRecord sensor;
      sensor.id = kSensor, sensor.type = 5, sensor.blueprint = "sensor.other.collision", sensor.description_uid = 80;
      sensor.attributes = {{3, "role_name", "collision_detector"}};
      adds.push_back(sensor);
      parents.push_back({kSensor, kHero});
    }
    // Every 5 minutes one car leaves the map and comes back a frame later.
    uint64_t cycle = frame % 6000;
    if (frame > 1 && cycle == 0) dels.push_back(kRespawned);
    if (frame > 1 && cycle == 1) adds.push_back(spawn_record(movers[1 + kRespawned - 102], at_time(movers[1 + kRespawned - 102], elapsed), "autopilot"));
    double t_cycle = std::fmod(elapsed, 600.0);
    if (t_cycle >= 8 && t_cycle < 8.15) collisions.push_back({static_cast<uint32_t>(frame), kHero, 118, true, false});
    if (t_cycle >= 15 && t_cycle < 15.2) collisions.push_back({static_cast<uint32_t>(frame), kHero, kNoActor, true, false});
    w.write(packets::EventAdd, adds);
    w.write(packets::EventDel, dels);
    w.write(packets::EventParent, parents);
    w.write(packets::Collision, collisions);

    for (const Mover& m : movers) {
      if (m.id == kRespawned && cycle == 0 && frame > 1) continue;
      // Car 105 is stuck for 32 s every 10 minutes (what actors_blocked finds).
      bool waiting = m.id == kBlocked && t_cycle >= 2 && t_cycle < 34;
      double t = waiting ? elapsed - (t_cycle - 2) : (m.id == kBlocked && t_cycle >= 34 ? elapsed - 32 : elapsed);
      Vec3 p = at_time(m, t);
      double heading = std::fmod((m.phase + m.speed * t / m.radius) * 180 / kPi + 90, 360.0);
      positions.push_back({m.id, p, Vec3{0, 0, heading}});
      double v = waiting ? 0 : m.speed;
      double rad = heading * kPi / 180;
      kinematics.push_back({m.id, Vec3{v * std::cos(rad), v * std::sin(rad), 0}, Vec3{0, 0, waiting ? 0 : m.speed / m.radius * 180 / kPi}});
      if (m.type == 1) {
        vehicles.push_back({m.id, 0.1 * std::sin(elapsed * 0.3 + m.phase), waiting ? 0.0 : 0.55, waiting ? 0.8 : 0.0, false, waiting ? 0 : 3});
        vehicle_lights.push_back({m.id, waiting ? 0x9u : 0x1u});
      } else {
        walkers.push_back({m.id, m.speed / 100});
      }
    }
    w.write(packets::Position, positions);
    for (uint32_t id : lights) {
      double t = std::fmod(elapsed + id * 3.0, 25.0);
      uint8_t state = t < 10 ? 2 : t < 13 ? 1 : 0;
      states.push_back({id, false, std::fmod(t, 10.0), state});
    }
    w.write(packets::State, states);
    w.write(packets::AnimVehicle, vehicles);
    w.write(packets::AnimWalker, walkers);
    w.write(packets::VehicleLight, vehicle_lights);
    w.write(packets::Kinematics, kinematics);
    for (const EventAddRecord& a : adds)
      if (a.type == 1 || a.type == 2) boxes.push_back({a.id, Vec3{0, 0, a.type == 1 ? 70.0 : 90.0}, a.type == 1 ? Vec3{240, 105, 75} : Vec3{25, 25, 90}});
    w.write(packets::BoundingBox, boxes);
    w.write(packets::PlatformTime, {elapsed * 1.07 + 0.35});
    for (const EventAddRecord& a : adds)
      if (a.type == 1) physics.push_back(physics_for(a.id));
    if (!physics.empty()) w.write(packets::PhysicsControl, physics);
    if (frame == 1) {
      std::vector<TrafficLightTimeRecord> times;
      for (uint32_t id : lights) times.push_back({id, 10, 3, 12});
      w.write(packets::TrafficLightTime, times);
    }
    w.frame_end();
    frame_bytes = w.bytes().size() - before;
    elapsed += kStep;
    if (w.bytes().size() >= (4u << 20) || last) {
      std::vector<uint8_t>& bytes = w.bytes();
      if (std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size()) {
        if (error) *error = path + ": " + std::strerror(errno);
        std::fclose(file);
        return false;
      }
      written += bytes.size();
      bytes.clear();
    }
  }
  if (std::fclose(file) != 0) {
    if (error) *error = path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace logscope::carla
