#include "carla/format.h"

namespace logscope::carla {

Kind21 kind_of_high_id(uint8_t id, IdOrder order) {
  switch (order) {
    case IdOrder::Release0915:
      if (id == 21) return Kind21::AnimVehicleWheels;
      if (id == 22) return Kind21::AnimBiker;
      break;
    case IdOrder::DevDoors:
      if (id == 21) return Kind21::VehicleDoor;
      if (id == 22) return Kind21::AnimVehicleWheels;
      if (id == 23) return Kind21::AnimBiker;
      break;
    case IdOrder::Release0916:
      if (id == 21) return Kind21::AnimVehicleWheels;
      if (id == 22) return Kind21::AnimBiker;
      if (id == 23) return Kind21::VehicleDoor;
      break;
  }
  return Kind21::Unknown;
}

Kind packet_kind(uint8_t id, const Variant& variant) {
  if (id <= kVisualTime) return static_cast<Kind>(id);  // Kind lists ids 0-20 in id order
  if (id >= 100) return Kind::User;
  switch (kind_of_high_id(id, variant.order)) {
    case Kind21::AnimVehicleWheels: return Kind::AnimVehicleWheels;
    case Kind21::AnimBiker: return Kind::AnimBiker;
    case Kind21::VehicleDoor: return Kind::VehicleDoor;
    case Kind21::Unknown: break;
  }
  return Kind::Unknown;
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::FrameStart: return "FrameStart";
    case Kind::FrameEnd: return "FrameEnd";
    case Kind::EventAdd: return "EventAdd";
    case Kind::EventDel: return "EventDel";
    case Kind::EventParent: return "EventParent";
    case Kind::Collision: return "Collision";
    case Kind::Position: return "Position";
    case Kind::State: return "State";
    case Kind::AnimVehicle: return "AnimVehicle";
    case Kind::AnimWalker: return "AnimWalker";
    case Kind::VehicleLight: return "VehicleLight";
    case Kind::SceneLight: return "SceneLight";
    case Kind::Kinematics: return "Kinematics";
    case Kind::BoundingBox: return "BoundingBox";
    case Kind::PlatformTime: return "PlatformTime";
    case Kind::PhysicsControl: return "PhysicsControl";
    case Kind::TrafficLightTime: return "TrafficLightTime";
    case Kind::TriggerVolume: return "TriggerVolume";
    case Kind::FrameCounter: return "FrameCounter";
    case Kind::WalkerBones: return "WalkerBones";
    case Kind::VisualTime: return "VisualTime";
    case Kind::AnimVehicleWheels: return "AnimVehicleWheels";
    case Kind::AnimBiker: return "AnimBiker";
    case Kind::VehicleDoor: return "VehicleDoor";
    case Kind::User: return "User";
    case Kind::Unknown: return "Unknown";
  }
  return "Unknown";
}

std::string packet_name(uint8_t id, const Variant& variant) {
  Kind kind = packet_kind(id, variant);
  if (kind == Kind::User) return "user packet " + std::to_string(id);
  if (kind == Kind::Unknown) return "unknown packet " + std::to_string(id);
  return kind_name(kind);
}

const char* id_order_name(IdOrder order) {
  switch (order) {
    case IdOrder::Release0915: return "0.9.15 (21 AnimVehicleWheels, 22 AnimBiker)";
    case IdOrder::DevDoors: return "dev 2023-2025 (21 VehicleDoor, 22 AnimVehicleWheels, 23 AnimBiker)";
    case IdOrder::Release0916: return "0.9.16 (21 AnimVehicleWheels, 22 AnimBiker, 23 VehicleDoor)";
  }
  return "";
}

std::string variant_label(const Variant& variant) {
  std::string label = variant.doubles ? "UE5 (double vectors)" : "UE4 (float vectors)";
  if (!variant.doubles) label += variant.wheel_bytes == 36 ? ", 36-byte wheels" : ", 48-byte wheels";
  return label;
}

const char* actor_type_name(uint8_t type) {
  switch (type) {
    case 0: return "other";
    case 1: return "vehicle";
    case 2: return "walker";
    case 3: return "traffic_light";
    case 4: return "traffic_sign";  // INVALID before 0.9.9
    case 5: return "sensor";        // INVALID in 0.9.9-0.9.11
    case 6: return "invalid";
    default: return "unknown";
  }
}

const char* attribute_type_name(uint8_t type) {
  switch (type) {
    case 0: return "bool";
    case 1: return "int";
    case 2: return "float";
    case 3: return "string";
    case 4: return "rgb_color";
    default: return "unknown";
  }
}

const char* traffic_light_state_name(uint8_t state) {
  switch (state) {
    case 0: return "red";
    case 1: return "yellow";
    case 2: return "green";
    case 3: return "off";
    default: return "unknown";
  }
}

const char* door_name(uint8_t door) {
  switch (door) {
    case 0: return "front_left";
    case 1: return "front_right";
    case 2: return "rear_left";
    case 3: return "rear_right";
    case 4: return "hood";
    case 5: return "trunk";
    case 6: return "all";
    default: return "unknown";
  }
}

std::string vehicle_lights_text(uint32_t flags) {
  // CARLA's order (CarlaRecorderQuery.cpp): Interior is listed before Fog.
  static const std::pair<uint32_t, const char*> kLights[] = {
      {0x1, "Position"},       {0x2, "LowBeam"},       {0x4, "HighBeam"}, {0x8, "Brake"},
      {0x10, "RightBlinker"},  {0x20, "LeftBlinker"},  {0x40, "Reverse"}, {0x100, "Interior"},
      {0x80, "Fog"},           {0x200, "Special1"},    {0x400, "Special2"}};
  std::string text;
  for (const auto& light : kLights)
    if (flags & light.first) text += std::string(text.empty() ? "" : " ") + light.second;
  return text.empty() ? "None" : text;
}

}  // namespace logscope::carla
