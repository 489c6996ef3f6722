// CARLA recorder log: fixed packet ids, layout variants and the enums of record fields.
// Facts: ../shared/spec/carla.md. Everything is little-endian and packed (no padding).
// The packet kinds themselves (layouts, JSON, text) are the packet table: packet_table.h.
#pragma once

#include <cstdint>
#include <string>

namespace logscope::carla {

constexpr size_t kPacketHeaderSize = 5;  // u8 id + u32 payload size
constexpr uint32_t kNoActor = 0xFFFFFFFFu;  // collision side that is not an actor (>= 0.9.13)

// The ids code refers to directly. Ids 0-20 are the same in every release; 21-23 depend on the
// variant (see IdOrder and the packet table).
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

// The numberings of ids >= 21; 0.9.15 and the 2023-2025 dev branch disagree (spec §3).
enum class IdOrder {
  Release0915,  // 21 wheels, 22 biker
  DevDoors,     // 21 door, 22 wheels, 23 biker (ue4-dev Nov 2023 - Mar 2025, ue5-dev)
  Release0916,  // 21 wheels, 22 biker, 23 door (after PR #8779; inferred)
};

struct Variant {
  bool doubles = false;    // UE5: FVector = 3 x f64
  int wheel_bytes = 48;    // WheelPhysicsControl: 36 (0.9.10-0.9.11) or 48 (>= 0.9.12)
  IdOrder order = IdOrder::Release0915;
  size_t vector_bytes() const { return doubles ? 24 : 12; }
};

// The name of a packet id under a variant ("Position", "VehicleDoor", "user packet 101").
std::string packet_name(uint8_t id, const Variant& variant);
// "0.9.15 (21 AnimVehicleWheels, 22 AnimBiker)": the numbering with the ids it gives.
std::string id_order_name(IdOrder order);
std::string variant_label(const Variant& variant);

// Numbers widened to double: printing a float through std::ostream promotes it to double too, so
// text output is the same.
struct Vec3 {
  double x = 0, y = 0, z = 0;
};

// Actor types of EventAdd (>= 0.9.12 numbering; older files never use 5).
const char* actor_type_name(uint8_t type);
const char* attribute_type_name(uint8_t type);
const char* traffic_light_state_name(uint8_t state);
const char* door_name(uint8_t door);
std::string vehicle_lights_text(uint32_t flags);  // "Position LowBeam" or "None"

}  // namespace logscope::carla
