// Packet table, physics family: a vehicle's physics control, written on spawn (additional_data).
// WheelPhysicsControl is 36 bytes in 0.9.10-0.9.11 and 48 from 0.9.12 (Variant::wheel_bytes);
// UE5 rewrote the struct with a field list that is not confirmed, so UE5 payloads stay undecoded.
#pragma once

#include <algorithm>
#include <cmath>

#include "carla/packet_table.h"

namespace logscope::carla {

struct WheelControl {
  double tire_friction = 0, damping_rate = 0, max_steer_angle = 0, radius = 0, max_brake_torque = 0,
         max_handbrake_torque = 0;
  bool has_stiffness = false;  // 48-byte layout
  double lat_stiff_max_load = 0, lat_stiff_value = 0, long_stiff_value = 0;
  Vec3 position;
};
struct GearRecord {
  double ratio = 0, down_ratio = 0, up_ratio = 0;
};
struct PhysicsControlRecord {
  uint32_t id = 0;
  double max_rpm = 0, moi = 0, damping_full_throttle = 0, damping_zero_throttle_engaged = 0,
         damping_zero_throttle_disengaged = 0;
  bool use_gear_autobox = false;
  double clutch_strength = 0, final_ratio = 0, mass = 0, drag_coefficient = 0;
  Vec3 center_of_mass;
  std::vector<std::pair<double, double>> torque_curve;
  std::vector<GearRecord> forward_gears;
  std::vector<std::pair<double, double>> steering_curve;
  std::vector<WheelControl> wheels;
};

Json physics_json(const PhysicsControlRecord& p);
// CARLA prints the record after a round trip through the engine's types (docs/carla.md).
void physics_text(InfoText& t, const std::vector<PhysicsControlRecord>& records);

namespace packets {

inline constexpr auto curve_point = [](auto& io, auto& point) { io.f32(point.first), io.f32(point.second); };

inline constexpr auto PhysicsControl =
    records<PhysicsControlRecord>("PhysicsControl", same_id(15), Release::k0_9_10, variable_size(SizedBy::Wheels))
        .ue4_only()
        .layout([](auto& io, auto& p) {
          io.u32(p.id), io.f32(p.max_rpm), io.f32(p.moi), io.f32(p.damping_full_throttle), io.f32(p.damping_zero_throttle_engaged);
          io.f32(p.damping_zero_throttle_disengaged), io.flag(p.use_gear_autobox), io.f32(p.clutch_strength), io.f32(p.final_ratio);
          io.f32(p.mass), io.f32(p.drag_coefficient), io.vec(p.center_of_mass);
          io.list32(p.torque_curve, 8, curve_point);
          io.list32(p.forward_gears, 12, [](auto& io, auto& g) { io.f32(g.ratio), io.f32(g.down_ratio), io.f32(g.up_ratio); });
          io.list32(p.steering_curve, 8, curve_point);
          int wheel_bytes = io.variant().wheel_bytes;
          io.list32(p.wheels, wheel_bytes, [](auto& io, auto& w) {
            io.f32(w.tire_friction), io.f32(w.damping_rate), io.f32(w.max_steer_angle), io.f32(w.radius);
            io.f32(w.max_brake_torque), io.f32(w.max_handbrake_torque);
            if (io.variant().wheel_bytes == 48) {
              io.derived(w.has_stiffness, true);
              io.f32(w.lat_stiff_max_load), io.f32(w.lat_stiff_value), io.f32(w.long_stiff_value);
            }
            io.vec(w.position);
          });
        })
        .json([](Json& j, const PhysicsControlRecord& r) { j = physics_json(r); })
        .text(physics_text);

inline constexpr const PacketType* kPhysicsFamily[] = {&PhysicsControl};

}  // namespace packets
}  // namespace logscope::carla
