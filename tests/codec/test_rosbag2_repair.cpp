// `logscope repair` of rosbag2 bags (codec/rosbag2/repair.h) on intact bags: every shared sample
// and writer-made bags (one with rows only in its -wal) come back with the same rows (rowid,
// topic, time, SHA1 of the bytes), read by us and by Python's sqlite3 from the repaired folder,
// with a metadata.yaml whose counts match, and the CLI's repair says what it kept per topic.
#include <sqlite3.h>

#include <filesystem>

#include "core/format_table.h"
#include "core/output_sink.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/repair.h"
#include "rosbag2/writer.h"
#include "test_rosbag2_support.h"
#include "test_paths.h"

using namespace logscope;
using namespace rosbag2_test;

namespace {

// Repairs `path` into a fresh folder and compares the rows file by file.
std::string repair_and_compare(const std::string& path, const std::string& name) {
  std::string out = test_support::scratch_dir("rosbag2_repair") + "/" + name;
  std::filesystem::remove_all(out);
  OpenBag original = open_bag_path(path);
  ExtractResult result = rosbag2::repair_bag(*original.folder, out, nullptr);
  REQUIRE_MESSAGE(result.ok, result.error);
  OpenBag repaired = open_bag_path(out);
  auto before = our_messages(*original.bag), after = our_messages(*repaired.bag);
  CHECK(before == after);
  // Topics (with QoS and type hash), definitions and the schema version are kept as they were.
  for (const auto& f : original.bag->files) {
    if (!f.tables_read) continue;
    const rosbag2::BagFile* r = nullptr;
    for (const auto& g : repaired.bag->files)
      if (g.name == f.name) r = &g;
    REQUIRE(r);
    CHECK(r->tables.schema_version == f.tables.schema_version);
    REQUIRE(r->tables.topics.size() == f.tables.topics.size());
    for (size_t i = 0; i < f.tables.topics.size(); ++i) {
      CHECK(r->tables.topics[i].name == f.tables.topics[i].name);
      CHECK(r->tables.topics[i].offered_qos_profiles == f.tables.topics[i].offered_qos_profiles);
      CHECK(r->tables.topics[i].type_description_hash == f.tables.topics[i].type_description_hash);
    }
    REQUIRE(r->tables.definitions.size() == f.tables.definitions.size());
    for (size_t i = 0; i < f.tables.definitions.size(); ++i)
      CHECK(r->tables.definitions[i].encoded_message_definition == f.tables.definitions[i].encoded_message_definition);
  }
  Report report = repaired.inspector->check(nullptr);
  for (const Problem& p : report.problems)
    CHECK_MESSAGE((p.severity == Severity::Info || p.code == "rosbag2.definitions.missing"), p.code << ": " << p.message);
  REQUIRE(repaired.bag->metadata);
  CHECK(repaired.bag->metadata->message_count.value() == rosbag2::bag_totals(*original.bag).messages);
  CHECK(repaired.bag->metadata->relative_file_paths.size() == after.size());
  return out;
}

}  // namespace

TEST_CASE("rosbag2 repair: every shared sample comes back with the same rows, as Python's sqlite3 reads them") {
  if (!test_support::have_samples() || !have_python_reference()) return;
  std::string root = test_support::sample("rosbag2");
  if (!std::filesystem::is_directory(root)) {
    test_support::skip(root + " is absent");
    return;
  }
  size_t repaired = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    std::string name = entry.path().filename().string();
    INFO(name);
    OpenBag original = open_bag_path(entry.path().string());
    bool readable = false;
    for (const auto& f : original.bag->files) readable |= f.tables_read;
    if (!readable) {
      // A whole-file zstd bag: nothing to recover from until it is decompressed, and repair says so.
      std::string out = test_support::scratch_dir("rosbag2_repair") + "/" + name;
      std::filesystem::remove_all(out);
      ExtractResult result = rosbag2::repair_bag(*original.folder, out, nullptr);
      CHECK(!result.ok);
      CHECK(!result.dropped.empty());
      continue;
    }
    std::string out = repair_and_compare(entry.path().string(), name);
    check_agreement(out);
    ++repaired;
  }
  CHECK(repaired >= 6);
}

TEST_CASE("rosbag2 repair: a writer-made bag, and one whose last rows are only in its -wal") {
  if (!have_python_reference()) return;
  std::string dir = test_support::scratch_dir("rosbag2_repair");
  std::filesystem::remove_all(dir + "/made");
  std::string error;
  REQUIRE_MESSAGE(rosbag2::write_demo_bag(dir + "/made", 400 * 1024, &error), error);
  check_agreement(repair_and_compare(dir + "/made", "made_repaired"));

  std::filesystem::remove_all(dir + "/wal");
  std::filesystem::create_directories(dir + "/wal/copy");
  std::string db_path = dir + "/wal/wal_0.db3";
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(db_path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;", nullptr, nullptr, nullptr) == SQLITE_OK);
  REQUIRE(rosbag2::create_tables(db, rosbag2::demo_topics(), &error));
  std::vector<rosbag2::WriterMessage> first, last;
  for (uint64_t i = 0; i < 30; ++i) first.push_back(rosbag2::demo_message(i, 1700000000000000000));
  for (uint64_t i = 30; i < 42; ++i) last.push_back(rosbag2::demo_message(i, 1700000000000000000));
  REQUIRE(rosbag2::insert_messages(db, first, &error));
  REQUIRE(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE);", nullptr, nullptr, nullptr) == SQLITE_OK);
  REQUIRE(rosbag2::insert_messages(db, last, &error));
  // Copied while the writer still has it open: closing would checkpoint the WAL.
  std::filesystem::copy_file(db_path, dir + "/wal/copy/wal_0.db3");
  std::filesystem::copy_file(db_path + "-wal", dir + "/wal/copy/wal_0.db3-wal");
  sqlite3_close(db);
  std::string out = repair_and_compare(dir + "/wal/copy/wal_0.db3", "wal_repaired");
  CHECK(rosbag2::bag_totals(*open_bag_path(out).bag).messages == 42);
  CHECK(!std::filesystem::exists(out + "/wal_0.db3-wal"));
  check_agreement(out);
}

TEST_CASE("rosbag2 repair CLI: a cut bag folder is repaired into a new folder, rows per topic listed, then checked") {
  std::string dir = test_support::scratch_dir("rosbag2_repair_cli");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string error;
  REQUIRE_MESSAGE(rosbag2::write_demo_bag(dir + "/made", 300 * 1024, &error), error);
  std::filesystem::create_directories(dir + "/cut");
  std::vector<uint8_t> bytes = test_support::read_file(dir + "/made/made_0.db3");
  bytes.resize(bytes.size() / 2 / 4096 * 4096);
  test_support::write_file(dir + "/cut/made_0.db3", bytes);
  std::filesystem::copy_file(dir + "/made/metadata.yaml", dir + "/cut/metadata.yaml");
  std::string command = std::string(LOGSCOPE_CLI) + " repair '" + dir + "/cut' '" + dir + "/out' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
  int status = ::pclose(pipe);
  INFO(text);
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(text.find("kept: made_0.db3: /imu (topic_id 1): ") != std::string::npos);
  CHECK(text.find("verdict: the written file is valid") != std::string::npos);
  // Python's sqlite3 (Debian's libsqlite3, another build of SQLite) finds the repaired database
  // sound and reads the same rows as we do.
  if (have_python_reference()) {
    std::string py = "/usr/bin/python3 -c \"import sqlite3,sys; print(sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)"
                     ".execute('PRAGMA integrity_check').fetchall())\" '" + dir + "/out/made_0.db3'";
    FILE* p = ::popen(py.c_str(), "r");
    std::string said;
    while ((n = std::fread(buffer, 1, sizeof buffer, p)) > 0) said.append(buffer, n);
    ::pclose(p);
    CHECK(said == "[('ok',)]\n");
    check_agreement(dir + "/out");
  }
  // Never over an existing folder.
  FILE* again = ::popen(command.c_str(), "r");
  while (std::fread(buffer, 1, sizeof buffer, again) > 0) {
  }
  CHECK(WEXITSTATUS(::pclose(again)) == 2);
}

TEST_CASE("rosbag2 repair of one database through memory (the format table's repair): a cut database") {
  std::vector<uint8_t> db = rosbag2::small_demo_database();
  REQUIRE(db.size() > 3 * 4096);
  std::vector<uint8_t> cut(db.begin(), db.end() - 4096);
  MemoryByteSource source(cut);
  const FormatEntry* entry = find_format("rosbag2");
  REQUIRE(entry);
  REQUIRE(entry->repair);
  CHECK(entry->supports(Operation::Repair));
  MemoryOutputSink out;
  ExtractResult result = entry->repair(source, detect(source), ExtractSelection(), out, nullptr);
  REQUIRE_MESSAGE(result.ok, result.error);
  CHECK(result.bytes_written == out.bytes.size());
  MemoryByteSource back(reinterpret_cast<const uint8_t*>(out.bytes.data()), out.bytes.size());
  std::string error;
  auto reader = rosbag2::SqliteReader::open(back, nullptr, &error);
  REQUIRE_MESSAGE(reader, error);
  CHECK(rosbag2::integrity_check(*reader, 5, &error) == std::vector<std::string>{"ok"});
  // The rows that came back are the intact database's, byte for byte.
  MemoryByteSource intact_source(db);
  auto intact = rosbag2::SqliteReader::open(intact_source, nullptr, &error);
  REQUIRE(intact);
  std::map<int64_t, std::string> rows;
  rosbag2::for_each_message(*intact, [&](const rosbag2::StoredMessage& m) {
    rows[m.row_id] = std::to_string(m.topic_id) + "/" + std::to_string(m.timestamp_ns) + "/" +
                     std::string(reinterpret_cast<const char*>(m.data), m.size);
    return true;
  }, &error);
  size_t back_rows = 0;
  CHECK(rosbag2::for_each_message(*reader, [&](const rosbag2::StoredMessage& m) {
    CHECK(rows.at(m.row_id) == std::to_string(m.topic_id) + "/" + std::to_string(m.timestamp_ns) + "/" +
                                   std::string(reinterpret_cast<const char*>(m.data), m.size));
    ++back_rows;
    return true;
  }, &error));
  CHECK(back_rows > 0);
  CHECK(back_rows <= rows.size());
}
