// The CARLA structure tree (tree.h): the info header, one node per complete frame ("f<index>"), its
// packets ("p<offset>", found by walking the frame) and their records ("r<offset>.<index>"), and a
// "tail" for the bytes after the last complete frame; hex spans and decoding of the same nodes.
#include "carla/tree.h"

#include <algorithm>
#include <cstdio>

#include "carla/inspector_impl.h"
#include "core/node_id.h"

namespace logscope::carla {

std::vector<PacketRef> frame_packets(ByteSource& source, uint64_t begin, uint64_t end, uint64_t first, uint64_t count) {
  std::vector<PacketRef> out;
  ChunkReader reader(source, 64 * 1024);
  PacketWalker walker(reader, begin, end);
  PacketRef packet;
  for (uint64_t index = 0; out.size() < count && walker.next(&packet) == PacketWalker::Step::Packet; ++index)
    if (index >= first) out.push_back(packet);
  return out;
}

std::optional<PacketRef> packet_at(ByteSource& source, const ScanResult& scan, uint64_t offset) {
  if (offset < scan.header.size || offset >= scan.data_end) return std::nullopt;
  ChunkReader reader(source, 64);
  PacketWalker walker(reader, offset, scan.data_end);
  PacketRef packet;
  if (walker.next(&packet) != PacketWalker::Step::Packet) return std::nullopt;
  return packet;
}

bool decode_at(ByteSource& source, const Variant& variant, const PacketRef& packet, DecodedPacket* out) {
  ChunkReader reader(source, 64 * 1024);
  const uint8_t* payload = reader.get(packet.payload(), packet.size);
  if (!payload) {
    *out = DecodedPacket();
    out->error = "payload too large to decode";
    return false;
  }
  decode_packet(packet.id, payload, packet.size, variant, out);
  return true;
}

TreeNode packet_node(ByteSource& source, const Variant& variant, const PacketRef& packet) {
  TreeNode node;
  node.id = NodeId::one('p', {packet.offset});
  node.label = packet_name(packet.id, variant) + " (" + std::to_string(packet.size) + " B)";
  node.kind = packet.id == kFrameStart || packet.id == kFrameEnd ? "header" : "data";
  node.offset = packet.offset;
  node.length = 5 + uint64_t{packet.size};
  DecodedPacket decoded;
  if (packet.size >= 2 && packet.id != kFrameStart && packet.id < 100 && decode_at(source, variant, packet, &decoded)) {
    node.child_count = record_count(decoded);
    if (node.child_count) node.label += ", " + std::to_string(node.child_count) + " records";
  }
  return node;
}

size_t frame_containing(const ScanResult& scan, uint64_t offset) {
  const FrameList& frames = scan.frames;
  size_t after = frames.partition_point([offset](const FrameEntry& f) { return f.offset <= offset; });
  if (after == 0) return frames.size();
  return offset < frames[after - 1].end ? after - 1 : frames.size();
}

uint64_t CarlaInspector::child_count(const std::string& id) {
  const ScanResult& s = scan(nullptr);
  if (id.empty()) return 1 + s.frames.size() + (source_.size() > s.data_end ? 1 : 0);
  if (auto index = parse_node_number(id, 'f')) return *index < s.frames.size() ? s.frames[*index].packets : 0;
  if (auto offset = parse_node_number(id, 'p')) {
    auto packet = packet_at(source_, s, *offset);
    return packet ? packet_node(source_, s.variant.variant, *packet).child_count : 0;
  }
  return 0;
}

std::vector<TreeNode> CarlaInspector::children(const std::string& id, uint64_t first, uint64_t count) {
  const ScanResult& s = scan(nullptr);
  std::vector<TreeNode> out;
  if (id.empty()) {
    uint64_t total = child_count(id);
    auto frame = s.frames.begin() + static_cast<std::ptrdiff_t>(std::min<uint64_t>(first ? first - 1 : 0, s.frames.size()));
    for (uint64_t i = first; i < total && out.size() < count; ++i) {
      TreeNode node;
      if (i == 0) {
        node = TreeNode{"header", "Info header (" + s.header.map + ")", "header", 0, s.header_ok ? s.header.size : source_.size(), 0};
      } else if (i - 1 < s.frames.size()) {
        const FrameEntry f = *frame;
        ++frame;  // in order: the list decodes each frame once
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
    if (*index < s.frames.size()) {
      const FrameEntry f = s.frames[*index];
      for (const PacketRef& p : frame_packets(source_, f.offset, f.end, first, std::min<uint64_t>(count, 100000)))
        out.push_back(packet_node(source_, s.variant.variant, p));
    }
  } else if (auto offset = parse_node_number(id, 'p')) {
    auto packet = packet_at(source_, s, *offset);
    DecodedPacket decoded;
    if (!packet || !decode_at(source_, s.variant.variant, *packet, &decoded)) return out;
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
  size_t index = frame_containing(s, offset);
  if (index >= s.frames.size()) return {};
  std::vector<std::string> path{NodeId::one('f', {index})};
  const FrameEntry f = s.frames[index];
  for (const PacketRef& p : frame_packets(source_, f.offset, f.end, 0, UINT64_MAX)) {
    if (offset < p.offset || offset >= p.end()) continue;
    path.push_back(NodeId::one('p', {p.offset}));
    DecodedPacket decoded;
    if (offset >= p.payload() && decode_at(source_, s.variant.variant, p, &decoded)) {
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
  const FrameList& frames = s.frames;
  size_t after = frames.partition_point([offset](const FrameEntry& f) { return f.offset <= offset; });
  auto it = frames.begin() + static_cast<std::ptrdiff_t>(after ? after - 1 : 0);
  size_t detailed = 0;
  for (; it != frames.end() && it->offset < end; ++it) {
    if (it->end <= offset) continue;
    Span frame{it->offset, it->end - it->offset, "Frame " + std::to_string(it->id), "frame", {}};
    if (detailed++ < 64) {  // packet detail for the frames a hex view can show
      for (const PacketRef& p : frame_packets(source_, it->offset, it->end, 0, UINT64_MAX)) {
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
  // A packet's records are the file's content as the packet table decodes them.
  static const ResultUnits units = {
      {"version", Unit::Id}, {"magic", Unit::Text}, {"date", Unit::UnixSeconds}, {"date_text", Unit::Text}, {"map", Unit::Text},
      {"recovery", Unit::Text}, {"frame", Unit::Id}, {"elapsed", Unit::Seconds}, {"duration", Unit::Seconds},
      {"offset", Unit::Offset}, {"length", Unit::Bytes}, {"packets", Unit::Count}, {"error", Unit::Text}, {"id", Unit::Id},
      {"kind", Unit::Text}, {"layout_ok", Unit::Flag}, {"total", Unit::Count}, {"first", Unit::Id}, {"records", Unit::Data},
      {"record", Unit::Data}, {"index", Unit::Id}, {"size", Unit::Bytes}};
  return with_units(node_json(id), units);
}

Json CarlaInspector::node_json(const std::string& id) {
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
    const FrameEntry f = s.frames[index];
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
    auto packet = packet_at(source_, s, node->number());
    DecodedPacket decoded;
    if (!packet || !decode_at(source_, s.variant.variant, *packet, &decoded)) {
      j["error"] = "no packet at this node";
      return j;
    }
    if (node->is('r', 2)) {
      uint64_t index = node->number(0, 1);
      if (index >= record_count(decoded)) return Json::object();
      j["kind"] = decoded.kind_name();
      j["index"] = index;
      j["record"] = record_to_json(decoded, static_cast<size_t>(index));
      return j;
    }
    j = packet_to_json(decoded, 0, 1000);
    j["offset"] = packet->offset;
    j["size"] = packet->size;
    return j;
  }
  j["error"] = "unknown node: " + id;
  return j;
}

}  // namespace logscope::carla
