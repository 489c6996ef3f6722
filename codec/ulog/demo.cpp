#include "ulog/demo.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/file_output_sink.h"
#include "ulog/format.h"
#include "ulog/writer.h"

namespace logscope::ulog {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kHomeLat = 47.397742, kHomeLon = 8.545594;  // PX4's SITL home (Zurich)
constexpr double kEarthRadius = 6371000.0;

enum : uint16_t { kAttitude, kAccel0, kAccel1, kLocal, kGlobal, kBattery, kTriplet, kStatus };

const char* const kFormats[] = {
    "vehicle_attitude:uint64_t timestamp;uint64_t timestamp_sample;float[4] q;float[4] delta_q_reset;uint8_t quat_reset_counter;uint8_t[7] _padding0;",
    "sensor_accel:uint64_t timestamp;uint64_t timestamp_sample;uint32_t device_id;float x;float y;float z;float temperature;uint8_t[4] _padding0;",
    "vehicle_local_position:uint64_t timestamp;float x;float y;float z;float vx;float vy;float vz;float heading;bool xy_valid;bool z_valid;uint8_t[6] _padding0;",
    "vehicle_global_position:uint64_t timestamp;double lat;double lon;float alt;float eph;float epv;uint8_t[4] _padding0;",
    "battery_status:uint64_t timestamp;float voltage_v;float current_a;float discharged_mah;float remaining;uint8_t cell_count;bool connected;uint8_t warning;uint8_t[1] _padding0;",
    "position_setpoint:uint64_t timestamp;double lat;double lon;float x;float y;float z;bool valid;uint8_t type;uint8_t[2] _padding0;",
    "position_setpoint_triplet:uint64_t timestamp;position_setpoint previous;position_setpoint current;position_setpoint next;",
    "vehicle_status:uint64_t timestamp;uint8_t nav_state;uint8_t arming_state;char[16] mode_name;uint8_t[6] _padding0;",
};

struct Payload {
  std::string bytes;
  template <typename T>
  Payload& put(T v) {
    bytes += le_bytes(v);
    return *this;
  }
  Payload& pad(size_t n) {
    bytes.append(n, '\0');
    return *this;
  }
  Payload& text(const std::string& s, size_t n) {
    std::string t = s.substr(0, n);
    t.resize(n, '\0');
    bytes += t;
    return *this;
  }
};

// Where the vehicle is at t seconds into the flight: climb to 10 m, then circles of 40 m.
struct State {
  double x = 0, y = 0, z = 0, vx = 0, vy = 0, vz = 0, yaw = 0;
};
State state_at(double t) {
  State s;
  if (t < 5) return s;  // on the ground
  double climb = std::min(t - 5, 10.0);
  s.z = -climb;  // NED: up is negative
  s.vz = t - 5 < 10 ? -1.0 : 0.0;
  if (t > 15) {
    double w = 2 * kPi / 60, a = w * (t - 15);
    s.x = 40 * std::sin(a);
    s.y = 40 * (1 - std::cos(a));
    s.vx = 40 * w * std::cos(a);
    s.vy = 40 * w * std::sin(a);
    s.yaw = std::atan2(s.vy, s.vx);
  }
  return s;
}

bool definitions(Writer& w, uint64_t start_us) {
  if (!w.header(start_us)) return false;
  uint8_t compat[8] = {kCompatDefaultParameters}, incompat[8] = {};
  uint64_t appended[3] = {};
  if (!w.flag_bits(compat, incompat, appended)) return false;
  for (const char* f : kFormats)
    if (!w.format(f)) return false;
  bool ok = w.info("char[3] sys_name", "PX4") && w.info("char[10] ver_hw", "PX4_FMU_V5") &&
            w.info("char[40] ver_sw", "b3c1d2e4f5a6978812345678901234567890abcd") && w.info("uint32_t ver_sw_release", le_bytes(uint32_t{0x010e00ff})) &&
            w.info("char[5] sys_os_name", "NuttX") && w.info("int32_t time_ref_utc", le_bytes(int32_t{0})) &&
            w.info("char[8] sys_toolchain", "GNU GCC") && w.info("char[24] sys_uuid", "000600000000363438333632");
  ok = ok && w.info_multiple(false, "char[33] perf_counter_preflight", "logger_sd_write: 1204 events, 3.0ms") &&
       w.info_multiple(true, "char[33] perf_counter_preflight", ", avg 0.10ms") &&
       w.info_multiple(false, "char[31] perf_counter_preflight", "sensors: 5000 events, 12.5ms");
  struct Param {
    const char* key;
    std::string value, system_default;
  } params[] = {
      {"int32_t MAV_TYPE", le_bytes(int32_t{2}), le_bytes(int32_t{2})},
      {"int32_t SYS_AUTOSTART", le_bytes(int32_t{4001}), le_bytes(int32_t{0})},
      {"int32_t BAT1_N_CELLS", le_bytes(int32_t{4}), le_bytes(int32_t{3})},
      {"float MPC_XY_CRUISE", le_bytes(5.0f), le_bytes(5.0f)},
      {"float MPC_Z_VEL_MAX_UP", le_bytes(2.5f), le_bytes(3.0f)},
      {"float COM_DISARM_LAND", le_bytes(2.0f), le_bytes(2.0f)},
      {"float MIS_TAKEOFF_ALT", le_bytes(10.0f), le_bytes(2.5f)},
      {"int32_t SDLOG_PROFILE", le_bytes(int32_t{1}), le_bytes(int32_t{1})},
  };
  for (const Param& p : params) ok = ok && w.parameter(p.key, p.value);
  for (const Param& p : params) ok = ok && w.default_parameter(1, p.key, p.system_default);
  ok = ok && w.default_parameter(2, "int32_t BAT1_N_CELLS", le_bytes(int32_t{4}));  // the airframe's default
  const char* names[] = {"vehicle_attitude", "sensor_accel", "sensor_accel", "vehicle_local_position",
                         "vehicle_global_position", "battery_status", "position_setpoint_triplet", "vehicle_status"};
  for (uint16_t id = 0; id < 8; ++id) ok = ok && w.add_subscription(id == kAccel1 ? 1 : 0, id, names[id]);
  return ok;
}

Payload setpoint(uint64_t t, double x, double y, double z, bool valid) {
  Payload p;
  p.put(t).put(kHomeLat + x / kEarthRadius * 180 / kPi).put(kHomeLon + y / (kEarthRadius * std::cos(kHomeLat * kPi / 180)) * 180 / kPi);
  p.put(static_cast<float>(x)).put(static_cast<float>(y)).put(static_cast<float>(z)).put(uint8_t{valid}).put(static_cast<uint8_t>(valid ? 3 : 0)).pad(2);
  return p;
}

// Writes the flight until `target_bytes` (or `max_seconds` of it); false on a write error.
bool flight(Writer& w, uint64_t target_bytes, double max_seconds) {
  const uint64_t boot_us = 2000000;
  uint64_t step_us = 10000;  // 100 Hz
  double remaining = 1.0, discharged = 0;
  bool armed = false, low_battery_said = false, dropped = false;
  for (uint64_t k = 0;; ++k) {
    uint64_t t_us = boot_us + k * step_us;
    double t = static_cast<double>(k * step_us) / 1e6;
    if (w.written() >= target_bytes || t > max_seconds) break;
    if (!dropped && t >= 21.0) {  // the logger's buffer overflowed once
      dropped = true;
      k += 5;
      if (!w.dropout(50)) return false;
      continue;
    }
    State s = state_at(t);
    bool flying = t >= 5;
    if (flying && !armed) {
      armed = true;
      if (!w.logging('6', t_us, "[commander] Armed by RC") || !w.tagged_logging('6', 1, t_us, "[navigator] Takeoff to 10.0 meters above home"))
        return false;
    }
    if (k % 100 == 0 && !w.sync()) return false;
    double half = s.yaw / 2;
    Payload att;
    att.put(t_us).put(t_us - 800).put(static_cast<float>(std::cos(half))).put(0.0f).put(0.0f).put(static_cast<float>(std::sin(half)));
    att.put(1.0f).put(0.0f).put(0.0f).put(0.0f).put(uint8_t{0}).pad(7);
    if (!w.data(kAttitude, att.bytes)) return false;
    for (uint16_t id : {kAccel0, kAccel1}) {
      Payload a;
      float noise = static_cast<float>(std::sin(static_cast<double>(k * (id + 3)))) * 0.05f;
      a.put(t_us).put(t_us - 1500).put(uint32_t{id == kAccel0 ? 2490378u : 2621450u}).put(noise).put(-noise).put(-9.81f + noise).put(41.5f + id);
      a.pad(4);
      if (!w.data(id, a.bytes)) return false;
    }
    if (k % 2 == 0) {
      Payload l;
      l.put(t_us).put(static_cast<float>(s.x)).put(static_cast<float>(s.y)).put(static_cast<float>(s.z));
      l.put(static_cast<float>(s.vx)).put(static_cast<float>(s.vy)).put(static_cast<float>(s.vz)).put(static_cast<float>(s.yaw));
      l.put(uint8_t{1}).put(uint8_t{1}).pad(6);
      if (!w.data(kLocal, l.bytes)) return false;
    }
    if (k % 10 == 0) {
      Payload g;
      g.put(t_us).put(kHomeLat + s.x / kEarthRadius * 180 / kPi).put(kHomeLon + s.y / (kEarthRadius * std::cos(kHomeLat * kPi / 180)) * 180 / kPi);
      g.put(static_cast<float>(488.0 - s.z)).put(0.6f).put(0.9f).pad(4);
      if (!w.data(kGlobal, g.bytes)) return false;
    }
    if (k % 50 == 0) {
      Payload p;
      p.put(t_us);
      p.bytes += setpoint(t_us, 0, 0, 0, flying).bytes;
      p.bytes += setpoint(t_us, s.x, s.y, -10, flying).bytes;
      p.bytes += setpoint(t_us, 0, 0, -10, false).bytes;
      if (!w.data(kTriplet, p.bytes)) return false;
    }
    if (k % 100 == 0) {
      double current = flying ? 18.0 + 2 * std::sin(t) : 0.4;
      discharged += current * 1000 / 3600;  // mAh in one second
      remaining = std::max(0.05, 1.0 - discharged / 12000);  // wraps round below to keep a long file flying
      Payload b;
      b.put(t_us).put(static_cast<float>(14.0 + 2.8 * remaining)).put(static_cast<float>(current)).put(static_cast<float>(discharged));
      b.put(static_cast<float>(remaining)).put(uint8_t{4}).put(uint8_t{1}).put(static_cast<uint8_t>(remaining < 0.3 ? 1 : 0)).pad(1);
      if (!w.data(kBattery, b.bytes)) return false;
      if (remaining < 0.3 && !low_battery_said) {
        low_battery_said = true;
        if (!w.logging('4', t_us, "[battery] Low battery level! Return advised") ||
            !w.tagged_logging('3', 2, t_us, "[commander] Failsafe: battery low, returning"))
          return false;
      }
      if (remaining <= 0.05) discharged = 0, low_battery_said = false;  // a fresh battery for long demo files
      Payload st;
      st.put(t_us).put(static_cast<uint8_t>(flying ? 4 : 0)).put(static_cast<uint8_t>(flying ? 2 : 1)).text(flying ? "Mission" : "Hold", 16).pad(6);
      if (!w.data(kStatus, st.bytes)) return false;
    }
    if (k == 3000 && !w.parameter("float MPC_XY_CRUISE", le_bytes(8.0f))) return false;  // changed in flight at 30 s
  }
  return true;
}


}  // namespace

bool write_demo(OutputSink& sink, uint64_t target_bytes, std::string* error) {
  Writer w(sink);
  bool ok = definitions(w, 2000000) && flight(w, std::max<uint64_t>(target_bytes, 64 * 1024), 1e12);
  if (!ok && error) *error = w.error();
  return ok;
}

bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error) {
  FileOutputSink sink;
  if (!sink.open(path)) {
    if (error) *error = sink.error();
    return false;
  }
  if (!write_demo(sink, target_bytes, error)) return false;
  if (!sink.close()) {
    if (error) *error = sink.error();
    return false;
  }
  return true;
}

std::vector<uint8_t> tiny_file() {
  MemoryOutputSink sink;
  Writer w(sink);
  definitions(w, 2000000);
  flight(w, UINT64_MAX, 0.15);
  w.logging('6', 2150000, "[commander] Ready for takeoff");
  w.tagged_logging('4', 1, 2160000, "[sensors] Accel 1 clipping");
  // No dropout: the small demo is a clean file (the warm-up and the table's tests open it without a
  // warning); the writer's dropout is tested in test_ulog.cpp.
  w.parameter("float MPC_XY_CRUISE", le_bytes(8.0f));
  w.remove_subscription(kStatus);
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

}  // namespace logscope::ulog
