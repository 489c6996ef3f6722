// The CARLA query table (every query needs the frame index: one scan, kept) and the handlers of
// show_recorder_collisions and show_recorder_actors_blocked (as CarlaRecorderQuery.cpp lays them
// out); the actor table and trajectories are in actors.cpp, the plot queries in plot_queries.cpp.
//
// Where CARLA's code is wrong we do the correct thing (spec §5; listed in docs/carla.md):
// - Category letters: CARLA indexes {'o','v','w','t','h','a'} by actor type, so a traffic sign (4)
//   shows as 'h' (hero) and a sensor (5) as 'a'; types past 5 read out of bounds. Here every type
//   without a letter of its own is 'o' (other).
// - EventDel: CARLA erases the id of the last *added* actor instead of the destroyed one. Here the
//   destroyed actor is forgotten; in the blocked query an actor destroyed while blocked long
//   enough is reported (its blocked time ends with it).
// - The last frame's duration is -1 (not yet known): CARLA adds it to blocked times; here it adds 0.
#include "core/text_out.h"
#include "carla/queries.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "carla/plot_queries.h"
#include "carla/stream.h"
#include "carla/walker.h"

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

// The units of footer_json, with the text CARLA prints.
ResultUnits footer_units() {
  return {{"frames", Unit::Count}, {"duration", Unit::Seconds}, {"damage", Unit::Text}, {"cancelled", Unit::Flag}, {"text", Unit::Text}};
}

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
  TextOut out;
  out << header_text(scan.header);
  out << text::setw(8) << "Time";
  out << " " << text::setw(6) << "Types";
  out << " " << text::setw(6) << text::right << "Id";
  out << " " << text::setw(35) << text::left << "Actor 1";
  out << " " << text::setw(6) << text::right << "Id";
  out << " " << text::setw(35) << text::left << "Actor 2";
  out << text::endl;
  for (const CollisionRow& row : result.rows) {
    out << text::setw(8) << text::setprecision(0) << text::right << text::fixed << row.time;
    out << " " << "  " << row.type1 << " " << row.type2 << " ";
    out << " " << text::setw(6) << text::right << row.id1;
    out << " " << text::setw(35) << text::left << row.actor1;
    out << " " << text::setw(6) << text::right << row.id2;
    out << " " << text::setw(35) << text::left << row.actor2;
    out << text::endl;
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
  TextOut out;
  out << header_text(scan.header);
  out << text::setw(8) << "Time";
  out << " " << text::setw(6) << "Id";
  out << " " << text::setw(35) << text::left << "Actor";
  out << " " << text::setw(10) << text::right << "Duration";
  out << text::endl;
  for (const BlockedRow& row : result.rows) {
    TextOut line;  // CARLA formats each row in its own stream
    line << text::setw(8) << text::setprecision(0) << text::fixed << row.time;
    line << " " << text::setw(6) << row.id;
    line << " " << text::setw(35) << text::left << row.actor;
    line << " " << text::setw(10) << text::setprecision(0) << text::fixed << text::right << row.duration;
    line << text::endl;
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

// The query table. Every query needs the frame index (one scan, kept).
std::vector<QuerySpec> query_table(ByteSource& source, const std::function<const ScanResult&(const ProgressFn&)>& scan) {
  auto text_arg = [](QueryArgs& args, const char* name) {
    std::string v = args.str(name, "a");
    return v.empty() ? 'a' : v[0];
  };
  std::vector<QuerySpec> table = {
      {"frames", "a page of the frame index (id, elapsed, duration, offset, packets)",
       {{"first", ArgType::U64, "first frame index"}, {"count", ArgType::U64, "frames"}},
       {{"total", Unit::Count}, {"first", Unit::Id}, {"frames.index", Unit::Id}, {"frames.id", Unit::Id}, {"frames.elapsed", Unit::Seconds},
        {"frames.duration", Unit::Seconds}, {"frames.offset", Unit::Offset}, {"frames.length", Unit::Bytes}, {"frames.packets", Unit::Count},
        {"frames.has_events", Unit::Flag}},
       [&source, scan](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         uint64_t first = args.u64("first", 0), count = args.u64("count", 1000);
         Json j = Json::object();
         j["total"] = s.frames.size();
         j["first"] = first;
         Json frames = Json::array();
         auto it = s.frames.begin() + static_cast<std::ptrdiff_t>(std::min<uint64_t>(first, s.frames.size()));
         for (uint64_t i = first; i < s.frames.size() && i - first < count; ++i, ++it) {
           const FrameEntry f = *it;  // in order: the list decodes each frame once
           Json frame = Json::object();
           frame["index"] = i;
           frame["id"] = f.id;
           frame["elapsed"] = f.elapsed;
           frame["duration"] = f.duration;
           frame["offset"] = f.offset;
           frame["length"] = f.end - f.offset;
           frame["packets"] = f.packets;
           frame["has_events"] = f.has_events;
           frames.push_back(std::move(frame));
         }
         j["frames"] = std::move(frames);
         return j;
       }},
      {"file_info", "show_recorder_file_info as JSON (and as text with \"text\": true)",
       {{"text", ArgType::Bool, "add the text"}, {"all", ArgType::Bool, "show_all: every frame"}},
       {{"version", Unit::Id}, {"map", Unit::Text}, {"date", Unit::UnixSeconds}, {"date_text", Unit::Text}, {"text_wording", Unit::Text},
        {"frames", Unit::Count}, {"complete_frames", Unit::Count}, {"duration", Unit::Seconds}, {"events_truncated", Unit::Flag},
        {"events.frame", Unit::Id}, {"events.elapsed", Unit::Seconds}, {"events.create", Unit::Data}, {"events.destroy", Unit::Id},
        {"events.parenting", Unit::Data}, {"events.collisions", Unit::Data}, {"text", Unit::Text}},
       [&source, scan](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         Json j = file_info_json(source, s);
         if (args.flag("text")) j["text"] = file_info_text(source, s, args.flag("all"), progress);
         return j;
       }},
      {"collisions", "show_recorder_collisions: collisions between actor types",
       {{"type1", ArgType::String, "h, v, w, t, o or a (any)"}, {"type2", ArgType::String, "h, v, w, t, o or a (any)"}},
       join_units(footer_units(),
                  {{"error", Unit::Text}, {"collisions.frame", Unit::Id}, {"collisions.time", Unit::Seconds}, {"collisions.type1", Unit::Text},
                   {"collisions.id1", Unit::Id}, {"collisions.actor1", Unit::Text}, {"collisions.hero1", Unit::Flag},
                   {"collisions.type2", Unit::Text}, {"collisions.id2", Unit::Id}, {"collisions.actor2", Unit::Text},
                   {"collisions.hero2", Unit::Flag}}),
       [&source, scan, text_arg](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         CollisionResult result = query_collisions(source, s, text_arg(args, "type1"), text_arg(args, "type2"), progress);
         Json j = collisions_json(s, result);
         j["text"] = collisions_text(s, result);
         return j;
       }},
      {"blocked", "show_recorder_actors_blocked: actors that moved less than min_distance for min_time",
       {{"min_time", ArgType::Double, "seconds (default 30)"}, {"min_distance", ArgType::Double, "centimetres (default 10)"}},
       join_units(footer_units(), {{"blocked.time", Unit::Seconds}, {"blocked.id", Unit::Id}, {"blocked.actor", Unit::Text},
                                   {"blocked.duration", Unit::Seconds}, {"blocked.until_end", Unit::Flag}}),
       [&source, scan](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         BlockedResult result = query_blocked(source, s, args.f64("min_time", 30), args.f64("min_distance", 10), progress);
         Json j = blocked_json(s, result);
         j["text"] = blocked_text(s, result);
         return j;
       }},
      {"actors", "every actor: type, blueprint, spawn and destroy frames, parent",
       {{"text", ArgType::Bool, "add the text table"}},
       {{"cancelled", Unit::Flag}, {"actors.id", Unit::Id}, {"actors.type", Unit::Text}, {"actors.blueprint", Unit::Text},
        {"actors.role_name", Unit::Text}, {"actors.attributes", Unit::Data}, {"actors.spawn_frame", Unit::Id},
        {"actors.spawn_time", Unit::Seconds}, {"actors.destroy_frame", Unit::Id}, {"actors.destroy_time", Unit::Seconds},
        {"actors.parent", Unit::Id}, {"actors.positions", Unit::Count}, {"text", Unit::Text}},
       [&source, scan](QueryArgs& args, const ProgressFn& progress) {
         ActorsResult result = query_actors(source, scan(progress), progress);
         Json j = actors_json(result);
         if (args.flag("text")) j["text"] = actors_text(result);
         return j;
       }},
      {"trajectory", "one actor's positions over time",
       {{"actor", ArgType::U64, "actor id"}},
       {{"actor", Unit::Id}, {"points", Unit::Count}, {"stride", Unit::Count}, {"cancelled", Unit::Flag}, {"frame", Unit::Id},
        {"time", Unit::Seconds}, {"location.x", Unit::Number}, {"location.y", Unit::Number}, {"location.z", Unit::Number},
        {"rotation.roll", Unit::Number}, {"rotation.pitch", Unit::Number}, {"rotation.yaw", Unit::Number},
        {"velocity.x", Unit::Number}, {"velocity.y", Unit::Number}, {"velocity.z", Unit::Number}, {"note", Unit::Text}},
       [&source, scan](QueryArgs& args, const ProgressFn& progress) {
         if (!args.has("actor")) return QueryArgs::error_json("trajectory needs {\"actor\": id}");
         uint32_t actor = static_cast<uint32_t>(args.u64("actor", 0, 0, UINT32_MAX));
         if (!args.ok()) return Json::object();
         return query_trajectory(source, scan(progress), actor, progress);
       }},
  };
  for (QuerySpec& spec : plot_query_table(source, scan)) table.push_back(std::move(spec));
  return table;
}

}  // namespace logscope::carla
