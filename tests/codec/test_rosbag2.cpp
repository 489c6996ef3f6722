// rosbag2 bags (codec/rosbag2) against Python's standard sqlite3 module
// (tests/reference/rosbag2_reference.py, on a copy of each bag with its -wal): the real bags of
// ../shared/samples/rosbag2 and bags made by our writer, including rows that exist only in a
// -wal. The samples stay byte-identical (their sha256 in SOURCES.md).
#include <cryptopp/hex.h>
#include <cryptopp/sha.h>
#include <sqlite3.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <tuple>

#include "rosbag2/inspector_impl.h"
#include "rosbag2/recover.h"
#include "rosbag2/writer.h"
#include "test_rosbag2_support.h"

using namespace logscope;
using namespace rosbag2_test;

namespace {

const char* kSampleBags[] = {
    "IrinaTerebiznik__ros_inorbit_samples_MIO__hardcodedRosbag", "foxglove__mcap__chatter",
    "ros2__rosbag2__bag_with_topics_and_service_events", "ros2__rosbag2__compressed_bag", "ros2__rosbag2__empty_bag",
    "ros2__rosbag2__message_compression", "ros2__rosbag2__test_2018", "ros2__rosbag2__wbag",
};

bool have_rosbag2_samples() {
  if (!test_support::have_samples()) return false;
  if (!std::filesystem::is_directory(test_support::sample("rosbag2"))) {
    test_support::skip(test_support::sample("rosbag2") + " is absent");
    return false;
  }
  return true;
}

std::string sha256_of_file(const std::string& path) {
  std::vector<uint8_t> bytes = test_support::read_file(path);
  CryptoPP::SHA256 hash;
  std::string digest, hex;
  hash.Update(bytes.data(), bytes.size());
  digest.resize(hash.DigestSize());
  hash.Final(reinterpret_cast<CryptoPP::byte*>(&digest[0]));
  CryptoPP::StringSource(digest, true, new CryptoPP::HexEncoder(new CryptoPP::StringSink(hex), false));
  return hex;
}

void exec(sqlite3* db, const char* sql) {
  char* message = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  REQUIRE_MESSAGE(rc == SQLITE_OK, (message ? message : "") << " in " << sql);
}

}  // namespace

TEST_CASE("rosbag2 samples: topics, counts, spans and every message's SHA1 agree with Python's sqlite3") {
  if (!have_rosbag2_samples() || !have_python_reference()) return;
  for (const char* bag : kSampleBags) check_agreement(test_support::sample(std::string("rosbag2/") + bag));
  // A database given alone, with its -wal: the 2018 test.bag (its rows live in the WAL).
  check_agreement(test_support::sample("rosbag2/ros2__rosbag2__test_2018/test.bag"));
  check_agreement(test_support::sample("rosbag2/ros2__rosbag2__wbag/wbag_2.db3"));
}

TEST_CASE("rosbag2 samples: what each bag is") {
  if (!have_rosbag2_samples()) return;
  auto wbag = open_bag_path(test_support::sample("rosbag2/ros2__rosbag2__wbag"));
  REQUIRE(wbag.bag->files.size() == 5);
  for (size_t i = 0; i < 5; ++i) CHECK(wbag.bag->files[i].name == "wbag_" + std::to_string(i) + ".db3");
  CHECK(rosbag2::bag_totals(*wbag.bag).messages == 6074);

  auto zstd = open_bag_path(test_support::sample("rosbag2/ros2__rosbag2__compressed_bag"));
  CHECK(test_support::has_code(zstd.bag->problems, "rosbag2.file.zstd_compressed"));
  rosbag2::BagTotals totals = rosbag2::bag_totals(*zstd.bag);
  CHECK(totals.from_yaml);
  CHECK(totals.topics.size() == 2);

  auto compressed = open_bag_path(test_support::sample("rosbag2/ros2__rosbag2__message_compression"));
  CHECK(test_support::has_code(compressed.bag->problems, "rosbag2.yaml.missing"));
  uint64_t decompressed = 0;
  std::string error;
  rosbag2::for_each_bag_message(*compressed.bag, [&](const rosbag2::BagMessage& m) {
    decompressed += m.decompressed;
    CHECK(m.decode_error.empty());
    return true;
  }, &error);
  CHECK(decompressed == 1127);

  auto old = open_bag_path(test_support::sample("rosbag2/ros2__rosbag2__test_2018"));
  CHECK(test_support::has_code(old.bag->problems, "rosbag2.wal.applied"));
  CHECK(rosbag2::bag_totals(*old.bag).messages == 7);

  auto v4 = open_bag_path(test_support::sample("rosbag2/ros2__rosbag2__bag_with_topics_and_service_events"));
  REQUIRE(v4.bag->files.size() == 1);
  CHECK(v4.bag->files[0].tables.schema_version == 4);
  CHECK(!v4.bag->files[0].tables.definitions.empty());
  CHECK(v4.bag->metadata->version == 8);
  Report check = v4.inspector->check(nullptr);
  CHECK(check.count(Severity::Error) == 0);
  CHECK(check.count(Severity::Warning) == 0);

  // wbag's yaml says its span starts at 2623 ns; the databases start at 1000 ns.
  Report wcheck = wbag.inspector->check(nullptr);
  CHECK(test_support::has_code(wcheck.problems, "rosbag2.messages.outside_span"));
  CHECK(wcheck.count(Severity::Error) == 0);
}

TEST_CASE("rosbag2 writer: a demo bag agrees with Python's sqlite3 and checks clean") {
  if (!have_python_reference()) return;
  std::string dir = test_support::scratch_dir("rosbag2_writer") + "/demo";
  std::filesystem::remove_all(dir);
  std::string error;
  REQUIRE_MESSAGE(rosbag2::write_demo_bag(dir, 2 * 1024 * 1024, &error), error);
  check_agreement(dir);
  auto open = open_bag_path(dir);
  Report report = open.inspector->check(nullptr);
  for (const Problem& p : report.problems) INFO(p.code << ": " << p.message);
  CHECK(report.problems.empty());
  CHECK(open.bag->files[0].tables.schema_version == 4);
  CHECK(open.bag->files[0].tables.definitions.size() == 3);
  CHECK(rosbag2::bag_totals(*open.bag).messages == open.bag->metadata->message_count.value());
}

TEST_CASE("rosbag2: rows that exist only in the -wal are read, and a missing -wal is named") {
  if (!have_python_reference()) return;
  std::string dir = test_support::scratch_dir("rosbag2_wal");
  std::filesystem::remove_all(dir + "/writing");
  std::filesystem::remove_all(dir + "/copy");
  std::filesystem::create_directories(dir + "/writing");
  std::filesystem::create_directories(dir + "/copy");
  std::string db_path = dir + "/writing/wal_0.db3";
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(db_path.c_str(), &db) == SQLITE_OK);
  exec(db, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;");
  std::string error;
  auto topics = rosbag2::demo_topics();
  REQUIRE(rosbag2::create_tables(db, topics, &error));
  std::vector<rosbag2::WriterMessage> first, last;
  for (uint64_t i = 0; i < 40; ++i) first.push_back(rosbag2::demo_message(i, 1700000000000000000));
  for (uint64_t i = 40; i < 55; ++i) last.push_back(rosbag2::demo_message(i, 1700000000000000000));
  REQUIRE(rosbag2::insert_messages(db, first, &error));
  exec(db, "PRAGMA wal_checkpoint(TRUNCATE);");
  REQUIRE(rosbag2::insert_messages(db, last, &error));
  // Copied while the writer still has it open: closing would checkpoint the WAL into the file.
  std::filesystem::copy_file(db_path, dir + "/copy/wal_0.db3");
  std::filesystem::copy_file(db_path + "-wal", dir + "/copy/wal_0.db3-wal");
  sqlite3_close(db);
  REQUIRE(std::filesystem::file_size(dir + "/copy/wal_0.db3-wal") > 0);

  auto with_wal = open_bag_path(dir + "/copy/wal_0.db3");
  CHECK(rosbag2::bag_totals(*with_wal.bag).messages == 55);
  CHECK(test_support::has_code(with_wal.bag->problems, "rosbag2.wal.applied"));
  CHECK(with_wal.inspector->check(nullptr).count(Severity::Error) == 0);
  check_agreement(dir + "/copy/wal_0.db3");
  // Read-only: the copy and its WAL are untouched.
  std::string before = sha256_of_file(dir + "/copy/wal_0.db3-wal");

  // Without its -wal: the checkpointed rows only, and the warning.
  std::filesystem::create_directories(dir + "/alone");
  std::filesystem::remove(dir + "/alone/wal_0.db3");
  std::filesystem::copy_file(dir + "/copy/wal_0.db3", dir + "/alone/wal_0.db3");
  auto alone = open_bag_path(dir + "/alone/wal_0.db3");
  CHECK(rosbag2::bag_totals(*alone.bag).messages == 40);
  CHECK(test_support::has_code(alone.bag->problems, "rosbag2.wal.missing"));
  with_wal = OpenBag();
  CHECK(sha256_of_file(dir + "/copy/wal_0.db3-wal") == before);
  CHECK(std::filesystem::exists(dir + "/copy/wal_0.db3-wal"));
  CHECK(!std::filesystem::exists(dir + "/copy/wal_0.db3-shm"));
}

TEST_CASE("rosbag2: a lone database opened by the format table (no folder) reads the same rows") {
  std::vector<uint8_t> demo = rosbag2::small_demo_database();
  REQUIRE(demo.size() > 100);
  MemoryByteSource source(demo);
  Detection detection = detect(source);
  CHECK(detection.family == "rosbag2");
  auto inspector = open_inspector(source, detection);
  REQUIRE(inspector);
  Report summary = inspector->summary();
  CHECK(summary.file.count("messages")->value == 30);
  CHECK(summary.file.count("topics")->value == 3);
  CHECK(test_support::has_code(summary.problems, "rosbag2.yaml.missing"));
  CHECK(inspector->check(nullptr).count(Severity::Error) == 0);
}

TEST_CASE("rosbag2 samples are unchanged: every file's sha256 is the one SOURCES.md records") {
  if (!have_rosbag2_samples()) return;
  std::string sources = test_support::read_text(test_support::sample("rosbag2/SOURCES.md"));
  // "- file ...: `rosbag2/<path>` — ...; sha256 `<hex>`"
  std::regex entry("`rosbag2/([^`]+)`[^\\n]*?sha256 `([0-9a-f]{64})`");
  size_t checked = 0;
  for (auto it = std::sregex_iterator(sources.begin(), sources.end(), entry); it != std::sregex_iterator(); ++it) {
    std::string path = test_support::sample("rosbag2/" + (*it)[1].str());
    INFO(path);
    CHECK(sha256_of_file(path) == (*it)[2].str());
    ++checked;
  }
  CHECK(checked >= 25);
}

TEST_CASE("rosbag2 metadata.yaml: read through yaml-cpp, and problems naming the line") {
  rosbag2::BagMetadata m;
  std::vector<std::string> problems;
  const char* v9 =
      "rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: sqlite3\n  relative_file_paths:\n  - bag/x_0.db3\n"
      "  - x_1.db3\n  message_count: 12\n  topics_with_message_count:\n    - topic_metadata:\n        name: '/a''b'\n"
      "        type: \"pkg/msg/T\\u00e9\"\n        offered_qos_profiles:\n          - history: keep_last\n            depth: 10\n"
      "      message_count: 3\n  compression_format: zstd\n  compression_mode: MESSAGE\n  custom_data: ~\n";
  REQUIRE(rosbag2::parse_metadata(v9, &m, &problems));
  CHECK(m.version == 9);
  CHECK(m.relative_file_paths == std::vector<std::string>{"bag/x_0.db3", "x_1.db3"});
  CHECK(m.relative_file_path_lines == std::vector<uint64_t>{5, 6});
  CHECK(m.message_count == 12u);
  CHECK(m.message_count_line == 7);
  REQUIRE(m.topics.size() == 1);
  CHECK(m.topics[0].name == "/a'b");
  CHECK(m.topics[0].type == "pkg/msg/T\xc3\xa9");
  CHECK(m.topics[0].message_count == 3);
  CHECK(m.topics[0].line == 15);
  CHECK(m.topics[0].offered_qos_profiles.find("history: keep_last") != std::string::npos);
  CHECK(m.compression_mode == "MESSAGE");
  // What rosbag2 requires and this yaml lacks, each by the line of the mapping it is missing from.
  CHECK(!m.complete);
  REQUIRE(!problems.empty());
  CHECK(problems[0] == "line 2: rosbag2_bagfile_information has no duration");

  // An anchor and its alias are YAML (yaml-cpp reads them).
  REQUIRE(rosbag2::parse_metadata("rosbag2_bagfile_information:\n  version: &a 4\n  message_count: *a\n", &m, &problems));
  CHECK(m.version == 4);
  CHECK(m.message_count == 4u);
  REQUIRE(rosbag2::parse_metadata("rosbag2_bagfile_information:\n  version: nine\n", &m, &problems));
  CHECK(problems[0] == "line 2: version: expected a whole number of 0 or more, got \"nine\"");
  CHECK(!rosbag2::parse_metadata("other: 1\n", &m, &problems));
  CHECK(problems[0] == "line 1: no rosbag2_bagfile_information mapping");
  // A QoS list that holds itself (an anchor and its alias): written back as text, finite.
  REQUIRE(rosbag2::parse_metadata("rosbag2_bagfile_information:\n  topics_with_message_count:\n    - topic_metadata:\n"
                                  "        offered_qos_profiles: &q [*q, 1]\n", &m, &problems));
  REQUIRE(m.topics.size() == 1);
  CHECK(m.topics[0].offered_qos_profiles.find('*') != std::string::npos);  // yaml-cpp names its own anchors
  // A flow sequence never closed (a cut file): the lines before it are read, and the break named.
  REQUIRE(rosbag2::parse_metadata("rosbag2_bagfile_information:\n  version: 5\n  x: [open\n", &m, &problems));
  CHECK(m.version == 5);
  REQUIRE(!problems.empty());
  CHECK(problems[0].rfind("line ", 0) == 0);
  CHECK(problems[0].find("not YAML: end of sequence flow not found") != std::string::npos);
  CHECK(problems[0].find("(read up to line 2)") != std::string::npos);
  CHECK(rosbag2::split_index("wbag_12.db3") == 12u);
  CHECK(rosbag2::split_index("a_b.db3") == std::nullopt);
}

TEST_CASE("rosbag2 CLI: make-demo-rosbag2 writes a folder that info and check read as one bag") {
  std::string dir = test_support::scratch_dir("rosbag2_cli") + "/cli_demo";
  std::filesystem::remove_all(dir);
  int status = -1;
  test_support::run_cli("make-demo-rosbag2 '" + dir + "' --size-mb 1", &status);
  REQUIRE(status == 0);
  CHECK(std::filesystem::exists(dir + "/cli_demo_0.db3"));
  CHECK(std::filesystem::exists(dir + "/metadata.yaml"));
  std::string info = test_support::run_cli("info '" + dir + "'", &status);
  CHECK(status == 0);
  CHECK(info.find("Files:             cli_demo_0.db3") != std::string::npos);
  CHECK(info.find("Topic: /camera/compressed | Type: sensor_msgs/msg/CompressedImage") != std::string::npos);
  test_support::run_cli("check '" + dir + "'", &status);
  CHECK(status == 0);
  // A split file the yaml names is gone: the check says which.
  std::filesystem::rename(dir + "/cli_demo_0.db3", dir + "/renamed_3.db3");
  std::string check = test_support::run_cli("check '" + dir + "'", &status);
  CHECK(status == 1);
  CHECK(check.find("rosbag2.file.missing") != std::string::npos);
  CHECK(check.find("rosbag2.file.extra") != std::string::npos);
}

TEST_CASE("rosbag2: a writer-made bag with per-message zstd agrees with Python's sqlite3 (decoded SHA1s)") {
  if (!have_python_reference()) return;
  std::string dir = test_support::scratch_dir("rosbag2_zstd") + "/zbag";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir + "/zbag_0.db3").c_str(), &db) == SQLITE_OK);
  std::string error;
  auto topics = rosbag2::demo_topics();
  REQUIRE(rosbag2::create_tables(db, topics, &error));
  std::vector<rosbag2::WriterMessage> messages;
  rosbag2::YamlFacts facts;
  facts.file = "zbag_0.db3";
  facts.counts.assign(topics.size(), 0);
  for (uint64_t i = 0; i < 60; ++i) {
    rosbag2::WriterMessage m = rosbag2::demo_message(i, 1700000000000000000);
    std::vector<uint8_t> packed(ZSTD_compressBound(m.data.size()));
    size_t n = ZSTD_compress(packed.data(), packed.size(), m.data.data(), m.data.size(), 3);
    REQUIRE(!ZSTD_isError(n));
    packed.resize(n);
    m.data = packed;
    facts.counts[m.topic]++;
    if (i == 0) facts.start_ns = m.timestamp_ns;
    facts.end_ns = m.timestamp_ns;
    messages.push_back(std::move(m));
  }
  REQUIRE(rosbag2::insert_messages(db, messages, &error));
  sqlite3_close(db);
  std::string yaml = rosbag2::metadata_yaml(topics, facts);
  yaml = std::regex_replace(yaml, std::regex("compression_format: \"\""), "compression_format: zstd");
  yaml = std::regex_replace(yaml, std::regex("compression_mode: \"\""), "compression_mode: MESSAGE");
  std::ofstream(dir + "/metadata.yaml") << yaml;
  check_agreement(dir);
  auto open = open_bag_path(dir);
  CHECK(open.bag->message_compression);
  Report report = open.inspector->check(nullptr);
  CHECK(report.count(Severity::Error) == 0);
  CHECK(report.count(Severity::Warning) == 0);
}

TEST_CASE("rosbag2: a database cut at page boundaries or with damaged pages is checked without a crash") {
  std::vector<uint8_t> demo = rosbag2::small_demo_database();
  const size_t page = 4096;
  REQUIRE(demo.size() % page == 0);
  size_t pages = demo.size() / page;
  // The intact rows, by rowid.
  std::map<int64_t, std::tuple<int64_t, int64_t, std::string>> original;
  {
    MemoryByteSource source(demo);
    std::string error;
    auto reader = rosbag2::SqliteReader::open(source, nullptr, &error);
    REQUIRE(reader);
    rosbag2::for_each_message(*reader, [&](const rosbag2::StoredMessage& m) {
      original[m.row_id] = {m.topic_id, m.timestamp_ns, std::string(reinterpret_cast<const char*>(m.data), m.size)};
      return true;
    }, &error);
    REQUIRE(original.size() == 30);
  }
  size_t salvaged_somewhere = 0;
  for (size_t cut = 1; cut < pages; ++cut) {
    INFO("cut after page " << cut);
    std::vector<uint8_t> bytes(demo.begin(), demo.begin() + static_cast<std::ptrdiff_t>(cut * page));
    MemoryByteSource source(bytes);
    auto inspector = rosbag2::open_inspector(source);
    Report report = inspector->check(nullptr);
    // A cut database is damaged: SQLite's integrity check, the table reader or the rows say so.
    CHECK(report.count(Severity::Error) > 0);
    inspector->info_text({});
    // What the recovery extension brings back is byte-equal to the intact rows.
    std::string error;
    auto reader = rosbag2::SqliteReader::open(source, nullptr, &error);
    if (!reader) continue;
    rosbag2::Recovered recovered = rosbag2::recover_database(*reader);
    if (!recovered.ok) continue;
    MemoryByteSource back(recovered.database);
    auto salvaged = rosbag2::SqliteReader::open(back, nullptr, &error);
    REQUIRE_MESSAGE(salvaged, error);
    CHECK(rosbag2::integrity_check(*salvaged, 5, &error) == std::vector<std::string>{"ok"});
    rosbag2::for_each_message(*salvaged, [&](const rosbag2::StoredMessage& m) {
      auto it = original.find(m.row_id);
      REQUIRE(it != original.end());
      CHECK(std::get<0>(it->second) == m.topic_id);
      CHECK(std::get<1>(it->second) == m.timestamp_ns);
      CHECK(std::get<2>(it->second) == std::string(reinterpret_cast<const char*>(m.data), m.size));
      ++salvaged_somewhere;
      return true;
    }, &error);
  }
  CHECK(salvaged_somewhere > 0);
  uint32_t x = 12345;
  for (int round = 0; round < 40; ++round) {
    std::vector<uint8_t> bytes = demo;
    x = x * 1103515245u + 12345u;
    size_t at_page = 1 + (x >> 8) % (pages - 1);  // page 1 (the header) stays: SQLite would refuse the file
    for (int k = 0; k < 16; ++k) {
      x = x * 1103515245u + 12345u;
      bytes[at_page * page + (x >> 4) % page] ^= static_cast<uint8_t>(1 + (x >> 24) % 255);
    }
    MemoryByteSource source(bytes);
    auto inspector = rosbag2::open_inspector(source);
    Report report = inspector->check(nullptr);
    inspector->query("messages", Json::object(), nullptr);
    // No rows are invented: damage SQLite cannot see (inside a message's bytes, in free space) keeps
    // the 30 rows; damage it sees is an error.
    const Count* messages = report.file.count("messages");
    REQUIRE(messages);
    CHECK((messages->value <= 30 || report.count(Severity::Error) > 0));
  }
}
