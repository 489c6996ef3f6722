// The actor table (every actor's lives: type, blueprint, spawn and destroy frames, parent) and one
// actor's trajectory, streamed over the complete frames of a scanned log. The query table that
// answers with them is in queries.cpp.
#include <algorithm>
#include <cstring>
#include <map>

#include "core/text_out.h"
#include "carla/queries.h"
#include "carla/stream.h"

namespace logscope::carla {

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
  TextOut out;
  out << text::setw(6) << "Id" << " " << text::left << text::setw(14) << "Type" << " " << text::setw(35) << "Blueprint" << " " << text::setw(12)
      << "Role" << text::right << " " << text::setw(8) << "Spawn" << " " << text::setw(8) << "Destroy" << " " << text::setw(7) << "Parent" << " "
      << text::setw(9) << "Positions" << "\n";
  for (const ActorInfo& a : result.actors) {
    out << text::setw(6) << a.id << " " << text::left << text::setw(14) << actor_type_name(a.type) << " " << text::setw(35) << a.blueprint << " "
        << text::setw(12) << (a.role_name.empty() ? "-" : a.role_name) << text::right << " " << text::setw(8) << a.spawn_frame << " " << text::setw(8)
        << (a.destroy_frame ? std::to_string(a.destroy_frame) : "-") << " " << text::setw(7) << (a.has_parent ? std::to_string(a.parent) : "-")
        << " " << text::setw(9) << a.positions << "\n";
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
  j["note"] = "location cm, rotation degrees (roll, pitch, yaw), velocity as recorded (cm/s)";
  return j;
}

}  // namespace logscope::carla
