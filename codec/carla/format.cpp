#include "carla/format.h"

#include "carla/packet_table.h"

namespace logscope::carla {

std::string packet_name(uint8_t id, const Variant& variant) {
  if (const PacketType* type = packet_type(id, variant)) return type->name();
  return (id >= 100 ? "user packet " : "unknown packet ") + std::to_string(id);
}

std::string id_order_name(IdOrder order) {
  static const char* kNames[] = {"0.9.15", "dev 2023-2025", "0.9.16"};
  Variant variant;
  variant.order = order;
  std::string ids;
  for (int id = 0; id < 256; ++id) {
    if (!order_dependent(static_cast<uint8_t>(id))) continue;
    if (const PacketType* type = packet_type(static_cast<uint8_t>(id), variant))
      ids += (ids.empty() ? "" : ", ") + std::to_string(id) + " " + type->name();
  }
  return std::string(kNames[static_cast<int>(order)]) + " (" + ids + ")";
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
