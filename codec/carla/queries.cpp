// show_recorder_collisions, show_recorder_actors_blocked (as CarlaRecorderQuery.cpp lays them
// out), the actor table and trajectories.
//
// Where CARLA's code is wrong we do the correct thing (spec §5; listed in docs/carla.md):
// - Category letters: CARLA indexes {'o','v','w','t','h','a'} by actor type, so a traffic sign (4)
//   shows as 'h' (hero) and a sensor (5) as 'a'; types past 5 read out of bounds. Here every type
//   without a letter of its own is 'o' (other).
// - EventDel: CARLA erases the id of the last *added* actor instead of the destroyed one. Here the
//   destroyed actor is forgotten; in the blocked query an actor destroyed while blocked long
//   enough is reported (its blocked time ends with it).
// - The last frame's duration is -1 (not yet known): CARLA adds it to blocked times; here it adds 0.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "carla/queries.h"
#include "carla/stream.h"

namespace logscope::carla {

char category_of_type(uint8_t type) {
  switch (type) {
    case 1: return 'v';
    case 2: return 'w';
    case 3: return 't';
    default: return 'o';
  }
}

namespace {
bool valid_category(char c) { return c == 'h' || c == 'v' || c == 'w' || c == 't' || c == 'o' || c == 'a'; }

Json footer_json(const ScanResult& scan) {
  Json j = Json::object();
  j["frames"] = scan.frames.empty() ? 0 : scan.frames.back().id;
  j["duration"] = scan.frames.empty() ? 0.0 : scan.frames.back().elapsed;
  if (scan.recovery.damaged) j["damage"] = scan.recovery.message;
  return j;
}

struct NamedActor {
  uint8_t type = 0;
  std::string blueprint;
};
}  // namespace

CollisionResult query_collisions(ByteSource& source, const ScanResult& scan, char category1, char category2, const ProgressFn& progress) {
  CollisionResult result;
  if (!valid_category(category1) || !valid_category(category2)) {
    result.error = "collision categories are h (hero), v (vehicle), w (walker), t (traffic light), o (other), a (any)";
    return result;
  }
  std::unordered_map<uint32_t, NamedActor> actors;
  std::set<std::pair<uint32_t, uint32_t>> previous, current;
  const Variant& variant = scan.variant.variant;
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    if (packet.id == kFrameStart) {
      previous.swap(current);
      current.clear();
      return;
    }
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (p.is(packets::EventAdd)) {
      for (const EventAddRecord& a : p.records(packets::EventAdd)) actors[a.id] = NamedActor{a.type, a.blueprint};
    } else if (p.is(packets::EventDel)) {
      for (uint32_t id : p.records(packets::EventDel)) actors.erase(id);
    } else if (p.is(packets::Collision)) {
      for (const CollisionRecord& c : p.records(packets::Collision)) {
        auto lookup = [&](uint32_t id) {
          auto it = actors.find(id);
          return it == actors.end() ? NamedActor() : it->second;
        };
        NamedActor a1 = lookup(c.actor1), a2 = lookup(c.actor2);
        char t1 = c.actor1 == kNoActor ? 'o' : category_of_type(a1.type);
        char t2 = c.actor2 == kNoActor ? 'o' : category_of_type(a2.type);
        bool pass1 = category1 == 'a' || category1 == t1 || (category1 == 'h' && c.hero1);
        bool pass2 = category2 == 'a' || category2 == t2 || (category2 == 'h' && c.hero2);
        if (!pass1 || !pass2) continue;
        auto pair = std::make_pair(c.actor1, c.actor2);
        if (!previous.count(pair))  // a row only when the pair starts colliding
          result.rows.push_back(CollisionRow{frame.id, frame.elapsed, t1, t2, c.actor1, c.actor2, a1.blueprint, a2.blueprint, c.hero1, c.hero2});
        current.insert(pair);
      }
    }
  };
  auto wanted = [](uint8_t id) { return id == kFrameStart || id == kEventAdd || id == kEventDel || id == kCollision; };
  result.cancelled = !stream_packets(source, scan, progress, wanted, visit);
  return result;
}

std::string collisions_text(const ScanResult& scan, const CollisionResult& result) {
  if (!scan.header_ok) return "File is not a CARLA recorder\n";
  std::ostringstream out;
  out << header_text(scan.header);
  out << std::setw(8) << "Time";
  out << " " << std::setw(6) << "Types";
  out << " " << std::setw(6) << std::right << "Id";
  out << " " << std::setw(35) << std::left << "Actor 1";
  out << " " << std::setw(6) << std::right << "Id";
  out << " " << std::setw(35) << std::left << "Actor 2";
  out << std::endl;
  for (const CollisionRow& row : result.rows) {
    out << std::setw(8) << std::setprecision(0) << std::right << std::fixed << row.time;
    out << " " << "  " << row.type1 << " " << row.type2 << " ";
    out << " " << std::setw(6) << std::right << row.id1;
    out << " " << std::setw(35) << std::left << row.actor1;
    out << " " << std::setw(6) << std::right << row.id2;
    out << " " << std::setw(35) << std::left << row.actor2;
    out << std::endl;
  }
  // The fixed/precision-0 state of the rows sticks to CARLA's stream and so to its footer.
  out << footer_text(scan, !result.rows.empty());
  return out.str();
}

Json collisions_json(const ScanResult& scan, const CollisionResult& result) {
  Json j = footer_json(scan);
  if (!result.error.empty()) j["error"] = result.error;
  if (result.cancelled) j["cancelled"] = true;
  Json rows = Json::array();
  for (const CollisionRow& r : result.rows) {
    Json row = Json::object();
    row["frame"] = r.frame;
    row["time"] = r.time;
    row["type1"] = std::string(1, r.type1);
    row["id1"] = r.id1 == kNoActor ? Json() : Json(r.id1);
    row["actor1"] = r.actor1;
    row["hero1"] = r.hero1;
    row["type2"] = std::string(1, r.type2);
    row["id2"] = r.id2 == kNoActor ? Json() : Json(r.id2);
    row["actor2"] = r.actor2;
    row["hero2"] = r.hero2;
    rows.push_back(std::move(row));
  }
  j["collisions"] = std::move(rows);
  return j;
}

BlockedResult query_blocked(ByteSource& source, const ScanResult& scan, double min_time, double min_distance, const ProgressFn& progress) {
  struct Tracked {
    std::string blueprint;
    Vec3 last;
    double since = 0;
    double duration = 0;
  };
  BlockedResult result;
  std::map<uint32_t, Tracked> actors;  // by id, so the rows of equal durations come out in id order
  const Variant& variant = scan.variant.variant;
  // CARLA measures with FVector::Distance: float arithmetic in UE4 (double in UE5), which decides
  // the borderline cases of `< min_distance`.
  auto moved = [&variant](const Vec3& from, const Vec3& to) -> double {
    if (variant.doubles) {
      double dx = to.x - from.x, dy = to.y - from.y, dz = to.z - from.z;
      return std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    float dx = static_cast<float>(to.x) - static_cast<float>(from.x), dy = static_cast<float>(to.y) - static_cast<float>(from.y),
          dz = static_cast<float>(to.z) - static_cast<float>(from.z);
    float squared = dx * dx + dy * dy;
    squared += dz * dz;
    return std::sqrt(squared);
  };
  auto report = [&](uint32_t id, const Tracked& t, bool until_end) {
    if (t.duration >= min_time) result.rows.push_back(BlockedRow{t.since, id, t.blueprint, t.duration, until_end});
  };
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (p.is(packets::EventAdd)) {
      for (const EventAddRecord& a : p.records(packets::EventAdd)) actors[a.id] = Tracked{a.blueprint, Vec3(), 0, 0};
    } else if (p.is(packets::EventDel)) {
      for (uint32_t id : p.records(packets::EventDel)) {
        auto it = actors.find(id);
        if (it == actors.end()) continue;
        report(id, it->second, true);
        actors.erase(it);
      }
    } else if (p.is(packets::Position)) {
      double step = frame.duration > 0 ? frame.duration : 0;  // the last frame's -1 is "unknown"
      for (const PositionRecord& r : p.records(packets::Position)) {
        Tracked& t = actors[r.id];  // as CARLA: an actor never created is tracked without a name
        if (moved(t.last, r.location) < min_distance) {
          if (t.duration == 0) t.since = frame.elapsed;
          t.duration += step;
        } else {
          report(r.id, t, false);
          t.duration = 0;
          t.last = r.location;
        }
      }
    }
  };
  auto wanted = [](uint8_t id) { return id == kEventAdd || id == kEventDel || id == kPosition; };
  result.cancelled = !stream_packets(source, scan, progress, wanted, visit);
  for (const auto& [id, t] : actors) report(id, t, true);
  std::stable_sort(result.rows.begin(), result.rows.end(), [](const BlockedRow& a, const BlockedRow& b) { return a.duration > b.duration; });
  return result;
}

std::string blocked_text(const ScanResult& scan, const BlockedResult& result) {
  if (!scan.header_ok) return "File is not a CARLA recorder\n";
  std::ostringstream out;
  out << header_text(scan.header);
  out << std::setw(8) << "Time";
  out << " " << std::setw(6) << "Id";
  out << " " << std::setw(35) << std::left << "Actor";
  out << " " << std::setw(10) << std::right << "Duration";
  out << std::endl;
  for (const BlockedRow& row : result.rows) {
    std::ostringstream line;  // CARLA formats each row in its own stream
    line << std::setw(8) << std::setprecision(0) << std::fixed << row.time;
    line << " " << std::setw(6) << row.id;
    line << " " << std::setw(35) << std::left << row.actor;
    line << " " << std::setw(10) << std::setprecision(0) << std::fixed << std::right << row.duration;
    line << std::endl;
    out << line.str();
  }
  out << footer_text(scan);
  return out.str();
}

Json blocked_json(const ScanResult& scan, const BlockedResult& result) {
  Json j = footer_json(scan);
  if (result.cancelled) j["cancelled"] = true;
  Json rows = Json::array();
  for (const BlockedRow& r : result.rows) {
    Json row = Json::object();
    row["time"] = r.time;
    row["id"] = r.id;
    row["actor"] = r.actor;
    row["duration"] = r.duration;
    row["until_end"] = r.until_end;
    rows.push_back(std::move(row));
  }
  j["blocked"] = std::move(rows);
  return j;
}

ActorsResult query_actors(ByteSource& source, const ScanResult& scan, const ProgressFn& progress) {
  ActorsResult result;
  std::map<uint32_t, size_t> alive;  // id -> index of its latest life in result.actors
  const Variant& variant = scan.variant.variant;
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    if (packet.id == kPosition) {  // count without decoding: u16 total, then u32 id first in each record
      size_t record = 4 + 2 * variant.vector_bytes();
      for (size_t at = 2; at + record <= packet.size; at += record) {
        uint32_t id;
        std::memcpy(&id, payload + at, 4);
        auto it = alive.find(id);
        if (it != alive.end()) ++result.actors[it->second].positions;
      }
      return;
    }
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (p.is(packets::EventAdd)) {
      for (const EventAddRecord& a : p.records(packets::EventAdd)) {
        ActorInfo info;
        info.id = a.id;
        info.type = a.type;
        info.blueprint = a.blueprint;
        for (const Attribute& attribute : a.attributes) {
          info.attributes.emplace_back(attribute.id, attribute.value);
          if (attribute.id == "role_name") info.role_name = attribute.value;
        }
        info.spawn_frame = frame.id;
        info.spawn_time = frame.elapsed;
        alive[a.id] = result.actors.size();
        result.actors.push_back(std::move(info));
      }
    } else if (p.is(packets::EventDel)) {
      for (uint32_t id : p.records(packets::EventDel)) {
        auto it = alive.find(id);
        if (it == alive.end()) continue;
        result.actors[it->second].destroy_frame = frame.id;
        result.actors[it->second].destroy_time = frame.elapsed;
        alive.erase(it);
      }
    } else if (p.is(packets::EventParent)) {
      for (const auto& [child, parent] : p.records(packets::EventParent)) {
        auto it = alive.find(child);
        if (it == alive.end()) continue;
        result.actors[it->second].parent = parent;
        result.actors[it->second].has_parent = true;
      }
    }
  };
  auto wanted = [](uint8_t id) { return id == kEventAdd || id == kEventDel || id == kEventParent || id == kPosition; };
  result.cancelled = !stream_packets(source, scan, progress, wanted, visit);
  std::stable_sort(result.actors.begin(), result.actors.end(), [](const ActorInfo& a, const ActorInfo& b) { return a.id < b.id; });
  return result;
}

Json actors_json(const ActorsResult& result) {
  Json j = Json::object();
  if (result.cancelled) j["cancelled"] = true;
  Json list = Json::array();
  for (const ActorInfo& a : result.actors) {
    Json actor = Json::object();
    actor["id"] = a.id;
    actor["type"] = actor_type_name(a.type);
    actor["blueprint"] = a.blueprint;
    actor["role_name"] = a.role_name;
    Json attributes = Json::object();
    for (const auto& [key, value] : a.attributes) attributes[key] = value;
    actor["attributes"] = std::move(attributes);
    actor["spawn_frame"] = a.spawn_frame;
    actor["spawn_time"] = a.spawn_time;
    actor["destroy_frame"] = a.destroy_frame ? Json(a.destroy_frame) : Json();
    actor["destroy_time"] = a.destroy_frame ? Json(a.destroy_time) : Json();
    actor["parent"] = a.has_parent ? Json(a.parent) : Json();
    actor["positions"] = a.positions;
    list.push_back(std::move(actor));
  }
  j["actors"] = std::move(list);
  return j;
}

Table actors_table(const ActorsResult& result) {
  Table table{"actors", {"id", "type", "blueprint", "role_name", "spawn_frame", "destroy_frame", "parent", "positions"}, {},
              {Unit::Id, Unit::Text, Unit::Text, Unit::Text, Unit::Id, Unit::Id, Unit::Id, Unit::Count}};
  for (const ActorInfo& a : result.actors)
    table.rows.push_back({Json(a.id), Json(actor_type_name(a.type)), Json(a.blueprint), Json(a.role_name), Json(a.spawn_frame),
                          a.destroy_frame ? Json(a.destroy_frame) : Json(), a.has_parent ? Json(a.parent) : Json(), Json(a.positions)});
  return table;
}

std::string actors_text(const ActorsResult& result) {
  std::ostringstream out;
  out << std::setw(6) << "Id" << " " << std::left << std::setw(14) << "Type" << " " << std::setw(35) << "Blueprint" << " " << std::setw(12)
      << "Role" << std::right << " " << std::setw(8) << "Spawn" << " " << std::setw(8) << "Destroy" << " " << std::setw(7) << "Parent" << " "
      << std::setw(9) << "Positions" << "\n";
  for (const ActorInfo& a : result.actors) {
    out << std::setw(6) << a.id << " " << std::left << std::setw(14) << actor_type_name(a.type) << " " << std::setw(35) << a.blueprint << " "
        << std::setw(12) << (a.role_name.empty() ? "-" : a.role_name) << std::right << " " << std::setw(8) << a.spawn_frame << " " << std::setw(8)
        << (a.destroy_frame ? std::to_string(a.destroy_frame) : "-") << " " << std::setw(7) << (a.has_parent ? std::to_string(a.parent) : "-")
        << " " << std::setw(9) << a.positions << "\n";
  }
  out << "\n" << result.actors.size() << " actors\n";
  return out.str();
}

Json query_trajectory(ByteSource& source, const ScanResult& scan, uint32_t actor, const ProgressFn& progress, size_t max_points) {
  const Variant& variant = scan.variant.variant;
  uint64_t stride = std::max<uint64_t>(1, (scan.frames.size() + max_points - 1) / std::max<size_t>(1, max_points));
  Json frame_ids = Json::array(), time = Json::array(), x = Json::array(), y = Json::array(), z = Json::array();
  Json roll = Json::array(), pitch = Json::array(), yaw = Json::array(), vx = Json::array(), vy = Json::array(), vz = Json::array();
  bool any_velocity = false;
  uint64_t frame_counter = 0, last_position_frame = UINT64_MAX;
  bool keep = false;
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    if (packet.id == kFrameStart) {
      keep = frame_counter++ % stride == 0;
      return;
    }
    if (!keep) return;
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (p.is(packets::Position)) {
      for (const PositionRecord& r : p.records(packets::Position)) {
        if (r.id != actor) continue;
        frame_ids.push_back(frame.id);
        time.push_back(frame.elapsed);
        x.push_back(r.location.x), y.push_back(r.location.y), z.push_back(r.location.z);
        roll.push_back(r.rotation.x), pitch.push_back(r.rotation.y), yaw.push_back(r.rotation.z);
        vx.push_back(nullptr), vy.push_back(nullptr), vz.push_back(nullptr);
        last_position_frame = frame.id;
        break;
      }
    } else if (p.is(packets::Kinematics) && last_position_frame == frame.id) {
      for (const KinematicsRecord& r : p.records(packets::Kinematics)) {
        if (r.id != actor) continue;
        vx.elements().back() = r.linear.x, vy.elements().back() = r.linear.y, vz.elements().back() = r.linear.z;
        any_velocity = true;
        break;
      }
    }
  };
  auto wanted = [](uint8_t id) { return id == kFrameStart || id == kPosition || id == kKinematics; };
  bool finished = stream_packets(source, scan, progress, wanted, visit);
  Json j = Json::object();
  j["actor"] = actor;
  j["points"] = time.size();
  j["stride"] = stride;
  if (!finished) j["cancelled"] = true;
  j["frame"] = std::move(frame_ids);
  j["time"] = std::move(time);
  Json location = Json::object();
  location["x"] = std::move(x), location["y"] = std::move(y), location["z"] = std::move(z);
  j["location"] = std::move(location);
  Json rotation = Json::object();
  rotation["roll"] = std::move(roll), rotation["pitch"] = std::move(pitch), rotation["yaw"] = std::move(yaw);
  j["rotation"] = std::move(rotation);
  if (any_velocity) {
    Json velocity = Json::object();
    velocity["x"] = std::move(vx), velocity["y"] = std::move(vy), velocity["z"] = std::move(vz);
    j["velocity"] = std::move(velocity);
  }
  j["units"] = "location cm, rotation degrees (roll, pitch, yaw), velocity as recorded (cm/s)";
  return j;
}

}  // namespace logscope::carla
