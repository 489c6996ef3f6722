// rosbag2 bag folders that store MCAP (codec/rosbag2/mcap_folder.h): three splits written by
// codec/mcap/writer with a metadata.yaml open as one bag through the MCAP reader: one summary,
// one topic table with counts summed across the splits, one timeline; the check compares the
// yaml with the splits and names missing and extra files.
#include <filesystem>

#include "core/folder.h"
#include "core/format_table.h"
#include "core/inspector.h"
#include "mcap/writer.h"
#include "test_support.h"

using namespace logscope;

namespace {

const uint64_t kStart = 1700000000000000000ull;

struct Splits {
  std::vector<std::string> files;  // bytes per split
  std::map<std::string, uint64_t> per_topic;
  std::vector<uint64_t> per_file;
  uint64_t first = 0, last = 0;
};

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
      w.write_message(channel, static_cast<uint32_t>(i), t, t, std::string("\0\1\0\0", 4) + std::string(8 + i % 5, 'x'));
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

TEST_CASE("rosbag2 MCAP folder CLI: info and check open the folder as one bag; repair refuses it with the per-split command") {
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
