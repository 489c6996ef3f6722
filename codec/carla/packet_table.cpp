#include "carla/packet_table.h"

#include <array>

#include "carla/packets_animation.h"
#include "carla/packets_events.h"
#include "carla/packets_frame.h"
#include "carla/packets_physics.h"
#include "carla/packets_world.h"

namespace logscope::carla {

const char* release_name(Release release) {
  switch (release) {
    case Release::k0_9_5: return "0.9.5";
    case Release::k0_9_6: return "0.9.6";
    case Release::k0_9_10: return "0.9.10";
    case Release::k0_9_14: return "0.9.14";
    case Release::k0_9_15: return "0.9.15";
    case Release::kDev: return "ue4-dev";
  }
  return "";
}

Json vec3_json(const Vec3& v) {
  Json j = Json::object();
  j["x"] = v.x;
  j["y"] = v.y;
  j["z"] = v.z;
  return j;
}

namespace {
template <size_t N>
void add_family(std::vector<const PacketType*>& list, const PacketType* const (&family)[N]) {
  list.insert(list.end(), family, family + N);
}
}  // namespace

const std::vector<const PacketType*>& packet_types() {
  static const std::vector<const PacketType*> all = [] {
    std::vector<const PacketType*> list;
    add_family(list, packets::kFrameFamily);
    add_family(list, packets::kEventFamily);
    add_family(list, packets::kWorldFamily);
    add_family(list, packets::kAnimationFamily);
    add_family(list, packets::kPhysicsFamily);
    return list;
  }();
  return all;
}

namespace {

// Lookups by id, built once from the table.
struct IdIndex {
  std::array<std::array<const PacketType*, 256>, 3> by_order{};  // [IdOrder][id]
  std::array<uint8_t, 256> flags{};
  uint8_t highest = 0;
  uint8_t lowest_dependent = 255, highest_dependent = 0;
};
enum : uint8_t { kKnown = 1, kOrderDependent = 2, kVectorSized = 4, kVariable = 8, kEvent = 16 };

const IdIndex& index() {
  static const IdIndex built = [] {
    IdIndex x;
    for (const PacketType* type : packet_types())
      for (int o = 0; o < 3; ++o) {
        uint8_t id = type->id(static_cast<IdOrder>(o));
        if (id == kNoId) continue;
        x.by_order[o][id] = type;
        uint8_t& f = x.flags[id];
        f |= kKnown;
        if (type->vector_sized()) f |= kVectorSized;
        if (type->variable_size()) f |= kVariable;
        if (type->text_without_all() && !type->single()) f |= kEvent;
        x.highest = std::max(x.highest, id);
      }
    for (int id = 0; id < 256; ++id)
      if (x.by_order[0][id] != x.by_order[1][id] || x.by_order[0][id] != x.by_order[2][id]) {
        x.flags[id] |= kOrderDependent;
        x.lowest_dependent = std::min<uint8_t>(x.lowest_dependent, id);
        x.highest_dependent = std::max<uint8_t>(x.highest_dependent, id);
      }
    return x;
  }();
  return built;
}

bool has_flag(uint8_t id, uint8_t flag) { return index().flags[id] & flag; }

}  // namespace

const PacketType* packet_type(uint8_t id, const Variant& variant) { return index().by_order[static_cast<int>(variant.order)][id]; }

bool known_in_any_order(uint8_t id) { return has_flag(id, kKnown); }
bool order_dependent(uint8_t id) { return has_flag(id, kOrderDependent); }
bool vector_sized_id(uint8_t id) { return has_flag(id, kVectorSized); }
bool variable_size_id(uint8_t id) { return has_flag(id, kVariable); }
bool event_id(uint8_t id) { return has_flag(id, kEvent); }
uint8_t highest_known_id() { return index().highest; }

bool release_of_id(uint8_t id, Release* release) {
  bool found = false;
  for (int o = 0; o < 3; ++o)
    if (const PacketType* type = index().by_order[o][id]) {
      if (!found || type->since() < *release) *release = type->since();
      found = true;
    }
  return found;
}

Release latest_release(const std::array<uint64_t, 256>& packet_counts) {
  Release latest = Release::k0_9_5;
  for (int id = 0; id < 256; ++id) {
    Release release = Release::k0_9_5;
    if (packet_counts[id] && release_of_id(static_cast<uint8_t>(id), &release)) latest = std::max(latest, release);
  }
  return latest;
}

std::string order_dependent_range() {
  const IdIndex& x = index();
  if (x.lowest_dependent > x.highest_dependent) return "";
  return std::to_string(x.lowest_dependent) + "-" + std::to_string(x.highest_dependent);
}

}  // namespace logscope::carla
