// The robot log view (codec/views/robot_log.h) on files our writers make: rosgraph_msgs/Log in a
// bag, rcl_interfaces/msg/Log in an MCAP (CDR, ros2msg) and in a rosbag2 bag, foxglove.Log in an
// MCAP as JSON and as protobuf. Each file holds the same ten messages, so each must give the same
// rows; and the filters, pages, totals and notes of the one query all formats share.
#include <sqlite3.h>

#include <filesystem>
#include <fstream>

#include "cdr/writer.h"
#include "core/detect.h"
#include "core/folder.h"
#include "inspector.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "open_log.h"
#include "protobuf_support.h"
#include "rosbag/inspector.h"
#include "rosbag/model.h"
#include "rosbag/writer.h"
#include "rosbag_reference.h"
#include "rosbag2/writer.h"
#include "test_support.h"
#include "views/robot_log.h"

using namespace logscope;

namespace {

constexpr uint64_t kStart = 1767225600000000000ull;

// The messages every file holds: level by name, node, text, file, function, line.
struct Line {
  views::LogLevel level;
  const char* node;
  const char* text;
  const char* file;
  const char* function;
  uint32_t line;
};
const Line kLines[] = {
    {views::LogLevel::Info, "/planner", "planning started", "planner.cpp", "start", 10},
    {views::LogLevel::Debug, "/planner", "graph has 120 nodes", "planner.cpp", "build", 42},
    {views::LogLevel::Warn, "/driver", "battery at 18 %", "driver.py", "poll", 7},
    {views::LogLevel::Info, "/driver", "wheel odometry ok", "driver.py", "poll", 9},
    {views::LogLevel::Error, "/driver", "motor 2 over current", "driver.py", "check", 88},
    {views::LogLevel::Info, "/planner", "replanning", "planner.cpp", "replan", 61},
    {views::LogLevel::Fatal, "/safety", "emergency stop", "safety.c", "trip", 3},
    {views::LogLevel::Warn, "/planner", "Path blocked, waiting", "planner.cpp", "replan", 70},
    {views::LogLevel::Info, "/safety", "reset", "safety.c", "reset", 5},
    {views::LogLevel::Debug, "/driver", "tick", "", "", 0},
};
constexpr size_t kCount = sizeof kLines / sizeof kLines[0];

uint64_t time_of(size_t i) { return kStart + i * 100000000ull; }
uint64_t stamp_of(size_t i) { return time_of(i) - 5000000ull; }  // the message's own stamp, before the record's

int level_number(views::LogLevel level) { return static_cast<int>(level); }  // 1..5
int ros1_level(views::LogLevel level) { return 1 << (level_number(level) - 1); }
int ros2_level(views::LogLevel level) { return level_number(level) * 10; }

const char* kRos1Definition =
    "byte DEBUG=1\nbyte INFO=2\nbyte WARN=4\nbyte ERROR=8\nbyte FATAL=16\n"
    "Header header\nbyte level\nstring name\nstring msg\nstring file\nstring function\nuint32 line\nstring[] topics\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";
const char* kRos2Definition =
    "byte DEBUG=10\nbyte INFO=20\nbyte WARN=30\nbyte ERROR=40\nbyte FATAL=50\n"
    "builtin_interfaces/Time stamp\nuint8 level\nstring name\nstring msg\nstring file\nstring function\nuint32 line\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";

void put_u32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
void put_string(std::string* out, const std::string& s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}

std::string ros1_message(size_t i) {
  const Line& l = kLines[i];
  std::string out;
  put_u32(&out, static_cast<uint32_t>(i));
  put_u32(&out, static_cast<uint32_t>(stamp_of(i) / 1000000000u));
  put_u32(&out, static_cast<uint32_t>(stamp_of(i) % 1000000000u));
  put_string(&out, "");
  out.push_back(static_cast<char>(ros1_level(l.level)));
  for (const char* s : {l.node, l.text, l.file, l.function}) put_string(&out, s);
  put_u32(&out, l.line);
  put_u32(&out, 1);
  put_string(&out, "/rosout");
  return out;
}

std::string ros2_message(size_t i) {
  const Line& l = kLines[i];
  cdr::CdrWriter w;
  w.put<int32_t>(static_cast<int32_t>(stamp_of(i) / 1000000000u));
  w.put<uint32_t>(static_cast<uint32_t>(stamp_of(i) % 1000000000u));
  w.put<uint8_t>(static_cast<uint8_t>(ros2_level(l.level)));
  for (const char* s : {l.node, l.text, l.file, l.function}) w.string(s);
  w.put<uint32_t>(l.line);
  return w.bytes();
}

std::string json_message(size_t i) {
  const Line& l = kLines[i];
  Json j = Json::object();
  Json t = Json::object();
  t["sec"] = stamp_of(i) / 1000000000u;
  t["nsec"] = stamp_of(i) % 1000000000u;
  j["timestamp"] = std::move(t);
  j["level"] = level_number(l.level);
  j["message"] = l.text;
  j["name"] = l.node;
  j["file"] = l.file;
  j["line"] = l.line;
  return j.dump();
}

std::string protobuf_message(size_t i) {
  const Line& l = kLines[i];
  std::string stamp, out;
  stamp.push_back(0x08), protobuf_support::append_varint(&stamp, stamp_of(i) / 1000000000u);
  stamp.push_back(0x10), protobuf_support::append_varint(&stamp, stamp_of(i) % 1000000000u);
  out.push_back(0x0a), protobuf_support::append_varint(&out, stamp.size()), out += stamp;
  out.push_back(0x10), protobuf_support::append_varint(&out, static_cast<uint64_t>(level_number(l.level)));
  int field = 3;
  for (const char* s : {l.text, l.node, l.file}) {
    out.push_back(static_cast<char>(field++ << 3 | 2));
    protobuf_support::append_varint(&out, std::string(s).size());
    out += s;
  }
  out.push_back(0x35);  // field 6, fixed32
  put_u32(&out, l.line);
  return out;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

Json ask(FormatInspector& inspector, Json args = Json::object()) {
  Json answer = inspector.query("robot_log", args, nullptr);
  const Json* error = answer.find("error");
  REQUIRE_MESSAGE(!error, (error ? error->as_string() : ""));
  return answer;
}

uint64_t level_count(const Json& answer, const char* list, const char* level) {
  for (const Json& l : answer.find(list)->elements())
    if (l.find("level")->as_string() == level) return l.find("count")->as_uint();
  return 0;
}

// Every row equals kLines in order; `has_function`: the type carries a function (foxglove.Log does not).
void check_rows(FormatInspector& inspector, bool has_function, bool stamp_to_the_ns = true) {
  Json answer = ask(inspector);
  REQUIRE(answer.find("total")->as_uint() == kCount);
  const auto& rows = answer.find("rows")->elements();
  REQUIRE(rows.size() == kCount);
  for (size_t i = 0; i < kCount; ++i) {
    const Json& r = rows[i];
    CAPTURE(i);
    CHECK(r.find("time_ns")->as_string() == std::to_string(time_of(i)));
    if (stamp_to_the_ns) CHECK(r.find("stamp_ns")->as_string() == std::to_string(stamp_of(i)));
    CHECK(r.find("level")->as_string() == views::level_name(kLines[i].level));
    CHECK(r.find("node")->as_string() == kLines[i].node);
    CHECK(r.find("text")->as_string() == kLines[i].text);
    CHECK(r.find("file")->as_string() == kLines[i].file);
    CHECK(r.find("function")->as_string() == (has_function ? kLines[i].function : ""));
    CHECK(r.find("line")->as_uint() == kLines[i].line);
    CHECK(r.find("topic")->as_string() == "/rosout");
  }
  CHECK(level_count(answer, "all_levels", "DEBUG") == 2);
  CHECK(level_count(answer, "all_levels", "INFO") == 4);
  CHECK(level_count(answer, "all_levels", "WARN") == 2);
  CHECK(level_count(answer, "all_levels", "ERROR") == 1);
  CHECK(level_count(answer, "all_levels", "FATAL") == 1);
  CHECK(answer.find("first_error")->find("index")->as_uint() == 4);
  CHECK(answer.find("first_error")->find("time_ns")->as_string() == std::to_string(time_of(4)));
  CHECK(answer.find("undecoded")->as_uint() == 0);
}

std::string ros1_bag() {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = "lz4";
  rosbag::BagWriter writer(sink, options);
  uint32_t rosout = writer.add_connection("/rosout", "rosgraph_msgs/Log", "acffd30cd6b6de30f120938c17c593fb", kRos1Definition);
  // A log topic whose definition the bag does not store: a note, never a guess.
  uint32_t bare = writer.add_connection("/rosout_agg", "rosgraph_msgs/Log", "acffd30cd6b6de30f120938c17c593fb", "");
  uint32_t other = writer.add_connection("/count", "std_msgs/UInt32", "304a39449588c7f8ce2df6e8001c5fce", "uint32 data\n");
  for (size_t i = kCount; i-- > 0;) {  // written out of order: the view is in time order
    REQUIRE(writer.write(rosout, rosbag::Time::from_ns(time_of(i)), ros1_message(i)));
    REQUIRE(writer.write(bare, rosbag::Time::from_ns(time_of(i)), ros1_message(i)));
    std::string count;
    put_u32(&count, static_cast<uint32_t>(i));
    REQUIRE(writer.write(other, rosbag::Time::from_ns(time_of(i)), count));
  }
  REQUIRE(writer.close());
  return sink.bytes;
}

std::string mcap_file(const std::string& type, const std::string& schema_encoding, const std::string& schema,
                      const std::string& message_encoding, std::string (*message)(size_t)) {
  mcap::WriterOptions options;
  options.chunk_size = 256;
  mcap::Writer writer(options);
  uint16_t channel = writer.add_channel(writer.add_schema(type, schema_encoding, schema), "/rosout", message_encoding);
  for (size_t i = 0; i < kCount; ++i) writer.write_message(channel, static_cast<uint32_t>(i), time_of(i), time_of(i), message(i));
  return writer.finish();
}

}  // namespace

TEST_CASE("robot log: levels normalised by type, not by number") {
  using views::LogLevel;
  auto level = [](const char* type, Json message) {
    views::LogRow row;
    std::string error;
    message["name"] = "n";
    message["msg"] = "m";
    REQUIRE_MESSAGE(views::log_row(type, message, 0, &row, &error), error);
    return row.level;
  };
  auto with = [](Json level) {
    Json m = Json::object();
    m["level"] = std::move(level);
    return m;
  };
  // 4 is WARN in ROS 1 and ERROR in foxglove; 2 is INFO in both; 20 is INFO only in ROS 2.
  CHECK(level("rosgraph_msgs/Log", with(4)) == LogLevel::Warn);
  CHECK(level("foxglove.Log", with(4)) == LogLevel::Error);
  CHECK(level("rosgraph_msgs/Log", with(2)) == LogLevel::Info);
  CHECK(level("foxglove.Log", with(2)) == LogLevel::Info);
  CHECK(level("rcl_interfaces/msg/Log", with(20)) == LogLevel::Info);
  CHECK(level("rcl_interfaces/msg/Log", with(50)) == LogLevel::Fatal);
  CHECK(level("rosgraph_msgs/Log", with(16)) == LogLevel::Fatal);
  CHECK(level("rosgraph_msgs/Log", with(3)) == LogLevel::Unknown);
  CHECK(level("rcl_interfaces/msg/Log", with(0)) == LogLevel::Unknown);
  CHECK(level("rcl_interfaces/msg/Log", with(25)) == LogLevel::Unknown);
  CHECK(level("foxglove.Log", with("WARNING")) == LogLevel::Warn);
  CHECK(level("foxglove.Log", with(0)) == LogLevel::Unknown);
  CHECK(!views::is_log_type("std_msgs/String"));

  views::LogRow row;
  std::string error;
  Json no_level = Json::object();
  no_level["name"] = "n";
  CHECK(!views::log_row("rosgraph_msgs/Log", no_level, 0, &row, &error));
  CHECK(error == "no field \"level\"");
  Json bad_text = with(2);
  bad_text["name"] = "n";
  bad_text["msg"] = 7;
  CHECK(!views::log_row("rosgraph_msgs/Log", bad_text, 0, &row, &error));
  CHECK(error == "field \"msg\" is not text");
  CHECK(!views::log_row("foxglove.Log", with("LOUD"), 0, &row, &error));
}

TEST_CASE("robot log: rosgraph_msgs/Log in a bag") {
  std::string bytes = ros1_bag();
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  check_rows(*inspector, true);
  Json answer = ask(*inspector);
  const auto& topics = answer.find("topics")->elements();
  REQUIRE(topics.size() == 2);  // /count is no log topic
  CHECK(topics[0].find("topic")->as_string() == "/rosout");
  CHECK(topics[0].find("messages")->as_uint() == kCount);
  CHECK(topics[0].find("note")->is_null());
  CHECK(topics[1].find("topic")->as_string() == "/rosout_agg");
  CHECK(topics[1].find("note")->as_string() == "the bag stores no message definition for rosgraph_msgs/Log");

  SUBCASE("filters, each against the lines they keep") {
    Json args = Json::object();
    args["level"] = "warn";
    Json warn = ask(*inspector, args);
    CHECK(warn.find("selected")->as_uint() == 4);
    CHECK(warn.find("rows")->elements()[0].find("text")->as_string() == "battery at 18 %");
    // The level totals are of the selection before the level filter, for the filter's counts.
    CHECK(level_count(warn, "levels", "INFO") == 4);
    args = Json::object();
    args["node"] = "/driver";
    args["level"] = "error";
    Json driver = ask(*inspector, args);
    REQUIRE(driver.find("selected")->as_uint() == 1);
    CHECK(driver.find("rows")->elements()[0].find("text")->as_string() == "motor 2 over current");
    CHECK(driver.find("rows")->elements()[0].find("index")->as_uint() == 4);
    args = Json::object();
    args["grep"] = "^(path|re)";
    CHECK(ask(*inspector, args).find("selected")->as_uint() == 2);  // replanning, reset
    args["ignore_case"] = true;
    CHECK(ask(*inspector, args).find("selected")->as_uint() == 3);  // and Path blocked
    args = Json::object();
    args["t0_ns"] = std::to_string(time_of(2));
    args["t1_ns"] = std::to_string(time_of(4));
    CHECK(ask(*inspector, args).find("selected")->as_uint() == 3);
  }
  SUBCASE("pages") {
    Json args = Json::object();
    args["first"] = 3;
    args["count"] = 4;
    Json page = ask(*inspector, args);
    REQUIRE(page.find("rows")->elements().size() == 4);
    CHECK(page.find("rows")->elements()[0].find("index")->as_uint() == 3);
    CHECK(page.find("more")->as_bool());
    args["first"] = 8;
    page = ask(*inspector, args);
    CHECK(page.find("rows")->elements().size() == 2);
    CHECK(!page.find("more")->as_bool());
  }
  SUBCASE("bad arguments name themselves") {
    Json args = Json::object();
    args["level"] = "loud";
    CHECK(inspector->query("robot_log", args, nullptr).find("error")->as_string().find("\"level\"") != std::string::npos);
    args = Json::object();
    args["grep"] = "(unclosed";
    CHECK(inspector->query("robot_log", args, nullptr).find("error")->as_string().find("\"grep\"") != std::string::npos);
  }
  SUBCASE("cancelled: nothing kept, the next query reads again") {
    // The bag's walk asks its progress only now and then: a small bag may finish before it asks.
    int asked = 0;
    Json answer = inspector->query("robot_log", Json::object(), [&](uint64_t, uint64_t) { return ++asked, false; });
    if (asked) CHECK(answer.find("cancelled")->as_bool());
    else CHECK(answer.find("total")->as_uint() == kCount);
    check_rows(*inspector, true);
  }
}

TEST_CASE("robot log: rcl_interfaces/msg/Log in an MCAP (CDR, ros2msg)") {
  std::string bytes = mcap_file("rcl_interfaces/msg/Log", "ros2msg", kRos2Definition, "cdr", ros2_message);
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = mcap::open_inspector(source);
  check_rows(*inspector, true);
}

TEST_CASE("robot log: foxglove.Log in an MCAP, JSON and protobuf") {
  SUBCASE("json") {
    std::string bytes = mcap_file("foxglove.Log", "jsonschema", "{\"type\": \"object\"}", "json", json_message);
    MemoryByteSource source(bytes_of(bytes));
    auto inspector = mcap::open_inspector(source);
    check_rows(*inspector, false);
  }
  SUBCASE("protobuf") {
    std::string dir = test_support::scratch_dir("robot_log_protobuf");
    std::string set_path = dir + "/log.desc";
    int status = 0;
    protobuf_support::run("protoc -I '" + protobuf_support::proto_root() + "' --descriptor_set_out='" + set_path +
                              "' --include_imports foxglove/Log.proto",
                          "", &status);
    REQUIRE(status == 0);
    std::string bytes = mcap_file("foxglove.Log", "protobuf", test_support::read_text(set_path), "protobuf", protobuf_message);
    MemoryByteSource source(bytes_of(bytes));
    auto inspector = mcap::open_inspector(source);
    check_rows(*inspector, false);
  }
  SUBCASE("no schema: the topic is named, nothing guessed") {
    mcap::Writer writer;
    uint16_t channel = writer.add_channel(writer.add_schema("foxglove.Log", "protobuf", ""), "/rosout", "protobuf");
    writer.write_message(channel, 0, kStart, kStart, protobuf_message(0));
    std::string bytes = writer.finish();
    MemoryByteSource source(bytes_of(bytes));
    auto inspector = mcap::open_inspector(source);
    Json answer = ask(*inspector);
    CHECK(answer.find("total")->as_uint() == 0);
    REQUIRE(answer.find("topics")->elements().size() == 1);
    CHECK(answer.find("topics")->elements()[0].find("note")->is_string());
  }
}

TEST_CASE("robot log: rcl_interfaces/msg/Log in a rosbag2 bag") {
  std::string dir = test_support::scratch_dir("robot_log_rosbag2");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<rosbag2::WriterTopic> topics = {{"/rosout", "rcl_interfaces/msg/Log", kRos2Definition}};
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir + "/log_0.db3").c_str(), &db) == SQLITE_OK);
  std::string error;
  REQUIRE_MESSAGE(rosbag2::create_tables(db, topics, &error), error);
  std::vector<rosbag2::WriterMessage> messages;
  rosbag2::YamlFacts facts;
  facts.file = "log_0.db3";
  facts.counts = {kCount};
  facts.start_ns = static_cast<int64_t>(time_of(0));
  facts.end_ns = static_cast<int64_t>(time_of(kCount - 1));
  for (size_t i = 0; i < kCount; ++i) {
    std::string data = ros2_message(i);
    messages.push_back({0, static_cast<int64_t>(time_of(i)), std::vector<uint8_t>(data.begin(), data.end())});
  }
  REQUIRE_MESSAGE(rosbag2::insert_messages(db, messages, &error), error);
  sqlite3_close(db);
  std::ofstream(dir + "/metadata.yaml") << rosbag2::metadata_yaml(topics, facts);
  auto folder = DirectoryFolder::open_directory(dir, {}, &error);
  REQUIRE_MESSAGE(folder, error);
  auto inspector = open_folder_inspector(*folder, detect_folder(*folder));
  REQUIRE(inspector);
  check_rows(*inspector, true);
}

namespace {

// Every row of the robot_log query, a page at a time.
std::vector<Json> all_rows(FormatInspector& inspector, Json* last = nullptr) {
  std::vector<Json> rows;
  for (uint64_t first = 0;; first += 10000) {
    Json args = Json::object();
    args["first"] = first;
    args["count"] = 10000;
    Json answer = ask(inspector, args);
    for (const Json& r : answer.find("rows")->elements()) rows.push_back(r);
    bool more = answer.find("more")->as_bool();
    if (last) *last = std::move(answer);
    if (!more) return rows;
  }
}

}  // namespace

TEST_CASE("robot log: the real bags' rosgraph_msgs/Log rows equal python3-rosbag's (count, levels, text)") {
  if (!test_support::have_samples()) return;
  const std::vector<std::string> paths = rosbag_reference::sample_bags();
  const std::optional<Json> reference = rosbag_reference::read("robot_log_reference.py", paths);
  size_t bags_with_logs = 0, compared = 0;
  for (const std::string& path : paths) {
    CAPTURE(path);
    const Json* theirs = reference->find(path);
    REQUIRE(theirs);
    if (theirs->find("error")) {
      MESSAGE("python3-rosbag cannot read " << path << ": " << theirs->find("error")->as_string() << " (not compared)");
      continue;
    }
    test_support::OpenedLog log = test_support::open_log(path);
    FormatInspector* inspector = log.inspector.get();
    Json last;
    std::vector<Json> ours = all_rows(*inspector, &last);
    const auto& rows = theirs->find("rows")->elements();
    if (!rows.empty()) ++bags_with_logs;
    REQUIRE(ours.size() == rows.size());
    CHECK(last.find("undecoded")->as_uint() == 0);
    // Both in time order; messages of one instant may come in another order, so each side is sorted whole.
    auto key = [](const std::string& time, int64_t level, const std::string& name, const std::string& text, const std::string& file,
                  const std::string& function, uint64_t line) {
      return time + "\n" + std::to_string(level) + "\n" + name + "\n" + text + "\n" + file + "\n" + function + "\n" + std::to_string(line);
    };
    std::vector<std::string> a, b;
    for (const Json& r : ours) {
      a.push_back(key(r.find("time_ns")->as_string(), r.find("raw_level")->as_int(), r.find("node")->as_string(), r.find("text")->as_string(),
                      r.find("file")->as_string(), r.find("function")->as_string(), r.find("line")->as_uint()));
      // The normalised level is ROS 1's number's.
      static const std::map<int64_t, std::string> names = {{1, "DEBUG"}, {2, "INFO"}, {4, "WARN"}, {8, "ERROR"}, {16, "FATAL"}};
      auto name = names.find(r.find("raw_level")->as_int());
      CHECK(r.find("level")->as_string() == (name == names.end() ? "UNKNOWN" : name->second));
    }
    for (const Json& r : rows) {
      const auto& f = r.elements();
      REQUIRE(f.size() == 7);
      b.push_back(key(f[0].as_string(), f[1].as_int(), f[2].as_string(), f[3].as_string(), f[4].as_string(), f[5].as_string(), f[6].as_uint()));
    }
    for (size_t i = 1; i < ours.size(); ++i)
      CHECK(std::stoull(ours[i - 1].find("time_ns")->as_string()) <= std::stoull(ours[i].find("time_ns")->as_string()));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
    compared += rows.size();
  }
  MESSAGE(bags_with_logs << " bags with rosgraph_msgs/Log, " << compared << " rows compared");
  CHECK(bags_with_logs >= 5);
}

TEST_CASE("robot log: the real MCAP and rosbag2 samples with log messages") {
  if (!test_support::have_samples()) return;
  SUBCASE("foxglove.Log in Lichtblick's example_logs.mcap") {
    std::string error;
    auto source = FileByteSource::open(test_support::sample("mcap/lichtblick-suite__lichtblick__example_logs.mcap"), &error);
    REQUIRE_MESSAGE(source, error);
    auto inspector = open_inspector(*source, detect(*source));
    REQUIRE(inspector);
    Json last;
    std::vector<Json> rows = all_rows(*inspector, &last);
    CHECK(!rows.empty());
    CHECK(last.find("undecoded")->as_uint() == 0);
    for (const Json& t : last.find("topics")->elements()) CHECK(t.find("note")->is_null());
    MESSAGE(rows.size() << " rows; first: " << (rows.empty() ? "" : rows[0].dump()));
  }
  SUBCASE("rcl_interfaces/msg/Log in the rosbag2 bags: they store no definition, and the view says so") {
    // compressed_bag is a .db3.zstd (logscope decompress first); message_compression stores no
    // message_definitions: neither is decoded by guess, each log topic carries its note.
    for (const char* name : {"ros2__rosbag2__compressed_bag", "ros2__rosbag2__message_compression"}) {
      CAPTURE(std::string(name));
      std::string dir = test_support::sample(std::string("rosbag2/") + name);
      std::string error;
      auto folder = DirectoryFolder::open_directory(dir, {}, &error);
      REQUIRE_MESSAGE(folder, error);
      auto inspector = open_folder_inspector(*folder, detect_folder(*folder));
      REQUIRE(inspector);
      Json last;
      std::vector<Json> rows = all_rows(*inspector, &last);
      CHECK(rows.empty());
      REQUIRE(last.find("topics")->elements().size() == 1);
      CHECK(last.find("topics")->elements()[0].find("type")->as_string() == "rcl_interfaces/msg/Log");
      CHECK(last.find("topics")->elements()[0].find("note")->is_string());
    }
  }
}

namespace {

// A long log: many chunks, written in runs that go back in time, so chunks overlap.
constexpr size_t kLongCount = 20000;
uint64_t long_time(size_t j) { return kStart + (j / 50 * 50 + (49 - j % 50)) * 1000000ull; }  // each run of 50 backwards

std::string long_bag() {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = "lz4";
  options.chunk_threshold = 4096;
  rosbag::BagWriter writer(sink, options);
  uint32_t rosout = writer.add_connection("/rosout", "rosgraph_msgs/Log", "acffd30cd6b6de30f120938c17c593fb", kRos1Definition);
  for (size_t j = 0; j < kLongCount; ++j) REQUIRE(writer.write(rosout, rosbag::Time::from_ns(long_time(j)), ros1_message(j % kCount)));
  REQUIRE(writer.close());
  return sink.bytes;
}

std::string long_mcap() {
  mcap::WriterOptions options;
  options.chunk_size = 4096;
  mcap::Writer writer(options);
  uint16_t channel = writer.add_channel(writer.add_schema("rcl_interfaces/msg/Log", "ros2msg", kRos2Definition), "/rosout", "cdr");
  for (size_t j = 0; j < kLongCount; ++j) writer.write_message(channel, static_cast<uint32_t>(j), long_time(j), long_time(j), ros2_message(j % kCount));
  return writer.finish();
}

Json page(FormatInspector& inspector, uint64_t first, uint64_t slice_ms) {
  Json args = Json::object();
  args["first"] = first;
  args["count"] = 10000;
  if (slice_ms) args["slice_ms"] = slice_ms;
  return ask(inspector, args);
}

// Asked again and again with a slice budget, the view reads on a slice of time at a time: each
// answer holds the rows read so far, in time order, and the last equals one whole walk's.
void check_sliced(const std::string& bytes, std::unique_ptr<FormatInspector> (*open)(ByteSource&)) {
  MemoryByteSource whole_source(bytes_of(bytes)), sliced_source(bytes_of(bytes));
  auto whole = open(whole_source);
  auto sliced = open(sliced_source);
  REQUIRE(whole);
  REQUIRE(sliced);
  Json first = page(*sliced, 0, 1);
  // 20,000 messages do not decode in 1 ms: the first answer is a part.
  const Json* reading = first.find("reading");
  REQUIRE(reading);
  uint64_t through = std::stoull(reading->find("through_ns")->as_string());
  CHECK(reading->find("first_ns")->as_string() == std::to_string(kStart));
  CHECK(reading->find("last_ns")->as_string() == std::to_string(long_time(kLongCount - 50)));
  CHECK(first.find("total")->as_uint() < kLongCount);
  CHECK(first.find("total")->as_uint() == (through - kStart) / 1000000ull + 1);  // every message up to through_ns, no other
  int answers = 1;
  uint64_t previous_total = first.find("total")->as_uint();
  for (Json next = first; next.find("reading"); ++answers) {
    REQUIRE(answers < 100000);
    next = page(*sliced, 0, 1);
    uint64_t total = next.find("total")->as_uint();
    CHECK(total >= previous_total);
    previous_total = total;
    const auto& rows = next.find("rows")->elements();
    for (size_t i = 1; i < rows.size(); ++i) REQUIRE(std::stoull(rows[i - 1].find("time_ns")->as_string()) <= std::stoull(rows[i].find("time_ns")->as_string()));
  }
  CAPTURE(answers);
  CHECK(answers > 2);
  for (uint64_t at : {uint64_t{0}, uint64_t{10000}}) CHECK(page(*sliced, at, 1).dump() == page(*whole, at, 0).dump());
  CHECK(page(*whole, 0, 0).find("total")->as_uint() == kLongCount);
}

}  // namespace

TEST_CASE("robot log: a long log read a slice of time at a time ends as one whole walk") {
  SUBCASE("bag") { check_sliced(long_bag(), [](ByteSource& s) { return rosbag::open_inspector(s, rosbag::Format::RosbagV20); }); }
  SUBCASE("mcap") { check_sliced(long_mcap(), [](ByteSource& s) { return mcap::open_inspector(s); }); }
}
