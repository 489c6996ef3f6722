#include "carla/plot_queries.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "carla/decode.h"
#include "carla/export.h"
#include "carla/packets.h"
#include "carla/stream.h"
#include "core/plot.h"

namespace logscope::carla {

namespace {

struct PathPoint {
  uint32_t frame = 0;  // index in scan.frames
  float x = 0, y = 0;
};

struct ActorPath {
  uint32_t id = 0;
  uint8_t type = 0;
  std::string blueprint, role_name;
  uint64_t spawn_frame = 0, destroy_frame = 0;
  uint32_t spawn_index = 0, destroy_index = UINT32_MAX;
  Vec3 spawn;
  std::vector<PathPoint> points;
  PathPoint last;
  bool any = false;
};

Json path_json(const ActorPath& a) {
  Json actor = Json::object();
  actor["id"] = a.id;
  actor["type"] = actor_type_name(a.type);
  actor["blueprint"] = a.blueprint;
  actor["role_name"] = a.role_name;
  actor["spawn_frame"] = a.spawn_frame;
  actor["spawn_index"] = a.spawn_index;
  actor["destroy_frame"] = a.destroy_index == UINT32_MAX ? Json() : Json(a.destroy_frame);
  actor["destroy_index"] = a.destroy_index == UINT32_MAX ? Json() : Json(a.destroy_index);
  Json spawn = Json::array();
  spawn.push_back(a.spawn.x), spawn.push_back(a.spawn.y), spawn.push_back(a.spawn.z);
  actor["spawn"] = std::move(spawn);
  Json f = Json::array(), x = Json::array(), y = Json::array();
  for (const PathPoint& p : a.points) f.push_back(p.frame), x.push_back(static_cast<double>(p.x)), y.push_back(static_cast<double>(p.y));
  actor["f"] = std::move(f);
  actor["x"] = std::move(x);
  actor["y"] = std::move(y);
  return actor;
}

}  // namespace

uint64_t log_start_ns(const ScanResult& scan) {
  return scan.header.date >= 0 && scan.header.date < 9000000000LL ? static_cast<uint64_t>(scan.header.date) * 1000000000ULL : 0;
}

uint64_t frame_time_ns(const ScanResult& scan, double elapsed) {
  uint64_t start = log_start_ns(scan);
  return elapsed >= 0 && elapsed < 1e9 ? start + static_cast<uint64_t>(std::llround(elapsed * 1e9)) : start;
}

Json paths_query(ByteSource& source, const ScanResult& scan, QueryArgs& args, const ProgressFn& progress) {
  size_t budget = static_cast<size_t>(args.u64("max_points", 100000, 1000, 300000));
  if (!args.ok()) return QueryArgs::error_json(args.error());
  std::vector<ActorPath> lives;
  std::map<uint32_t, size_t> alive;  // id -> its current life
  uint32_t stride = 1, index = 0;
  size_t kept = 0;
  bool started = false;
  const Variant& variant = scan.variant.variant;
  auto thin = [&]() {  // doubles the stride until the budget holds; first points stay
    while (kept > budget) {
      stride *= 2;
      kept = 0;
      for (ActorPath& life : lives) {
        auto& p = life.points;
        size_t w = 0;
        for (size_t r = 0; r < p.size(); ++r)
          if (r == 0 || p[r].frame % stride == 0) p[w++] = p[r];
        p.resize(w);
        kept += w;
      }
    }
  };
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    if (packet.id == kFrameStart) {
      if (started) ++index;
      started = true;
      return;
    }
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (p.is(packets::EventAdd)) {
      for (const EventAddRecord& a : p.records(packets::EventAdd)) {
        ActorPath life;
        life.id = a.id;
        life.type = a.type;
        life.blueprint = a.blueprint;
        for (const Attribute& attribute : a.attributes)
          if (attribute.id == "role_name") life.role_name = attribute.value;
        life.spawn_frame = frame.id;
        life.spawn_index = index;
        life.spawn = a.location;
        alive[a.id] = lives.size();
        lives.push_back(std::move(life));
      }
    } else if (p.is(packets::EventDel)) {
      for (uint32_t id : p.records(packets::EventDel)) {
        auto it = alive.find(id);
        if (it == alive.end()) continue;
        lives[it->second].destroy_frame = frame.id;
        lives[it->second].destroy_index = index;
        alive.erase(it);
      }
    } else if (p.is(packets::Position)) {
      for (const PositionRecord& r : p.records(packets::Position)) {
        auto it = alive.find(r.id);
        if (it == alive.end()) continue;  // as the actors query: an actor never added has no life
        ActorPath& life = lives[it->second];
        PathPoint point{index, static_cast<float>(r.location.x), static_cast<float>(r.location.y)};
        if (!life.any || index % stride == 0) {
          if (!life.points.empty() && life.points.back().frame == index) continue;  // one point per frame
          life.points.push_back(point);
          ++kept;
        }
        life.last = point;
        life.any = true;
      }
      thin();
    }
  };
  auto wanted = [](uint8_t id) { return id == kFrameStart || id == kEventAdd || id == kEventDel || id == kPosition; };
  bool finished = stream_packets(source, scan, progress, wanted, visit);
  Json j = Json::object();
  if (!finished) j["cancelled"] = true;
  j["frames"] = scan.frames.size();
  j["stride"] = stride;
  Json actors = Json::array();
  size_t points = 0;
  for (ActorPath& life : lives) {
    if (life.any && life.points.back().frame != life.last.frame) life.points.push_back(life.last);
    points += life.points.size();
    actors.push_back(path_json(life));
  }
  j["points"] = points;
  j["note"] = "location cm, as recorded; f: frame index (0 = the first complete frame)";
  j["actors"] = std::move(actors);
  return j;
}

Json positions_query(ByteSource& source, const ScanResult& scan, QueryArgs& args) {
  if (!args.has("frame")) return QueryArgs::error_json("positions needs {\"frame\": index}");
  uint64_t index = args.u64("frame", 0);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  if (index >= scan.frames.size())
    return QueryArgs::error_json("argument \"frame\" must be a frame index in [0, " + std::to_string(scan.frames.size()) + ")");
  const FrameEntry frame = scan.frames[index];
  const Variant& variant = scan.variant.variant;
  Json positions = Json::array();
  auto visit = [&](const FrameStartRecord&, const PacketRef& packet, const uint8_t* payload) {
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (!p.is(packets::Position)) return;
    for (const PositionRecord& r : p.records(packets::Position)) {
      Json one = Json::object();
      one["id"] = r.id;
      one["x"] = r.location.x, one["y"] = r.location.y, one["z"] = r.location.z;
      one["yaw"] = r.rotation.z;  // CARLA's rotation vector is (roll, pitch, yaw)
      positions.push_back(std::move(one));
    }
  };
  stream_packets(source, scan, nullptr, [](uint8_t id) { return id == kPosition; }, visit, frame.offset, frame.end);
  Json j = Json::object();
  j["index"] = index;
  j["id"] = frame.id;
  j["elapsed"] = frame.elapsed;
  j["time_ns"] = std::to_string(frame_time_ns(scan, frame.elapsed));
  j["positions"] = std::move(positions);
  return j;
}

std::vector<QuerySpec> plot_query_table(ByteSource& source, const std::function<const ScanResult&(const ProgressFn&)>& scan) {
  std::vector<ArgSpec> plot_args{{"actor", ArgType::U64, "actor id"}};
  for (ArgSpec& spec : plot_arg_specs()) plot_args.push_back(std::move(spec));
  return {
      {"columns", "the columns of `logscope export --actor` after time_ns (all numbers) with their units", {},
       {{"columns.name", Unit::Text}, {"columns.kind", Unit::Text}, {"columns.unit", Unit::Text}},
       [](QueryArgs&, const ProgressFn&) {
         // As recorded: CARLA stores centimetres and degrees (docs/export.md).
         static const std::map<std::string, const char*> units{{"elapsed", "s"}, {"x", "cm"}, {"y", "cm"}, {"z", "cm"},
                                                               {"pitch", "deg"}, {"yaw", "deg"}, {"roll", "deg"}, {"vx", "cm/s"},
                                                               {"vy", "cm/s"}, {"vz", "cm/s"}, {"speed", "cm/s"}};
         Json columns = Json::array();
         for (const std::string& name : actor_columns()) {
           Json column = Json::object();
           column["name"] = name;
           column["kind"] = "number";
           auto unit = units.find(name);
           if (unit != units.end()) column["unit"] = unit->second;
           columns.push_back(std::move(column));
         }
         Json j = Json::object();
         j["columns"] = std::move(columns);
         return j;
       }},
      {"plot", "an actor's columns over time, as `logscope export --actor` writes them: every point, or per-bucket first/last/min/max beyond max_points, and the exact count",
       plot_args, plot_units(),
       [&source, scan](QueryArgs& args, const ProgressFn& progress) {
         if (!args.has("actor")) return QueryArgs::error_json("plot needs {\"actor\": id, \"fields\": \"x,y\"}");
         uint32_t actor = static_cast<uint32_t>(args.u64("actor", 0, 0, UINT32_MAX));
         const ScanResult& s = scan(progress);
         uint64_t from = log_start_ns(s), to = s.frames.empty() ? from : frame_time_ns(s, s.frames.back().elapsed);
         return plot_of_export(args, from, to, [&](const ExportRequest& request, ExportSink& sink) {
           return export_actor(source, s, actor, request, sink, progress);
         });
       }},
      {"timeline", "frames (and frames with events) per time bin, from the frame scan", timeline_arg_specs(), timeline_units(),
       [scan](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         uint64_t from = log_start_ns(s), to = s.frames.empty() ? from : frame_time_ns(s, s.frames.back().elapsed);
         uint64_t t0 = 0, t1 = 0;
         size_t bins = 0;
         if (!read_timeline_args(args, from, to, &t0, &t1, &bins)) return QueryArgs::error_json(args.error());
         Timeline timeline(t0, t1, bins, 2);
         size_t frames = timeline.row("frames", "complete frames"), events = timeline.row("events", "frames with events");
         for (const FrameEntry& f : s.frames) {
           uint64_t t = frame_time_ns(s, f.elapsed);
           timeline.add(frames, t);
           if (f.has_events) timeline.add(events, t);
         }
         return timeline.to_json("frame");
       }},
      {"paths", "every actor's path in one pass, thinned to max_points (the page's map)",
       {{"max_points", ArgType::U64, "points kept in all (default 100000, 1000 to 300000)"}},
       {{"cancelled", Unit::Flag}, {"frames", Unit::Count}, {"stride", Unit::Count}, {"points", Unit::Count}, {"note", Unit::Text},
        {"actors.id", Unit::Id}, {"actors.type", Unit::Text}, {"actors.blueprint", Unit::Text}, {"actors.role_name", Unit::Text},
        {"actors.spawn_frame", Unit::Id}, {"actors.spawn_index", Unit::Id}, {"actors.destroy_frame", Unit::Id},
        {"actors.destroy_index", Unit::Id}, {"actors.spawn", Unit::Number}, {"actors.f", Unit::Id}, {"actors.x", Unit::Number},
        {"actors.y", Unit::Number}},
       [&source, scan](QueryArgs& args, const ProgressFn& progress) { return paths_query(source, scan(progress), args, progress); }},
      {"positions", "every Position of one frame (one frame read)",
       {{"frame", ArgType::U64, "frame index (0 = the first complete frame)"}},
       {{"index", Unit::Id}, {"id", Unit::Id}, {"elapsed", Unit::Seconds}, {"time_ns", Unit::TimeNs}, {"positions.id", Unit::Id},
        {"positions.x", Unit::Number}, {"positions.y", Unit::Number}, {"positions.z", Unit::Number}, {"positions.yaw", Unit::Number}},
       [&source, scan](QueryArgs& args, const ProgressFn& progress) { return positions_query(source, scan(progress), args); }},
  };
}

}  // namespace logscope::carla
