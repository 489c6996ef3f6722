// Damage to a rosbag2 database made by our writer (a few hundred KB: table interior and leaf
// pages, overflow pages, index pages): cut at every page boundary, and random pages damaged
// (seeded). For each, `check` names the damage without crashing, `repair` writes a bag folder
// whose database passes SQLite's integrity check and our check, and every message stored on
// pages the damage left alone (its leaf cell and overflow chain, found by walking the intact
// original's b-tree natively, below) comes back byte-equal.
//
// Every boundary is cut in every run. Random damage runs 24 seeded rounds; LOGSCOPE_DAMAGE_ROUNDS=N
// runs N (and LOGSCOPE_DAMAGE_SEED=S another seed; LOGSCOPE_DAMAGE_ROUND=K only round K, whose
// input and output then stay in the build's test-scratch/rosbag2_damage/random).
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "core/folder.h"
#include "rosbag2/database.h"
#include "rosbag2/inspector.h"
#include "rosbag2/repair.h"
#include "rosbag2/writer.h"
#include "test_support.h"

using namespace logscope;

namespace {

using Row = std::tuple<int64_t, int64_t, std::string>;  // topic_id, timestamp, data

uint32_t be16(const uint8_t* p) { return uint32_t(p[0]) << 8 | p[1]; }
uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }

uint64_t varint(const uint8_t*& p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) {
    v = (v << 7) | (*p & 0x7f);
    if (!(*p++ & 0x80)) return v;
  }
  return (v << 8) | *p++;
}

// The intact database's table b-tree, walked natively (SQLite's file format, "B-tree Pages"):
// for every row, the pages its bytes are on (the leaf with its cell, then the overflow chain).
struct BtreeWalk {
  const std::vector<uint8_t>& db;
  uint32_t page_size, usable;
  std::map<int64_t, std::vector<uint32_t>> row_pages;
  std::map<uint8_t, size_t> kinds;  // page type -> pages (2, 5, 10, 13; 0 for overflow)

  const uint8_t* page(uint32_t n) const { return &db[size_t(n - 1) * page_size]; }

  void walk(uint32_t n) {
    REQUIRE(n >= 1);
    REQUIRE(size_t(n) * page_size <= db.size());
    const uint8_t* p = page(n);
    size_t h = n == 1 ? 100 : 0;
    uint8_t type = p[h];
    ++kinds[type];
    uint32_t cells = be16(p + h + 3);
    if (type == 5) {
      for (uint32_t i = 0; i < cells; ++i) walk(be32(p + be16(p + h + 12 + 2 * i)));
      walk(be32(p + h + 8));
      return;
    }
    REQUIRE(type == 13);
    for (uint32_t i = 0; i < cells; ++i) {
      const uint8_t* c = p + be16(p + h + 8 + 2 * i);
      uint64_t payload = varint(c);
      int64_t rowid = static_cast<int64_t>(varint(c));
      std::vector<uint32_t>& pages = row_pages[rowid];
      pages.push_back(n);
      uint64_t x = usable - 35;
      if (payload <= x) continue;
      uint64_t m = (uint64_t(usable - 12) * 32 / 255) - 23, k = m + (payload - m) % (usable - 4);
      uint64_t local = k <= x ? k : m;
      uint32_t next = be32(c + local);
      for (uint64_t left = payload - local; next && left; left -= std::min<uint64_t>(left, usable - 4)) {
        pages.push_back(next);
        ++kinds[0];
        next = be32(page(next));
      }
    }
  }
};

std::map<int64_t, Row> rows_of(sqlite3* db, const std::string& table) {
  std::map<int64_t, Row> rows;
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, ("SELECT id, topic_id, timestamp, data FROM " + table).c_str(), -1, &s, nullptr) != SQLITE_OK) return rows;
  while (sqlite3_step(s) == SQLITE_ROW)
    rows[sqlite3_column_int64(s, 0)] = {sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2),
                                        std::string(static_cast<const char*>(sqlite3_column_blob(s, 3)) ? static_cast<const char*>(sqlite3_column_blob(s, 3)) : "",
                                                    static_cast<size_t>(sqlite3_column_bytes(s, 3)))};
  sqlite3_finalize(s);
  return rows;
}

struct Original {
  std::string file, yaml;
  std::vector<uint8_t> bytes;
  uint32_t page_size = 0;
  size_t pages = 0;
  std::map<int64_t, Row> rows;
  std::map<int64_t, std::vector<uint32_t>> row_pages;
  std::map<uint8_t, size_t> kinds;
};

const Original& original() {
  static Original o = [] {
    Original o;
    // Per process: ctest runs the cases of this file in parallel.
    std::string parent = test_support::scratch_dir("rosbag2_damage/" + std::to_string(::getpid())), dir = parent + "/orig";
    std::filesystem::remove_all(dir);
    std::string error;
    REQUIRE_MESSAGE(rosbag2::write_demo_bag(dir, 300 * 1024, &error), error);
    o.file = "orig_0.db3";
    o.bytes = test_support::read_file(dir + "/" + o.file);
    o.yaml = test_support::read_text(dir + "/metadata.yaml");
    o.page_size = be16(&o.bytes[16]);
    o.pages = o.bytes.size() / o.page_size;
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2((dir + "/" + o.file).c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    o.rows = rows_of(db, "messages");
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_schema WHERE name = 'messages'", -1, &s, nullptr);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    uint32_t root = static_cast<uint32_t>(sqlite3_column_int64(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
    std::filesystem::remove_all(parent);
    REQUIRE(o.bytes.size() > 100);
    BtreeWalk walk{o.bytes, o.page_size, o.page_size - o.bytes[20], {}, {}};
    walk.walk(root);
    o.row_pages = walk.row_pages;
    o.kinds = walk.kinds;
    return o;
  }();
  return o;
}

struct Outcome {
  size_t compared = 0;    // rows on undamaged pages, found byte-equal
  bool truncated = false;  // rosbag2.db.truncated named the page the file ends at
  bool table_page = false;  // an integrity finding named the table and page
};

// check and repair of `bytes` (the original with the pages in `damaged` cut or damaged).
// `tag` names the case's scratch folder (the cases run in parallel under ctest).
Outcome check_and_repair(const std::vector<uint8_t>& bytes, const std::set<uint32_t>& damaged, const std::string& what,
                         const std::string& tag) {
  const Original& o = original();
  INFO(what);
  MemoryFolder folder("orig");
  folder.add(o.file, bytes);
  folder.add("metadata.yaml", std::vector<uint8_t>(o.yaml.begin(), o.yaml.end()));
  auto inspector = rosbag2::open_folder_inspector(folder);
  Report report = inspector->check(nullptr);
  inspector->info_text({});
  bool named = false;
  for (const Problem& p : report.problems)
    named |= p.severity == Severity::Error && p.code.rfind("rosbag2.", 0) == 0 && p.message.find(o.file) != std::string::npos;
  Outcome outcome;
  for (const Problem& p : report.problems) {
    outcome.truncated |= p.code == "rosbag2.db.truncated" && p.message.find(" page ") != std::string::npos;
    outcome.table_page |= p.code == "rosbag2.db.integrity" && p.message.find(o.file + ": table ") == 0 &&
                          p.message.find(", page ") != std::string::npos;
  }
  if (!named) {
    // Damage SQLite cannot see (inside a message's bytes, in free space): every row is still
    // there with its topic and time.
    MemoryByteSource source(bytes);
    std::string error;
    auto reader = rosbag2::SqliteReader::open(source, nullptr, &error);
    REQUIRE_MESSAGE(reader, error);
    size_t n = 0;
    bool ok = rosbag2::for_each_message(*reader, [&](const rosbag2::StoredMessage& m) {
      auto it = o.rows.find(m.row_id);
      CHECK((it != o.rows.end() && std::get<0>(it->second) == m.topic_id && std::get<1>(it->second) == m.timestamp_ns));
      ++n;
      return true;
    }, &error);
    CHECK(ok);
    CHECK(n == o.rows.size());
  }

  // The damaged input beside the repaired folder, to look at when a case fails.
  static std::map<std::string, std::string> scratch;  // once per tag: scratch_dir runs mkdir
  if (!scratch.count(tag)) scratch[tag] = test_support::scratch_dir("rosbag2_damage/" + tag);
  test_support::write_file(scratch[tag] + "/damaged.db3", bytes);
  std::string out = scratch[tag] + "/repaired";
  std::filesystem::remove_all(out);
  ExtractResult result = rosbag2::repair_bag(folder, out, nullptr);
  if (!result.ok) {
    // Only when SQLite cannot open the database at all (its first page damaged).
    CHECK(damaged.count(1));
    return outcome;
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2((out + "/" + o.file).c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  std::vector<std::string> findings;
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr);
  while (sqlite3_step(s) == SQLITE_ROW) findings.push_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
  sqlite3_finalize(s);
  CHECK(findings == std::vector<std::string>{"ok"});
  std::map<int64_t, Row> back = rows_of(db, "messages"), orphans = rows_of(db, rosbag2::kOrphanTable);
  sqlite3_close(db);
  back.insert(orphans.begin(), orphans.end());
  for (const auto& row : o.rows) {
    const std::vector<uint32_t>& pages = o.row_pages.at(row.first);
    if (std::any_of(pages.begin(), pages.end(), [&](uint32_t p) { return damaged.count(p) > 0; })) continue;
    auto it = back.find(row.first);
    INFO("row " << row.first << " on page " << pages[0]);
    REQUIRE(it != back.end());
    CHECK(it->second == row.second);
    ++outcome.compared;
  }
  // Our check of the written folder: a valid bag (its yaml counted from its rows).
  auto written = DirectoryFolder::open_directory(out, {}, nullptr);
  REQUIRE(written);
  Report again = rosbag2::open_folder_inspector(*written)->check(nullptr);
  // Definitions on a lost page are missing from the repaired bag too, and the check says so.
  for (const Problem& p : again.problems)
    CHECK_MESSAGE((p.severity == Severity::Info || p.code == "rosbag2.definitions.missing"), p.code << ": " << p.message);
  return outcome;
}

}  // namespace

TEST_CASE("rosbag2 damage: the writer-made database has the page kinds damage is tried on") {
  const Original& o = original();
  CHECK(o.bytes.size() >= 200 * 1024);
  CHECK(o.rows.size() == o.row_pages.size());
  CHECK(o.kinds.count(5));   // table interior
  CHECK(o.kinds.count(13));  // table leaf
  CHECK(o.kinds.count(0));   // overflow
}

TEST_CASE("rosbag2 damage: a database cut at every page boundary") {
  const Original& o = original();
  size_t compared = 0;
  for (size_t keep = 1; keep < o.pages; ++keep) {
    std::vector<uint8_t> bytes(o.bytes.begin(), o.bytes.begin() + static_cast<std::ptrdiff_t>(keep * o.page_size));
    std::set<uint32_t> lost;
    for (size_t p = keep + 1; p <= o.pages; ++p) lost.insert(static_cast<uint32_t>(p));
    Outcome outcome = check_and_repair(bytes, lost, "cut after page " + std::to_string(keep), "cut");
    CHECK_MESSAGE(outcome.truncated, "cut after page " << keep);
    compared += outcome.compared;
  }
  // Rows before the cut came back, summed over the cuts: most cuts keep some.
  CHECK(compared > o.rows.size() * (o.pages / 4));
}

TEST_CASE("rosbag2 damage: a cut is named by its page") {
  const Original& o = original();
  size_t keep = o.pages / 2;
  MemoryFolder folder("orig");
  folder.add(o.file, std::vector<uint8_t>(o.bytes.begin(), o.bytes.begin() + static_cast<std::ptrdiff_t>(keep * o.page_size + 100)));
  Report report = rosbag2::open_folder_inspector(folder)->check(nullptr);
  bool named = false;
  for (const Problem& p : report.problems)
    named |= p.code == "rosbag2.db.truncated" && p.message.find("inside page " + std::to_string(keep + 1)) != std::string::npos;
  CHECK(named);
}

TEST_CASE("rosbag2 damage: random pages damaged (seeded)") {
  const Original& o = original();
  int rounds = std::getenv("LOGSCOPE_DAMAGE_ROUNDS") ? std::atoi(std::getenv("LOGSCOPE_DAMAGE_ROUNDS")) : 24;
  uint32_t x = std::getenv("LOGSCOPE_DAMAGE_SEED") ? static_cast<uint32_t>(std::atoll(std::getenv("LOGSCOPE_DAMAGE_SEED"))) : 20261127u;
  auto next = [&] { return x = x * 1103515245u + 12345u, x >> 8; };
  size_t compared = 0, tables_named = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<uint8_t> bytes = o.bytes;
    std::set<uint32_t> damaged;
    size_t count = 1 + next() % 3;
    bool whole = round % 2 == 0;  // whole pages of garbage, or 16 bytes changed in each
    for (size_t k = 0; k < count; ++k) {
      // Page 1 (the header and the schema) is damaged in one round in eight.
      uint32_t page = round % 8 == 7 && k == 0 ? 1 : static_cast<uint32_t>(2 + next() % (o.pages - 1));
      damaged.insert(page);
      uint8_t* p = &bytes[size_t(page - 1) * o.page_size];
      if (whole) {
        for (uint32_t i = (page == 1 ? 100 : 0); i < o.page_size; ++i) p[i] = static_cast<uint8_t>(next());
      } else {
        for (int i = 0; i < 16; ++i) p[(page == 1 ? 100 : 0) + next() % (o.page_size - 100)] ^= static_cast<uint8_t>(1 + next() % 255);
      }
    }
    if (std::getenv("LOGSCOPE_DAMAGE_ROUND") && std::atoi(std::getenv("LOGSCOPE_DAMAGE_ROUND")) != round) continue;
    std::string what = "round " + std::to_string(round) + (whole ? ", garbage pages" : ", 16 bytes changed in pages");
    for (uint32_t p : damaged) what += " " + std::to_string(p);
    Outcome outcome = check_and_repair(bytes, damaged, what, "random");
    compared += outcome.compared;
    tables_named += outcome.table_page;
  }
  if (!std::getenv("LOGSCOPE_DAMAGE_ROUND")) CHECK(compared > 0);
  // Some rounds damage a b-tree page SQLite's integrity check sees: it is named with its table.
  if (!std::getenv("LOGSCOPE_DAMAGE_ROUND") && rounds >= 8) CHECK(tables_named > 0);
}
