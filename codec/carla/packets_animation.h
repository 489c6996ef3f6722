// Packet table, animation family: vehicle controls, lights, wheels and doors, walkers and bikers.
// Ids 21-23 depend on the release's numbering (IdOrder, spec §3).
#pragma once

#include "carla/packet_table.h"

namespace logscope::carla {

struct AnimVehicleRecord {
  uint32_t id = 0;
  double steering = 0, throttle = 0, brake = 0;
  bool handbrake = false;
  int32_t gear = 0;
};
struct WalkerRecord {
  uint32_t id = 0;
  double speed = 0;
};
struct VehicleLightRecord {
  uint32_t id = 0;
  uint32_t flags = 0;  // vehicle_lights_text()
};
struct Bone {
  std::string name;
  Vec3 location, rotation;  // relative
};
struct WalkerBonesRecord {
  uint32_t id = 0;
  std::vector<Bone> bones;
};
struct WheelAnimation {
  uint8_t location = 0;  // EVehicleWheelLocation
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
  uint8_t door = 0;  // door_name()
  bool open = false;
};

namespace packets {

inline constexpr auto AnimVehicle =
    records<AnimVehicleRecord>("AnimVehicle", same_id(8), Release::k0_9_6, fixed_size(21))
        .layout([](auto& io, auto& r) {
          io.u32(r.id), io.f32(r.steering), io.f32(r.throttle), io.f32(r.brake), io.flag(r.handbrake), io.i32(r.gear);
        })
        .json([](Json& j, const AnimVehicleRecord& r) {
          j["id"] = r.id;
          j["steering"] = r.steering;
          j["throttle"] = r.throttle;
          j["brake"] = r.brake;
          j["handbrake"] = r.handbrake;
          j["gear"] = r.gear;
        })
        .text([](InfoText& t, const std::vector<AnimVehicleRecord>& records) {
          t.count("Vehicle animations");
          for (const AnimVehicleRecord& r : records)
            t.out << "  Id: " << r.id << " Steering: " << r.steering << " Throttle: " << r.throttle
                  << (t.wording() == InfoWording::Carla0915 ? " Brake: " : " Brake ") << r.brake << " Handbrake: " << r.handbrake
                  << " Gear: " << r.gear << text::endl;
        });

inline constexpr auto AnimWalker = records<WalkerRecord>("AnimWalker", same_id(9), Release::k0_9_6, fixed_size(8))
                                   .layout([](auto& io, auto& r) { io.u32(r.id), io.f32(r.speed); })
                                   .json([](Json& j, const WalkerRecord& r) {
                                     j["id"] = r.id;
                                     j["speed"] = r.speed;
                                   })
                                   .text([](InfoText& t, const std::vector<WalkerRecord>& records) {
                                     t.count("Walker animations");
                                     for (const WalkerRecord& r : records) t.out << "  Id: " << r.id << " speed: " << r.speed << text::endl;
                                   });

inline constexpr auto VehicleLight =
    records<VehicleLightRecord>("VehicleLight", same_id(10), Release::k0_9_10, fixed_size(8))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.u32(r.flags); })
        .json([](Json& j, const VehicleLightRecord& r) {
          j["id"] = r.id;
          j["flags"] = r.flags;
          j["lights"] = vehicle_lights_text(r.flags);
        })
        .text([](InfoText& t, const std::vector<VehicleLightRecord>& records) {
          t.count("Vehicle light animations");
          for (const VehicleLightRecord& r : records) t.out << "  Id: " << r.id << " " << vehicle_lights_text(r.flags) << text::endl;
        });

inline constexpr auto WalkerBones =
    records<WalkerBonesRecord>("WalkerBones", same_id(19), Release::k0_9_14, variable_size(SizedBy::Vectors))
        .layout([](auto& io, auto& r) {
          io.u32(r.id);
          io.list16(r.bones, [](auto& io, auto& bone) { io.str(bone.name), io.vec(bone.location), io.vec(bone.rotation); });
        })
        .json([](Json& j, const WalkerBonesRecord& r) {
          j["id"] = r.id;
          Json bones = Json::array();
          for (const Bone& bone : r.bones) {
            Json b = Json::object();
            b["name"] = bone.name;
            b["location"] = vec3_json(bone.location);
            b["rotation"] = vec3_json(bone.rotation);
            bones.push_back(std::move(b));
          }
          j["bones"] = std::move(bones);
        })
        .text([](InfoText& t, const std::vector<WalkerBonesRecord>& records) {
          t.count("Walkers Bones");
          for (const WalkerBonesRecord& r : records) {
            t.out << "  Id: " << r.id << "\n";
            for (const Bone& b : r.bones)
              t.out << "     Bone: \"" << b.name << "\" relative: Loc(" << b.location.x << ", " << b.location.y << ", " << b.location.z
                    << ") Rot(" << b.rotation.x << ", " << b.rotation.y << ", " << b.rotation.z << ")\n";
          }
          t.out << text::endl;
        });

// Written every frame from 0.9.15, even with no vehicle. CARLA's info text skips it.
inline constexpr auto AnimVehicleWheels =
    records<VehicleWheelsRecord>("AnimVehicleWheels", ids_by_order(21, 22, 21), Release::k0_9_15, variable_size())
        .layout([](auto& io, auto& r) {
          io.u32(r.id);
          io.list32(r.wheels, 9, [](auto& io, auto& w) { io.u8(w.location), io.f32(w.steering_angle), io.f32(w.tire_rotation); });
        })
        .json([](Json& j, const VehicleWheelsRecord& r) {
          j["id"] = r.id;
          Json wheels = Json::array();
          for (const WheelAnimation& w : r.wheels) {
            Json wheel = Json::object();
            wheel["location"] = w.location;
            wheel["steering_angle"] = w.steering_angle;
            wheel["tire_rotation"] = w.tire_rotation;
            wheels.push_back(std::move(wheel));
          }
          j["wheels"] = std::move(wheels);
        });

// Two-wheelers. CARLA's info text skips it.
inline constexpr auto AnimBiker = records<BikerRecord>("AnimBiker", ids_by_order(22, 23, 22), Release::k0_9_15, fixed_size(12))
                                  .layout([](auto& io, auto& r) { io.u32(r.id), io.f32(r.forward_speed), io.f32(r.engine_rotation); })
                                  .json([](Json& j, const BikerRecord& r) {
                                    j["id"] = r.id;
                                    j["forward_speed"] = r.forward_speed;
                                    j["engine_rotation"] = r.engine_rotation;
                                  });

// Not in the 0.9.15 numbering; first in ue4-dev (Nov 2023) as id 21, moved to 23 by PR #8779.
inline constexpr auto VehicleDoor =
    records<DoorRecord>("VehicleDoor", ids_by_order(kNoId, 21, 23), Release::kDev, fixed_size(6))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.u8(r.door), io.flag(r.open); })
        .json([](Json& j, const DoorRecord& r) {
          j["id"] = r.id;
          j["door"] = door_name(r.door);
          j["open"] = r.open;
        })
        .text([](InfoText& t, const std::vector<DoorRecord>& records) {
          t.count("Vehicle door animations");
          static const char* kDoors[] = {" Front Left ", " Front Right ", " Rear Left ", " Rear Right ", " Hood ", " Trunk ", " All "};
          for (const DoorRecord& r : records) {
            // As CARLA: "Doors opened" whatever bIsOpen says, and no line end for an unknown door.
            t.out << "  Id: " << r.id << text::endl;
            t.out << "  Doors opened: ";
            if (r.door < 7) t.out << kDoors[r.door] << text::endl;
          }
        });

inline constexpr const PacketType* kAnimationFamily[] = {&AnimVehicle,  &AnimWalker, &VehicleLight, &WalkerBones,
                                                      &AnimVehicleWheels, &AnimBiker, &VehicleDoor};

}  // namespace packets
}  // namespace logscope::carla
