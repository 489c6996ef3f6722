// The diagnostics view (codec/views/diagnostics.h) on files our writers make: diagnostic_msgs/
// DiagnosticArray in a bag, in an MCAP (ros1msg) and in an MCAP (CDR): components changing level,
// a STALE one, an unknown level byte, an empty array, damaged and short messages; runs, worst
// levels, time in each level, the status at a time with its key/values, and the findings.
#include <cstring>

#include "cdr/writer.h"
#include "inspector.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "rosbag/inspector.h"
#include "rosbag/model.h"
#include "rosbag/writer.h"
#include "test_support.h"
#include "views/diagnostics.h"

using namespace logscope;

namespace {

constexpr uint64_t kStart = 1767225600000000000ull;
constexpr uint64_t kSecond = 1000000000ull;
const char* kMd5 = "60810da900de1dd6ddd437c3503511da";

const char* kStatusDefinition =
    "================================================================================\n"
    "MSG: diagnostic_msgs/DiagnosticStatus\nbyte OK=0\nbyte WARN=1\nbyte ERROR=2\nbyte STALE=3\n"
    "byte level\nstring name\nstring message\nstring hardware_id\nKeyValue[] values\n"
    "================================================================================\n"
    "MSG: diagnostic_msgs/KeyValue\nstring key\nstring value\n";
const std::string kRos1Definition = std::string("Header header\nDiagnosticStatus[] status\n") +
                                    "================================================================================\n"
                                    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n" + kStatusDefinition;
const std::string kRos2Definition = std::string("std_msgs/Header header\nDiagnosticStatus[] status\n") +
                                    "================================================================================\n"
                                    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
                                    "================================================================================\n"
                                    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n" + kStatusDefinition;

struct Status {
  int level;
  std::string name, message, hardware_id;
  std::vector<std::pair<std::string, std::string>> values;
};

void put_u32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
void put_string(std::string* out, const std::string& s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}

std::string ros1_message(uint64_t t, const std::vector<Status>& list) {
  std::string out;
  put_u32(&out, 0);
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

std::string ros2_message(uint64_t t, const std::vector<Status>& list) {
  cdr::CdrWriter w;
  w.put<int32_t>(static_cast<int32_t>(t / kSecond));
  w.put<uint32_t>(static_cast<uint32_t>(t % kSecond));
  w.string("");
  w.sequence_length(static_cast<uint32_t>(list.size()));
  for (const Status& s : list) {
    w.put<uint8_t>(static_cast<uint8_t>(s.level));
    w.string(s.name);
    w.string(s.message);
    w.string(s.hardware_id);
    w.sequence_length(static_cast<uint32_t>(s.values.size()));
    for (const auto& [k, v] : s.values) w.string(k), w.string(v);
  }
  return w.bytes();
}

// 20 statuses a message (past the record view's 16 elements): motor OK, WARN at 4-5 s, ERROR at
// 6-7 s, OK again; lidar STALE from 5 s; gps level byte 7 at 9 s; 17 fillers always OK.
std::vector<Status> second(int i) {
  int motor = i >= 6 && i <= 7 ? 2 : i >= 4 && i <= 5 ? 1 : 0;
  std::vector<Status> out;
  out.push_back({motor, "motor", motor == 2 ? "over temperature" : "running", "can0", {{"temperature", std::to_string(40 + 6 * i)}}});
  out.push_back({i >= 5 ? 3 : 0, "lidar", i >= 5 ? "no data" : "ok", "", {}});
  out.push_back({i == 9 ? 7 : 0, "gps", "fix", "ublox", {{"satellites", "9"}, {"hdop", "0.8"}}});
  for (int k = 0; k < 17; ++k) out.push_back({0, "filler " + std::to_string(k), "", "", {}});
  return out;
}

struct Written {
  uint64_t time_ns;
  std::vector<Status> statuses;
  bool cut = false;  // written short: its bytes end inside the first status
};

std::vector<Written> scene() {
  std::vector<Written> out;
  for (int i = 0; i <= 10; ++i) {
    out.push_back({kStart + static_cast<uint64_t>(i) * kSecond, second(i)});
    if (i == 3) out.push_back({kStart + 3 * kSecond + kSecond / 2, second(i), true});
  }
  out.push_back({kStart + 10 * kSecond + kSecond / 2, {}});  // an empty array
  return out;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::string cut(const std::string& bytes, bool is_cut) { return is_cut ? bytes.substr(0, 60) : bytes; }

Json ask(FormatInspector& inspector, Json args = Json::object()) {
  Json answer = inspector.query("diagnostics", args, nullptr);
  const Json* error = answer.find("error");
  REQUIRE_MESSAGE(!error, (error ? error->as_string() : ""));
  return answer;
}

Json at(FormatInspector& inspector, uint64_t at_ns) {
  Json args = Json::object();
  args["at_ns"] = std::to_string(at_ns);
  return ask(inspector, args);
}

const Json& component(const Json& answer, const std::string& name) {
  for (const Json& c : answer.find("components")->elements())
    if (c.find("name")->as_string() == name) return c;
  FAIL("no component " << name);
  static Json none;
  return none;
}

const Json* finding(const Json& answer, const std::string& code, const std::string& name = "") {
  for (const Json& f : answer.find("findings")->elements())
    if (f.find("code")->as_string() == code && (name.empty() || f.find("component")->as_string() == name)) return &f;
  return nullptr;
}

uint64_t ns_of(const Json* j) { return std::stoull(j->as_string()); }

void check_scene(FormatInspector& inspector) {
  Json end = ask(inspector);
  CHECK(ns_of(end.find("at_ns")) == kStart + 10 * kSecond + kSecond / 2);
  CHECK(end.find("messages")->as_uint() == 12);  // 11 full ones and the empty array
  CHECK(end.find("statuses")->as_uint() == 11 * 20);
  CHECK(end.find("component_count")->as_uint() == 20);
  CHECK(end.find("undecoded")->as_uint() == 1);
  CHECK(end.find("units"));
  CHECK(untyped_paths(end) == std::vector<std::string>());  // every value of a full answer has its unit
  REQUIRE(end.find("problems")->size() == 1);
  const std::string why = (*end.find("problems"))[0].find("message")->as_string();
  CHECK(why.find("diagnostics.message.damaged at ") == 0);
  CHECK(why.find("byte") != std::string::npos);

  const Json& motor = component(end, "motor");
  CHECK(motor.find("hardware_id")->as_string() == "can0");
  CHECK(motor.find("updates")->as_uint() == 11);
  CHECK(motor.find("worst")->as_string() == "ERROR");
  REQUIRE(motor.find("runs")->size() == 4);
  const Json& error_run = (*motor.find("runs"))[2];
  CHECK(error_run.find("level")->as_string() == "ERROR");
  CHECK(ns_of(error_run.find("start_ns")) == kStart + 6 * kSecond);
  CHECK(ns_of(error_run.find("end_ns")) == kStart + 8 * kSecond);  // until the next level began
  CHECK(error_run.find("updates")->as_uint() == 2);
  CHECK(ns_of(motor.find("time_in_level")->find("OK")) == 6 * kSecond);  // 0-4 and 8-10
  CHECK(ns_of(motor.find("time_in_level")->find("WARN")) == 2 * kSecond);
  CHECK(ns_of(motor.find("time_in_level")->find("ERROR")) == 2 * kSecond);
  // At the end the last update of each is at 10 s (the empty array holds none).
  REQUIRE(!motor.find("at")->is_null());
  CHECK(ns_of(motor.find("at")->find("time_ns")) == kStart + 10 * kSecond);
  CHECK(motor.find("at")->find("values")->size() == 1);
  CHECK((*motor.find("at")->find("values"))[0].find("value")->as_string() == "100");

  const Json& lidar = component(end, "lidar");
  CHECK(lidar.find("worst")->as_string() == "STALE");
  CHECK(lidar.find("at")->find("level")->as_string() == "STALE");
  const Json& gps = component(end, "gps");
  CHECK(gps.find("worst")->as_string() == "OK");  // the unknown byte is no known level
  CHECK(gps.find("had_unknown")->as_bool());
  REQUIRE(gps.find("runs")->size() == 3);
  CHECK((*gps.find("runs"))[1].find("level")->as_string() == "UNKNOWN");
  CHECK((*gps.find("runs"))[1].find("raw_level")->as_int() == 7);
  CHECK(component(end, "filler 16").find("worst")->as_string() == "OK");

  // At 6.5 s: motor's last update is 6 s, ERROR, with its message and temperature.
  Json mid = at(inspector, kStart + 6 * kSecond + kSecond / 2);
  const Json& m6 = *component(mid, "motor").find("at");
  CHECK(ns_of(m6.find("time_ns")) == kStart + 6 * kSecond);
  CHECK(m6.find("level")->as_string() == "ERROR");
  CHECK(m6.find("message")->as_string() == "over temperature");
  CHECK((*m6.find("values"))[0].find("value")->as_string() == "76");
  // At 9 s gps gave level 7: named, with its byte.
  Json nine = at(inspector, kStart + 9 * kSecond);
  CHECK(component(nine, "gps").find("at")->find("level")->as_string() == "UNKNOWN");
  CHECK(component(nine, "gps").find("at")->find("raw_level")->as_int() == 7);
  CHECK(component(nine, "gps").find("at")->find("values")->size() == 2);
  // Before the first message nothing has a status yet.
  CHECK(component(at(inspector, kStart - 1), "motor").find("at")->is_null());

  const Json* error = finding(end, "diagnostics.component.error", "motor");
  REQUIRE(error);
  CHECK(error->find("severity")->as_string() == "error");
  CHECK(ns_of(error->find("time_ns")) == kStart + 6 * kSecond);
  CHECK(error->find("message")->as_string().find("2.000 s") != std::string::npos);
  const Json* stale = finding(end, "diagnostics.component.stale", "lidar");
  REQUIRE(stale);
  CHECK(ns_of(stale->find("time_ns")) == kStart + 5 * kSecond);
  const Json* unknown = finding(end, "diagnostics.level.unknown", "gps");
  REQUIRE(unknown);
  CHECK(unknown->find("message")->as_string().find("level 7") != std::string::npos);
  CHECK(finding(end, "diagnostics.message.damaged"));
  CHECK(!finding(end, "diagnostics.component.error", "gps"));

  // --level error keeps motor and lidar (STALE is above ERROR) and gps (an unknown level passes).
  Json args = Json::object();
  args["level"] = "error";
  Json errors = ask(inspector, args);
  CHECK(errors.find("components")->size() == 3);
}

}  // namespace

TEST_CASE("diagnostics: a bag's DiagnosticArray: runs, worst levels, the status at a time and the findings") {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.chunk_threshold = 2048;
  rosbag::BagWriter writer(sink, options);
  uint32_t topic = writer.add_connection("/diagnostics", "diagnostic_msgs/DiagnosticArray", kMd5, kRos1Definition);
  for (const Written& m : scene()) REQUIRE(writer.write(topic, rosbag::Time::from_ns(m.time_ns), cut(ros1_message(m.time_ns, m.statuses), m.cut)));
  REQUIRE(writer.close());
  MemoryByteSource source(bytes_of(sink.bytes));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  check_scene(*inspector);
}

TEST_CASE("diagnostics: an MCAP of ros1msg and one of CDR give the same answers") {
  for (bool cdr : {false, true}) {
    CAPTURE(cdr);
    mcap::WriterOptions options;
    options.chunk_size = 1024;
    mcap::Writer writer(options);
    uint16_t schema = cdr ? writer.add_schema("diagnostic_msgs/msg/DiagnosticArray", "ros2msg", kRos2Definition)
                          : writer.add_schema("diagnostic_msgs/DiagnosticArray", "ros1msg", kRos1Definition);
    uint16_t channel = writer.add_channel(schema, "/diagnostics", cdr ? "cdr" : "ros1");
    uint32_t sequence = 0;
    for (const Written& m : scene())
      writer.write_message(channel, sequence++, m.time_ns, m.time_ns,
                           cut(cdr ? ros2_message(m.time_ns, m.statuses) : ros1_message(m.time_ns, m.statuses), m.cut));
    std::string bytes = writer.finish();
    MemoryByteSource source(bytes_of(bytes));
    auto inspector = mcap::open_inspector(source);
    REQUIRE(inspector);
    check_scene(*inspector);
  }
}

TEST_CASE("diagnostics: the shapes of a status, and what is no status") {
  auto parse = [](const char* text) { return *Json::parse(text); };
  std::vector<views::DiagnosticStatus> out;
  std::string error;
  REQUIRE(views::diagnostic_statuses(parse(R"({"status": [{"level": -56, "name": "a", "message": "m", "hardware_id": "h",
                                       "values": [{"key": "k", "value": "v"}]}]})"), true, &out, &error));
  REQUIRE(out.size() == 1);
  CHECK(out[0].level == 200);  // ROS 1's signed byte, read back as the byte it is
  CHECK(std::string(views::diagnostic_level_name(out[0].level)) == "UNKNOWN");
  CHECK(out[0].values.size() == 1);
  out.clear();
  CHECK(views::diagnostic_statuses(parse(R"({"status": []})"), true, &out, &error));
  CHECK(out.empty());
  CHECK(!views::diagnostic_statuses(parse(R"({"status": [{"level": 0, "name": "a"}, {"name": "b"}]})"), false, &out, &error));
  CHECK(error == "status[1]: no field \"level\"");
  CHECK(out.empty());  // nothing of a half-read message
  CHECK(!views::diagnostic_statuses(parse(R"({"status": [{"level": 0, "name": 3}]})"), false, &out, &error));
  CHECK(error == "status[0]: field \"name\" is not text");
  CHECK(!views::diagnostic_statuses(parse(R"({"status": [{"level": 1000, "name": "a"}]})"), false, &out, &error));
  CHECK(!views::diagnostic_statuses(parse(R"({"status": [{"level": 0, "name": "a", "values": [{"key": 1}]}]})"), true, &out, &error));
  CHECK(error == "status[0]: values[0]: field \"key\" is not text");
  CHECK(!views::diagnostic_statuses(parse(R"({"header": {}})"), false, &out, &error));
  CHECK(!views::diagnostic_statuses(parse("3"), false, &out, &error));
  CHECK(views::is_diagnostics_type("diagnostic_msgs/msg/DiagnosticArray"));
  CHECK(!views::is_diagnostics_type("diagnostic_msgs/KeyValue"));
}

TEST_CASE("diagnostics: messages out of time order are placed by their time") {
  mcap::Writer writer(mcap::WriterOptions{});
  uint16_t schema = writer.add_schema("diagnostic_msgs/DiagnosticArray", "ros1msg", kRos1Definition);
  uint16_t channel = writer.add_channel(schema, "/diagnostics", "ros1");
  // Written 0, 1, 3, 2 s (OK, OK, OK, ERROR): the ERROR at 2 s splits the OK run.
  int levels[] = {0, 0, 0, 2};
  int seconds[] = {0, 1, 3, 2};
  for (uint32_t i = 0; i < 4; ++i) {
    uint64_t t = kStart + static_cast<uint64_t>(seconds[i]) * kSecond;
    writer.write_message(channel, i, t, t, ros1_message(t, {{levels[i], "a", "", "", {}}}));
  }
  std::string bytes = writer.finish();
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = mcap::open_inspector(source);
  REQUIRE(inspector);
  Json answer = ask(*inspector);
  const Json& a = component(answer, "a");
  CHECK(a.find("updates")->as_uint() == 4);
  CHECK(a.find("worst")->as_string() == "ERROR");
  Json two = at(*inspector, kStart + 2 * kSecond + 1);
  CHECK(component(two, "a").find("at")->find("level")->as_string() == "ERROR");
  CHECK(component(at(*inspector, kStart + 3 * kSecond), "a").find("at")->find("level")->as_string() == "OK");
}

TEST_CASE("diagnostics: a file without diagnostics answers with nothing, and a bad level argument is named") {
  rosbag::MemorySink sink;
  rosbag::BagWriter writer(sink, rosbag::WriterOptions{});
  uint32_t topic = writer.add_connection("/chatter", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  std::string hello;
  put_string(&hello, "hello");
  REQUIRE(writer.write(topic, rosbag::Time::from_ns(kStart), hello));
  REQUIRE(writer.close());
  MemoryByteSource source(bytes_of(sink.bytes));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  Json answer = ask(*inspector);
  CHECK(answer.find("components")->size() == 0);
  CHECK(answer.find("topics")->size() == 0);
  CHECK(answer.find("findings")->size() == 0);
  Json args = Json::object();
  args["level"] = "fatal";
  Json bad = inspector->query("diagnostics", args, nullptr);
  REQUIRE(bad.find("error"));
  CHECK(bad.find("error")->as_string().find("ok, warn, error or stale") != std::string::npos);
}

// Asked again and again with a slice budget, a long log's diagnostics are read a slice of time at a
// time (codec/views/view_support.h): each answer is of the statuses read so far, at a time no later
// than the time read through, and the last equals one whole walk's.
TEST_CASE("diagnostics: a long bag read a slice of time at a time ends as one whole walk") {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.chunk_threshold = 8192;
  rosbag::BagWriter writer(sink, options);
  uint32_t topic = writer.add_connection("/diagnostics", "diagnostic_msgs/DiagnosticArray", kMd5, kRos1Definition);
  constexpr uint64_t kMessages = 3000, kStep = kSecond / 10;
  for (uint64_t i = 0; i < kMessages; ++i) {
    uint64_t t = kStart + i * kStep;
    REQUIRE(writer.write(topic, rosbag::Time::from_ns(t), ros1_message(t, second(static_cast<int>(i / 10 % 11)))));
  }
  REQUIRE(writer.close());
  MemoryByteSource whole_source(bytes_of(sink.bytes)), sliced_source(bytes_of(sink.bytes));
  auto whole = rosbag::open_inspector(whole_source, rosbag::Format::RosbagV20);
  auto sliced = rosbag::open_inspector(sliced_source, rosbag::Format::RosbagV20);
  REQUIRE(whole);
  REQUIRE(sliced);
  const uint64_t late = kStart + 250 * kSecond + kSecond / 20;
  const auto sliced_ask = [&](uint64_t at_ns) {
    Json args = Json::object();
    args["slice_ms"] = 1;
    args["at_ns"] = std::to_string(at_ns);
    return ask(*sliced, args);
  };
  Json answer = sliced_ask(late);
  REQUIRE(answer.find("reading"));
  uint64_t through = std::stoull(answer.find("reading")->find("through_ns")->as_string());
  CHECK(through < late);
  CHECK(std::stoull(answer.find("at_ns")->as_string()) == through);  // not past what is read
  CHECK(answer.find("messages")->as_uint() == (through - kStart) / kStep + 1);
  CHECK(!component(answer, "motor").find("at")->is_null());
  int answers = 1;
  for (; answer.find("reading"); ++answers) {
    REQUIRE(answers < 100000);
    answer = sliced_ask(late);
  }
  CAPTURE(answers);
  CHECK(answers > 2);
  CHECK(answer.find("messages")->as_uint() == kMessages);
  CHECK(answer.dump() == at(*whole, late).dump());
  CHECK(ask(*sliced).dump() == ask(*whole).dump());
}
