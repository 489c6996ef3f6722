// Packet table, world family: where actors are and how they move, their boxes, traffic lights
// and scene lights.
#pragma once

#include "carla/packet_table.h"

namespace logscope::carla {

struct PositionRecord {
  uint32_t id = 0;
  Vec3 location, rotation;
};
struct StateRecord {  // a traffic light
  uint32_t id = 0;
  bool frozen = false;
  double elapsed = 0;
  uint8_t state = 0;  // traffic_light_state_name()
};
struct KinematicsRecord {
  uint32_t id = 0;
  Vec3 linear, angular;
};
struct BoxRecord {
  uint32_t id = 0;
  Vec3 origin, extension;
};
struct TrafficLightTimeRecord {
  uint32_t id = 0;
  double green = 0, yellow = 0, red = 0;
};
struct SceneLightRecord {
  int32_t light_id = 0;
  double intensity = 0;
  double r = 0, g = 0, b = 0, a = 0;
  bool on = false;
  uint8_t type = 0;
};

namespace packets {

inline constexpr auto Position =
    records<PositionRecord>("Position", same_id(6), Release::k0_9_5, fixed_size(4, 2))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.vec(r.location), io.vec(r.rotation); })
        .json([](Json& j, const PositionRecord& r) {
          j["id"] = r.id;
          j["location"] = vec3_json(r.location);
          j["rotation"] = vec3_json(r.rotation);
        })
        .text([](InfoText& t, const std::vector<PositionRecord>& records) {
          t.count("Positions");
          for (const PositionRecord& r : records) {
            t.out << "  Id: " << r.id << (t.wording() == InfoWording::Carla095 ? " Location " : " Location: ");
            t.vec(r.location);
            t.out << (t.wording() == InfoWording::Carla0915 ? " Rotation: " : " Rotation ");
            t.vec(r.rotation);
            t.out << text::endl;
          }
        })
        .check([](ActorCheck& c, const PositionRecord& r) {
          if (!c.known(r.id))
            c.warn("carla.actor.position_unknown", "a position" + c.in_frame() + " is for actor " + std::to_string(r.id) + ", never created");
        });

inline constexpr auto State =
    records<StateRecord>("State", same_id(7), Release::k0_9_5, fixed_size(10))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.flag(r.frozen), io.f32(r.elapsed), io.u8(r.state); })
        .json([](Json& j, const StateRecord& r) {
          j["id"] = r.id;
          j["state"] = traffic_light_state_name(r.state);
          j["frozen"] = r.frozen;
          j["elapsed_time"] = r.elapsed;
        })
        .text([](InfoText& t, const std::vector<StateRecord>& records) {
          t.count("State traffic lights");
          for (const StateRecord& r : records)
            t.out << "  Id: " << r.id << " state: " << static_cast<char>(0x30 + r.state) << " frozen: " << r.frozen
                  << " elapsedTime: " << r.elapsed << text::endl;
        });

// Velocities (additional_data), written only when non-empty.
inline constexpr auto Kinematics =
    records<KinematicsRecord>("Kinematics", same_id(12), Release::k0_9_10, fixed_size(4, 2))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.vec(r.linear), io.vec(r.angular); })
        .json([](Json& j, const KinematicsRecord& r) {
          j["id"] = r.id;
          j["linear_velocity"] = vec3_json(r.linear);
          j["angular_velocity"] = vec3_json(r.angular);
        })
        .text([](InfoText& t, const std::vector<KinematicsRecord>& records) {
          t.count("Dynamic actors");
          for (const KinematicsRecord& r : records) {
            t.out << "  Id: " << r.id << " linear_velocity: ";
            t.vec(r.linear);
            t.out << " angular_velocity: ";
            t.vec(r.angular);
            t.out << text::endl;
          }
        });

// BoundingBox and TriggerVolume share their record.
inline constexpr auto box_layout = [](auto& io, auto& r) { io.u32(r.id), io.vec(r.origin), io.vec(r.extension); };
inline void box_json(Json& j, const BoxRecord& r) {
  j["id"] = r.id;
  j["origin"] = vec3_json(r.origin);
  j["extension"] = vec3_json(r.extension);
}
inline void box_text(InfoText& t, const char* title, const std::vector<BoxRecord>& records) {
  t.count(title);
  for (const BoxRecord& r : records) {
    t.out << "  Id: " << r.id << " origin: ";
    t.vec(r.origin);
    t.out << " extension: ";
    t.vec(r.extension);
    t.out << text::endl;
  }
}

// Local coordinates; written every frame (total 0) but filled on spawn only.
inline constexpr auto BoundingBox =
    records<BoxRecord>("BoundingBox", same_id(13), Release::k0_9_10, fixed_size(4, 2))
        .layout(box_layout)
        .json(box_json)
        .text([](InfoText& t, const std::vector<BoxRecord>& records) { box_text(t, "Actor bounding boxes", records); });

// Traffic signs' trigger volumes, in global coordinates.
inline constexpr auto TriggerVolume =
    records<BoxRecord>("TriggerVolume", same_id(17), Release::k0_9_10, fixed_size(4, 2))
        .layout(box_layout)
        .json(box_json)
        .text([](InfoText& t, const std::vector<BoxRecord>& records) { box_text(t, "Actor trigger volumes", records); });

inline constexpr auto TrafficLightTime =
    records<TrafficLightTimeRecord>("TrafficLightTime", same_id(16), Release::k0_9_10, fixed_size(16))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.f32(r.green), io.f32(r.yellow), io.f32(r.red); })
        .json([](Json& j, const TrafficLightTimeRecord& r) {
          j["id"] = r.id;
          j["green_time"] = r.green;
          j["yellow_time"] = r.yellow;
          j["red_time"] = r.red;
        })
        .text([](InfoText& t, const std::vector<TrafficLightTimeRecord>& records) {
          t.count("Traffic Light time events");
          for (const TrafficLightTimeRecord& r : records)
            t.out << "  Id: " << r.id << " green_time: " << r.green << " yellow_time: " << r.yellow << " red_time: " << r.red << text::endl;
        });

inline constexpr auto SceneLight =
    records<SceneLightRecord>("SceneLight", same_id(11), Release::k0_9_10, fixed_size(26))
        .layout([](auto& io, auto& r) {
          io.i32(r.light_id), io.f32(r.intensity), io.f32(r.r), io.f32(r.g), io.f32(r.b), io.f32(r.a), io.flag(r.on), io.u8(r.type);
        })
        .json([](Json& j, const SceneLightRecord& r) {
          j["light_id"] = r.light_id;
          j["enabled"] = r.on;
          j["intensity"] = r.intensity;
          Json color = Json::array();
          for (double c : {r.r, r.g, r.b, r.a}) color.push_back(c);
          j["rgba"] = std::move(color);
          j["type"] = r.type;
        })
        .text([](InfoText& t, const std::vector<SceneLightRecord>& records) {
          t.count("Scene light changes");
          for (const SceneLightRecord& r : records)
            t.out << "  Id: " << r.light_id << " enabled: " << (r.on ? "True" : "False") << " intensity: " << r.intensity << " RGB_color: ("
                  << r.r << ", " << r.g << ", " << r.b << ")" << text::endl;
        });

inline constexpr const PacketType* kWorldFamily[] = {&Position, &State, &SceneLight, &Kinematics, &BoundingBox, &TrafficLightTime, &TriggerVolume};

}  // namespace packets
}  // namespace logscope::carla
