// The CARLA FormatInspector: one forward scan (kept: header, frame index, statistics, variant),
// then everything else streams over the frames it needs.
#include "carla/inspector.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "carla/decode.h"
#include "carla/doctor.h"
#include "carla/plot_queries.h"
#include "carla/queries.h"
#include "carla/scan.h"
#include "carla/walker.h"
#include "core/node_id.h"

namespace logscope::carla {
namespace {

// Node ids: "header", "f<frame index>", "tail", "p<packet offset>", "r<packet offset>.<record index>".
class CarlaInspector : public FormatInspector {
 public:
  explicit CarlaInspector(ByteSource& source) : source_(source) {}

  Report summary() override {
    const ScanResult& s = scan(nullptr);
    Report report = base_report(s);
    report.details["file_info"] = file_info_json(source_, s);
    return report;
  }

  Report check(const ProgressFn& progress) override;

  std::string info_text(const InfoOptions& options) override {
    const ScanResult& s = scan(nullptr);
    return file_info_text(source_, s, options.all);
  }

  Json checksum(const ProgressFn&) override {
    Json j = Json::object();
    j["status"] = "not_applicable";
    j["message"] = "CARLA recorder logs carry no checksum";
    return j;
  }

  uint64_t child_count(const std::string& id) override;
  std::vector<TreeNode> children(const std::string& id, uint64_t first, uint64_t count) override;
  std::vector<std::string> locate(uint64_t offset) override;
  std::vector<Span> spans(uint64_t offset, uint64_t length) override;
  Json decode(const std::string& id) override;
  FileMap file_map(bool full_check, const ProgressFn& progress) override;
  std::vector<QuerySpec> queries() override;

 private:
  const ScanResult& scan(const ProgressFn& progress) {
    if (!scan_ || scan_->cancelled) scan_ = scan_log(source_, progress);
    return *scan_;
  }
  Report base_report(const ScanResult& s);
  std::vector<PacketRef> frame_packets(uint64_t begin, uint64_t end, uint64_t first, uint64_t count);
  std::optional<PacketRef> packet_at(uint64_t offset);
  bool decode_at(const PacketRef& packet, DecodedPacket* out);
  TreeNode packet_node(const PacketRef& packet);
  size_t frame_containing(uint64_t offset) const;  // index, or frames.size()

  ByteSource& source_;
  std::optional<ScanResult> scan_;
};

Report CarlaInspector::base_report(const ScanResult& s) {
  Report report;
  report.format = "carla";
  report.format_label = "CARLA recorder log";
  report.problems = s.problems;
  // The recording starts at the header's date (whole seconds); frames give the elapsed time.
  report.file.size_bytes = source_.size();
  double elapsed = s.frames.empty() ? 0.0 : s.frames.back().elapsed;
  // Bounds keep hostile headers from overflowing: dates before 2255, durations under 30 years.
  if (s.header_ok && !s.frames.empty() && s.header.date >= 0 && s.header.date < 9000000000LL && elapsed >= 0 && elapsed < 1e9) {
    int64_t start = static_cast<int64_t>(s.header.date) * 1000000000;
    report.file.start_ns = start;
    report.file.end_ns = start + static_cast<int64_t>(std::llround(elapsed * 1e9));
  }
  report.file.counts = {{"frames", s.frames.size()}};
  Facts& f = report.facts;
  if (s.header_ok) {
    f.set("version", s.header.version, Unit::Id);
    f.set("map", s.header.map, Unit::Text);
    f.set("date", format_date(s.header.date), Unit::Text);
    f.set("date_unix", s.header.date, Unit::UnixSeconds);
  }
  f.set("variant", variant_label(s.variant.variant), Unit::Text);
  if (const Json* hint = s.variant.json.find("carla_version_hint")) f.set("carla_version", *hint, Unit::Text);
  if (s.recovery.damaged) {
    logscope::Recovery& r = report.recovery;
    r.performed = true;
    r.reason = s.recovery.reason;
    r.message = s.recovery.message;
    r.ends_at = s.recovery.ends_at;
    r.recovered = {{"frames", s.frames.size()}};
  }
  Table packets{"packets", {"id", "packet", "count", "bytes"}, {}, {Unit::Id, Unit::Text, Unit::Count, Unit::Bytes}};
  for (int id = 0; id < 256; ++id)
    if (s.packet_counts[id])
      packets.rows.push_back({Json(id), Json(packet_name(static_cast<uint8_t>(id), s.variant.variant)), Json(s.packet_counts[id]),
                              Json(s.packet_bytes[id])});
  report.tables.push_back(std::move(packets));
  report.details["variant"] = s.variant.to_json();
  Json header = Json::object();
  header["version"] = s.header.version;
  header["magic"] = s.header.magic;
  header["date"] = s.header.date;
  header["map"] = s.header.map;
  header["size"] = s.header.size;
  report.details["header"] = std::move(header);
  if (s.recovery.damaged) {
    Json recovery = Json::object();
    recovery["message"] = s.recovery.message;
    recovery["complete_frames"] = s.frames.size();
    recovery["ends_at"] = s.recovery.ends_at;
    recovery["reason"] = s.recovery.reason;
    recovery["recovered_until"] = s.data_end;
    if (s.recovery.incomplete_frame_id) recovery["incomplete_frame"] = s.recovery.incomplete_frame_id;
    report.details["recovery"] = std::move(recovery);
  }
  return report;
}

std::vector<PacketRef> CarlaInspector::frame_packets(uint64_t begin, uint64_t end, uint64_t first, uint64_t count) {
  std::vector<PacketRef> out;
  ChunkReader reader(source_, 64 * 1024);
  PacketWalker walker(reader, begin, end);
  PacketRef packet;
  for (uint64_t index = 0; out.size() < count && walker.next(&packet) == PacketWalker::Step::Packet; ++index)
    if (index >= first) out.push_back(packet);
  return out;
}

std::optional<PacketRef> CarlaInspector::packet_at(uint64_t offset) {
  const ScanResult& s = scan(nullptr);
  if (offset < s.header.size || offset >= s.data_end) return std::nullopt;
  ChunkReader reader(source_, 64);
  PacketWalker walker(reader, offset, s.data_end);
  PacketRef packet;
  if (walker.next(&packet) != PacketWalker::Step::Packet) return std::nullopt;
  return packet;
}

bool CarlaInspector::decode_at(const PacketRef& packet, DecodedPacket* out) {
  ChunkReader reader(source_, 64 * 1024);
  const uint8_t* payload = reader.get(packet.payload(), packet.size);
  if (!payload) {
    *out = DecodedPacket();
    out->error = "payload too large to decode";
    return false;
  }
  decode_packet(packet.id, payload, packet.size, scan(nullptr).variant.variant, out);
  return true;
}

TreeNode CarlaInspector::packet_node(const PacketRef& packet) {
  const Variant& v = scan(nullptr).variant.variant;
  TreeNode node;
  node.id = NodeId::one('p', {packet.offset});
  node.label = packet_name(packet.id, v) + " (" + std::to_string(packet.size) + " B)";
  node.kind = packet.id == kFrameStart || packet.id == kFrameEnd ? "header" : "data";
  node.offset = packet.offset;
  node.length = 5 + uint64_t{packet.size};
  DecodedPacket decoded;
  if (packet.size >= 2 && packet.id != kFrameStart && packet.id < 100 && decode_at(packet, &decoded)) {
    node.child_count = record_count(decoded);
    if (node.child_count) node.label += ", " + std::to_string(node.child_count) + " records";
  }
  return node;
}

size_t CarlaInspector::frame_containing(uint64_t offset) const {
  const auto& frames = scan_->frames;
  auto it = std::upper_bound(frames.begin(), frames.end(), offset, [](uint64_t o, const FrameEntry& f) { return o < f.offset; });
  if (it == frames.begin()) return frames.size();
  --it;
  return offset < it->end ? static_cast<size_t>(it - frames.begin()) : frames.size();
}

uint64_t CarlaInspector::child_count(const std::string& id) {
  const ScanResult& s = scan(nullptr);
  if (id.empty()) return 1 + s.frames.size() + (source_.size() > s.data_end ? 1 : 0);
  if (auto index = parse_node_number(id, 'f')) return *index < s.frames.size() ? s.frames[*index].packets : 0;
  if (auto offset = parse_node_number(id, 'p')) {
    auto packet = packet_at(*offset);
    return packet ? packet_node(*packet).child_count : 0;
  }
  return 0;
}

std::vector<TreeNode> CarlaInspector::children(const std::string& id, uint64_t first, uint64_t count) {
  const ScanResult& s = scan(nullptr);
  std::vector<TreeNode> out;
  if (id.empty()) {
    uint64_t total = child_count(id);
    for (uint64_t i = first; i < total && out.size() < count; ++i) {
      TreeNode node;
      if (i == 0) {
        node = TreeNode{"header", "Info header (" + s.header.map + ")", "header", 0, s.header_ok ? s.header.size : source_.size(), 0};
      } else if (i - 1 < s.frames.size()) {
        const FrameEntry& f = s.frames[i - 1];
        char elapsed[32];
        std::snprintf(elapsed, sizeof elapsed, "%g", f.elapsed);
        node = TreeNode{NodeId::one('f', {i - 1}), "Frame " + std::to_string(f.id) + " at " + elapsed + " s" + (f.has_events ? " (events)" : ""),
                        "frame", f.offset, f.end - f.offset, f.packets};
      } else {
        node = TreeNode{"tail", "Incomplete data: " + s.recovery.reason, "damaged", s.data_end, source_.size() - s.data_end, 0};
      }
      out.push_back(std::move(node));
    }
  } else if (auto index = parse_node_number(id, 'f')) {
    if (*index < s.frames.size())
      for (const PacketRef& p : frame_packets(s.frames[*index].offset, s.frames[*index].end, first, std::min<uint64_t>(count, 100000)))
        out.push_back(packet_node(p));
  } else if (auto offset = parse_node_number(id, 'p')) {
    auto packet = packet_at(*offset);
    DecodedPacket decoded;
    if (!packet || !decode_at(*packet, &decoded)) return out;
    size_t n = record_count(decoded);
    for (uint64_t i = first; i < n && out.size() < count; ++i) {
      uint64_t begin = decoded.record_offsets[i];
      uint64_t end = i + 1 < n ? decoded.record_offsets[i + 1] : packet->size;
      Json record = record_to_json(decoded, i);
      std::string label = std::string(decoded.kind_name()) + " record " + std::to_string(i);
      if (const Json* rid = record.find("id")) label += ": id " + rid->dump();
      if (const Json* bp = record.find("blueprint")) label += " " + bp->as_string();
      out.push_back(TreeNode{NodeId::one('r', {packet->offset, i}), label, "record", packet->payload() + begin, end - begin, 0});
    }
  }
  return out;
}

std::vector<std::string> CarlaInspector::locate(uint64_t offset) {
  const ScanResult& s = scan(nullptr);
  if (offset < s.header.size || !s.header_ok) return {"header"};
  if (offset >= s.data_end) return offset < source_.size() ? std::vector<std::string>{"tail"} : std::vector<std::string>{};
  size_t index = frame_containing(offset);
  if (index >= s.frames.size()) return {};
  std::vector<std::string> path{NodeId::one('f', {index})};
  const FrameEntry& f = s.frames[index];
  for (const PacketRef& p : frame_packets(f.offset, f.end, 0, UINT64_MAX)) {
    if (offset < p.offset || offset >= p.end()) continue;
    path.push_back(NodeId::one('p', {p.offset}));
    DecodedPacket decoded;
    if (offset >= p.payload() && decode_at(p, &decoded)) {
      size_t n = record_count(decoded);
      for (size_t i = 0; i < n; ++i) {
        uint64_t begin = p.payload() + decoded.record_offsets[i];
        uint64_t end = i + 1 < n ? p.payload() + decoded.record_offsets[i + 1] : p.end();
        if (offset >= begin && offset < end) path.push_back(NodeId::one('r', {p.offset, static_cast<uint64_t>(i)}));
      }
    }
    break;
  }
  return path;
}

std::vector<Span> CarlaInspector::spans(uint64_t offset, uint64_t length) {
  const ScanResult& s = scan(nullptr);
  std::vector<Span> out;
  uint64_t end = offset + length;
  if (offset < s.header.size)
    out.push_back(Span{0, s.header.size, "Info header", "header", {}});
  const auto& frames = s.frames;
  auto it = std::upper_bound(frames.begin(), frames.end(), offset, [](uint64_t o, const FrameEntry& f) { return o < f.offset; });
  if (it != frames.begin()) --it;
  size_t detailed = 0;
  for (; it != frames.end() && it->offset < end; ++it) {
    if (it->end <= offset) continue;
    Span frame{it->offset, it->end - it->offset, "Frame " + std::to_string(it->id), "frame", {}};
    if (detailed++ < 64) {  // packet detail for the frames a hex view can show
      for (const PacketRef& p : frame_packets(it->offset, it->end, 0, UINT64_MAX)) {
        if (p.end() <= offset || p.offset >= end) continue;
        Span packet{p.offset, 5 + uint64_t{p.size}, packet_name(p.id, s.variant.variant), "data", {}};
        packet.children.push_back(Span{p.offset, 5, "packet header (id, size)", "header", {}});
        if (p.size) packet.children.push_back(Span{p.payload(), p.size, "payload", "data", {}});
        frame.children.push_back(std::move(packet));
      }
    }
    out.push_back(std::move(frame));
  }
  if (end > s.data_end && s.data_end < source_.size())
    out.push_back(Span{s.data_end, source_.size() - s.data_end, "incomplete data (" + s.recovery.reason + ")", "damaged", {}});
  return out;
}

Json CarlaInspector::decode(const std::string& id) {
  const ScanResult& s = scan(nullptr);
  Json j = Json::object();
  if (id == "header") {
    j["version"] = s.header.version;
    j["magic"] = s.header.magic;
    j["date"] = s.header.date;
    j["date_text"] = format_date(s.header.date);
    j["map"] = s.header.map;
    return j;
  }
  if (id == "tail") {
    j["recovery"] = s.recovery.message;
    return j;
  }
  auto node = NodeId::parse(id);
  if (node && node->is('f')) {
    uint64_t index = node->number();
    if (index >= s.frames.size()) return Json::object();
    const FrameEntry& f = s.frames[index];
    j["frame"] = f.id;
    j["elapsed"] = f.elapsed;
    j["duration"] = f.duration;
    j["offset"] = f.offset;
    j["length"] = f.end - f.offset;
    j["packets"] = f.packets;
    return j;
  }
  // "p<offset>" is a packet, "r<offset>.<index>" one record of it.
  if (node && (node->is('p') || node->is('r', 2))) {
    auto packet = packet_at(node->number());
    DecodedPacket decoded;
    if (!packet || !decode_at(*packet, &decoded)) {
      j["error"] = "no packet at this node";
      return j;
    }
    if (node->is('r', 2)) {
      uint64_t index = node->number(0, 1);
      return index < record_count(decoded) ? record_to_json(decoded, static_cast<size_t>(index)) : Json::object();
    }
    j = packet_to_json(decoded, 0, 1000);
    j["offset"] = packet->offset;
    j["size"] = packet->size;
    return j;
  }
  j["error"] = "unknown node: " + id;
  return j;
}

// CARLA logs have no index: the map comes from the scan (header, then frames FrameStart..FrameEnd).
FileMap CarlaInspector::file_map(bool full_check, const ProgressFn& progress) {
  const ScanResult& s = scan(progress);
  FileMapBuilder map(source_.size());
  if (s.header_ok) map.add(0, s.header.size, "header", "log header");
  for (const FrameEntry& f : s.frames) map.add(f.offset, f.end - f.offset, "frame", "frame " + std::to_string(f.id));
  map.structures_end(s.data_end);
  if (s.recovery.damaged && s.recovery.reason != "cancelled") {
    uint64_t from = s.recovery.incomplete_offset ? s.recovery.incomplete_offset : s.recovery.ends_at;
    map.damaged_from(from, "not readable: " + s.recovery.message);
    map.missing(0, "the log ends inside a frame: the rest was never written or was cut off");
  }
  std::vector<Problem> problems = s.problems;
  std::string how = "scan";
  if (full_check) {
    Report report = check(progress);
    map.refine_with_check(report);
    problems = report.problems;
    how = "check";
  }
  return map.finish(how, std::move(problems));
}

Report CarlaInspector::check(const ProgressFn& progress) {
  const ScanResult& s = scan(progress);
  Report report = base_report(s);
  if (s.cancelled) {
    report.details["cancelled"] = true;
    return report;
  }
  bool cancelled = false;
  for (Problem& p : check_actor_references(source_, s, progress, &cancelled)) report.problems.push_back(std::move(p));
  if (cancelled) report.details["cancelled"] = true;
  report.details["checksum"] = checksum(progress);
  return report;
}

// The query table. Every query needs the frame index (one scan, kept).
std::vector<QuerySpec> CarlaInspector::queries() {
  auto text_arg = [](QueryArgs& args, const char* name) {
    std::string v = args.str(name, "a");
    return v.empty() ? 'a' : v[0];
  };
  std::vector<QuerySpec> table = {
      {"frames", "a page of the frame index (id, elapsed, duration, offset, packets)",
       {{"first", ArgType::U64, "first frame index"}, {"count", ArgType::U64, "frames"}},
       [this](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         uint64_t first = args.u64("first", 0), count = args.u64("count", 1000);
         Json j = Json::object();
         j["total"] = s.frames.size();
         j["first"] = first;
         Json frames = Json::array();
         for (uint64_t i = first; i < s.frames.size() && i - first < count; ++i) {
           const FrameEntry& f = s.frames[i];
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
       [this](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         Json j = file_info_json(source_, s);
         if (args.flag("text")) j["text"] = file_info_text(source_, s, args.flag("all"), progress);
         return j;
       }},
      {"collisions", "show_recorder_collisions: collisions between actor types",
       {{"type1", ArgType::String, "h, v, w, t, o or a (any)"}, {"type2", ArgType::String, "h, v, w, t, o or a (any)"}},
       [this, text_arg](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         CollisionResult result = query_collisions(source_, s, text_arg(args, "type1"), text_arg(args, "type2"), progress);
         Json j = collisions_json(s, result);
         j["text"] = collisions_text(s, result);
         return j;
       }},
      {"blocked", "show_recorder_actors_blocked: actors that moved less than min_distance for min_time",
       {{"min_time", ArgType::Double, "seconds (default 30)"}, {"min_distance", ArgType::Double, "centimetres (default 10)"}},
       [this](QueryArgs& args, const ProgressFn& progress) {
         const ScanResult& s = scan(progress);
         BlockedResult result = query_blocked(source_, s, args.f64("min_time", 30), args.f64("min_distance", 10), progress);
         Json j = blocked_json(s, result);
         j["text"] = blocked_text(s, result);
         return j;
       }},
      {"actors", "every actor: type, blueprint, spawn and destroy frames, parent",
       {{"text", ArgType::Bool, "add the text table"}},
       [this](QueryArgs& args, const ProgressFn& progress) {
         ActorsResult result = query_actors(source_, scan(progress), progress);
         Json j = actors_json(result);
         if (args.flag("text")) j["text"] = actors_text(result);
         return j;
       }},
      {"trajectory", "one actor's positions over time",
       {{"actor", ArgType::U64, "actor id"}},
       [this](QueryArgs& args, const ProgressFn& progress) {
         if (!args.has("actor")) return QueryArgs::error_json("trajectory needs {\"actor\": id}");
         uint32_t actor = static_cast<uint32_t>(args.u64("actor", 0, 0, UINT32_MAX));
         if (!args.ok()) return Json::object();
         return query_trajectory(source_, scan(progress), actor, progress);
       }},
  };
  auto scanned = [this](const ProgressFn& progress) -> const ScanResult& { return scan(progress); };
  for (QuerySpec& spec : plot_query_table(source_, scanned)) table.push_back(std::move(spec));
  return table;
}

}  // namespace

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source) { return std::make_unique<CarlaInspector>(source); }

}  // namespace logscope::carla
