// show_recorder_file_info, laid out line for line like CarlaRecorderQuery::QueryInfo. CARLA changed
// the wording of two lines (PR #6628, first released in 0.9.15: "Rotation (" -> "Rotation: (",
// "Brake " -> "Brake: "; 0.9.5 printed "Location ("), so the text follows the release the file
// comes from (info_wording). Numbers go through TextOut, formatted as std::ostream formats them
// with CARLA's manipulators, so they
// print exactly as CARLA prints them. Where we deliberately differ: docs/carla.md.
#include <algorithm>
#include <cmath>
#include <ctime>

#include "core/text_out.h"
#include "carla/queries.h"
#include "carla/stream.h"

namespace logscope::carla {

InfoWording info_wording(const ScanResult& scan) {
  // 0.9.15+ writes AnimVehicleWheels every frame, even with no vehicle; 0.9.10+ writes
  // VehicleLight every frame. A file without packets that new comes from an older release.
  if (scan.variant.variant.doubles) return InfoWording::Carla0915;
  Release latest = latest_release(scan.packet_counts);
  if (latest >= Release::k0_9_15) return InfoWording::Carla0915;
  if (latest >= Release::k0_9_10) return InfoWording::Carla0910;
  return InfoWording::Carla095;
}

const char* info_wording_name(InfoWording wording) {
  switch (wording) {
    case InfoWording::Carla095: return "0.9.5-0.9.9";
    case InfoWording::Carla0910: return "0.9.10-0.9.14";
    case InfoWording::Carla0915: return "0.9.15+";
  }
  return "";
}

std::string format_date(int64_t unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm parts{};
  if (!localtime_r(&t, &parts)) return "";
  char text[100];
  size_t n = std::strftime(text, sizeof text, "%x %X", &parts);
  return std::string(text, n);
}

std::string header_text(const LogHeader& header) {
  TextOut out;
  out << "Version: " << header.version << "\n";
  out << "Map: " << header.map << "\n";
  out << "Date: " << format_date(header.date) << "\n\n";
  return out.str();
}

std::string footer_text(const ScanResult& scan, bool sticky_fixed0) {
  TextOut out;
  if (sticky_fixed0) out << text::setprecision(0) << text::fixed;
  // CARLA prints the id and elapsed time of the last FrameStart it read; for a damaged log that is
  // the last complete frame, and the line after says what was dropped.
  uint64_t id = scan.frames.empty() ? 0 : scan.frames.back().id;
  double elapsed = scan.frames.empty() ? 0.0 : scan.frames.back().elapsed;
  out << "\nFrames: " << id << "\n";
  out << "Duration: " << elapsed << " seconds\n";
  if (scan.recovery.damaged)
    out << (scan.recovery.reason == "cancelled" ? "Stopped: " : "Truncated: ") << scan.recovery.message << "\n";
  return out.str();
}

namespace {

// Decodes each packet and hands it to its table entry's text hook (packets_*.h).
class InfoPrinter {
 public:
  InfoPrinter(TextOut& out, bool show_all, const Variant& variant, InfoWording wording)
      : text_(out, show_all, wording), show_all_(show_all), variant_(variant) {}

  // A FrameStart packet's effect without its bytes (the scan kept the frame's start).
  void frame_starts() { text_.start_frame(); }

  void packet(const FrameStartRecord& frame, const PacketRef& ref, const uint8_t* payload) {
    DecodedPacket p;
    decode_packet(ref.id, payload, ref.size, variant_, &p);
    if (!p.type || !p.type->has_text() || !(show_all_ || p.type->text_without_all())) return;
    text_.at(frame.id, frame.elapsed, p.total);
    p.type->print(text_, p.list);
  }

 private:
  InfoText text_;
  bool show_all_;
  Variant variant_;
};

// Frame f's packets that `wanted` names: from the event packets the scan kept (nothing read; the
// frame's start is not among them), or, when it dropped them past its budget, read again from the
// frame. `next_kept` carries the place in the kept list from one frame to the next.
void frame_events(ByteSource& source, const ScanResult& scan, const FrameEntry& f, const PacketFilter& wanted, size_t* next_kept,
                  const PacketVisitor& visit) {
  const EventPackets& kept = scan.events;
  if (!kept.complete) {
    stream_packets(source, scan, nullptr, wanted, visit, f.offset, f.end);
    return;
  }
  FrameStartRecord frame;
  frame.id = f.id, frame.duration = f.duration, frame.elapsed = f.elapsed;
  size_t& k = *next_kept;
  for (; k < kept.packets.size() && kept.packets[k].offset < f.offset; ++k) {}
  for (; k < kept.packets.size() && kept.packets[k].offset < f.end; ++k) {
    const EventPackets::Entry& e = kept.packets[k];
    if (!wanted(e.id)) continue;
    PacketRef packet;
    packet.offset = e.offset, packet.id = e.id, packet.size = e.size;
    visit(frame, packet, kept.bytes.data() + e.at);
  }
}

}  // namespace

std::string file_info_text(ByteSource& source, const ScanResult& scan, bool show_all, const ProgressFn& progress) {
  if (!scan.header_ok) {
    // CARLA's own message for a file that is not a recorder log; say more when it is a cut one.
    if (scan.recovery.reason == "cut_in_header") return "File is not a CARLA recorder\n(" + scan.recovery.message + ")\n";
    return "File is not a CARLA recorder\n";
  }
  TextOut out;
  out << header_text(scan.header);
  InfoPrinter printer(out, show_all, scan.variant.variant, info_wording(scan));
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) { printer.packet(frame, packet, payload); };
  if (show_all) {
    stream_packets(source, scan, progress, [](uint8_t) { return true; }, visit);
  } else {
    // Only frames with events print anything: visit just those, found through the frame index.
    const Variant& variant = scan.variant.variant;
    auto events = [&](uint8_t id) {
      const PacketType* type = packet_type(id, variant);
      return type && type->text_without_all();
    };
    size_t next_kept = 0;
    for (const FrameEntry& f : scan.frames) {
      if (!f.has_events) continue;
      // What the frame's FrameStart packet does when it is read (again, harmlessly, when it is).
      printer.frame_starts();
      frame_events(source, scan, f, events, &next_kept, visit);
    }
  }
  out << footer_text(scan);
  return out.str();
}

Json file_info_json(ByteSource& source, const ScanResult& scan, size_t max_event_frames) {
  Json j = Json::object();
  j["version"] = scan.header.version;
  j["map"] = scan.header.map;
  j["date"] = scan.header.date;
  j["date_text"] = format_date(scan.header.date);
  j["text_wording"] = info_wording_name(info_wording(scan));
  j["frames"] = scan.frames.empty() ? 0 : scan.frames.back().id;
  j["complete_frames"] = scan.frames.size();
  j["duration"] = scan.frames.empty() ? 0.0 : scan.frames.back().elapsed;
  Json events = Json::array();
  size_t listed = 0;
  const Variant& variant = scan.variant.variant;
  size_t next_kept = 0;
  for (const FrameEntry& f : scan.frames) {
    if (!f.has_events) continue;
    if (listed++ >= max_event_frames) {
      j["events_truncated"] = true;
      break;
    }
    Json frame = Json::object();
    frame["frame"] = f.id;
    frame["elapsed"] = f.elapsed;
    Json creates = Json::array(), destroys = Json::array(), parents = Json::array(), collisions = Json::array();
    auto visit = [&](const FrameStartRecord&, const PacketRef& packet, const uint8_t* payload) {
      DecodedPacket p;
      decode_packet(packet.id, payload, packet.size, variant, &p);
      Json* list = p.is(packets::EventAdd) ? &creates : p.is(packets::EventParent) ? &parents : p.is(packets::Collision) ? &collisions : nullptr;
      for (size_t i = 0; list && i < record_count(p); ++i) list->push_back(record_to_json(p, i));
      for (uint32_t id : p.records(packets::EventDel)) destroys.push_back(id);
    };
    frame_events(source, scan, f, event_id, &next_kept, visit);
    frame["create"] = std::move(creates);
    frame["destroy"] = std::move(destroys);
    frame["parenting"] = std::move(parents);
    frame["collisions"] = std::move(collisions);
    events.push_back(std::move(frame));
  }
  j["events"] = std::move(events);
  return j;
}

}  // namespace logscope::carla
