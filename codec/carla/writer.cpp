#include "carla/writer.h"

#include <algorithm>
#include <cstring>

namespace logscope::carla {

template <typename T>
void LogWriter::put(T value) {
  // Little-endian host. Grow geometrically, then a fixed-size copy the compiler inlines (a
  // range insert per value costs more than the value).
  size_t at = out_.size();
  if (out_.capacity() - at < sizeof(T)) out_.reserve(std::max<size_t>(out_.capacity() * 2, 4096));
  out_.resize(at + sizeof(T));
  std::memcpy(out_.data() + at, &value, sizeof(T));
}

void LogWriter::vec(const Vec3& v) {
  if (variant_.doubles) {
    put<double>(v.x), put<double>(v.y), put<double>(v.z);
  } else {
    f32(v.x), f32(v.y), f32(v.z);
  }
}

void LogWriter::str(const std::string& s) {
  uint16_t n = static_cast<uint16_t>(std::min<size_t>(s.size(), 0xFFFF));
  put<uint16_t>(n);
  out_.insert(out_.end(), s.begin(), s.begin() + n);
}

size_t LogWriter::begin_packet(uint8_t id) {
  put<uint8_t>(id);
  size_t at = out_.size();
  put<uint32_t>(0);
  return at;
}

void LogWriter::end_packet(size_t size_at) {
  uint32_t size = static_cast<uint32_t>(out_.size() - size_at - 4);
  std::memcpy(out_.data() + size_at, &size, 4);
}

uint8_t LogWriter::id_of(Kind kind) const {
  for (uint8_t id = 21; id <= 23; ++id)
    if (packet_kind(id, variant_) == kind) return id;
  return 23;  // VehicleDoor has no id in the 0.9.15 order
}

void LogWriter::header(int64_t date, const std::string& map, uint16_t version) {
  put<uint16_t>(version);
  str("CARLA_RECORDER");
  put<int64_t>(date);
  str(map);
}

void LogWriter::frame_start(uint64_t id, double duration, double elapsed) {
  size_t at = begin_packet(kFrameStart);
  put<uint64_t>(id), put<double>(duration), put<double>(elapsed);
  end_packet(at);
}

void LogWriter::frame_end() { end_packet(begin_packet(kFrameEnd)); }


void LogWriter::event_add(const std::vector<EventAddRecord>& records) {
  write_records(kEventAdd, records, [&](const auto& r) {
    put<uint32_t>(r.id), put<uint8_t>(r.type), vec(r.location), vec(r.rotation), put<uint32_t>(r.description_uid), str(r.blueprint);
    put<uint16_t>(static_cast<uint16_t>(r.attributes.size()));
    for (const Attribute& a : r.attributes) put<uint8_t>(a.type), str(a.id), str(a.value);
  });
}
void LogWriter::event_del(const std::vector<uint32_t>& ids) { write_records(kEventDel, ids, [&](const auto& r) { put<uint32_t>(r); }); }
void LogWriter::event_parent(const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  write_records(kEventParent, pairs, [&](const auto& r) { put<uint32_t>(r.first), put<uint32_t>(r.second); });
}
void LogWriter::collisions(const std::vector<CollisionRecord>& records) {
  write_records(kCollision, records, [&](const auto& r) { put<uint32_t>(r.id), put<uint32_t>(r.actor1), put<uint32_t>(r.actor2), put<uint8_t>(r.hero1), put<uint8_t>(r.hero2); });
}
void LogWriter::positions(const std::vector<PositionRecord>& records) {
  write_records(kPosition, records, [&](const auto& r) { put<uint32_t>(r.id), vec(r.location), vec(r.rotation); });
}
void LogWriter::states(const std::vector<StateRecord>& records) {
  write_records(kState, records, [&](const auto& r) { put<uint32_t>(r.id), put<uint8_t>(r.frozen), f32(r.elapsed), put<uint8_t>(r.state); });
}
void LogWriter::anim_vehicles(const std::vector<AnimVehicleRecord>& records) {
  write_records(kAnimVehicle, records, [&](const auto& r) { put<uint32_t>(r.id), f32(r.steering), f32(r.throttle), f32(r.brake), put<uint8_t>(r.handbrake), put<int32_t>(r.gear); });
}
void LogWriter::anim_walkers(const std::vector<std::pair<uint32_t, double>>& records) {
  write_records(kAnimWalker, records, [&](const auto& r) { put<uint32_t>(r.first), f32(r.second); });
}
void LogWriter::vehicle_lights(const std::vector<std::pair<uint32_t, uint32_t>>& records) {
  write_records(kVehicleLight, records, [&](const auto& r) { put<uint32_t>(r.first), put<uint32_t>(r.second); });
}
void LogWriter::scene_lights(const std::vector<SceneLightRecord>& records) {
  write_records(kSceneLight, records, [&](const auto& r) {
    put<int32_t>(r.light_id), f32(r.intensity), f32(r.r), f32(r.g), f32(r.b), f32(r.a), put<uint8_t>(r.on), put<uint8_t>(r.type);
  });
}
void LogWriter::kinematics(const std::vector<KinematicsRecord>& records) {
  write_records(kKinematics, records, [&](const auto& r) { put<uint32_t>(r.id), vec(r.linear), vec(r.angular); });
}
void LogWriter::bounding_boxes(const std::vector<BoxRecord>& records, bool trigger_volumes) {
  write_records(trigger_volumes ? kTriggerVolume : kBoundingBox, records, [&](const auto& r) { put<uint32_t>(r.id), vec(r.origin), vec(r.extension); });
}
void LogWriter::platform_time(double seconds) {
  size_t at = begin_packet(kPlatformTime);
  put<double>(seconds);
  end_packet(at);
}
void LogWriter::physics_control(const std::vector<PhysicsControlRecord>& records) {
  write_records(kPhysicsControl, records, [&](const auto& r) {
    put<uint32_t>(r.id), f32(r.max_rpm), f32(r.moi), f32(r.damping_full_throttle), f32(r.damping_zero_throttle_engaged);
    f32(r.damping_zero_throttle_disengaged), put<uint8_t>(r.use_gear_autobox), f32(r.clutch_strength), f32(r.final_ratio);
    f32(r.mass), f32(r.drag_coefficient), vec(r.center_of_mass);
    put<uint32_t>(static_cast<uint32_t>(r.torque_curve.size()));
    for (const auto& [x, y] : r.torque_curve) f32(x), f32(y);
    put<uint32_t>(static_cast<uint32_t>(r.forward_gears.size()));
    for (const GearRecord& g : r.forward_gears) f32(g.ratio), f32(g.down_ratio), f32(g.up_ratio);
    put<uint32_t>(static_cast<uint32_t>(r.steering_curve.size()));
    for (const auto& [x, y] : r.steering_curve) f32(x), f32(y);
    put<uint32_t>(static_cast<uint32_t>(r.wheels.size()));
    for (const WheelControl& w : r.wheels) {
      f32(w.tire_friction), f32(w.damping_rate), f32(w.max_steer_angle), f32(w.radius), f32(w.max_brake_torque), f32(w.max_handbrake_torque);
      if (variant_.wheel_bytes == 48) f32(w.lat_stiff_max_load), f32(w.lat_stiff_value), f32(w.long_stiff_value);
      vec(w.position);
    }
  });
}
void LogWriter::traffic_light_times(const std::vector<TrafficLightTimeRecord>& records) {
  write_records(kTrafficLightTime, records, [&](const auto& r) { put<uint32_t>(r.id), f32(r.green), f32(r.yellow), f32(r.red); });
}
void LogWriter::frame_counter(uint64_t counter) {
  size_t at = begin_packet(kFrameCounter);
  put<uint64_t>(counter);
  end_packet(at);
}
void LogWriter::walker_bones(const std::vector<WalkerBonesRecord>& records) {
  write_records(kWalkerBones, records, [&](const auto& r) {
    put<uint32_t>(r.id), put<uint16_t>(static_cast<uint16_t>(r.bones.size()));
    for (const Bone& b : r.bones) str(b.name), vec(b.location), vec(b.rotation);
  });
}
void LogWriter::visual_time(double seconds) {
  size_t at = begin_packet(kVisualTime);
  put<double>(seconds);
  end_packet(at);
}
void LogWriter::vehicle_wheels(const std::vector<VehicleWheelsRecord>& records) {
  write_records(id_of(Kind::AnimVehicleWheels), records, [&](const auto& r) {
    put<uint32_t>(r.id), put<uint32_t>(static_cast<uint32_t>(r.wheels.size()));
    for (const WheelAnimation& w : r.wheels) put<uint8_t>(w.location), f32(w.steering_angle), f32(w.tire_rotation);
  });
}
void LogWriter::bikers(const std::vector<BikerRecord>& records) {
  write_records(id_of(Kind::AnimBiker), records, [&](const auto& r) { put<uint32_t>(r.id), f32(r.forward_speed), f32(r.engine_rotation); });
}
void LogWriter::doors(const std::vector<DoorRecord>& records) {
  write_records(id_of(Kind::VehicleDoor), records, [&](const auto& r) { put<uint32_t>(r.id), put<uint8_t>(r.door), put<uint8_t>(r.open); });
}

void LogWriter::raw_packet(uint8_t id, const std::vector<uint8_t>& payload) {
  size_t at = begin_packet(id);
  out_.insert(out_.end(), payload.begin(), payload.end());
  end_packet(at);
}

}  // namespace logscope::carla
