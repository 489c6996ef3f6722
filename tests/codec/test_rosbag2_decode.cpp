// rosbag2 decoding, export and convert (codec/rosbag2/decode.h, export.cpp, convert.h): CDR by the
// bag's definitions or supplied ones, a definition that does not fit, and a bag converted to MCAP
// read back by our MCAP reader with the same messages.
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "cdr/type_library.h"
#include "core/export.h"
#include "inspector.h"
#include "rosbag2/convert.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/writer.h"
#include "test_rosbag2_support.h"

using namespace logscope;
using namespace rosbag2_test;

namespace {

constexpr int64_t kStart = 1700000000000000000;

// A bag folder `dir` of one database holding `count` demo messages of `topics` (the demo's, or
// others with the demo's bytes); `definitions` false: the message_definitions rows are removed,
// as a Humble bag has none.
void write_bag(const std::string& dir, const std::vector<rosbag2::WriterTopic>& topics, uint64_t count, bool definitions) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string name = std::filesystem::path(dir).filename().string() + "_0.db3";
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir + "/" + name).c_str(), &db) == SQLITE_OK);
  std::string error;
  REQUIRE_MESSAGE(rosbag2::create_tables(db, topics, &error), error);
  if (!definitions) REQUIRE(sqlite3_exec(db, "DELETE FROM message_definitions", nullptr, nullptr, nullptr) == SQLITE_OK);
  std::vector<rosbag2::WriterMessage> messages;
  rosbag2::YamlFacts facts;
  facts.file = name;
  facts.counts.assign(topics.size(), 0);
  for (uint64_t i = 0; i < count; ++i) {
    rosbag2::WriterMessage m = rosbag2::demo_message(i, kStart);
    m.topic %= topics.size();
    facts.counts[m.topic]++;
    if (i == 0) facts.start_ns = m.timestamp_ns;
    facts.end_ns = m.timestamp_ns;
    messages.push_back(std::move(m));
  }
  REQUIRE_MESSAGE(rosbag2::insert_messages(db, messages, &error), error);
  sqlite3_close(db);
  std::ofstream(dir + "/metadata.yaml") << rosbag2::metadata_yaml(topics, facts);
}

Json query(FormatInspector& inspector, const std::string& name, Json args) {
  Json answer = inspector.query(name, args, nullptr);
  const Json* error = answer.find("error");
  REQUIRE_MESSAGE(!error, name << ": " << (error ? error->as_string() : ""));
  return answer;
}

Json decoded(FormatInspector& inspector, const std::string& topic, uint64_t count = 1000) {
  Json args = Json::object();
  args["topic"] = topic;
  args["count"] = count;
  return query(inspector, "decoded", args);
}

void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

// The demo types as .msg files, laid out as pkg/msg/Type.msg (the Header and Time too).
std::string demo_msg_folder(const std::string& dir) {
  std::filesystem::remove_all(dir);
  write_file(dir + "/demo_msgs/msg/Imu.msg", "std_msgs/Header header\nfloat64[3] angular_velocity\nfloat64[3] linear_acceleration\n");
  write_file(dir + "/std_msgs/msg/Header.msg", "# Standard metadata\nbuiltin_interfaces/Time stamp\nstring frame_id\n");
  write_file(dir + "/std_msgs/msg/String.msg", "string data\n");
  write_file(dir + "/builtin_interfaces/msg/Time.msg", "int32 sec\nuint32 nanosec\n");
  write_file(dir + "/sensor_msgs/msg/CompressedImage.msg", "std_msgs/Header header\nstring format\nuint8[] data\n");
  return dir;
}

// Every message as (topic, log time, SHA1 of the bytes), in stored order.
std::vector<std::tuple<std::string, int64_t, std::string>> bag_messages(rosbag2::Bag& bag) {
  std::vector<std::tuple<std::string, int64_t, std::string>> out;
  std::string error;
  REQUIRE(rosbag2::for_each_bag_message(bag, [&](const rosbag2::BagMessage& m) {
    out.emplace_back(m.topic ? m.topic->name : "", m.stored.timestamp_ns, Sha1::hex(Sha1::of(m.data, m.size)));
    return true;
  }, &error));
  return out;
}

struct Converted {
  std::vector<uint8_t> bytes;
  rosbag2::ConvertResult result;
};

Converted convert(FormatInspector& inspector, const std::string& compression) {
  MemoryOutputSink sink;
  rosbag2::ConvertOptions options;
  options.compression = compression;
  options.chunk_size = 64 * 1024;  // several chunks even for small bags
  Converted c;
  c.result = rosbag2::convert_to_mcap(inspector, options, sink, nullptr);
  REQUIRE_MESSAGE(c.result.ok, c.result.error);
  c.bytes.assign(sink.bytes.begin(), sink.bytes.end());
  return c;
}

// The converted file read back by our MCAP reader: clean check, and its messages (topic, log
// time, SHA1) equal the bag's, in the same order.
void check_converted(rosbag2::Bag& bag, const Converted& c) {
  MemoryByteSource source(c.bytes.data(), c.bytes.size());
  Detection detection = detect(source);
  REQUIRE(detection.family == "mcap");
  auto mcap = open_inspector(source, detection);
  REQUIRE(mcap);
  Report report = mcap->check(nullptr);
  for (const Problem& p : report.problems) INFO(p.code << ": " << p.message);
  CHECK(report.count(Severity::Error) == 0);
  CHECK(report.count(Severity::Warning) == 0);
  auto expected = bag_messages(bag);
  Json args = Json::object();
  args["sha1"] = true;
  args["count"] = 10000;
  Json answer = query(*mcap, "messages", args);
  const Json& list = *answer.find("messages");
  REQUIRE(list.size() == expected.size());
  for (size_t i = 0; i < list.size(); ++i) {
    INFO("message " << i);
    CHECK(list[i].find("topic")->as_string() == std::get<0>(expected[i]));
    CHECK(list[i].find("log_time")->as_string() == std::to_string(std::get<1>(expected[i])));
    CHECK(list[i].find("sha1")->as_string() == std::get<2>(expected[i]));
  }
}

}  // namespace

TEST_CASE("rosbag2 decode: a writer-made bag decodes by its message_definitions, export and plot agree") {
  std::string dir = test_support::scratch_dir("rosbag2_decode") + "/defs";
  write_bag(dir, rosbag2::demo_topics(), 90, true);
  OpenBag open = open_bag_path(dir);

  Json imu = decoded(*open.inspector, "/imu");
  REQUIRE(imu.find("messages")->size() == 30);
  const Json& first = (*imu.find("messages"))[0];
  REQUIRE_MESSAGE(first.find("message"), first.dump());
  CHECK(!first.find("decode_error"));
  const Json& message = *first.find("message");
  CHECK(message.find("header")->find("frame_id")->as_string() == "imu_link");
  CHECK(message.find("header")->find("stamp")->find("sec")->as_int() == kStart / 1000000000);
  CHECK((*message.find("linear_acceleration"))[2].as_double() == 9.81);

  Json chatter = decoded(*open.inspector, "/chatter", 2);
  CHECK((*chatter.find("messages"))[1].find("message")->find("data")->as_string() == "hello world 4");
  CHECK(chatter.find("more")->as_bool());

  StringSink csv;
  ExportRequest request;
  ExportResult result = open.inspector->export_rows("/imu", request, csv, nullptr);
  REQUIRE_MESSAGE(result.error.empty(), result.error);
  CHECK(result.rows == 30);
  CHECK(result.problems.empty());
  std::string text = csv.text();
  text.erase(std::remove(text.begin(), text.end(), '\r'), text.end());  // CSV lines end in CRLF
  std::string header = text.substr(0, text.find('\n'));
  CHECK(header == "time_ns,header.stamp.sec,header.stamp.nanosec,header.frame_id,angular_velocity[0],angular_velocity[1],"
                  "angular_velocity[2],linear_acceleration[0],linear_acceleration[1],linear_acceleration[2]");
  std::string row = text.substr(header.size() + 1, text.find('\n', header.size() + 1) - header.size() - 1);
  CHECK(row == std::to_string(kStart) + "," + std::to_string(kStart / 1000000000) + ",0,imu_link,0,0.1,0.2,0,0,9.81");

  Json plot_args = Json::object();
  plot_args["topic"] = "/imu";
  plot_args["fields"] = "linear_acceleration[2]";
  Json plot = query(*open.inspector, "plot", plot_args);
  CHECK(plot.find("count")->as_uint() == 30);
  Json columns_args = Json::object();
  columns_args["topic"] = "/imu";
  CHECK(query(*open.inspector, "columns", columns_args).find("columns")->size() == 9);
  Json timeline = query(*open.inspector, "timeline", Json::object());
  CHECK(timeline.find("rows")->size() == 3);
  CHECK((*timeline.find("rows"))[0].find("total")->as_uint() == 30);
}

TEST_CASE("rosbag2 decode: a definition that does not fit the bytes is rosbag2.decode.size_mismatch naming the topic") {
  std::string dir = test_support::scratch_dir("rosbag2_decode") + "/wide";
  // The chatter's string bytes recorded under a type of two float64s.
  std::vector<rosbag2::WriterTopic> topics{{"/wide", "demo_msgs/msg/Wide", "float64 a\nfloat64 b\nfloat64 c\n"}};
  write_bag(dir, topics, 5, true);
  OpenBag open = open_bag_path(dir);
  StringSink csv;
  ExportResult result = open.inspector->export_rows("/wide", ExportRequest(), csv, nullptr);
  REQUIRE(result.error.empty());
  CHECK(result.rows < 5);  // never a guessed row
  REQUIRE(!result.problems.empty());
  CHECK(result.problems[0].code == "rosbag2.decode.size_mismatch");
  CHECK(result.problems[0].message.find("/wide") != std::string::npos);
  Json page = decoded(*open.inspector, "/wide");
  bool any_error = false;
  for (const Json& m : page.find("messages")->elements()) any_error |= m.find("decode_error") != nullptr;
  CHECK(any_error);
  CHECK(!page.find("problems")->elements().empty());
  Report check = open.inspector->check(nullptr);
  CHECK(test_support::has_code(check.problems, "rosbag2.decode.size_mismatch"));
  for (const Problem& p : check.problems)
    if (p.code == "rosbag2.decode.size_mismatch") CHECK(p.message.find("topic /wide (demo_msgs/msg/Wide)") != std::string::npos);
}

TEST_CASE("rosbag2 decode: without definitions messages are hex, --msg-path decodes them as the bag's definitions do") {
  std::string base = test_support::scratch_dir("rosbag2_decode");
  write_bag(base + "/humble", rosbag2::demo_topics(), 30, false);
  write_bag(base + "/iron", rosbag2::demo_topics(), 30, true);
  OpenBag humble = open_bag_path(base + "/humble");
  OpenBag iron = open_bag_path(base + "/iron");

  Json bytes = decoded(*humble.inspector, "/imu");
  const Json& m0 = (*bytes.find("messages"))[0];
  CHECK(!m0.find("message"));
  CHECK(m0.find("decode_note")->as_string().find("no definition of demo_msgs/msg/Imu") != std::string::npos);
  CHECK(m0.find("hex")->as_string().substr(0, 8) == "00010000");
  StringSink refused;
  CHECK(!humble.inspector->export_rows("/imu", ExportRequest(), refused, nullptr).error.empty());

  std::string error;
  auto library = cdr::load_msg_folder(demo_msg_folder(base + "/msgs"), &error);
  REQUIRE_MESSAGE(library, error);
  CHECK(library->size() == 5);
  humble.inspector->set_message_definitions(library);
  for (const char* topic : {"/imu", "/chatter", "/camera/compressed"}) {
    INFO(topic);
    Json ours = decoded(*humble.inspector, topic), reference = decoded(*iron.inspector, topic);
    for (size_t i = 0; i < ours.find("messages")->size(); ++i) {
      const Json& a = (*ours.find("messages"))[i];
      REQUIRE_MESSAGE(a.find("message"), a.dump());
      CHECK(a.find("message")->dump() == (*reference.find("messages"))[i].find("message")->dump());
    }
    StringSink x, y;
    CHECK(humble.inspector->export_rows(topic, ExportRequest(), x, nullptr).error.empty());
    iron.inspector->export_rows(topic, ExportRequest(), y, nullptr);
    CHECK(x.text() == y.text());
  }

  // Flat .msg files: a type found by its last name part; a missing dependency is named.
  std::filesystem::remove_all(base + "/flat");
  write_file(base + "/flat/Imu.msg", "std_msgs/Header header\nfloat64[3] angular_velocity\nfloat64[3] linear_acceleration\n");
  auto flat = cdr::load_msg_folder(base + "/flat", &error);
  REQUIRE(flat);
  std::string encoding, text;
  CHECK(!flat->definition("demo_msgs/msg/Imu", &encoding, &text, &error));
  CHECK(error.find("std_msgs/msg/Header") != std::string::npos);
  write_file(base + "/flat/Header.msg", "builtin_interfaces/Time stamp\nstring frame_id\n");
  flat = cdr::load_msg_folder(base + "/flat", &error);
  REQUIRE(flat);
  humble.inspector->set_message_definitions(flat);
  Json imu = decoded(*humble.inspector, "/imu");
  CHECK((*imu.find("messages"))[0].find("message")->dump() == (*decoded(*iron.inspector, "/imu").find("messages"))[0].find("message")->dump());
  CHECK(!cdr::load_msg_folder(base + "/no-such-folder", &error));
}

TEST_CASE("rosbag2 convert: an MCAP our reader reads back with the same messages, with and without schemas") {
  std::string base = test_support::scratch_dir("rosbag2_convert");
  write_bag(base + "/iron", rosbag2::demo_topics(), 120, true);
  write_bag(base + "/humble", rosbag2::demo_topics(), 60, false);
  OpenBag iron = open_bag_path(base + "/iron");
  for (const char* compression : {"zstd", "lz4", ""}) {
    INFO("compression " << compression);
    Converted c = convert(*iron.inspector, compression);
    CHECK(c.result.messages == 120);
    CHECK(c.result.channels == 3);
    CHECK(c.result.schemas == 3);
    CHECK(c.result.schemaless.empty());
    check_converted(*iron.bag, c);
  }
  OpenBag humble = open_bag_path(base + "/humble");
  Converted bare = convert(*humble.inspector, "zstd");
  CHECK(bare.result.schemas == 0);
  CHECK(bare.result.schemaless.size() == 3);
  check_converted(*humble.bag, bare);
  std::string error;
  humble.inspector->set_message_definitions(cdr::load_msg_folder(demo_msg_folder(base + "/msgs"), &error));
  Converted given = convert(*humble.inspector, "zstd");
  CHECK(given.result.schemas == 3);
  check_converted(*humble.bag, given);
}

TEST_CASE("rosbag2 convert: the samples convert to MCAPs with the same messages") {
  if (!test_support::have_samples()) return;
  std::string root = test_support::sample("rosbag2");
  if (!std::filesystem::is_directory(root)) {
    test_support::skip(root + " is absent");
    return;
  }
  size_t converted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    INFO(entry.path().string());
    OpenBag open = open_bag_path(entry.path().string());
    bool readable = false;
    for (const auto& f : open.bag->files) readable |= f.tables_read;
    if (!readable) continue;  // a whole-file zstd bag
    check_converted(*open.bag, convert(*open.inspector, "zstd"));
    ++converted;
  }
  CHECK(converted >= 6);
}

namespace {

// Every message the decoded query lists for `args` (topic, time range), a page of 1000 at a time,
// as "file row".
std::vector<std::string> listed(FormatInspector& inspector, Json args, uint64_t first, uint64_t count, bool* more) {
  args["first"] = first;
  args["count"] = count;
  Json page = query(inspector, "decoded", args);
  std::vector<std::string> out;
  for (const Json& m : page.find("messages")->elements())
    out.push_back(m.find("file")->as_string() + " " + std::to_string(m.find("row")->as_int()) + " " + std::to_string(m.find("index")->as_uint()));
  *more = page.find("more")->as_bool();
  return out;
}

void check_pages(FormatInspector& inspector, const Json& args, std::optional<uint64_t> expected = std::nullopt) {
  INFO(args.dump());
  std::vector<std::string> all;
  bool more = true;
  while (more) {
    std::vector<std::string> page = listed(inspector, args, all.size(), 1000, &more);
    all.insert(all.end(), page.begin(), page.end());
    if (page.empty()) break;
  }
  if (expected) CHECK(all.size() == *expected);
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i].substr(all[i].rfind(' ') + 1) == std::to_string(i));
  for (uint64_t first : {uint64_t{0}, uint64_t{1}, uint64_t{7}, uint64_t{999}, uint64_t{1000}, uint64_t{1234}, uint64_t{all.size() ? all.size() - 1 : 0}, uint64_t{all.size()}}) {
    if (first > all.size()) continue;
    std::vector<std::string> page = listed(inspector, args, first, 13, &more);
    size_t end = std::min<size_t>(all.size(), first + 13);
    CHECK(page == std::vector<std::string>(all.begin() + first, all.begin() + end));
    CHECK(more == (first + 13 < all.size()));
  }
}

}  // namespace

TEST_CASE("rosbag2 decoded: later pages equal the same rows of the whole list, across split files, by topic and time") {
  std::vector<std::string> bags{test_support::scratch_dir("rosbag2_decode") + "/pages"};
  write_bag(bags[0], rosbag2::demo_topics(), 300, true);
  std::string samples = test_support::sample("rosbag2");
  for (const char* name : {"ros2__rosbag2__wbag", "ros2__rosbag2__message_compression"})
    if (std::filesystem::is_directory(samples + "/" + name)) bags.push_back(samples + "/" + name);
  for (const std::string& path : bags) {
    OpenBag open = open_bag_path(path);
    rosbag2::BagTotals totals = rosbag2::bag_totals(*open.bag);
    check_pages(*open.inspector, Json::object(), totals.messages);
    Json by_topic = Json::object();
    by_topic["topic"] = totals.topics[1].name;
    check_pages(*open.inspector, by_topic, totals.topics[1].count);
    Json in_range = Json::object();
    in_range["t0_ns"] = static_cast<uint64_t>(*totals.start_ns + (*totals.end_ns - *totals.start_ns) / 3);
    in_range["t1_ns"] = static_cast<uint64_t>(*totals.start_ns + 2 * (*totals.end_ns - *totals.start_ns) / 3);
    check_pages(*open.inspector, in_range);
    bool more = false;
    CHECK(listed(*open.inspector, Json::object(), 0, 1000000, &more).size() <= 1000);
  }
}
