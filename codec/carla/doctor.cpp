#include "carla/doctor.h"

#include <unordered_map>

#include "carla/stream.h"

namespace logscope::carla {

std::vector<Problem> check_actor_references(ByteSource& source, const ScanResult& scan, const ProgressFn& progress, bool* cancelled) {
  ProblemLog log;
  enum class Life : uint8_t { Alive, Destroyed };
  std::unordered_map<uint32_t, Life> actors;
  const Variant& variant = scan.variant.variant;
  uint64_t non_actor_collisions = 0;
  uint64_t first_non_actor = 0;
  auto known = [&](uint32_t id) { return actors.count(id) > 0; };
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    std::string in_frame = " in frame " + std::to_string(frame.id);
    switch (p.kind) {
      case Kind::EventAdd:
        for (const EventAddRecord& a : p.adds) {
          auto it = actors.find(a.id);
          if (it != actors.end() && it->second == Life::Alive)
            log.add(Severity::Warning, packet.offset, "carla.actor.created_twice",
                    "actor " + std::to_string(a.id) + " (" + a.blueprint + ") is created again" + in_frame + " while it still exists");
          actors[a.id] = Life::Alive;
        }
        break;
      case Kind::EventDel:
        for (uint32_t id : p.dels) {
          auto it = actors.find(id);
          if (it == actors.end())
            log.add(Severity::Warning, packet.offset, "carla.actor.destroy_unknown", "actor " + std::to_string(id) + " is destroyed" + in_frame + " but was never created");
          else if (it->second == Life::Destroyed)
            log.add(Severity::Warning, packet.offset, "carla.actor.destroyed_twice", "actor " + std::to_string(id) + " is destroyed again" + in_frame);
          else
            it->second = Life::Destroyed;
        }
        break;
      case Kind::EventParent:
        for (const auto& [child, parent] : p.parents) {
          if (!known(child))
            log.add(Severity::Warning, packet.offset, "carla.actor.parent_unknown", "parenting" + in_frame + " names child " + std::to_string(child) + ", an actor never created");
          if (!known(parent))
            log.add(Severity::Warning, packet.offset, "carla.actor.parent_unknown", "parenting" + in_frame + " names parent " + std::to_string(parent) + ", an actor never created");
        }
        break;
      case Kind::Position:
        for (const PositionRecord& r : p.positions)
          if (!known(r.id))
            log.add(Severity::Warning, packet.offset, "carla.actor.position_unknown", "a position" + in_frame + " is for actor " + std::to_string(r.id) + ", never created");
        break;
      case Kind::Collision:
        for (const CollisionRecord& c : p.collisions) {
          for (uint32_t id : {c.actor1, c.actor2}) {
            if (id == kNoActor) {
              if (!non_actor_collisions++) first_non_actor = packet.offset;
            } else if (!known(id)) {
              log.add(Severity::Warning, packet.offset, "carla.collision.unknown_actor", "collision " + std::to_string(c.id) + in_frame + " involves actor " + std::to_string(id) + ", never created");
            }
          }
        }
        break;
      default: break;
    }
  };
  auto wanted = [](uint8_t id) { return id >= kEventAdd && id <= kPosition; };
  *cancelled = !stream_packets(source, scan, progress, wanted, visit);
  if (non_actor_collisions)
    log.add(Severity::Info, first_non_actor, "carla.collision.non_actor",
            std::to_string(non_actor_collisions) + " collision sides are not actors (id 0xFFFFFFFF: static geometry such as walls or poles; written since CARLA 0.9.13)");
  return log.finish();
}

}  // namespace logscope::carla
