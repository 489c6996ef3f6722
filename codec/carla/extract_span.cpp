#include "carla/extract_span.h"

#include <algorithm>
#include <cstring>

#include "carla/decode.h"

namespace logscope::carla {
namespace {

constexpr size_t kMaxRecords = 0xFFFF;        // a packet's "u16 total"
constexpr size_t kMaxPacketBytes = 1u << 30;  // records are split over packets beyond this
constexpr size_t kFlushBytes = 1u << 20;      // the sink gets pieces of about this size

// Each whole record of a decoded record packet, as its bytes in `payload`. The last record ends
// where the payload does, or, when the packet did not decode whole, where the records read end
// (their length written back through the table: the layouts write back what they read).
std::vector<Slice> record_slices(const DecodedPacket& p, const uint8_t* payload, size_t size, const Variant& variant) {
  std::vector<Slice> slices;
  const std::vector<uint32_t>& at = p.record_offsets;
  if (at.empty() || !p.type) return slices;
  size_t end = size;
  if (!p.ok) {
    std::vector<uint8_t> again;
    PayloadWriter w(again, variant);
    p.type->write_payload(w, p.list);  // "u16 total" + the records read, which start at byte 2
    end = std::min(size, again.size());
  }
  for (size_t i = 0; i < at.size(); ++i) {
    size_t stop = i + 1 < at.size() ? at[i + 1] : end;
    if (stop < at[i]) break;
    slices.push_back({payload + at[i], stop - at[i]});
  }
  return slices;
}

template <typename R>
bool ids_of(const DecodedPacket& p, const RecordPacket<R>& kind, std::vector<RecordActors>* out) {
  if (!p.is(kind)) return false;
  for (const R& r : p.records(kind)) out->push_back({r.id, kNoActor});
  return true;
}

// The actors of each record of a decoded packet, in record order; false for packets whose records
// name no actor (SceneLight: scene lights are not actors) and for single payloads.
bool record_actors(const DecodedPacket& p, std::vector<RecordActors>* out) {
  using namespace packets;
  out->clear();
  if (p.is(EventDel)) {
    for (uint32_t id : p.records(EventDel)) out->push_back({id, kNoActor});
    return true;
  }
  if (p.is(Collision)) {
    for (const CollisionRecord& r : p.records(Collision)) out->push_back({r.actor1, r.actor2});
    return true;
  }
  // EventParent: the child (its parent is kept with it, see ActorSelection).
  return ids_of(p, EventAdd, out) || ids_of(p, EventParent, out) || ids_of(p, Position, out) || ids_of(p, State, out) ||
         ids_of(p, Kinematics, out) || ids_of(p, BoundingBox, out) || ids_of(p, TriggerVolume, out) ||
         ids_of(p, TrafficLightTime, out) || ids_of(p, AnimVehicle, out) || ids_of(p, AnimWalker, out) ||
         ids_of(p, VehicleLight, out) || ids_of(p, WalkerBones, out) || ids_of(p, AnimVehicleWheels, out) ||
         ids_of(p, AnimBiker, out) || ids_of(p, VehicleDoor, out) || ids_of(p, PhysicsControl, out);
}

// Packets whose records describe an actor once, at its spawn (or when they change): the last
// such record of each actor alive at the cut goes into the first frame with its creation.
bool carried_at_spawn(uint8_t id) {
  return id == kEventParent || id == kBoundingBox || id == kTriggerVolume || id == kPhysicsControl || id == kTrafficLightTime;
}

// CARLA's order of packets in a frame (ACarlaRecorder::Write, spec §3): a packet added to the
// first frame goes where CARLA would have written it.
int write_rank(uint8_t id, const Variant& variant) {
  using namespace packets;
  static const PacketType* const kOrder[] = {&FrameStart, &VisualTime,   &EventAdd,        &EventDel,   &EventParent,
                                             &Collision,  &VehicleDoor,  &Position,        &State,      &AnimVehicle,
                                             &AnimWalker, &VehicleLight, &SceneLight,      &AnimVehicleWheels, &AnimBiker,
                                             &Kinematics, &BoundingBox,  &TriggerVolume,   &PlatformTime, &PhysicsControl,
                                             &TrafficLightTime, &WalkerBones, &FrameEnd};
  const PacketType* type = packet_type(id, variant);
  for (size_t i = 0; type && i < sizeof kOrder / sizeof kOrder[0]; ++i)
    if (kOrder[i] == type) return static_cast<int>(i);
  return -1;  // user packets, FrameCounter: no place of their own
}

}  // namespace

// --- PacketOut ----------------------------------------------------------------------------------

void PacketOut::bytes(const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  buffer_.insert(buffer_.end(), p, p + size);
  if (buffer_.size() >= kFlushBytes) flush();
}

void PacketOut::header(uint8_t id, uint32_t size) {
  uint8_t head[kPacketHeaderSize] = {id};
  std::memcpy(head + 1, &size, 4);
  bytes(head, sizeof head);
}

void PacketOut::packet(uint8_t id, const uint8_t* payload, uint32_t size) {
  header(id, size);
  bytes(payload, size);
}

void PacketOut::records(uint8_t id, const std::vector<Slice>& records) {
  size_t first = 0;
  do {
    size_t last = first, payload = 2;
    while (last < records.size() && last - first < kMaxRecords && (last == first || payload + records[last].size <= kMaxPacketBytes))
      payload += records[last++].size;
    header(id, static_cast<uint32_t>(payload));
    uint16_t total = static_cast<uint16_t>(last - first);
    bytes(&total, 2);
    for (size_t i = first; i < last; ++i) bytes(records[i].data, records[i].size);
    first = last;
  } while (first < records.size());
}

bool PacketOut::flush() {
  if (ok_ && !buffer_.empty()) ok_ = sink_.write(buffer_.data(), buffer_.size());
  buffer_.clear();
  return ok_;
}

// --- ActorLives ---------------------------------------------------------------------------------

bool ActorLives::wants(uint8_t id) { return id == kEventAdd || id == kEventDel || carried_at_spawn(id); }

void ActorLives::packet(const PacketRef& packet, const uint8_t* payload) {
  if (packet.size < 2 || (payload[0] | payload[1]) == 0) return;  // no records (BoundingBox, every frame)
  DecodedPacket p;
  decode_packet(packet.id, payload, packet.size, variant_, &p);
  if (!p.type || !p.list) return;  // UE5 PhysicsControl: its layout is unknown, it is not carried
  if (p.is(packets::EventDel)) {
    for (uint32_t id : p.records(packets::EventDel)) alive_.erase(id);
    return;
  }
  std::vector<Slice> slices = record_slices(p, payload, packet.size, variant_);
  if (!record_actors(p, &actors_)) return;
  for (size_t i = 0; i < slices.size() && i < actors_.size(); ++i) {
    uint32_t id = actors_[i].first;
    if (p.is(packets::EventAdd)) {
      Life& life = alive_[id] = Life();
      life.order = next_order_++;
    }
    auto it = alive_.find(id);
    if (it != alive_.end()) it->second.records[packet.id].assign(slices[i].data, slices[i].data + slices[i].size);
  }
}

std::vector<std::pair<uint32_t, const ActorLives::Life*>> ActorLives::in_order() const {
  std::vector<std::pair<uint32_t, const Life*>> list;
  for (const auto& [id, life] : alive_) list.push_back({id, &life});
  std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second->order < b.second->order; });
  return list;
}

bool ActorLives::parent_of(const Life& life, uint32_t* parent) {
  auto it = life.records.find(kEventParent);
  if (it == life.records.end() || it->second.size() < 8) return false;
  std::memcpy(parent, it->second.data() + 4, 4);
  return true;
}

// --- ActorSelection -----------------------------------------------------------------------------

void ActorSelection::choose(const std::vector<uint32_t>& actors) {
  all_ = actors.empty();
  kept_.insert(actors.begin(), actors.end());
}

void ActorSelection::close_over(const std::set<std::pair<uint32_t, uint32_t>>& links) {
  for (bool grew = !all_; grew;) {
    grew = false;
    for (const auto& [child, parent] : links)
      if (kept_.count(child) && kept_.insert(parent).second) grew = true;
  }
}

// --- SpanWriter ---------------------------------------------------------------------------------

void SpanWriter::recreate(const ActorLives& lives) {
  std::map<uint8_t, std::vector<Slice>> pending;
  for (const auto& [id, life] : lives.in_order()) {
    if (!selection_.keeps(id)) continue;
    ++counts_.recreated;
    for (const auto& [packet_id, bytes] : life->records) {
      if (packet_id == kEventParent) {
        uint32_t parent = 0;
        if (!ActorLives::parent_of(*life, &parent)) continue;
        if (!lives.alive().count(parent) || !selection_.keeps(parent)) {  // gone before the cut: the link would dangle
          ++counts_.dangling_parents;
          continue;
        }
        ++counts_.parents_recreated;
      } else if (packet_id != kEventAdd) {
        ++counts_.spawn_records;
      }
      pending[packet_id].push_back({bytes.data(), bytes.size()});
    }
  }
  for (auto& [packet_id, records] : pending) pending_.push_back({packet_id, write_rank(packet_id, variant_), std::move(records)});
  std::sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) { return a.rank < b.rank; });
}

void SpanWriter::packet(const PacketRef& packet, const uint8_t* payload) {
  if (frame_ > last_ || packet.offset < at_->offset) {  // between frames: no frame of CARLA's has it
    ++counts_.packets_outside;
    return;
  }
  const FrameEntry frame = *at_;
  if (packet.offset == frame.offset) {
    frame_start(frame);
  } else {
    if (frame_ == first_) flush_pending_before(write_rank(packet.id, variant_));
    if (!payload)
      ++counts_.too_large;
    else
      copy(packet, payload);
  }
  if (packet.end() >= frame.end) {
    if (frame_ == first_) flush_pending_before(INT32_MAX);
    if (packet.id != kFrameEnd) {  // a frame the scan closed at the next FrameStart
      out_.header(kFrameEnd, 0);
      ++counts_.frame_ends_added;
    }
    ++counts_.frames;
    ++frame_;
    ++at_;
  }
}

void SpanWriter::frame_start(const FrameEntry& frame) {
  uint8_t payload[24];
  uint64_t id = frame_ - first_ + 1;
  double duration = frame_ == last_ ? -1.0 : frame.duration;  // CARLA leaves -1 in the last frame
  double elapsed = frame.elapsed - first_elapsed_;
  std::memcpy(payload, &id, 8);
  std::memcpy(payload + 8, &duration, 8);
  std::memcpy(payload + 16, &elapsed, 8);
  out_.packet(kFrameStart, payload, sizeof payload);
}

// The first frame's added records whose packet CARLA writes before a packet of rank `rank`,
// in packets of their own: the frame has no packet of their kind to join.
void SpanWriter::flush_pending_before(int rank) {
  if (rank < 0) return;
  while (!pending_.empty() && pending_.front().rank < rank) {
    out_.records(pending_.front().id, pending_.front().records);
    pending_.erase(pending_.begin());
  }
}

void SpanWriter::copy(const PacketRef& packet, const uint8_t* payload) {
  Pending* join = nullptr;
  if (frame_ == first_)
    for (Pending& p : pending_)
      if (p.id == packet.id) join = &p;
  const PacketType* type = packet_type(packet.id, variant_);
  bool split = type && !type->single() && (join || !selection_.all());
  if (!split) return out_.packet(packet.id, payload, packet.size);
  DecodedPacket p;
  decode_packet(packet.id, payload, packet.size, variant_, &p);
  bool readable = p.ok && (p.list || !p.total) && !(type->ue4_only() && variant_.doubles);
  std::vector<Slice> kept;
  bool all_kept = true;
  if (readable) {
    kept = record_slices(p, payload, packet.size, variant_);
    if (record_actors(p, &actors_) && !selection_.all()) {
      std::vector<Slice> chosen;
      for (size_t i = 0; i < kept.size() && i < actors_.size(); ++i) {
        bool first = selection_.keeps(actors_[i].first), second = selection_.keeps(actors_[i].second);
        if (first && second) {
          chosen.push_back(kept[i]);
          continue;
        }
        ++counts_.records_dropped[type->name()];
        bool two_actors = actors_[i].first != kNoActor && actors_[i].second != kNoActor;  // a collision between actors
        if (two_actors && first != second) ++counts_.mixed_collisions;
      }
      all_kept = chosen.size() == kept.size();
      kept = std::move(chosen);
    }
  }
  if (join) {
    if (!readable) {  // the added records in a packet of their own, beside the source's
      out_.records(join->id, join->records);
    } else {
      join->records.insert(join->records.end(), kept.begin(), kept.end());
      out_.records(join->id, join->records);
    }
    pending_.erase(pending_.begin() + (join - pending_.data()));
    if (readable) return;
  }
  if (!readable && !selection_.all()) {
    ++counts_.packets_unsplit[type->name()];
    return;
  }
  if (!readable || all_kept)
    out_.packet(packet.id, payload, packet.size);
  else
    out_.records(packet.id, kept);
}

}  // namespace logscope::carla
