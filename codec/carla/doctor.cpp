#include "carla/doctor.h"

#include <unordered_map>

#include "carla/reader.h"
#include "carla/stream.h"

namespace logscope::carla {
namespace {

// Actor lives as the packets tell them; the table's check hooks (packets_*.h) call it.
class ActorLives : public ActorCheck {
 public:
  explicit ActorLives(ProblemLog& log) : log_(log) {}

  void at(const FrameStartRecord& frame, const PacketRef& packet) { frame_ = frame.id, offset_ = packet.offset; }

  void created(uint32_t id, const std::string& blueprint) override {
    auto it = actors_.find(id);
    if (it != actors_.end() && it->second == Life::Alive)
      warn("carla.actor.created_twice", "actor " + std::to_string(id) + " (" + blueprint + ") is created again" + in_frame() + " while it still exists");
    actors_[id] = Life::Alive;
  }
  void destroyed(uint32_t id) override {
    auto it = actors_.find(id);
    if (it == actors_.end())
      warn("carla.actor.destroy_unknown", "actor " + std::to_string(id) + " is destroyed" + in_frame() + " but was never created");
    else if (it->second == Life::Destroyed)
      warn("carla.actor.destroyed_twice", "actor " + std::to_string(id) + " is destroyed again" + in_frame());
    else
      it->second = Life::Destroyed;
  }
  bool known(uint32_t id) const override { return actors_.count(id) > 0; }
  void not_an_actor() override {
    if (!non_actor_sides_++) first_non_actor_ = offset_;
  }
  void warn(const char* code, const std::string& message) override { log_.add(Severity::Warning, offset_, code, message); }
  std::string in_frame() const override { return " in frame " + std::to_string(frame_); }

  void finish() {
    if (non_actor_sides_)
      log_.add(Severity::Info, first_non_actor_, "carla.collision.non_actor",
               std::to_string(non_actor_sides_) +
                   " collision sides are not actors (id 0xFFFFFFFF: static geometry such as walls or poles; written since CARLA 0.9.13)");
  }

 private:
  enum class Life : uint8_t { Alive, Destroyed };
  ProblemLog& log_;
  std::unordered_map<uint32_t, Life> actors_;
  uint64_t frame_ = 0, offset_ = 0;
  uint64_t non_actor_sides_ = 0, first_non_actor_ = 0;
};

}  // namespace

std::vector<Problem> check_actor_references(ByteSource& source, const ScanResult& scan, const ProgressFn& progress, bool* cancelled) {
  ProblemLog log;
  ActorLives lives(log);
  const Variant& variant = scan.variant.variant;
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (!p.type || !p.list) return;
    lives.at(frame, packet);
    p.type->check_records(lives, p.list);
  };
  auto wanted = [&](uint8_t id) {
    const PacketType* type = packet_type(id, variant);
    return type && type->has_check();
  };
  *cancelled = !stream_packets(source, scan, progress, wanted, visit);
  lives.finish();
  return log.finish();
}

}  // namespace logscope::carla
