#include "carla/packets_physics.h"

namespace logscope::carla {
namespace {

Json pair_list(const std::vector<std::pair<double, double>>& points) {
  Json list = Json::array();
  for (const auto& point : points) {
    Json p = Json::array();
    p.push_back(point.first);
    p.push_back(point.second);
    list.push_back(std::move(p));
  }
  return list;
}

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

}  // namespace

Json physics_json(const PhysicsControlRecord& p) {
  Json j = Json::object();
  j["id"] = p.id;
  j["max_rpm"] = p.max_rpm;
  j["moi"] = p.moi;
  j["damping_rate_full_throttle"] = p.damping_full_throttle;
  j["damping_rate_zero_throttle_clutch_engaged"] = p.damping_zero_throttle_engaged;
  j["damping_rate_zero_throttle_clutch_disengaged"] = p.damping_zero_throttle_disengaged;
  j["use_gear_autobox"] = p.use_gear_autobox;
  j["clutch_strength"] = p.clutch_strength;
  j["final_ratio"] = p.final_ratio;
  j["mass"] = p.mass;
  j["drag_coefficient"] = p.drag_coefficient;
  j["center_of_mass"] = vec3_json(p.center_of_mass);
  j["torque_curve"] = pair_list(p.torque_curve);
  Json gears = Json::array();
  for (const GearRecord& g : p.forward_gears) {
    Json gear = Json::object();
    gear["ratio"] = g.ratio;
    gear["down_ratio"] = g.down_ratio;
    gear["up_ratio"] = g.up_ratio;
    gears.push_back(std::move(gear));
  }
  j["forward_gears"] = std::move(gears);
  j["steering_curve"] = pair_list(p.steering_curve);
  Json wheels = Json::array();
  for (const WheelControl& w : p.wheels) {
    Json wheel = Json::object();
    wheel["tire_friction"] = w.tire_friction;
    wheel["damping_rate"] = w.damping_rate;
    wheel["max_steer_angle"] = w.max_steer_angle;
    wheel["radius"] = w.radius;
    wheel["max_brake_torque"] = w.max_brake_torque;
    wheel["max_handbrake_torque"] = w.max_handbrake_torque;
    if (w.has_stiffness) {
      wheel["lat_stiff_max_load"] = w.lat_stiff_max_load;
      wheel["lat_stiff_value"] = w.lat_stiff_value;
      wheel["long_stiff_value"] = w.long_stiff_value;
    }
    wheel["position"] = vec3_json(w.position);
    wheels.push_back(std::move(wheel));
  }
  j["wheels"] = std::move(wheels);
  return j;
}

void physics_text(InfoText& t, const std::vector<PhysicsControlRecord>& records) {
  TextOut& out = t.out;
  t.count("Physics Control events");
  for (const PhysicsControlRecord& c : records) {
    out << "  Id: " << c.id << text::endl
        << "   max_rpm = " << c.max_rpm << text::endl
        << "   MOI = " << c.moi << text::endl
        << "   damping_rate_full_throttle = " << c.damping_full_throttle << text::endl
        << "   damping_rate_zero_throttle_clutch_engaged = " << c.damping_zero_throttle_engaged << text::endl
        << "   damping_rate_zero_throttle_clutch_disengaged = " << c.damping_zero_throttle_disengaged << text::endl
        << "   use_gear_auto_box = " << (c.use_gear_autobox ? "true" : "false") << text::endl
        << "   gear_switch_time = " << kRpcGearSwitchTime << text::endl
        << "   clutch_strength = " << c.clutch_strength << text::endl
        << "   final_ratio = " << c.final_ratio << text::endl
        << "   mass = " << c.mass << text::endl
        << "   drag_coefficient = " << c.drag_coefficient << text::endl
        << "   center_of_mass = ";
    t.vec(Vec3{centimetre_round_trip(c.center_of_mass.x), centimetre_round_trip(c.center_of_mass.y),
               centimetre_round_trip(c.center_of_mass.z)});
    out << text::endl << "   torque_curve =";
    for (const auto& [x, y] : rich_curve_keys(c.torque_curve)) out << " (" << x << ", " << y << ")";
    out << text::endl << "   steering_curve =";
    for (const auto& [x, y] : rich_curve_keys(c.steering_curve)) out << " (" << x << ", " << y << ")";
    out << text::endl << "   forward_gears:" << text::endl;
    for (size_t i = 0; i < c.forward_gears.size(); ++i)
      out << "    gear " << i << ": ratio " << c.forward_gears[i].ratio << " down_ratio " << c.forward_gears[i].down_ratio << " up_ratio "
          << c.forward_gears[i].up_ratio << text::endl;
    out << "   wheels:" << text::endl;
    for (size_t i = 0; i < c.wheels.size(); ++i) {
      const WheelControl& w = c.wheels[i];
      out << "    wheel " << i << ": tire_friction " << w.tire_friction << " damping_rate " << w.damping_rate << " max_steer_angle "
          << w.max_steer_angle << " radius " << w.radius << " max_brake_torque " << w.max_brake_torque << " max_handbrake_torque "
          << w.max_handbrake_torque << " position ";
      t.vec(w.position);
      out << text::endl;
    }
  }
}

}  // namespace logscope::carla
