#include "carla/decode.h"

#include <algorithm>

#include "core/cursor.h"

namespace logscope::carla {
namespace {

// Reads the building blocks of a payload: vectors in the variant's precision and FStrings.
class PayloadReader {
 public:
  PayloadReader(const uint8_t* data, size_t size, const Variant& variant) : cursor_(data, size), doubles_(variant.doubles) {}
  Cursor& cursor() { return cursor_; }
  bool ok() const { return cursor_.ok(); }
  size_t position() const { return cursor_.position(); }
  size_t remaining() const { return cursor_.remaining(); }
  uint8_t u8() { return cursor_.u8(); }
  uint16_t u16() { return cursor_.u16(); }
  uint32_t u32() { return cursor_.u32(); }
  int32_t i32() { return cursor_.i32(); }
  uint64_t u64() { return cursor_.u64(); }
  double f32() { return cursor_.f32(); }
  double f64() { return cursor_.f64(); }
  bool flag() { return cursor_.u8() != 0; }
  Vec3 vec3() {
    Vec3 v;
    if (doubles_) {
      v.x = cursor_.f64(), v.y = cursor_.f64(), v.z = cursor_.f64();
    } else {
      v.x = cursor_.f32(), v.y = cursor_.f32(), v.z = cursor_.f32();
    }
    return v;
  }
  std::string fstring() {
    uint16_t length = cursor_.u16();
    return cursor_.string(length);
  }
  // A u32 element count, trusted only as far as the bytes left can hold elements of `element_size`.
  uint32_t count(size_t element_size) {
    uint32_t n = cursor_.u32();
    if (element_size && n > remaining() / element_size) {
      cursor_.need(SIZE_MAX);  // the count claims more than the payload holds: fail the read
      return 0;
    }
    return n;
  }

 private:
  Cursor cursor_;
  bool doubles_;
};

// Record size of fixed-record packets ("u16 total" + total x size); 0 for variable or untotalled ones.
size_t fixed_record_size(Kind kind, const Variant& variant) {
  size_t v = variant.vector_bytes();
  switch (kind) {
    case Kind::EventDel: return 4;
    case Kind::EventParent: return 8;
    case Kind::Collision: return 14;
    case Kind::Position: return 4 + 2 * v;
    case Kind::State: return 10;
    case Kind::AnimVehicle: return 21;
    case Kind::AnimWalker: return 8;
    case Kind::VehicleLight: return 8;
    case Kind::SceneLight: return 26;
    case Kind::Kinematics: return 4 + 2 * v;
    case Kind::BoundingBox:
    case Kind::TriggerVolume: return 4 + 2 * v;
    case Kind::TrafficLightTime: return 16;
    case Kind::AnimBiker: return 12;
    case Kind::VehicleDoor: return 6;
    default: return 0;
  }
}

// Payload size of packets that carry no total.
long exact_payload_size(Kind kind) {
  switch (kind) {
    case Kind::FrameStart: return 24;
    case Kind::FrameEnd: return 0;
    case Kind::PlatformTime:
    case Kind::FrameCounter:
    case Kind::VisualTime: return 8;
    default: return -1;
  }
}

void read_physics(PayloadReader& r, const Variant& variant, PhysicsControlRecord& p) {
  p.id = r.u32();
  p.max_rpm = r.f32();
  p.moi = r.f32();
  p.damping_full_throttle = r.f32();
  p.damping_zero_throttle_engaged = r.f32();
  p.damping_zero_throttle_disengaged = r.f32();
  p.use_gear_autobox = r.flag();
  p.clutch_strength = r.f32();
  p.final_ratio = r.f32();
  p.mass = r.f32();
  p.drag_coefficient = r.f32();
  p.center_of_mass = r.vec3();
  for (uint32_t n = r.count(8), i = 0; i < n && r.ok(); ++i) {
    double x = r.f32(), y = r.f32();
    p.torque_curve.emplace_back(x, y);
  }
  for (uint32_t n = r.count(12), i = 0; i < n && r.ok(); ++i) {
    GearRecord g;
    g.ratio = r.f32(), g.down_ratio = r.f32(), g.up_ratio = r.f32();
    p.forward_gears.push_back(g);
  }
  for (uint32_t n = r.count(8), i = 0; i < n && r.ok(); ++i) {
    double x = r.f32(), y = r.f32();
    p.steering_curve.emplace_back(x, y);
  }
  size_t wheel_size = static_cast<size_t>(variant.wheel_bytes);
  for (uint32_t n = r.count(wheel_size), i = 0; i < n && r.ok(); ++i) {
    WheelControl w;
    w.tire_friction = r.f32(), w.damping_rate = r.f32(), w.max_steer_angle = r.f32(), w.radius = r.f32();
    w.max_brake_torque = r.f32(), w.max_handbrake_torque = r.f32();
    if (variant.wheel_bytes == 48) {
      w.has_stiffness = true;
      w.lat_stiff_max_load = r.f32(), w.lat_stiff_value = r.f32(), w.long_stiff_value = r.f32();
    }
    w.position = r.vec3();
    p.wheels.push_back(w);
  }
}

// Reads one record of a totalled packet into `out`.
void read_record(Kind kind, PayloadReader& r, const Variant& variant, DecodedPacket& out) {
  switch (kind) {
    case Kind::EventAdd: {
      EventAddRecord a;
      a.id = r.u32();
      a.type = r.u8();
      a.location = r.vec3();
      a.rotation = r.vec3();
      a.description_uid = r.u32();
      a.blueprint = r.fstring();
      uint16_t attributes = r.u16();
      for (uint16_t i = 0; i < attributes && r.ok(); ++i) {
        Attribute attribute;
        attribute.type = r.u8();
        attribute.id = r.fstring();
        attribute.value = r.fstring();
        if (r.ok()) a.attributes.push_back(std::move(attribute));
      }
      out.adds.push_back(std::move(a));
      break;
    }
    case Kind::EventDel: out.dels.push_back(r.u32()); break;
    case Kind::EventParent: {
      uint32_t child = r.u32(), parent = r.u32();
      out.parents.emplace_back(child, parent);
      break;
    }
    case Kind::Collision: {
      CollisionRecord c;
      c.id = r.u32(), c.actor1 = r.u32(), c.actor2 = r.u32();
      c.hero1 = r.flag(), c.hero2 = r.flag();
      out.collisions.push_back(c);
      break;
    }
    case Kind::Position: {
      PositionRecord p;
      p.id = r.u32();
      p.location = r.vec3();
      p.rotation = r.vec3();
      out.positions.push_back(p);
      break;
    }
    case Kind::State: {
      StateRecord s;
      s.id = r.u32(), s.frozen = r.flag(), s.elapsed = r.f32(), s.state = r.u8();
      out.states.push_back(s);
      break;
    }
    case Kind::AnimVehicle: {
      AnimVehicleRecord v;
      v.id = r.u32(), v.steering = r.f32(), v.throttle = r.f32(), v.brake = r.f32();
      v.handbrake = r.flag(), v.gear = r.i32();
      out.vehicles.push_back(v);
      break;
    }
    case Kind::AnimWalker: {
      uint32_t id = r.u32();
      double speed = r.f32();
      out.walkers.emplace_back(id, speed);
      break;
    }
    case Kind::VehicleLight: {
      uint32_t id = r.u32(), flags = r.u32();
      out.lights.emplace_back(id, flags);
      break;
    }
    case Kind::SceneLight: {
      SceneLightRecord s;
      s.light_id = r.i32(), s.intensity = r.f32();
      s.r = r.f32(), s.g = r.f32(), s.b = r.f32(), s.a = r.f32();
      s.on = r.flag(), s.type = r.u8();
      out.scene_lights.push_back(s);
      break;
    }
    case Kind::Kinematics: {
      KinematicsRecord k;
      k.id = r.u32(), k.linear = r.vec3(), k.angular = r.vec3();
      out.kinematics.push_back(k);
      break;
    }
    case Kind::BoundingBox:
    case Kind::TriggerVolume: {
      BoxRecord b;
      b.id = r.u32(), b.origin = r.vec3(), b.extension = r.vec3();
      out.boxes.push_back(b);
      break;
    }
    case Kind::PhysicsControl: {
      PhysicsControlRecord p;
      read_physics(r, variant, p);
      out.physics.push_back(std::move(p));
      break;
    }
    case Kind::TrafficLightTime: {
      TrafficLightTimeRecord t;
      t.id = r.u32(), t.green = r.f32(), t.yellow = r.f32(), t.red = r.f32();
      out.light_times.push_back(t);
      break;
    }
    case Kind::WalkerBones: {
      WalkerBonesRecord w;
      w.id = r.u32();
      uint16_t n = r.u16();
      for (uint16_t i = 0; i < n && r.ok(); ++i) {
        Bone bone;
        bone.name = r.fstring();
        bone.location = r.vec3();
        bone.rotation = r.vec3();
        if (r.ok()) w.bones.push_back(std::move(bone));
      }
      out.bones.push_back(std::move(w));
      break;
    }
    case Kind::AnimVehicleWheels: {
      VehicleWheelsRecord v;
      v.id = r.u32();
      for (uint32_t n = r.count(9), i = 0; i < n && r.ok(); ++i) {
        WheelAnimation w;
        w.location = r.u8(), w.steering_angle = r.f32(), w.tire_rotation = r.f32();
        v.wheels.push_back(w);
      }
      out.wheels.push_back(std::move(v));
      break;
    }
    case Kind::AnimBiker: {
      BikerRecord b;
      b.id = r.u32(), b.forward_speed = r.f32(), b.engine_rotation = r.f32();
      out.bikers.push_back(b);
      break;
    }
    case Kind::VehicleDoor: {
      DoorRecord d;
      d.id = r.u32(), d.door = r.u8(), d.open = r.flag();
      out.doors.push_back(d);
      break;
    }
    default: break;
  }
}

void truncate_records(DecodedPacket& p, size_t n) {
  switch (p.kind) {
    case Kind::EventAdd: p.adds.resize(n); break;
    case Kind::EventDel: p.dels.resize(n); break;
    case Kind::EventParent: p.parents.resize(n); break;
    case Kind::Collision: p.collisions.resize(n); break;
    case Kind::Position: p.positions.resize(n); break;
    case Kind::State: p.states.resize(n); break;
    case Kind::AnimVehicle: p.vehicles.resize(n); break;
    case Kind::AnimWalker: p.walkers.resize(n); break;
    case Kind::VehicleLight: p.lights.resize(n); break;
    case Kind::SceneLight: p.scene_lights.resize(n); break;
    case Kind::Kinematics: p.kinematics.resize(n); break;
    case Kind::BoundingBox:
    case Kind::TriggerVolume: p.boxes.resize(n); break;
    case Kind::PhysicsControl: p.physics.resize(n); break;
    case Kind::TrafficLightTime: p.light_times.resize(n); break;
    case Kind::WalkerBones: p.bones.resize(n); break;
    case Kind::AnimVehicleWheels: p.wheels.resize(n); break;
    case Kind::AnimBiker: p.bikers.resize(n); break;
    case Kind::VehicleDoor: p.doors.resize(n); break;
    default: break;
  }
}

std::string size_text(size_t size) { return std::to_string(size) + (size == 1 ? " byte" : " bytes"); }

}  // namespace

bool decode_packet(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, DecodedPacket* out) {
  *out = DecodedPacket();
  out->id = id;
  out->kind = packet_kind(id, variant);
  Kind kind = out->kind;
  if (kind == Kind::User || kind == Kind::Unknown) {
    out->ok = true;
    return true;
  }
  if (kind == Kind::PhysicsControl && variant.doubles) {
    // UE5 rewrote VehiclePhysicsControl with another field list that is not confirmed (spec §8).
    out->error = "the UE5 PhysicsControl layout is not known; payload left undecoded";
    out->ok = true;
    return true;
  }
  PayloadReader r(data, size, variant);
  long exact = exact_payload_size(kind);
  if (exact >= 0) {
    if (size != static_cast<size_t>(exact)) {
      out->error = std::string(kind_name(kind)) + " has a " + std::to_string(exact) + "-byte payload, but this packet declares " + size_text(size);
      return false;
    }
    switch (kind) {
      case Kind::FrameStart:
        out->frame.id = r.u64();
        out->frame.duration = r.f64();
        out->frame.elapsed = r.f64();
        break;
      case Kind::PlatformTime:
      case Kind::VisualTime: out->time = r.f64(); break;
      case Kind::FrameCounter: out->counter = r.u64(); break;
      default: break;
    }
    out->ok = true;
    return true;
  }
  uint16_t total = r.u16();
  out->total = total;
  if (!r.ok()) {
    out->error = "the payload (" + size_text(size) + ") is too short for its 2-byte record count";
    return false;
  }
  size_t fixed = fixed_record_size(kind, variant);
  if (fixed) {
    size_t expected = 2 + total * fixed;
    if (expected != size) {
      out->error = std::to_string(total) + " records of " + std::to_string(fixed) + " bytes need a payload of " + size_text(expected) +
                   ", but the packet declares " + size_text(size);
      // Decode what fits anyway, so the user sees it.
    }
  }
  for (uint32_t i = 0; i < total && r.ok() && r.remaining() > 0; ++i) {
    out->record_offsets.push_back(static_cast<uint32_t>(r.position()));
    read_record(kind, r, variant, *out);
    if (!r.ok()) {  // keep only whole records
      out->record_offsets.pop_back();
      truncate_records(*out, out->record_offsets.size());
    }
  }
  size_t decoded = record_count(*out);
  if (!r.ok() || decoded < total) {
    if (out->error.empty())
      out->error = "the payload (" + size_text(size) + ") ends inside record " + std::to_string(decoded + 1) + " of " + std::to_string(total);
    return false;
  }
  if (r.position() != size) {
    if (out->error.empty())
      out->error = std::to_string(size - r.position()) + " bytes are left over after record " + std::to_string(total) + " of " +
                   std::to_string(total) + " (payload " + size_text(size) + ")";
    return false;
  }
  if (!out->error.empty()) return false;
  out->ok = true;
  return true;
}

bool layout_fits(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, std::string* why) {
  Kind kind = packet_kind(id, variant);
  if (kind == Kind::User || kind == Kind::Unknown) return true;
  if (kind == Kind::PhysicsControl && variant.doubles) return true;  // unknown layout: nothing to check
  long exact = exact_payload_size(kind);
  if (exact >= 0) {
    if (size == static_cast<size_t>(exact)) return true;
    if (why) *why = std::string(kind_name(kind)) + " has a " + std::to_string(exact) + "-byte payload, but this packet declares " + size_text(size);
    return false;
  }
  size_t fixed = fixed_record_size(kind, variant);
  if (fixed) {
    if (size < 2) {
      if (why) *why = "the payload (" + size_text(size) + ") is too short for its 2-byte record count";
      return false;
    }
    uint16_t total = static_cast<uint16_t>(data[0] | (data[1] << 8));
    size_t expected = 2 + total * fixed;
    if (expected == size) return true;
    if (why)
      *why = std::to_string(total) + " records of " + std::to_string(fixed) + " bytes need a payload of " + size_text(expected) +
             ", but the packet declares " + size_text(size);
    return false;
  }
  DecodedPacket packet;
  if (decode_packet(id, data, size, variant, &packet)) return true;
  if (why) *why = packet.error;
  return false;
}

size_t bytes_needed_for_check(uint8_t id, uint32_t size, const Variant& variant) {
  Kind kind = packet_kind(id, variant);
  if (kind == Kind::User || kind == Kind::Unknown) return 0;
  if (exact_payload_size(kind) >= 0) return std::min<size_t>(size, 24);
  if (fixed_record_size(kind, variant)) return std::min<size_t>(size, 2);
  return size;
}

size_t record_count(const DecodedPacket& p) {
  switch (p.kind) {
    case Kind::EventAdd: return p.adds.size();
    case Kind::EventDel: return p.dels.size();
    case Kind::EventParent: return p.parents.size();
    case Kind::Collision: return p.collisions.size();
    case Kind::Position: return p.positions.size();
    case Kind::State: return p.states.size();
    case Kind::AnimVehicle: return p.vehicles.size();
    case Kind::AnimWalker: return p.walkers.size();
    case Kind::VehicleLight: return p.lights.size();
    case Kind::SceneLight: return p.scene_lights.size();
    case Kind::Kinematics: return p.kinematics.size();
    case Kind::BoundingBox:
    case Kind::TriggerVolume: return p.boxes.size();
    case Kind::PhysicsControl: return p.physics.size();
    case Kind::TrafficLightTime: return p.light_times.size();
    case Kind::WalkerBones: return p.bones.size();
    case Kind::AnimVehicleWheels: return p.wheels.size();
    case Kind::AnimBiker: return p.bikers.size();
    case Kind::VehicleDoor: return p.doors.size();
    default: return 0;
  }
}

Json vec3_json(const Vec3& v) {
  Json j = Json::object();
  j["x"] = v.x;
  j["y"] = v.y;
  j["z"] = v.z;
  return j;
}

namespace {
Json pair_list(const std::vector<std::pair<double, double>>& points) {
  Json list = Json::array();
  for (const auto& point : points) {
    Json p = Json::array();
    p.push_back(point.first);
    p.push_back(point.second);
    list.push_back(std::move(p));
  }
  return list;
}

Json physics_json(const PhysicsControlRecord& p) {
  Json j = Json::object();
  j["id"] = p.id;
  j["max_rpm"] = p.max_rpm;
  j["moi"] = p.moi;
  j["damping_rate_full_throttle"] = p.damping_full_throttle;
  j["damping_rate_zero_throttle_clutch_engaged"] = p.damping_zero_throttle_engaged;
  j["damping_rate_zero_throttle_clutch_disengaged"] = p.damping_zero_throttle_disengaged;
  j["use_gear_autobox"] = p.use_gear_autobox;
  j["clutch_strength"] = p.clutch_strength;
  j["final_ratio"] = p.final_ratio;
  j["mass"] = p.mass;
  j["drag_coefficient"] = p.drag_coefficient;
  j["center_of_mass"] = vec3_json(p.center_of_mass);
  j["torque_curve"] = pair_list(p.torque_curve);
  Json gears = Json::array();
  for (const GearRecord& g : p.forward_gears) {
    Json gear = Json::object();
    gear["ratio"] = g.ratio;
    gear["down_ratio"] = g.down_ratio;
    gear["up_ratio"] = g.up_ratio;
    gears.push_back(std::move(gear));
  }
  j["forward_gears"] = std::move(gears);
  j["steering_curve"] = pair_list(p.steering_curve);
  Json wheels = Json::array();
  for (const WheelControl& w : p.wheels) {
    Json wheel = Json::object();
    wheel["tire_friction"] = w.tire_friction;
    wheel["damping_rate"] = w.damping_rate;
    wheel["max_steer_angle"] = w.max_steer_angle;
    wheel["radius"] = w.radius;
    wheel["max_brake_torque"] = w.max_brake_torque;
    wheel["max_handbrake_torque"] = w.max_handbrake_torque;
    if (w.has_stiffness) {
      wheel["lat_stiff_max_load"] = w.lat_stiff_max_load;
      wheel["lat_stiff_value"] = w.lat_stiff_value;
      wheel["long_stiff_value"] = w.long_stiff_value;
    }
    wheel["position"] = vec3_json(w.position);
    wheels.push_back(std::move(wheel));
  }
  j["wheels"] = std::move(wheels);
  return j;
}
}  // namespace

Json record_to_json(const DecodedPacket& p, size_t i) {
  Json j = Json::object();
  switch (p.kind) {
    case Kind::EventAdd: {
      const EventAddRecord& a = p.adds[i];
      j["id"] = a.id;
      j["type"] = a.type;
      j["type_name"] = actor_type_name(a.type);
      j["location"] = vec3_json(a.location);
      j["rotation"] = vec3_json(a.rotation);
      j["description_uid"] = a.description_uid;
      j["blueprint"] = a.blueprint;
      Json attributes = Json::array();
      for (const Attribute& attribute : a.attributes) {
        Json at = Json::object();
        at["type"] = attribute_type_name(attribute.type);
        at["id"] = attribute.id;
        at["value"] = attribute.value;
        attributes.push_back(std::move(at));
      }
      j["attributes"] = std::move(attributes);
      break;
    }
    case Kind::EventDel: j["id"] = p.dels[i]; break;
    case Kind::EventParent:
      j["id"] = p.parents[i].first;
      j["parent"] = p.parents[i].second;
      break;
    case Kind::Collision: {
      const CollisionRecord& c = p.collisions[i];
      j["id"] = c.id;
      j["actor1"] = c.actor1 == kNoActor ? Json() : Json(c.actor1);
      j["actor2"] = c.actor2 == kNoActor ? Json() : Json(c.actor2);
      j["hero1"] = c.hero1;
      j["hero2"] = c.hero2;
      break;
    }
    case Kind::Position:
      j["id"] = p.positions[i].id;
      j["location"] = vec3_json(p.positions[i].location);
      j["rotation"] = vec3_json(p.positions[i].rotation);
      break;
    case Kind::State: {
      const StateRecord& s = p.states[i];
      j["id"] = s.id;
      j["state"] = traffic_light_state_name(s.state);
      j["frozen"] = s.frozen;
      j["elapsed_time"] = s.elapsed;
      break;
    }
    case Kind::AnimVehicle: {
      const AnimVehicleRecord& v = p.vehicles[i];
      j["id"] = v.id;
      j["steering"] = v.steering;
      j["throttle"] = v.throttle;
      j["brake"] = v.brake;
      j["handbrake"] = v.handbrake;
      j["gear"] = v.gear;
      break;
    }
    case Kind::AnimWalker:
      j["id"] = p.walkers[i].first;
      j["speed"] = p.walkers[i].second;
      break;
    case Kind::VehicleLight:
      j["id"] = p.lights[i].first;
      j["flags"] = p.lights[i].second;
      j["lights"] = vehicle_lights_text(p.lights[i].second);
      break;
    case Kind::SceneLight: {
      const SceneLightRecord& s = p.scene_lights[i];
      j["light_id"] = s.light_id;
      j["enabled"] = s.on;
      j["intensity"] = s.intensity;
      Json color = Json::array();
      for (double c : {s.r, s.g, s.b, s.a}) color.push_back(c);
      j["rgba"] = std::move(color);
      j["type"] = s.type;
      break;
    }
    case Kind::Kinematics:
      j["id"] = p.kinematics[i].id;
      j["linear_velocity"] = vec3_json(p.kinematics[i].linear);
      j["angular_velocity"] = vec3_json(p.kinematics[i].angular);
      break;
    case Kind::BoundingBox:
    case Kind::TriggerVolume:
      j["id"] = p.boxes[i].id;
      j["origin"] = vec3_json(p.boxes[i].origin);
      j["extension"] = vec3_json(p.boxes[i].extension);
      break;
    case Kind::PhysicsControl: j = physics_json(p.physics[i]); break;
    case Kind::TrafficLightTime:
      j["id"] = p.light_times[i].id;
      j["green_time"] = p.light_times[i].green;
      j["yellow_time"] = p.light_times[i].yellow;
      j["red_time"] = p.light_times[i].red;
      break;
    case Kind::WalkerBones: {
      j["id"] = p.bones[i].id;
      Json bones = Json::array();
      for (const Bone& bone : p.bones[i].bones) {
        Json b = Json::object();
        b["name"] = bone.name;
        b["location"] = vec3_json(bone.location);
        b["rotation"] = vec3_json(bone.rotation);
        bones.push_back(std::move(b));
      }
      j["bones"] = std::move(bones);
      break;
    }
    case Kind::AnimVehicleWheels: {
      j["id"] = p.wheels[i].id;
      Json wheels = Json::array();
      for (const WheelAnimation& w : p.wheels[i].wheels) {
        Json wheel = Json::object();
        wheel["location"] = w.location;
        wheel["steering_angle"] = w.steering_angle;
        wheel["tire_rotation"] = w.tire_rotation;
        wheels.push_back(std::move(wheel));
      }
      j["wheels"] = std::move(wheels);
      break;
    }
    case Kind::AnimBiker:
      j["id"] = p.bikers[i].id;
      j["forward_speed"] = p.bikers[i].forward_speed;
      j["engine_rotation"] = p.bikers[i].engine_rotation;
      break;
    case Kind::VehicleDoor:
      j["id"] = p.doors[i].id;
      j["door"] = door_name(p.doors[i].door);
      j["open"] = p.doors[i].open;
      break;
    default: break;
  }
  return j;
}

Json packet_to_json(const DecodedPacket& p, size_t first, size_t count) {
  Json j = Json::object();
  j["id"] = p.id;
  j["kind"] = kind_name(p.kind);
  j["layout_ok"] = p.ok;
  if (!p.error.empty()) j["error"] = p.error;
  switch (p.kind) {
    case Kind::FrameStart:
      j["frame"] = p.frame.id;
      j["duration"] = p.frame.duration;
      j["elapsed"] = p.frame.elapsed;
      return j;
    case Kind::PlatformTime:
    case Kind::VisualTime: j["time"] = p.time; return j;
    case Kind::FrameCounter: j["counter"] = p.counter; return j;
    case Kind::FrameEnd:
    case Kind::User:
    case Kind::Unknown: return j;
    default: break;
  }
  size_t n = record_count(p);
  j["total"] = p.total;
  j["first"] = std::min(first, n);
  Json records = Json::array();
  for (size_t i = first; i < n && i - first < count; ++i) records.push_back(record_to_json(p, i));
  j["records"] = std::move(records);
  return j;
}

}  // namespace logscope::carla
