// CARLA recorder log: packet ids, layout variants and decoded record types.
// Facts: ../shared/spec/carla.md. Everything is little-endian and packed (no padding).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace logscope::carla {

constexpr size_t kPacketHeaderSize = 5;  // u8 id + u32 payload size
constexpr uint32_t kNoActor = 0xFFFFFFFFu;  // collision side that is not an actor (>= 0.9.13)

// Ids 0-20 are the same in every release; 21-23 depend on the variant (see IdOrder).
enum PacketId : uint8_t {
  kFrameStart = 0,
  kFrameEnd = 1,
  kEventAdd = 2,
  kEventDel = 3,
  kEventParent = 4,
  kCollision = 5,
  kPosition = 6,
  kState = 7,
  kAnimVehicle = 8,
  kAnimWalker = 9,
  kVehicleLight = 10,
  kSceneLight = 11,
  kKinematics = 12,
  kBoundingBox = 13,
  kPlatformTime = 14,
  kPhysicsControl = 15,
  kTrafficLightTime = 16,
  kTriggerVolume = 17,
  kFrameCounter = 18,
  kWalkerBones = 19,
  kVisualTime = 20,
};

// What an id >= 21 means; 0.9.15 and the 2023-2025 dev branch disagree (spec §3).
enum class Kind21 { AnimVehicleWheels, AnimBiker, VehicleDoor, Unknown };

enum class IdOrder {
  Release0915,  // 21 wheels, 22 biker
  DevDoors,     // 21 door, 22 wheels, 23 biker (ue4-dev Nov 2023 - Mar 2025, ue5-dev)
  Release0916,  // 21 wheels, 22 biker, 23 door (after PR #8779; inferred)
};

// Every packet kind, with ids >= 21 resolved through the variant.
enum class Kind {
  FrameStart, FrameEnd, EventAdd, EventDel, EventParent, Collision, Position, State, AnimVehicle,
  AnimWalker, VehicleLight, SceneLight, Kinematics, BoundingBox, PlatformTime, PhysicsControl,
  TrafficLightTime, TriggerVolume, FrameCounter, WalkerBones, VisualTime, AnimVehicleWheels, AnimBiker,
  VehicleDoor, User, Unknown
};

struct Variant {
  bool doubles = false;    // UE5: FVector = 3 x f64
  int wheel_bytes = 48;    // WheelPhysicsControl: 36 (0.9.10-0.9.11) or 48 (>= 0.9.12)
  IdOrder order = IdOrder::Release0915;
  size_t vector_bytes() const { return doubles ? 24 : 12; }
};

Kind packet_kind(uint8_t id, const Variant& variant);
const char* kind_name(Kind kind);
// The name of a packet id under a variant ("Position", "VehicleDoor", "User packet 101").
std::string packet_name(uint8_t id, const Variant& variant);
Kind21 kind_of_high_id(uint8_t id, IdOrder order);
const char* id_order_name(IdOrder order);
std::string variant_label(const Variant& variant);

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

// --- Decoded records (numbers widened to double; printing a float through std::ostream
// promotes it to double too, so text output is unchanged) --------------------------------------
struct FrameStartRecord {
  uint64_t id = 0;
  double duration = 0;
  double elapsed = 0;
};

struct Attribute {
  uint8_t type = 0;
  std::string id;
  std::string value;
};

struct EventAddRecord {
  uint32_t id = 0;
  uint8_t type = 0;
  Vec3 location, rotation;
  uint32_t description_uid = 0;
  std::string blueprint;
  std::vector<Attribute> attributes;
};

struct CollisionRecord {
  uint32_t id = 0;
  uint32_t actor1 = 0, actor2 = 0;
  bool hero1 = false, hero2 = false;
};

struct PositionRecord {
  uint32_t id = 0;
  Vec3 location, rotation;
};

struct StateRecord {
  uint32_t id = 0;
  bool frozen = false;
  double elapsed = 0;
  uint8_t state = 0;
};

struct AnimVehicleRecord {
  uint32_t id = 0;
  double steering = 0, throttle = 0, brake = 0;
  bool handbrake = false;
  int32_t gear = 0;
};

struct SceneLightRecord {
  int32_t light_id = 0;
  double intensity = 0;
  double r = 0, g = 0, b = 0, a = 0;
  bool on = false;
  uint8_t type = 0;
};

struct KinematicsRecord {
  uint32_t id = 0;
  Vec3 linear, angular;
};

struct BoxRecord {
  uint32_t id = 0;
  Vec3 origin, extension;
};

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

struct TrafficLightTimeRecord {
  uint32_t id = 0;
  double green = 0, yellow = 0, red = 0;
};

struct Bone {
  std::string name;
  Vec3 location, rotation;
};

struct WalkerBonesRecord {
  uint32_t id = 0;
  std::vector<Bone> bones;
};

struct WheelAnimation {
  uint8_t location = 0;
  double steering_angle = 0, tire_rotation = 0;
};

struct VehicleWheelsRecord {
  uint32_t id = 0;
  std::vector<WheelAnimation> wheels;
};

struct BikerRecord {
  uint32_t id = 0;
  double forward_speed = 0, engine_rotation = 0;
};

struct DoorRecord {
  uint32_t id = 0;
  uint8_t door = 0;
  bool open = false;
};

// Actor types of EventAdd (>= 0.9.12 numbering; older files never use 5).
const char* actor_type_name(uint8_t type);
const char* attribute_type_name(uint8_t type);
const char* traffic_light_state_name(uint8_t state);
const char* door_name(uint8_t door);
std::string vehicle_lights_text(uint32_t flags);  // "Position LowBeam" or "None"

}  // namespace logscope::carla
