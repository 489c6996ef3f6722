// `logscope make-demo-diagnostics OUT`: a ROS 1 bag of diagnostic_msgs/DiagnosticArray for the
// diagnostics view's tests and demo (tests/web/diagnostics.test.mjs): components that change
// level, a STALE one, an unknown level byte, an empty array and a damaged message.

#include "command.h"
#include "rosbag/writer.h"

namespace logscope::cli {
namespace {

constexpr uint64_t kStart = 1767225600000000000ull;  // 2026-01-01
constexpr uint64_t kSecond = 1000000000ull;

const char* kDefinition =
    "Header header\nDiagnosticStatus[] status\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: diagnostic_msgs/DiagnosticStatus\nbyte OK=0\nbyte WARN=1\nbyte ERROR=2\nbyte STALE=3\n"
    "byte level\nstring name\nstring message\nstring hardware_id\nKeyValue[] values\n"
    "================================================================================\n"
    "MSG: diagnostic_msgs/KeyValue\nstring key\nstring value\n";

void put_u32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
void put_string(std::string* out, const std::string& s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}

struct Status {
  int level;
  std::string name, message, hardware_id;
  std::vector<std::pair<std::string, std::string>> values;
};

std::string message(uint32_t seq, uint64_t t, const std::vector<Status>& list) {
  std::string out;
  put_u32(&out, seq);
  put_u32(&out, static_cast<uint32_t>(t / kSecond));
  put_u32(&out, static_cast<uint32_t>(t % kSecond));
  put_string(&out, "");
  put_u32(&out, static_cast<uint32_t>(list.size()));
  for (const Status& s : list) {
    out.push_back(static_cast<char>(s.level));
    put_string(&out, s.name);
    put_string(&out, s.message);
    put_string(&out, s.hardware_id);
    put_u32(&out, static_cast<uint32_t>(s.values.size()));
    for (const auto& [k, v] : s.values) put_string(&out, k), put_string(&out, v);
  }
  return out;
}

// Second i (0..10) of the scene: motor_left OK, WARN at 4-5, ERROR at 6-7, OK again; battery
// always OK; lidar OK to 4, STALE from 5; gps WARN at 2, level byte 7 at 9.
std::vector<Status> second(int i) {
  int motor = i >= 6 && i <= 7 ? 2 : i >= 4 && i <= 5 ? 1 : 0;
  const char* motor_text[] = {"running", "hot", "over temperature"};
  std::vector<Status> out;
  out.push_back({motor, "motor_left", motor_text[motor], "can0",
                 {{"temperature", std::to_string(40 + 6 * i)}, {"current", std::to_string(2 + i % 3) + ".5 A"}}});
  out.push_back({0, "battery", "ok", "bms", {{"voltage", std::to_string(48 - i / 2) + " V"}}});
  out.push_back({i >= 5 ? 3 : 0, "lidar", i >= 5 ? "no data" : "ok", "", {}});
  out.push_back({i == 9 ? 7 : i == 2 ? 1 : 0, "gps", i == 2 ? "few satellites" : "fix", "ublox", {{"satellites", std::to_string(i == 2 ? 3 : 9)}}});
  return out;
}

int run_make_demo_diagnostics(const std::vector<std::string>& raw_args) {
  Arguments args(raw_args, {});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-diagnostics takes one OUT path");
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.chunk_threshold = 1024;
  rosbag::BagWriter writer(sink, options);
  uint32_t diagnostics = writer.add_connection("/diagnostics", "diagnostic_msgs/DiagnosticArray", "60810da900de1dd6ddd437c3503511da", kDefinition);
  bool ok = true;
  uint32_t seq = 0;
  for (int i = 0; i <= 10; ++i) {
    uint64_t t = kStart + static_cast<uint64_t>(i) * kSecond;
    ok = ok && writer.write(diagnostics, rosbag::Time::from_ns(t), message(seq++, t, second(i)));
    if (i == 3) {  // a message cut inside its first status: named, the others kept
      std::string cut = message(seq++, t + kSecond / 2, second(i));
      ok = ok && writer.write(diagnostics, rosbag::Time::from_ns(t + kSecond / 2), cut.substr(0, 60));
    }
  }
  ok = ok && writer.write(diagnostics, rosbag::Time::from_ns(kStart + 10 * kSecond + kSecond / 2), message(seq++, kStart + 10 * kSecond + kSecond / 2, {}));
  ok = ok && writer.close();
  if (!ok) return fail("the bag could not be written: " + writer.error());
  return write_demo_output(args.positional()[0], sink.bytes);
}

const CommandRegistrar kMakeDemoDiagnostics({"make-demo-diagnostics", "write a ROS 1 bag of diagnostics (levels that change, STALE, an unknown level, damage)",
                                             "usage: logscope make-demo-diagnostics OUT\n\n"
                                             "/diagnostics at 1 Hz for 10 s from 2026-01-01: motor_left [can0] OK, WARN at 4-5 s,\n"
                                             "ERROR at 6-7 s; battery [bms] OK; lidar OK then STALE from 5 s; gps [ublox] WARN at 2 s\n"
                                             "and level byte 7 (no level) at 9 s; a message cut short at 3.5 s and an empty array\n"
                                             "at 10.5 s.",
                                             run_make_demo_diagnostics});

}  // namespace
}  // namespace logscope::cli
