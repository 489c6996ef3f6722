// Packet table, events family: actors created, destroyed and parented, and collisions. These are
// what `logscope info` prints without --all, and what the doctor checks actor lives with.
#pragma once

#include "carla/packet_table.h"

namespace logscope::carla {

struct Attribute {
  uint8_t type = 0;
  std::string id;
  std::string value;
};
struct EventAddRecord {
  uint32_t id = 0;
  uint8_t type = 0;  // actor_type_name()
  Vec3 location, rotation;
  uint32_t description_uid = 0;
  std::string blueprint;
  std::vector<Attribute> attributes;
};
struct ParentRecord {
  uint32_t id = 0;  // the child
  uint32_t parent = 0;
};
struct CollisionRecord {
  uint32_t id = 0;
  uint32_t actor1 = 0, actor2 = 0;  // kNoActor: static geometry (>= 0.9.13)
  bool hero1 = false, hero2 = false;
};

namespace packets {

inline constexpr auto EventAdd =
    records<EventAddRecord>("EventAdd", same_id(2), Release::k0_9_5, variable_size(SizedBy::Vectors))
        .layout([](auto& io, auto& r) {
          io.u32(r.id), io.u8(r.type), io.vec(r.location), io.vec(r.rotation), io.u32(r.description_uid), io.str(r.blueprint);
          io.list16(r.attributes, [](auto& io, auto& a) { io.u8(a.type), io.str(a.id), io.str(a.value); });
        })
        .json([](Json& j, const EventAddRecord& r) {
          j["id"] = r.id;
          j["type"] = r.type;
          j["type_name"] = actor_type_name(r.type);
          j["location"] = vec3_json(r.location);
          j["rotation"] = vec3_json(r.rotation);
          j["description_uid"] = r.description_uid;
          j["blueprint"] = r.blueprint;
          Json attributes = Json::array();
          for (const Attribute& attribute : r.attributes) {
            Json a = Json::object();
            a["type"] = attribute_type_name(attribute.type);
            a["id"] = attribute.id;
            a["value"] = attribute.value;
            attributes.push_back(std::move(a));
          }
          j["attributes"] = std::move(attributes);
        })
        .text_always([](InfoText& t, const std::vector<EventAddRecord>& records) {
          t.frame_if_records();
          for (const EventAddRecord& r : records) {
            t.out << " Create " << r.id << ": " << r.blueprint << " (" << static_cast<int>(r.type) << ") at ";
            t.vec(r.location);
            t.out << text::endl;
            for (const Attribute& a : r.attributes) t.out << "  " << a.id << " = " << a.value << text::endl;
          }
        })
        .check([](ActorCheck& c, const EventAddRecord& r) { c.created(r.id, r.blueprint); });

inline constexpr auto EventDel = records<uint32_t>("EventDel", same_id(3), Release::k0_9_5, fixed_size(4))
                                 .layout([](auto& io, auto& id) { io.u32(id); })
                                 .json([](Json& j, const uint32_t& id) { j["id"] = id; })
                                 .text_always([](InfoText& t, const std::vector<uint32_t>& ids) {
                                   t.frame_if_records();
                                   for (uint32_t id : ids) t.out << " Destroy " << id << "\n";
                                 })
                                 .check([](ActorCheck& c, const uint32_t& id) { c.destroyed(id); });

inline constexpr auto EventParent =
    records<ParentRecord>("EventParent", same_id(4), Release::k0_9_5, fixed_size(8))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.u32(r.parent); })
        .json([](Json& j, const ParentRecord& r) {
          j["id"] = r.id;
          j["parent"] = r.parent;
        })
        .text_always([](InfoText& t, const std::vector<ParentRecord>& records) {
          t.frame_if_records();
          for (const ParentRecord& r : records) t.out << " Parenting " << r.id << " with " << r.parent << " (parent)\n";
        })
        .check([](ActorCheck& c, const ParentRecord& r) {
          if (!c.known(r.id))
            c.warn("carla.actor.parent_unknown", "parenting" + c.in_frame() + " names child " + std::to_string(r.id) + ", an actor never created");
          if (!c.known(r.parent))
            c.warn("carla.actor.parent_unknown",
                   "parenting" + c.in_frame() + " names parent " + std::to_string(r.parent) + ", an actor never created");
        });

inline constexpr auto Collision =
    records<CollisionRecord>("Collision", same_id(5), Release::k0_9_5, fixed_size(14))
        .layout([](auto& io, auto& r) { io.u32(r.id), io.u32(r.actor1), io.u32(r.actor2), io.flag(r.hero1), io.flag(r.hero2); })
        .json([](Json& j, const CollisionRecord& r) {
          j["id"] = r.id;
          j["actor1"] = r.actor1 == kNoActor ? Json() : Json(r.actor1);
          j["actor2"] = r.actor2 == kNoActor ? Json() : Json(r.actor2);
          j["hero1"] = r.hero1;
          j["hero2"] = r.hero2;
        })
        .text_always([](InfoText& t, const std::vector<CollisionRecord>& records) {
          t.frame_if_records();
          for (const CollisionRecord& r : records) {
            t.out << " Collision id " << r.id << " between " << r.actor1;
            if (r.hero1) t.out << " (hero) ";
            t.out << " with " << r.actor2;
            if (r.hero2) t.out << " (hero) ";
            t.out << text::endl;
          }
        })
        .check([](ActorCheck& c, const CollisionRecord& r) {
          for (uint32_t id : {r.actor1, r.actor2}) {
            if (id == kNoActor)
              c.not_an_actor();
            else if (!c.known(id))
              c.warn("carla.collision.unknown_actor",
                     "collision " + std::to_string(r.id) + c.in_frame() + " involves actor " + std::to_string(id) + ", never created");
          }
        });

inline constexpr const PacketType* kEventFamily[] = {&EventAdd, &EventDel, &EventParent, &Collision};

}  // namespace packets
}  // namespace logscope::carla
