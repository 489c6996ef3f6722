// Packet payload decoding for every id, under a layout variant. Every count is checked against
// the bytes of the payload, so a lying "total" can never allocate or read past the packet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "carla/format.h"
#include "core/json.h"

namespace logscope::carla {

// One packet's payload, decoded. Only the vector for its kind is filled.
struct DecodedPacket {
  uint8_t id = 0;
  Kind kind = Kind::Unknown;
  bool ok = false;            // the payload parsed and its size matches the layout exactly
  std::string error;          // why not, when !ok
  uint32_t total = 0;         // the record count the packet declares (0 for packets without one)
  std::vector<uint32_t> record_offsets;  // payload-relative start of each record (for spans/paging)

  FrameStartRecord frame;
  double time = 0;            // PlatformTime / VisualTime
  uint64_t counter = 0;       // FrameCounter
  std::vector<EventAddRecord> adds;
  std::vector<uint32_t> dels;
  std::vector<std::pair<uint32_t, uint32_t>> parents;  // (child, parent)
  std::vector<CollisionRecord> collisions;
  std::vector<PositionRecord> positions;
  std::vector<StateRecord> states;
  std::vector<AnimVehicleRecord> vehicles;
  std::vector<std::pair<uint32_t, double>> walkers;  // (id, speed)
  std::vector<std::pair<uint32_t, uint32_t>> lights;  // (id, flags)
  std::vector<SceneLightRecord> scene_lights;
  std::vector<KinematicsRecord> kinematics;
  std::vector<BoxRecord> boxes;  // BoundingBox and TriggerVolume
  std::vector<PhysicsControlRecord> physics;
  std::vector<TrafficLightTimeRecord> light_times;
  std::vector<WalkerBonesRecord> bones;
  std::vector<VehicleWheelsRecord> wheels;
  std::vector<BikerRecord> bikers;
  std::vector<DoorRecord> doors;
};

// Decodes a payload. Returns out->ok. User and unknown ids are "ok" with no content.
bool decode_packet(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, DecodedPacket* out);

// Whether a payload's declared size fits the layout of its id under a variant, without keeping
// the records (fast path for fixed-size records). `why` gets a sentence when it does not fit.
bool layout_fits(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, std::string* why);

// How many leading payload bytes the forward scan needs to check a packet (the whole payload for
// variable-size records, the 2-byte total for fixed-size ones, 24 for FrameStart).
size_t bytes_needed_for_check(uint8_t id, uint32_t size, const Variant& variant);

// JSON of a decoded packet, records [first, first+count) only (the UI pages big packets).
Json packet_to_json(const DecodedPacket& packet, size_t first = 0, size_t count = SIZE_MAX);
Json record_to_json(const DecodedPacket& packet, size_t index);
size_t record_count(const DecodedPacket& packet);
Json vec3_json(const Vec3& v);

}  // namespace logscope::carla
