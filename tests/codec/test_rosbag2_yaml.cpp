// rosbag2's metadata.yaml through yaml-cpp (codec/rosbag2/metadata.h) and the always-a-bag rule
// (bag.h bag_storage): bags written by our writers (the SQLite demo database, MCAP splits by
// codec/mcap/writer) with every yaml shape rosbag2's writers emit from Foxy to Rolling (versions
// 4 to 9, empty lists and maps on their own line, flow and block styles, quoted and plain
// scalars, comments, QoS as text and as a list) open clean; damaged yamls (cut, wrong indentation,
// wrong types, missing keys, counts that lie, files missing) open as bags from their files with a
// warning naming the yaml's line; the two Jazzy bags of issue 34 (an empty bag, and `[]` on its
// own line with a file count twice the split's).
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>

#include "core/folder.h"
#include "core/format_table.h"
#include "core/inspector.h"
#include "mcap/writer.h"
#include "rosbag2/bag.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/metadata.h"
#include "rosbag2/writer.h"
#include "test_support.h"

using namespace logscope;

namespace {

// What the yaml says of a bag, taken from the files it describes.
struct BagFacts {
  std::string storage;  // "sqlite3" or "mcap"
  std::vector<std::string> topics, types;
  std::vector<uint64_t> counts;
  std::vector<std::string> files;
  std::vector<uint64_t> file_counts;
  int64_t start = INT64_MAX, duration = 0;
  uint64_t total() const {
    uint64_t n = 0;
    for (uint64_t c : counts) n += c;
    return n;
  }
};

// How the yaml is written: the styles rosbag2's writers used, and hand edits.
struct Shape {
  int version = 8;
  bool flow = false;            // nested maps and lists in flow style ({a: 1}, [a, b])
  bool quoted = false;          // every text and number "quoted"
  bool comments = false;        // comment lines and trailing comments
  bool empty_own_line = false;  // an empty list or map on its own line (`key:\n    []`), as yaml-cpp emits it
  bool qos_empty_list = false;  // v9: `offered_qos_profiles:\n          []`
};

std::string yaml_of(const BagFacts& f, const Shape& s) {
  auto q = [&](const std::string& v) { return s.quoted ? "\"" + v + "\"" : v; };
  auto n = [&](long long v) { return q(std::to_string(v)); };
  auto comment = [&](const std::string& indent) { return s.comments ? indent + "# written by a test, " + std::to_string(indent.size() / 2) + "\n" : std::string(); };
  auto nested = [&](const std::string& indent, const std::string& key, const std::string& inner, long long v) {
    return s.flow ? indent + key + ": {" + inner + ": " + n(v) + "}\n" : indent + key + ":\n" + indent + "  " + inner + ": " + n(v) + "\n";
  };
  auto empty = [&](const std::string& indent, const std::string& key, const char* brackets) {
    return s.empty_own_line ? indent + key + ":\n" + indent + "  " + brackets + "\n" : indent + key + ": " + brackets + "\n";
  };
  std::string y = comment("") + "rosbag2_bagfile_information:\n";
  y += "  version: " + n(s.version) + (s.comments ? "  # the yaml's version\n" : "\n");
  y += "  storage_identifier: " + q(f.storage) + "\n";
  auto paths = [&] {
    if (f.files.empty()) return empty("  ", "relative_file_paths", "[]");
    if (s.flow) {
      std::string list;
      for (const std::string& p : f.files) list += (list.empty() ? "" : ", ") + q(p);
      return "  relative_file_paths: [" + list + "]\n";
    }
    std::string out = "  relative_file_paths:\n";
    for (const std::string& p : f.files) out += "    - " + q(p) + "\n";
    return out;
  };
  if (s.version <= 4) y += paths();  // Foxy's order
  y += nested("  ", "duration", "nanoseconds", f.duration);
  y += nested("  ", "starting_time", "nanoseconds_since_epoch", f.start);
  y += "  message_count: " + n(static_cast<long long>(f.total())) + "\n" + comment("  ");
  if (f.topics.empty()) y += empty("  ", "topics_with_message_count", "[]");
  else y += "  topics_with_message_count:\n";
  for (size_t i = 0; i < f.topics.size(); ++i) {
    std::string qos;
    if (s.version >= 9 && s.qos_empty_list) qos = s.flow ? "[]" : "\n          []";
    else if (s.version >= 9) qos = s.flow ? "[{history: keep_last, depth: 10, reliability: reliable}]"
                                          : "\n          - history: keep_last\n            depth: 10\n            reliability: reliable";
    else qos = "\"- history: 3\\n  depth: 0\\n  reliability: 1\"";
    if (s.flow) {
      y += "    - {topic_metadata: {name: " + q(f.topics[i]) + ", type: " + q(f.types[i]) + ", serialization_format: " + q("cdr") +
           (s.version >= 4 ? ", offered_qos_profiles: " + qos : "") +
           (s.version >= 7 ? ", type_description_hash: " + q("RIHS01_00") : "") + "}, message_count: " +
           n(static_cast<long long>(f.counts[i])) + "}\n";
      continue;
    }
    y += "    - topic_metadata:\n        name: " + q(f.topics[i]) + "\n        type: " + q(f.types[i]) +
         "\n        serialization_format: " + q("cdr") + "\n";
    if (s.version >= 4) y += "        offered_qos_profiles:" + std::string(qos[0] == '\n' ? "" : " ") + qos + "\n";
    if (s.version >= 7) y += "        type_description_hash: " + q("RIHS01_00") + "\n";
    y += comment("      ") + "      message_count: " + n(static_cast<long long>(f.counts[i])) + "\n";
  }
  y += "  compression_format: \"\"\n  compression_mode: \"\"\n";
  if (s.version > 4) y += paths();
  if (s.version >= 5) {
    if (f.files.empty()) y += empty("  ", "files", "[]");
    else y += "  files:\n";
    for (size_t k = 0; k < f.files.size(); ++k)
      y += "    - path: " + q(f.files[k]) + "\n" + nested("      ", "starting_time", "nanoseconds_since_epoch", f.start) +
           nested("      ", "duration", "nanoseconds", f.duration) + "      message_count: " +
           n(static_cast<long long>(f.file_counts[k])) + "\n";
  }
  if (s.version >= 6) y += s.empty_own_line ? empty("  ", "custom_data", "{}") : "  custom_data: ~\n";
  if (s.version >= 8) y += "  ros_distro: " + q("jazzy") + "\n";
  return y;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// The SQLite demo database (3 topics, 30 messages) as one split, and what it holds, read without a yaml.
struct SqliteBag {
  std::vector<uint8_t> database = rosbag2::small_demo_database();
  BagFacts facts;
  SqliteBag() {
    MemoryFolder folder("demo");
    folder.add("demo_0.db3", database);
    std::unique_ptr<rosbag2::Bag> bag = rosbag2::open_bag(folder);
    rosbag2::BagTotals totals = rosbag2::bag_totals(*bag);
    facts.storage = "sqlite3";
    for (const rosbag2::TopicRow& t : totals.topics) {
      facts.topics.push_back(t.name);
      facts.types.push_back(t.type);
      facts.counts.push_back(t.count);
    }
    facts.files = {"demo_0.db3"};
    facts.file_counts = {totals.messages};
    REQUIRE(totals.start_ns);
    facts.start = *totals.start_ns;
    facts.duration = *totals.end_ns - *totals.start_ns;
    REQUIRE(totals.messages == 30);
  }
};

// Two MCAP splits of a ros2-profile recording: /chatter and /imu in turn, `per_split` messages each.
struct McapBag {
  std::vector<std::string> splits;
  BagFacts facts;
  explicit McapBag(uint64_t per_split = 6) {
    const int64_t start = 1700000000000000000;
    int64_t t = start;
    facts.storage = "mcap";
    facts.topics = {"/chatter", "/imu"};
    facts.types = {"std_msgs/msg/String", "std_msgs/msg/String"};
    facts.counts = {0, 0};
    for (int k = 0; k < 2; ++k) {
      mcap::WriterOptions options;
      options.profile = "ros2";
      mcap::Writer w(options);
      uint16_t schema = w.add_schema("std_msgs/msg/String", "ros2msg", "string data\n");
      uint16_t channels[2] = {w.add_channel(schema, "/chatter", "cdr"), w.add_channel(schema, "/imu", "cdr")};
      for (uint64_t i = 0; i < per_split; ++i, t += 1000000) {
        w.write_message(channels[i % 2], static_cast<uint32_t>(i), static_cast<uint64_t>(t), static_cast<uint64_t>(t),
                        std::string("\0\1\0\0\2\0\0\0x\0", 10));
        ++facts.counts[i % 2];
      }
      splits.push_back(w.finish());
      facts.files.push_back("rec_" + std::to_string(k) + ".mcap");
      facts.file_counts.push_back(per_split);
    }
    if (per_split) {
      facts.start = start;
      facts.duration = t - 1000000 - start;
    }
  }
};

struct Opened {
  std::unique_ptr<MemoryFolder> folder;
  Detection detection;
  std::unique_ptr<FormatInspector> inspector;
};

Opened open_folder(std::unique_ptr<MemoryFolder> folder) {
  Opened o;
  o.folder = std::move(folder);
  o.detection = detect_folder(*o.folder);
  REQUIRE_MESSAGE(o.detection.family == "rosbag2", o.detection.diagnosis);
  o.inspector = find_format("rosbag2")->open_folder(*o.folder, o.detection);
  REQUIRE(o.inspector);
  return o;
}

Opened open_sqlite(const SqliteBag& b, const std::optional<std::string>& yaml) {
  auto folder = std::make_unique<MemoryFolder>("demo");
  folder->add("demo_0.db3", b.database);
  if (yaml) folder->add("metadata.yaml", bytes_of(*yaml));
  Opened o = open_folder(std::move(folder));
  CHECK(o.detection.version == "sqlite3");
  return o;
}

Opened open_mcap(const McapBag& b, const std::optional<std::string>& yaml, size_t splits = 2) {
  auto folder = std::make_unique<MemoryFolder>("rec");
  for (size_t k = 0; k < splits; ++k) folder->add(b.facts.files[k], bytes_of(b.splits[k]));
  if (yaml) folder->add("metadata.yaml", bytes_of(*yaml));
  Opened o = open_folder(std::move(folder));
  CHECK(o.detection.version == "mcap");
  return o;
}

uint64_t messages(const Report& r) { return r.file.count("messages") ? r.file.count("messages")->value : 0; }

// The per-topic counts of the report's topics table.
std::map<std::string, uint64_t> topic_counts(const Report& r) {
  std::map<std::string, uint64_t> out;
  for (const Table& t : r.tables)
    if (t.name == "topics")
      for (const auto& row : t.rows) out[row[0].as_string()] = row[2].as_uint();
  return out;
}

std::map<std::string, uint64_t> fact_counts(const BagFacts& f) {
  std::map<std::string, uint64_t> out;
  for (size_t i = 0; i < f.topics.size(); ++i) out[f.topics[i]] = f.counts[i];
  return out;
}

// A problem of this code whose message names a line of metadata.yaml.
const Problem* with_line(const Report& r, const std::string& code) {
  for (const Problem& p : r.problems)
    if (p.code == code && p.message.find("metadata.yaml line ") != std::string::npos) return &p;
  return nullptr;
}
const Problem* any_yaml_line(const Report& r) {
  for (const Problem& p : r.problems)
    if (p.message.find("metadata.yaml line ") != std::string::npos && p.severity == Severity::Warning) return &p;
  return nullptr;
}

std::string problems_text(const Report& r) {
  std::string out;
  for (const Problem& p : r.problems) out += p.code + ": " + p.message + "\n";
  return out;
}

std::vector<Shape> every_shape() {
  std::vector<Shape> shapes;
  for (int version = 4; version <= 9; ++version) {
    Shape plain;
    plain.version = version;
    Shape quoted = plain, flow = plain, commented = plain, empty_qos = plain;
    quoted.quoted = true;
    flow.flow = true;
    commented.comments = true;
    commented.empty_own_line = true;
    empty_qos.qos_empty_list = true;
    empty_qos.empty_own_line = true;
    for (const Shape& s : {plain, quoted, flow, commented, empty_qos}) shapes.push_back(s);
  }
  return shapes;
}

}  // namespace

TEST_CASE("rosbag2 yaml: every shape rosbag2 writes (v4-v9, block and flow, quoted, comments, empty lists) is read whole") {
  SqliteBag b;
  for (const Shape& s : every_shape()) {
    std::string yaml = yaml_of(b.facts, s);
    INFO(yaml);
    rosbag2::BagMetadata m;
    std::vector<std::string> problems;
    REQUIRE(rosbag2::parse_metadata(yaml, &m, &problems));
    CHECK(problems.empty());
    CHECK(m.complete);
    CHECK(m.version == static_cast<uint64_t>(s.version));
    CHECK(m.storage_identifier == "sqlite3");
    CHECK(m.relative_file_paths == b.facts.files);
    CHECK(m.message_count == b.facts.total());
    CHECK(m.starting_time_ns == b.facts.start);
    CHECK(m.duration_ns == b.facts.duration);
    REQUIRE(m.topics.size() == b.facts.topics.size());
    for (size_t i = 0; i < m.topics.size(); ++i) {
      CHECK(m.topics[i].name == b.facts.topics[i]);
      CHECK(m.topics[i].type == b.facts.types[i]);
      CHECK(m.topics[i].message_count == b.facts.counts[i]);
      CHECK(m.topics[i].line > 0);
      if (s.version >= 9 && !s.qos_empty_list) CHECK(m.topics[i].offered_qos_profiles.find("history: keep_last") != std::string::npos);
      else if (s.version >= 9) CHECK(m.topics[i].offered_qos_profiles == "[]");
      else CHECK(m.topics[i].offered_qos_profiles == "- history: 3\n  depth: 0\n  reliability: 1");
      CHECK(m.topics[i].type_description_hash == (s.version >= 7 ? "RIHS01_00" : ""));
    }
    CHECK(m.files.size() == (s.version >= 5 ? 1u : 0u));
    if (s.version >= 5) CHECK(m.files[0].message_count == b.facts.total());
    CHECK(m.ros_distro == (s.version >= 8 ? "jazzy" : ""));
  }
}

TEST_CASE("rosbag2 yaml: bags of both storages with every yaml shape open clean, with the data's counts") {
  SqliteBag sqlite;
  McapBag mcap;
  for (const Shape& s : every_shape()) {
    for (int storage = 0; storage < 2; ++storage) {
      const BagFacts& facts = storage ? mcap.facts : sqlite.facts;
      std::string yaml = yaml_of(facts, s);
      INFO(yaml);
      Opened o = storage ? open_mcap(mcap, yaml) : open_sqlite(sqlite, yaml);
      Report r = o.inspector->check(nullptr);
      INFO(problems_text(r));
      // The SQLite demo's camera frames are cut short on purpose (rosbag2.decode.size_mismatch):
      // nothing else may be found.
      size_t others = 0;
      for (const Problem& p : r.problems) others += p.severity != Severity::Info && p.code.rfind("rosbag2.decode.", 0) != 0;
      CHECK(others == 0);
      CHECK(messages(r) == facts.total());
      CHECK(topic_counts(r) == fact_counts(facts));
      const Json* version = r.facts.find("metadata_version");
      REQUIRE(version);
      CHECK(version->as_uint() == static_cast<uint64_t>(s.version));
    }
  }
}

TEST_CASE("rosbag2 yaml: the Jazzy empty bag (MCAP storage, `[]` on its own line, INT64_MAX start) is a bag of 0 messages") {
  McapBag empty(0);
  BagFacts f = empty.facts;
  f.topics.clear(), f.types.clear(), f.counts.clear();
  f.files.resize(1), f.file_counts.resize(1);
  Shape s;
  s.version = 9;
  s.empty_own_line = true;
  std::string yaml = yaml_of(f, s);
  REQUIRE(yaml.find("topics_with_message_count:\n    []") != std::string::npos);
  REQUIRE(yaml.find("nanoseconds_since_epoch: 9223372036854775807") != std::string::npos);
  Opened o = open_mcap(empty, yaml, 1);
  Report summary = o.inspector->summary();
  Report check = o.inspector->check(nullptr);
  INFO(problems_text(check));
  CHECK(messages(summary) == 0);
  CHECK(!summary.file.start_ns);
  CHECK(!summary.file.end_ns);
  CHECK(check.count(Severity::Error) + check.count(Severity::Warning) == 0);
  std::string text = o.inspector->info_text(InfoOptions{});
  CHECK(text.find("9223372036854775807") == std::string::npos);
  CHECK(text.find("Messages:          0") != std::string::npos);
  CHECK(summary.to_json().dump().find("9223372036854775807") == std::string::npos);

  // The same on disk through the CLI: a bag, not "is a directory".
  std::string dir = test_support::scratch_dir("rosbag2_yaml") + "/jazzy_empty";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  test_support::write_file(dir + "/jazzy_empty_0.mcap", bytes_of(empty.splits[0]));
  f.files = {"jazzy_empty_0.mcap"};
  test_support::write_file(dir + "/metadata.yaml", bytes_of(yaml_of(f, s)));
  int status = -1;
  std::string info = test_support::run_cli("info '" + dir + "'", &status);
  INFO(info);
  CHECK(status == 0);
  CHECK(info.find("is a directory") == std::string::npos);
  CHECK(info.find("9223372036854775807") == std::string::npos);
  std::string json = test_support::run_cli("info --json '" + dir + "'", &status);
  CHECK(status == 0);
  CHECK(json.find("9223372036854775807") == std::string::npos);
}

TEST_CASE("rosbag2 yaml: an empty SQLite bag (no messages, INT64_MAX start) opens with 0 messages and no error") {
  std::string dir = test_support::scratch_dir("rosbag2_yaml") + "/empty_sqlite";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir + "/empty_sqlite_0.db3").c_str(), &db) == SQLITE_OK);
  std::string error;
  REQUIRE_MESSAGE(rosbag2::create_tables(db, rosbag2::demo_topics(), &error), error);
  sqlite3_close(db);
  BagFacts f;
  f.storage = "sqlite3";
  f.files = {"empty_sqlite_0.db3"};
  f.file_counts = {0};
  Shape s;
  s.empty_own_line = true;
  test_support::write_file(dir + "/metadata.yaml", bytes_of(yaml_of(f, s)));
  int status = -1;
  std::string check = test_support::run_cli("check '" + dir + "'", &status);
  INFO(check);
  CHECK(status == 0);
  std::string info = test_support::run_cli("info '" + dir + "'", &status);
  INFO(info);
  CHECK(status == 0);
  CHECK(info.find("Messages:          0") != std::string::npos);
  CHECK(info.find("9223372036854775807") == std::string::npos);
}

TEST_CASE("rosbag2 yaml: the Jazzy bag with `offered_qos_profiles:\\n []` and a file count twice the split's opens with a warning of both") {
  McapBag b;
  BagFacts f = b.facts;
  f.file_counts[0] *= 2;
  Shape s;
  s.version = 9;
  s.qos_empty_list = true;
  s.empty_own_line = true;
  std::string yaml = yaml_of(f, s);
  REQUIRE(yaml.find("offered_qos_profiles:\n          []") != std::string::npos);
  Opened o = open_mcap(b, yaml);
  Report r = o.inspector->check(nullptr);
  INFO(problems_text(r));
  const Problem* p = with_line(r, "rosbag2.yaml.file_count_mismatch");
  REQUIRE(p);
  CHECK(p->severity == Severity::Warning);
  CHECK(p->message.find("message_count " + std::to_string(f.file_counts[0])) != std::string::npos);
  CHECK(p->message.find("the file holds " + std::to_string(b.facts.file_counts[0])) != std::string::npos);
  CHECK(messages(r) == b.facts.total());
  CHECK(topic_counts(r) == fact_counts(b.facts));
  CHECK(r.count(Severity::Error) == 0);
}

TEST_CASE("rosbag2 yaml: a yaml cut anywhere opens the bag from its files, with a warning naming a line") {
  SqliteBag sqlite;
  McapBag mcap;
  for (int storage = 0; storage < 2; ++storage) {
    const BagFacts& facts = storage ? mcap.facts : sqlite.facts;
    std::string whole = yaml_of(facts, Shape{});
    size_t last_line = whole.find_last_of('\n', whole.size() - 2) + 1;
    // Every line boundary and the middle of every line, up to the last line (whose cut value may
    // still be a value: "jazz").
    std::vector<size_t> cuts;
    for (size_t at = 0; at < last_line; at = whole.find('\n', at) + 1) {
      cuts.push_back(at);
      cuts.push_back(at + (whole.find('\n', at) - at) / 2);
    }
    for (size_t cut : cuts) {
      std::string yaml = whole.substr(0, cut);
      INFO("cut at " << cut << ":\n" << yaml);
      Opened o = storage ? open_mcap(mcap, yaml) : open_sqlite(sqlite, yaml);
      Report r = o.inspector->check(nullptr);
      INFO(problems_text(r));
      CHECK(messages(r) == facts.total());
      CHECK(topic_counts(r) == fact_counts(facts));
      CHECK(r.count(Severity::Error) == 0);
      CHECK(any_yaml_line(r));
    }
  }
}

TEST_CASE("rosbag2 yaml: wrong indentation, wrong types and missing keys are warnings naming the line, the data wins") {
  SqliteBag b;
  std::string whole = yaml_of(b.facts, Shape{});
  auto line_of = [&](const std::string& text) {
    size_t at = whole.find(text);
    REQUIRE(at != std::string::npos);
    return static_cast<uint64_t>(std::count(whole.begin(), whole.begin() + static_cast<long>(at), '\n') + 1);
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string y = whole;
    size_t at = y.find(from);
    REQUIRE(at != std::string::npos);
    return y.replace(at, from.size(), to);
  };
  struct Case {
    std::string yaml, code, says;
    uint64_t line;
  };
  std::vector<Case> cases = {
      {replaced("  version: 8", "  version: nine"), "rosbag2.yaml.invalid", "version: expected a whole number", line_of("  version: 8")},
      {replaced("  message_count: 30", "  message_count: [30]"), "rosbag2.yaml.invalid", "message_count: expected a whole number",
       line_of("  message_count: 30")},
      {replaced("  relative_file_paths:\n    - demo_0.db3", "  relative_file_paths: {a: demo_0.db3}"), "rosbag2.yaml.invalid",
       "relative_file_paths: expected a sequence", line_of("  relative_file_paths:")},
      {replaced("    nanoseconds: " + std::to_string(b.facts.duration), "    nanoseconds: 5s"), "rosbag2.yaml.invalid",
       "duration.nanoseconds: expected a whole number", line_of("    nanoseconds: ")},
      {replaced("  storage_identifier: sqlite3\n", ""), "rosbag2.yaml.invalid", "rosbag2_bagfile_information has no storage_identifier",
       line_of("  version: 8")},
      {replaced("  message_count: 30\n", ""), "rosbag2.yaml.invalid", "rosbag2_bagfile_information has no message_count",
       line_of("  version: 8")},
      // One space too many: yaml-cpp stops at that line; what comes before it is read.
      {replaced("\n  compression_format", "\n   compression_format"), "rosbag2.yaml.unreadable", "not YAML",
       line_of("  compression_format")},
      {replaced("  topics_with_message_count:\n    - topic_metadata:", "  topics_with_message_count:\n   - topic_metadata:\n  - x"),
       "rosbag2.yaml.unreadable", "not YAML", 0},
      {"rosbag2_bagfile_information: [1, 2\n", "rosbag2.yaml.unreadable", "not YAML", 0},
      {"just text\n", "rosbag2.yaml.unreadable", "no rosbag2_bagfile_information", 1},
  };
  for (const Case& c : cases) {
    INFO(c.yaml);
    Opened o = open_sqlite(b, c.yaml);
    Report r = o.inspector->check(nullptr);
    INFO(problems_text(r));
    const Problem* p = with_line(r, c.code);
    REQUIRE(p);
    CHECK(p->severity == Severity::Warning);
    CHECK(p->message.find(c.says) != std::string::npos);
    if (c.line) CHECK(p->message.find("metadata.yaml line " + std::to_string(c.line) + ":") != std::string::npos);
    CHECK(messages(r) == b.facts.total());
    CHECK(topic_counts(r) == fact_counts(b.facts));
    CHECK(r.count(Severity::Error) == 0);
  }
}

TEST_CASE("rosbag2 yaml: counts that lie and a storage the files contradict are warnings with both values and the line") {
  SqliteBag sqlite;
  McapBag mcap;
  for (int storage = 0; storage < 2; ++storage) {
    const BagFacts& truth = storage ? mcap.facts : sqlite.facts;
    BagFacts lie = truth;
    lie.counts[0] += 5;
    lie.file_counts[0] += 7;
    std::string yaml = yaml_of(lie, Shape{});
    Opened o = storage ? open_mcap(mcap, yaml) : open_sqlite(sqlite, yaml);
    Report r = o.inspector->check(nullptr);
    INFO(problems_text(r));
    const Problem* total = with_line(r, "rosbag2.yaml.count_mismatch");
    REQUIRE(total);
    CHECK(total->message.find("message_count " + std::to_string(lie.total()) + ", the ") != std::string::npos);
    CHECK(total->message.find(" hold " + std::to_string(truth.total())) != std::string::npos);
    const Problem* topic = with_line(r, "rosbag2.yaml.topic_count_mismatch");
    REQUIRE(topic);
    CHECK(topic->message.find(lie.topics[0] + " has message_count " + std::to_string(lie.counts[0])) != std::string::npos);
    const Problem* file = with_line(r, "rosbag2.yaml.file_count_mismatch");
    REQUIRE(file);
    CHECK(file->message.find("message_count " + std::to_string(lie.file_counts[0])) != std::string::npos);
    // The data wins: the summary's counts are the files'.
    Report summary = o.inspector->summary();
    CHECK(messages(summary) == truth.total());
    CHECK(topic_counts(summary) == fact_counts(truth));

    // The yaml says the other storage: the files decide, with a warning.
    BagFacts other = truth;
    other.storage = storage ? "sqlite3" : "mcap";
    Opened o2 = storage ? open_mcap(mcap, yaml_of(other, Shape{})) : open_sqlite(sqlite, yaml_of(other, Shape{}));
    Report r2 = o2.inspector->check(nullptr);
    INFO(problems_text(r2));
    CHECK(with_line(r2, "rosbag2.yaml.storage_mismatch"));
    CHECK(messages(r2) == truth.total());
  }
}

TEST_CASE("rosbag2 yaml: files the yaml names that are missing, and files it does not name, are read from the folder with a warning") {
  McapBag b;
  // The yaml names both splits; only the first is there.
  Opened missing = open_mcap(b, yaml_of(b.facts, Shape{}), 1);
  Report r = missing.inspector->check(nullptr);
  INFO(problems_text(r));
  const Problem* p = with_line(r, "rosbag2.file.missing");
  REQUIRE(p);
  CHECK(p->severity == Severity::Warning);
  CHECK(p->message.find("rec_1.mcap") != std::string::npos);
  CHECK(p->message.find("rec_0.mcap") != std::string::npos);  // what the folder holds
  CHECK(messages(r) == b.facts.file_counts[0]);
  // The yaml names the first split only: the second is read too, after it.
  BagFacts one = b.facts;
  one.files.resize(1), one.file_counts.resize(1);
  Opened extra = open_mcap(b, yaml_of(one, Shape{}), 2);
  Report e = extra.inspector->check(nullptr);
  INFO(problems_text(e));
  CHECK(test_support::has_code(e.problems, "rosbag2.file.extra"));
  CHECK(messages(e) == b.facts.total());
  CHECK(e.file.count("files")->value == 2);

  // SQLite: the yaml names a split that is gone and the one there under another name.
  SqliteBag s;
  BagFacts renamed = s.facts;
  renamed.files = {"gone_0.db3"};
  Opened o = open_sqlite(s, yaml_of(renamed, Shape{}));
  Report rs = o.inspector->check(nullptr);
  INFO(problems_text(rs));
  CHECK(with_line(rs, "rosbag2.file.missing"));
  CHECK(test_support::has_code(rs.problems, "rosbag2.file.extra"));
  CHECK(messages(rs) == s.facts.total());
  CHECK(rs.count(Severity::Error) == 0);
}

TEST_CASE("rosbag2 yaml: a folder is a bag when it holds metadata.yaml or storage files, otherwise the CLI says what a bag holds") {
  McapBag b;
  SqliteBag s;
  // metadata.yaml alone, of any content: a bag (of no files), with the yaml's warning.
  MemoryFolder yaml_only("y");
  yaml_only.add("metadata.yaml", bytes_of("not: [a bag\n"));
  CHECK(detect_folder(yaml_only).family == "rosbag2");
  // .mcap splits named as rosbag2 names them (the folder's name, _N), without a yaml.
  MemoryFolder splits("rec");
  splits.add("rec_0.mcap", bytes_of(b.splits[0]));
  splits.add("rec_1.mcap", bytes_of(b.splits[1]));
  Detection d = detect_folder(splits);
  CHECK(d.family == "rosbag2");
  CHECK(d.version == "mcap");
  auto inspector = find_format("rosbag2")->open_folder(splits, d);
  CHECK(messages(inspector->summary()) == b.facts.total());
  // A folder of unrelated MCAP files is not one log; nor is one without any of these.
  MemoryFolder loose("samples");
  loose.add("rec_0.mcap", bytes_of(b.splits[0]));
  loose.add("other.mcap", bytes_of(b.splits[1]));
  CHECK(!detect_folder(loose).known());
  MemoryFolder notes("notes");
  notes.add("notes.txt", bytes_of("hello"));
  CHECK(!detect_folder(notes).known());

  std::string dir = test_support::scratch_dir("rosbag2_yaml") + "/not_a_bag";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  test_support::write_file(dir + "/notes.txt", bytes_of("hello"));
  int status = -1;
  std::string out = test_support::run_cli("info '" + dir + "'", &status);
  INFO(out);
  CHECK(status == 2);
  CHECK(out.find("is a directory") != std::string::npos);
  CHECK(out.find("metadata.yaml") != std::string::npos);
  CHECK(out.find(".mcap") != std::string::npos);
  // An error, so on stderr: stdout (what a script reads) stays empty.
  CHECK(test_support::run_cli("info '" + dir + "' 2>/dev/null | cat").empty());
}
