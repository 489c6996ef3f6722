// rosbag2 bag folders that store MCAP (codec/rosbag2/mcap_folder.h): three splits written by
// codec/mcap/writer with a metadata.yaml open as one bag through the MCAP reader: one summary,
// one topic table with counts summed across the splits, one timeline; the decoded pages, a
// topic's export and its plot run through the splits as one bag; the check compares the yaml with
// the splits and names missing and extra files.
#include <algorithm>
#include <filesystem>

#include "core/folder.h"
#include "core/format_table.h"
#include "core/inspector.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "test_support.h"

using namespace logscope;

namespace {

const uint64_t kStart = 1700000000000000000ull;

struct Written {
  std::string topic;
  uint64_t time = 0;
  double value = 0;  // /imu's x: the message's place in the bag
};

struct Splits {
  std::vector<std::string> files;  // bytes per split
  std::map<std::string, uint64_t> per_topic;
  std::vector<uint64_t> per_file;
  std::vector<Written> written;  // every message, in the bag's order
  uint64_t first = 0, last = 0;
};

// CDR, little-endian: a std_msgs/msg/String, and a message of one float64.
std::string cdr_string(const std::string& text) {
  std::string out("\0\1\0\0", 4);
  uint32_t n = static_cast<uint32_t>(text.size() + 1);
  out.append(reinterpret_cast<const char*>(&n), 4);
  return out + text + std::string(1, '\0');
}
std::string cdr_float64(double x) {
  std::string out("\0\1\0\0", 4);
  out.append(reinterpret_cast<const char*>(&x), 8);
  return out;
}

// Split k holds 10 + 5k messages, topics in turn; /camera only from split 1 on. Each split
// defines its own channel ids, as rosbag2 does when it opens a new file.
Splits make_splits(size_t count) {
  Splits s;
  uint64_t t = kStart;
  s.first = t;
  for (size_t k = 0; k < count; ++k) {
    mcap::WriterOptions options;
    options.profile = "ros2";
    options.chunk_size = 512;
    mcap::Writer w(options);
    uint16_t string = w.add_schema("std_msgs/msg/String", "ros2msg", "string data\n");
    uint16_t chatter = w.add_channel(string, "/chatter", "cdr");
    uint16_t imu = w.add_channel(w.add_schema("demo_msgs/msg/Imu", "ros2msg", "float64 x\n"), "/imu", "cdr");
    uint16_t camera = k ? w.add_channel(string, "/camera", "cdr") : 0;
    uint64_t n = 10 + 5 * k;
    for (uint64_t i = 0; i < n; ++i, t += 10000000) {
      uint16_t channel = i % 3 == 0 ? chatter : i % 3 == 1 || !camera ? imu : camera;
      std::string topic = channel == chatter ? "/chatter" : channel == imu ? "/imu" : "/camera";
      double value = static_cast<double>(s.written.size());
      w.write_message(channel, static_cast<uint32_t>(i), t, t, channel == imu ? cdr_float64(value) : cdr_string("hello " + std::to_string(i)));
      s.written.push_back({topic, t, value});
      ++s.per_topic[topic];
      s.last = t;
    }
    s.per_file.push_back(n);
    s.files.push_back(w.finish());
  }
  return s;
}

std::string yaml_of(const Splits& s, uint64_t claimed_total) {
  uint64_t total = 0;
  for (uint64_t n : s.per_file) total += n;
  (void)total;
  std::string y = "rosbag2_bagfile_information:\n  version: 8\n  storage_identifier: mcap\n  duration:\n    nanoseconds: " +
                  std::to_string(s.last - s.first) + "\n  starting_time:\n    nanoseconds_since_epoch: " + std::to_string(s.first) +
                  "\n  message_count: " + std::to_string(claimed_total) + "\n  topics_with_message_count:\n";
  for (const auto& [topic, n] : s.per_topic)
    y += "    - topic_metadata:\n        name: " + topic + "\n        type: std_msgs/msg/String\n        serialization_format: cdr\n"
         "        offered_qos_profiles: \"\"\n        type_description_hash: \"\"\n      message_count: " + std::to_string(n) + "\n";
  y += "  compression_format: \"\"\n  compression_mode: \"\"\n  relative_file_paths:\n";
  for (size_t k = 0; k < s.files.size(); ++k) y += "    - bag_" + std::to_string(k) + ".mcap\n";
  y += "  files:\n";
  for (size_t k = 0; k < s.files.size(); ++k)
    y += "    - path: bag_" + std::to_string(k) + ".mcap\n      starting_time:\n        nanoseconds_since_epoch: 0\n"
         "      duration:\n        nanoseconds: 0\n      message_count: " + std::to_string(s.per_file[k]) + "\n";
  return y + "  custom_data: ~\n  ros_distro: jazzy\n";
}

struct Opened {
  std::unique_ptr<MemoryFolder> folder;
  Detection detection;
  std::unique_ptr<FormatInspector> inspector;
};

Opened open(const Splits& s, const std::string& yaml, size_t files) {
  Opened o;
  o.folder = std::make_unique<MemoryFolder>("bag");
  for (size_t k = 0; k < files; ++k) o.folder->add("bag_" + std::to_string(k) + ".mcap", std::vector<uint8_t>(s.files[k].begin(), s.files[k].end()));
  o.folder->add("metadata.yaml", std::vector<uint8_t>(yaml.begin(), yaml.end()));
  o.detection = detect_folder(*o.folder);
  REQUIRE(o.detection.family == "rosbag2");
  CHECK(o.detection.version == "mcap");
  const FormatEntry* entry = find_format("rosbag2");
  REQUIRE(entry);
  REQUIRE(entry->open_folder);
  o.inspector = entry->open_folder(*o.folder, o.detection);
  REQUIRE(o.inspector);
  return o;
}

uint64_t total_of(const Splits& s) {
  uint64_t total = 0;
  for (uint64_t n : s.per_file) total += n;
  return total;
}

}  // namespace

TEST_CASE("rosbag2 MCAP folder: three splits are one bag (summary, topics, timeline) and check clean") {
  Splits s = make_splits(3);
  Opened o = open(s, yaml_of(s, total_of(s)), 3);
  Report summary = o.inspector->summary();
  CHECK(summary.format == "rosbag2");
  CHECK(summary.format_label == "rosbag2 (MCAP)");
  CHECK(summary.file.count("messages")->value == total_of(s));
  CHECK(summary.file.count("files")->value == 3);
  CHECK(summary.file.count("topics")->value == 3);
  REQUIRE(summary.file.start_ns);
  CHECK(static_cast<uint64_t>(*summary.file.start_ns) == s.first);
  CHECK(static_cast<uint64_t>(*summary.file.end_ns) == s.last);
  const Table* topics = nullptr;
  for (const Table& t : summary.tables)
    if (t.name == "topics") topics = &t;
  REQUIRE(topics);
  REQUIRE(topics->rows.size() == s.per_topic.size());
  for (const auto& row : topics->rows) {
    INFO(row[0].as_string());
    CHECK(row[2].as_uint() == s.per_topic.at(row[0].as_string()));
  }
  // One timeline: every message of every split, by topic.
  Json timeline = o.inspector->query("timeline", Json::parse("{\"bins\": 50}").value(), nullptr);
  REQUIRE_MESSAGE(timeline.find("rows"), timeline.dump());
  REQUIRE(timeline.find("rows")->size() == s.per_topic.size());
  for (const Json& row : timeline.find("rows")->elements()) {
    std::string name = row.find("name")->as_string();
    INFO(name);
    CHECK(row.find("total")->as_uint() == s.per_topic.at(name));
    double binned = 0;
    for (const Json& c : row.find("counts")->elements()) binned += c.as_double();
    CHECK(binned == doctest::Approx(static_cast<double>(s.per_topic.at(name))));
  }
  Report check = o.inspector->check(nullptr);
  for (const Problem& p : check.problems) CHECK_MESSAGE(p.severity == Severity::Info, p.code << ": " << p.message);
  CHECK(o.inspector->child_count("") == 3);
  CHECK(o.inspector->children("s1", 0, 100).size() == o.inspector->child_count("s1"));
  CHECK(!o.inspector->info_text({}).empty());
}

namespace {

// Every page of the decoded query from `args`, `page` messages at a time.
std::vector<Json> decoded_pages(FormatInspector& inspector, Json args, uint64_t page) {
  std::vector<Json> all;
  for (uint64_t first = 0;; first += page) {
    args["first"] = first;
    args["count"] = page;
    Json answer = inspector.query("decoded", args, nullptr);
    REQUIRE_MESSAGE(answer.find("messages"), answer.dump());
    for (const Json& m : answer.find("messages")->elements()) all.push_back(m);
    bool more = answer.find("more")->as_bool();
    CHECK_MESSAGE(answer.find("messages")->size() == (more ? page : answer.find("messages")->size()), answer.dump());
    if (!more) break;
    REQUIRE(first < 100000);
  }
  return all;
}

std::vector<Written> written_where(const Splits& s, const std::string& topic, uint64_t t0, uint64_t t1) {
  std::vector<Written> out;
  for (const Written& w : s.written)
    if ((topic.empty() || w.topic == topic) && w.time >= t0 && w.time <= t1) out.push_back(w);
  return out;
}

}  // namespace

TEST_CASE("rosbag2 MCAP folder: the decoded pages run through the splits in order, by topic and by time") {
  Splits s = make_splits(3);
  Opened o = open(s, yaml_of(s, total_of(s)), 3);
  uint64_t mid = s.written[s.per_file[0] - 2].time;  // two messages before split 1 starts
  uint64_t late = s.written[s.per_file[0] + s.per_file[1] + 3].time;
  struct Ask {
    std::string topic;
    uint64_t t0, t1;
  };
  // The topics table is sorted by name: /camera (not in split 0), /chatter, /imu.
  for (const Ask& ask : {Ask{"", 0, UINT64_MAX}, Ask{"/camera", 0, UINT64_MAX}, Ask{"/imu", 0, UINT64_MAX}, Ask{"", mid, late},
                         Ask{"/chatter", mid, late}, Ask{"/camera", late, UINT64_MAX}}) {
    for (uint64_t page : {1, 4, 7, 1000}) {
      INFO("topic " << ask.topic << ", from " << ask.t0 << " to " << ask.t1 << ", pages of " << page);
      Json args = Json::object();
      if (!ask.topic.empty()) args["channel"] = ask.topic == "/camera" ? 0 : ask.topic == "/chatter" ? 1 : 2;
      if (ask.t0) args["t0_ns"] = std::to_string(ask.t0);
      if (ask.t1 != UINT64_MAX) args["t1_ns"] = std::to_string(ask.t1);
      std::vector<Json> got = decoded_pages(*o.inspector, args, page);
      std::vector<Written> want = written_where(s, ask.topic, ask.t0, ask.t1);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].find("topic")->as_string() == want[i].topic);
        CHECK(got[i].find("log_time")->as_string() == std::to_string(want[i].time));
        CHECK(got[i].find("file")->is_string());
        const Json* message = got[i].find("message");
        REQUIRE_MESSAGE(message, got[i].dump());
        if (want[i].topic == "/imu") CHECK(message->find("x")->as_double() == want[i].value);
      }
      // Indexes count the selection through the splits: 0, 1, 2, ... as one bag.
      for (size_t i = 0; i < got.size(); ++i) CHECK(got[i].find("index")->as_uint() == i);
    }
  }
  Json unknown = Json::object();
  unknown["topic"] = "/nowhere";
  CHECK(o.inspector->query("decoded", unknown, nullptr).find("error"));
  unknown = Json::object();
  unknown["channel"] = 3;
  CHECK(o.inspector->query("decoded", unknown, nullptr).find("error"));
}

TEST_CASE("rosbag2 MCAP folder: a topic's export and plot are every split's rows under one header") {
  Splits s = make_splits(3);
  Opened o = open(s, yaml_of(s, total_of(s)), 3);
  for (const std::string& topic : {"/imu", "/camera", "/chatter"}) {
    INFO(topic);
    ExportRequest request;
    StringSink csv;
    ExportResult result = o.inspector->export_rows(topic, request, csv, nullptr);
    REQUIRE_MESSAGE(result.error.empty(), result.error);
    std::vector<Written> want = written_where(s, topic, 0, UINT64_MAX);
    CHECK(result.rows == want.size());
    std::vector<std::string> lines;
    for (size_t at = 0; at < csv.text().size();) {
      size_t end = csv.text().find('\n', at);
      lines.push_back(csv.text().substr(at, end - at));
      at = end + 1;
    }
    REQUIRE(lines.size() == want.size() + 1);
    CHECK(lines[0].rfind("time_ns,", 0) == 0);
    // The bag's rows are each split's own export, in split order, without their headers.
    std::string joined = lines[0] + "\n";
    for (size_t k = 0; k < s.files.size(); ++k) {
      MemoryByteSource one(std::vector<uint8_t>(s.files[k].begin(), s.files[k].end()));
      auto split = mcap::open_inspector(one);
      StringSink part;
      ExportResult r = split->export_rows(topic, request, part, nullptr);
      if (!r.error.empty()) continue;  // /camera is not in split 0
      joined += part.text().substr(part.text().find('\n') + 1);
    }
    CHECK(joined == csv.text());
    for (size_t i = 0; i < want.size(); ++i) CHECK(lines[i + 1].rfind(std::to_string(want[i].time) + ",", 0) == 0);

    request.format = ExportFormat::Jsonl;
    StringSink jsonl;
    CHECK(o.inspector->export_rows(topic, request, jsonl, nullptr).rows == want.size());
    CHECK(static_cast<size_t>(std::count(jsonl.text().begin(), jsonl.text().end(), '\n')) == want.size());
  }
  // A time range across the first split boundary.
  ExportRequest range;
  range.from_ns = s.written[s.per_file[0] - 3].time;
  range.to_ns = s.written[s.per_file[0] + 4].time;
  StringSink ranged;
  CHECK(o.inspector->export_rows("/imu", range, ranged, nullptr).rows == written_where(s, "/imu", range.from_ns, range.to_ns).size());

  Json columns = o.inspector->query("columns", Json::parse(R"({"topic": "/imu"})").value(), nullptr);
  REQUIRE_MESSAGE(columns.find("columns"), columns.dump());
  CHECK(columns.find("columns")->size() == 1);
  CHECK(columns.find("columns")->elements()[0].find("name")->as_string() == "x");
  Json plot = o.inspector->query("plot", Json::parse(R"({"topic": "/imu", "fields": "x"})").value(), nullptr);
  REQUIRE_MESSAGE(plot.find("count"), plot.dump());
  CHECK(plot.find("count")->as_uint() == s.per_topic.at("/imu"));

  ExportRequest request;
  StringSink nothing;
  ExportResult missing = o.inspector->export_rows("/nowhere", request, nothing, nullptr);
  CHECK(missing.error.find("no topic") != std::string::npos);
  CHECK(nothing.text().empty());
}

TEST_CASE("rosbag2 MCAP folder: the yaml against the splits, missing and extra files") {
  Splits s = make_splits(3);
  Report wrong = open(s, yaml_of(s, total_of(s) + 4), 3).inspector->check(nullptr);
  CHECK(test_support::has_code(wrong.problems, "rosbag2.yaml.count_mismatch"));

  Report missing = open(s, yaml_of(s, total_of(s)), 2).inspector->check(nullptr);
  CHECK(test_support::has_code(missing.problems, "rosbag2.file.missing"));
  CHECK(test_support::has_code(missing.problems, "rosbag2.yaml.topic_count_mismatch"));
  CHECK(missing.file.count("files")->value == 2);

  Splits two = make_splits(2);
  Opened extra = open(s, yaml_of(two, total_of(two)), 3);  // the yaml of two splits, three in the folder
  Report r = extra.inspector->check(nullptr);
  CHECK(test_support::has_code(r.problems, "rosbag2.file.extra"));
}

TEST_CASE("rosbag2 MCAP folder: a folder of .mcap files without metadata.yaml is not taken for a bag") {
  Splits s = make_splits(2);
  MemoryFolder folder("loose");
  folder.add("bag_0.mcap", std::vector<uint8_t>(s.files[0].begin(), s.files[0].end()));
  CHECK(detect_folder(folder).family != "rosbag2");
}

namespace {
std::string run_cli(const std::string& arguments, int* status) {
  std::string command = std::string(LOGSCOPE_CLI) + " " + arguments + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
  *status = WEXITSTATUS(::pclose(pipe));
  return text;
}
}  // namespace

TEST_CASE("rosbag2 MCAP folder CLI: info and check open the folder as one bag, repair refuses it with the per-split command") {
  Splits s = make_splits(3);
  std::string dir = test_support::scratch_dir("rosbag2_mcap_folder") + "/bag";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (size_t k = 0; k < s.files.size(); ++k)
    test_support::write_file(dir + "/bag_" + std::to_string(k) + ".mcap", std::vector<uint8_t>(s.files[k].begin(), s.files[k].end()));
  std::string yaml = yaml_of(s, total_of(s));
  test_support::write_file(dir + "/metadata.yaml", std::vector<uint8_t>(yaml.begin(), yaml.end()));
  int status = -1;
  std::string info = run_cli("info '" + dir + "'", &status);
  INFO(info);
  CHECK(status == 0);
  CHECK(info.find("Storage id:        mcap") != std::string::npos);
  CHECK(info.find("Messages:          " + std::to_string(total_of(s))) != std::string::npos);
  std::string check = run_cli("check '" + dir + "'", &status);
  INFO(check);
  CHECK(status == 0);
  CHECK(check.find("rosbag2 (MCAP)") != std::string::npos);
  std::string repair = run_cli("repair '" + dir + "' '" + dir + "-repaired'", &status);
  INFO(repair);
  CHECK(status == 2);
  CHECK(repair.find("repair each split") != std::string::npos);
  CHECK(!std::filesystem::exists(dir + "-repaired/metadata.yaml"));
}
