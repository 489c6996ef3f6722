// Writes CARLA recorder logs (tests, the demo file, benchmarks) in any layout variant.
// Bytes accumulate in a buffer the caller drains with take(), so a big file streams to disk.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "carla/format.h"

namespace logscope::carla {

class LogWriter {
 public:
  explicit LogWriter(Variant variant = Variant()) : variant_(variant) {}
  const Variant& variant() const { return variant_; }

  void header(int64_t date, const std::string& map, uint16_t version = 1);
  // CARLA back-patches a frame's duration when the next frame starts; we take it up front
  // (-1 for the last frame, as CARLA leaves it).
  void frame_start(uint64_t id, double duration, double elapsed);
  void frame_end();

  void event_add(const std::vector<EventAddRecord>& records);
  void event_del(const std::vector<uint32_t>& ids);
  void event_parent(const std::vector<std::pair<uint32_t, uint32_t>>& child_parent);
  void collisions(const std::vector<CollisionRecord>& records);
  void positions(const std::vector<PositionRecord>& records);
  void states(const std::vector<StateRecord>& records);
  void anim_vehicles(const std::vector<AnimVehicleRecord>& records);
  void anim_walkers(const std::vector<std::pair<uint32_t, double>>& id_speed);
  void vehicle_lights(const std::vector<std::pair<uint32_t, uint32_t>>& id_flags);
  void scene_lights(const std::vector<SceneLightRecord>& records);
  void kinematics(const std::vector<KinematicsRecord>& records);
  void bounding_boxes(const std::vector<BoxRecord>& records, bool trigger_volumes = false);
  void platform_time(double seconds);
  void physics_control(const std::vector<PhysicsControlRecord>& records);  // UE4 layouts only
  void traffic_light_times(const std::vector<TrafficLightTimeRecord>& records);
  void frame_counter(uint64_t counter);
  void walker_bones(const std::vector<WalkerBonesRecord>& records);
  void visual_time(double seconds);
  void vehicle_wheels(const std::vector<VehicleWheelsRecord>& records);  // id per the variant's order
  void bikers(const std::vector<BikerRecord>& records);
  void doors(const std::vector<DoorRecord>& records);  // not in the 0.9.15 order: written as id 23
  void raw_packet(uint8_t id, const std::vector<uint8_t>& payload);

  // Id of a post-0.9.14 kind under the variant's numbering.
  uint8_t id_of(Kind kind) const;

  std::vector<uint8_t>& bytes() { return out_; }
  std::vector<uint8_t> take() { return std::exchange(out_, {}); }

 private:
  // "u16 total" + records: the shape of most packets.
  template <typename Records, typename WriteOne>
  void write_records(uint8_t id, const Records& list, WriteOne write_one) {
    size_t at = begin_packet(id);
    put<uint16_t>(static_cast<uint16_t>(list.size()));
    for (const auto& r : list) write_one(r);
    end_packet(at);
  }
  size_t begin_packet(uint8_t id);  // returns where the size goes
  void end_packet(size_t size_at);
  template <typename T>
  void put(T value);
  void f32(double v) { put<float>(static_cast<float>(v)); }
  void vec(const Vec3& v);
  void str(const std::string& s);

  Variant variant_;
  std::vector<uint8_t> out_;
};

}  // namespace logscope::carla
