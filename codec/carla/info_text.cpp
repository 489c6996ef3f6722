// show_recorder_file_info, laid out line for line like CarlaRecorderQuery::QueryInfo. CARLA changed
// the wording of two lines (PR #6628, first released in 0.9.15: "Rotation (" -> "Rotation: (",
// "Brake " -> "Brake: "; 0.9.5 printed "Location ("), so the text follows the release the file
// comes from (info_wording). Numbers go through std::ostream with CARLA's manipulators, so they
// print exactly as CARLA prints them. Where we deliberately differ: docs/carla.md.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "carla/queries.h"
#include "carla/stream.h"

namespace logscope::carla {

InfoWording info_wording(const ScanResult& scan) {
  // 0.9.15+ writes AnimVehicleWheels (21) every frame, even with no vehicle; 0.9.10+ writes
  // VehicleLight (10) every frame. A file without them comes from an older release.
  if (scan.variant.variant.doubles) return InfoWording::Carla0915;
  for (int id = 21; id <= 23; ++id)
    if (scan.packet_counts[id]) return InfoWording::Carla0915;
  for (int id = 10; id <= 20; ++id)
    if (scan.packet_counts[id]) return InfoWording::Carla0910;
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
  std::ostringstream out;
  out << "Version: " << header.version << "\n";
  out << "Map: " << header.map << "\n";
  out << "Date: " << format_date(header.date) << "\n\n";
  return out.str();
}

std::string footer_text(const ScanResult& scan, bool sticky_fixed0) {
  std::ostringstream out;
  if (sticky_fixed0) out << std::setprecision(0) << std::fixed;
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

void print_vec(std::ostream& out, const Vec3& v) { out << "(" << v.x << ", " << v.y << ", " << v.z << ")"; }

// CARLA prints a PhysicsControl record after a round trip through the engine's types
// (rpc::VehiclePhysicsControl -> FVehiclePhysicsControl -> rpc::VehiclePhysicsControl). Three
// things show in the text:
// - gear_switch_time is not in the file: it prints the rpc struct's default, 0.5.
// - center_of_mass is a geom::Location: x100 into an FVector (cm), x0.01 back (m), in float.
// - the curves go through FRichCurve::AddKey, which inserts each key before the first key whose
//   time is not smaller: the keys come out sorted by time, equal times in reverse file order.
constexpr float kRpcGearSwitchTime = 0.5f;

double centimetre_round_trip(double metres) {
  float centimetres = 1e2f * static_cast<float>(metres);
  return 1e-2f * centimetres;
}

std::vector<std::pair<double, double>> rich_curve_keys(const std::vector<std::pair<double, double>>& file_order) {
  std::vector<std::pair<double, double>> keys;
  keys.reserve(file_order.size());
  if (file_order.size() <= 2048) {
    for (const auto& key : file_order) {
      size_t at = 0;
      while (at < keys.size() && keys[at].first < key.first) ++at;
      keys.insert(keys.begin() + static_cast<std::ptrdiff_t>(at), key);
    }
    return keys;
  }
  // Same order for a long curve (no real one is), without the quadratic insertion; NaN times last.
  keys.assign(file_order.rbegin(), file_order.rend());
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    bool a_nan = std::isnan(a.first), b_nan = std::isnan(b.first);
    if (a_nan || b_nan) return !a_nan && b_nan;
    return a.first < b.first;
  });
  return keys;
}

class InfoPrinter {
 public:
  InfoPrinter(std::ostream& out, bool show_all, const Variant& variant, InfoWording wording)
      : out_(out), show_all_(show_all), variant_(variant), wording_(wording) {}

  void packet(const FrameStartRecord& frame, const PacketRef& ref, const uint8_t* payload) {
    DecodedPacket p;
    decode_packet(ref.id, payload, ref.size, variant_, &p);
    frame_ = frame;
    switch (p.kind) {
      case Kind::FrameStart:
        frame_printed_ = false;
        if (show_all_) print_frame();
        return;
      case Kind::EventAdd:
        if (p.total) print_frame();
        for (const EventAddRecord& a : p.adds) {
          out_ << " Create " << a.id << ": " << a.blueprint << " (" << static_cast<int>(a.type) << ") at ";
          print_vec(out_, a.location);
          out_ << std::endl;
          for (const Attribute& attribute : a.attributes) out_ << "  " << attribute.id << " = " << attribute.value << std::endl;
        }
        return;
      case Kind::EventDel:
        if (p.total) print_frame();
        for (uint32_t id : p.dels) out_ << " Destroy " << id << "\n";
        return;
      case Kind::EventParent:
        if (p.total) print_frame();
        for (const auto& [child, parent] : p.parents) out_ << " Parenting " << child << " with " << parent << " (parent)\n";
        return;
      case Kind::Collision:
        if (p.total) print_frame();
        for (const CollisionRecord& c : p.collisions) {
          out_ << " Collision id " << c.id << " between " << c.actor1;
          if (c.hero1) out_ << " (hero) ";
          out_ << " with " << c.actor2;
          if (c.hero2) out_ << " (hero) ";
          out_ << std::endl;
        }
        return;
      default:
        if (show_all_) detail(p);
        return;
    }
  }

 private:
  void print_frame() {
    if (frame_printed_) return;
    out_ << "Frame " << frame_.id << " at " << frame_.elapsed << " seconds\n";
    frame_printed_ = true;
  }
  void count_line(const DecodedPacket& p, const char* title) {
    if (p.total) print_frame();
    out_ << " " << title << ": " << p.total << std::endl;
  }

  void detail(const DecodedPacket& p) {
    switch (p.kind) {
      case Kind::Position:
        count_line(p, "Positions");
        for (const PositionRecord& r : p.positions) {
          out_ << "  Id: " << r.id << (wording_ == InfoWording::Carla095 ? " Location " : " Location: ");
          print_vec(out_, r.location);
          out_ << (wording_ == InfoWording::Carla0915 ? " Rotation: " : " Rotation ");
          print_vec(out_, r.rotation);
          out_ << std::endl;
        }
        break;
      case Kind::State:
        count_line(p, "State traffic lights");
        for (const StateRecord& r : p.states)
          out_ << "  Id: " << r.id << " state: " << static_cast<char>(0x30 + r.state) << " frozen: " << r.frozen
               << " elapsedTime: " << r.elapsed << std::endl;
        break;
      case Kind::AnimVehicle:
        count_line(p, "Vehicle animations");
        for (const AnimVehicleRecord& r : p.vehicles)
          out_ << "  Id: " << r.id << " Steering: " << r.steering << " Throttle: " << r.throttle
               << (wording_ == InfoWording::Carla0915 ? " Brake: " : " Brake ") << r.brake
               << " Handbrake: " << r.handbrake << " Gear: " << r.gear << std::endl;
        break;
      case Kind::AnimWalker:
        count_line(p, "Walker animations");
        for (const auto& [id, speed] : p.walkers) out_ << "  Id: " << id << " speed: " << speed << std::endl;
        break;
      case Kind::VehicleDoor: {
        count_line(p, "Vehicle door animations");
        static const char* kDoors[] = {" Front Left ", " Front Right ", " Rear Left ", " Rear Right ", " Hood ", " Trunk ", " All "};
        for (const DoorRecord& r : p.doors) {
          // As CARLA: "Doors opened" whatever bIsOpen says, and no line end for an unknown door.
          out_ << "  Id: " << r.id << std::endl;
          out_ << "  Doors opened: ";
          if (r.door < 7) out_ << kDoors[r.door] << std::endl;
        }
        break;
      }
      case Kind::VehicleLight:
        count_line(p, "Vehicle light animations");
        for (const auto& [id, flags] : p.lights) out_ << "  Id: " << id << " " << vehicle_lights_text(flags) << std::endl;
        break;
      case Kind::SceneLight:
        count_line(p, "Scene light changes");
        for (const SceneLightRecord& r : p.scene_lights)
          out_ << "  Id: " << r.light_id << " enabled: " << (r.on ? "True" : "False") << " intensity: " << r.intensity << " RGB_color: ("
               << r.r << ", " << r.g << ", " << r.b << ")" << std::endl;
        break;
      case Kind::Kinematics:
        count_line(p, "Dynamic actors");
        for (const KinematicsRecord& r : p.kinematics) {
          out_ << "  Id: " << r.id << " linear_velocity: ";
          print_vec(out_, r.linear);
          out_ << " angular_velocity: ";
          print_vec(out_, r.angular);
          out_ << std::endl;
        }
        break;
      case Kind::BoundingBox:
      case Kind::TriggerVolume:
        count_line(p, p.kind == Kind::BoundingBox ? "Actor bounding boxes" : "Actor trigger volumes");
        for (const BoxRecord& r : p.boxes) {
          out_ << "  Id: " << r.id << " origin: ";
          print_vec(out_, r.origin);
          out_ << " extension: ";
          print_vec(out_, r.extension);
          out_ << std::endl;
        }
        break;
      case Kind::PlatformTime:
        print_frame();
        out_ << " Current platform time: " << p.time << std::endl;
        break;
      case Kind::PhysicsControl: physics(p); break;
      case Kind::TrafficLightTime:
        count_line(p, "Traffic Light time events");
        for (const TrafficLightTimeRecord& r : p.light_times)
          out_ << "  Id: " << r.id << " green_time: " << r.green << " yellow_time: " << r.yellow << " red_time: " << r.red << std::endl;
        break;
      case Kind::WalkerBones:
        count_line(p, "Walkers Bones");
        for (const WalkerBonesRecord& r : p.bones) {
          out_ << "  Id: " << r.id << "\n";
          for (const Bone& bone : r.bones) {
            out_ << "     Bone: \"" << bone.name << "\" relative: Loc(" << bone.location.x << ", " << bone.location.y << ", " << bone.location.z
                 << ") Rot(" << bone.rotation.x << ", " << bone.rotation.y << ", " << bone.rotation.z << ")\n";
          }
        }
        out_ << std::endl;
        break;
      default: break;  // VisualTime, FrameCounter, wheels, biker, user packets: CARLA skips them
    }
  }

  void physics(const DecodedPacket& p) {
    count_line(p, "Physics Control events");
    for (const PhysicsControlRecord& c : p.physics) {
      out_ << "  Id: " << c.id << std::endl
           << "   max_rpm = " << c.max_rpm << std::endl
           << "   MOI = " << c.moi << std::endl
           << "   damping_rate_full_throttle = " << c.damping_full_throttle << std::endl
           << "   damping_rate_zero_throttle_clutch_engaged = " << c.damping_zero_throttle_engaged << std::endl
           << "   damping_rate_zero_throttle_clutch_disengaged = " << c.damping_zero_throttle_disengaged << std::endl
           << "   use_gear_auto_box = " << (c.use_gear_autobox ? "true" : "false") << std::endl
           << "   gear_switch_time = " << kRpcGearSwitchTime << std::endl
           << "   clutch_strength = " << c.clutch_strength << std::endl
           << "   final_ratio = " << c.final_ratio << std::endl
           << "   mass = " << c.mass << std::endl
           << "   drag_coefficient = " << c.drag_coefficient << std::endl
           << "   center_of_mass = ";
      print_vec(out_, Vec3{centimetre_round_trip(c.center_of_mass.x), centimetre_round_trip(c.center_of_mass.y),
                           centimetre_round_trip(c.center_of_mass.z)});
      out_ << std::endl << "   torque_curve =";
      for (const auto& [x, y] : rich_curve_keys(c.torque_curve)) out_ << " (" << x << ", " << y << ")";
      out_ << std::endl << "   steering_curve =";
      for (const auto& [x, y] : rich_curve_keys(c.steering_curve)) out_ << " (" << x << ", " << y << ")";
      out_ << std::endl << "   forward_gears:" << std::endl;
      for (size_t i = 0; i < c.forward_gears.size(); ++i)
        out_ << "    gear " << i << ": ratio " << c.forward_gears[i].ratio << " down_ratio " << c.forward_gears[i].down_ratio << " up_ratio "
             << c.forward_gears[i].up_ratio << std::endl;
      out_ << "   wheels:" << std::endl;
      for (size_t i = 0; i < c.wheels.size(); ++i) {
        const WheelControl& w = c.wheels[i];
        out_ << "    wheel " << i << ": tire_friction " << w.tire_friction << " damping_rate " << w.damping_rate << " max_steer_angle "
             << w.max_steer_angle << " radius " << w.radius << " max_brake_torque " << w.max_brake_torque << " max_handbrake_torque "
             << w.max_handbrake_torque << " position ";
        print_vec(out_, w.position);
        out_ << std::endl;
      }
    }
  }

  std::ostream& out_;
  bool show_all_;
  Variant variant_;
  InfoWording wording_;
  FrameStartRecord frame_;
  bool frame_printed_ = false;
};

}  // namespace

std::string file_info_text(ByteSource& source, const ScanResult& scan, bool show_all, const ProgressFn& progress) {
  if (!scan.header_ok) {
    // CARLA's own message for a file that is not a recorder log; say more when it is a cut one.
    if (scan.recovery.reason == "cut_in_header") return "File is not a CARLA recorder\n(" + scan.recovery.message + ")\n";
    return "File is not a CARLA recorder\n";
  }
  std::ostringstream out;
  out << header_text(scan.header);
  InfoPrinter printer(out, show_all, scan.variant.variant, info_wording(scan));
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) { printer.packet(frame, packet, payload); };
  if (show_all) {
    stream_packets(source, scan, progress, [](uint8_t) { return true; }, visit);
  } else {
    // Only frames with events print anything: visit just those, found through the frame index.
    auto events = [](uint8_t id) { return id <= kCollision; };
    for (const FrameEntry& f : scan.frames)
      if (f.has_events) stream_packets(source, scan, nullptr, events, visit, f.offset, f.end);
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
      for (size_t i = 0; i < record_count(p); ++i) {
        Json record = record_to_json(p, i);
        if (p.kind == Kind::EventAdd) creates.push_back(std::move(record));
        else if (p.kind == Kind::EventDel) destroys.push_back(p.dels[i]);
        else if (p.kind == Kind::EventParent) parents.push_back(std::move(record));
        else if (p.kind == Kind::Collision) collisions.push_back(std::move(record));
      }
    };
    stream_packets(source, scan, nullptr, [](uint8_t id) { return id >= kEventAdd && id <= kCollision; }, visit, f.offset, f.end);
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
