#include "rosbag2/doctor_checks.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "core/printf_text.h"
#include "core/time_math.h"
#include "rosbag2/inspector_impl.h"

// ext/recover's dbdata.c (compiled into logscope_sqlite): registers sqlite_dbdata and sqlite_dbptr.
extern "C" int sqlite3_dbdata_init(sqlite3*, char**, const sqlite3_api_routines*);

namespace logscope::rosbag2 {
namespace {

constexpr size_t kMaxListed = 20;

// The page number in an integrity finding ("On tree page 12 cell 3: ...", "Page 7: ..."), or 0.
int64_t page_in(const std::string& finding) {
  for (size_t at = finding.find("age "); at != std::string::npos; at = finding.find("age ", at + 1)) {
    if (at == 0 || (finding[at - 1] != 'p' && finding[at - 1] != 'P')) continue;
    int64_t n = 0;
    size_t i = at + 4;
    for (; i < finding.size() && i < at + 14 && finding[i] >= '0' && finding[i] <= '9'; ++i) n = n * 10 + (finding[i] - '0');
    if (i > at + 4) return n;
  }
  return 0;
}

uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }

struct Statement {
  sqlite3_stmt* s = nullptr;
  ~Statement() { sqlite3_finalize(s); }
};

}  // namespace

bool check_truncation(BagFile& file, Report& r) {
  if (!file.source) return false;
  uint8_t h[100];
  if (file.source->read(0, h, sizeof h) != sizeof h) return false;  // the opening reported it
  uint32_t page = uint32_t(h[16]) << 8 | h[17];
  if (page == 1) page = 65536;
  uint32_t pages = be32(h + 28);
  // The header's page count is valid only when its "version-valid-for" equals the change counter.
  if (page < 512 || (page & (page - 1)) || pages == 0 || be32(h + 92) != be32(h + 24)) return false;
  uint64_t expected = uint64_t(pages) * page;
  if (file.size >= expected) return false;
  uint64_t whole = file.size / page, rest = file.size % page;
  r.add_problem(Severity::Error, file.size, "rosbag2.db.truncated",
                printf_string("%s: the header says %u pages of %u bytes (%llu bytes); the file holds %llu bytes: it ends %s page %llu, "
                              "pages %llu to %u are missing",
                              file.name.c_str(), pages, page, static_cast<unsigned long long>(expected),
                              static_cast<unsigned long long>(file.size), rest ? "inside" : "after",
                              static_cast<unsigned long long>(rest ? whole + 1 : whole),
                              static_cast<unsigned long long>(whole + 1), pages));
  return true;
}

std::vector<NamedFinding> name_integrity_findings(BagFile& file, const std::vector<std::string>& rows) {
  std::vector<NamedFinding> out;
  std::vector<std::string> findings;
  uint8_t size_bytes[2] = {0, 0};
  uint32_t page_size = file.source && file.source->read(16, size_bytes, 2) == 2 ? (uint32_t(size_bytes[0]) << 8 | size_bytes[1]) : 0;
  if (page_size == 1) page_size = 65536;
  // SQLite may give several findings in one row, a line each, under "*** in database main ***".
  for (const std::string& row : rows)
    for (size_t begin = 0; begin < row.size();) {
      size_t end = row.find('\n', begin);
      if (end == std::string::npos) end = row.size();
      std::string line = row.substr(begin, end - begin);
      if (!line.empty() && line.compare(0, 3, "***") != 0) findings.push_back(line);
      begin = end + 1;
    }
  size_t more = findings.size() > kMaxListed ? findings.size() - kMaxListed : 0;
  findings.resize(findings.size() - more);
  std::set<int64_t> wanted;
  for (const std::string& f : findings)
    if (int64_t page = page_in(f)) wanted.insert(page);
  // Page -> the table or index whose b-tree holds it, walked from each root through sqlite_dbptr.
  std::map<int64_t, std::string> owner;
  sqlite3* db = file.reader ? file.reader->handle() : nullptr;
  if (db && !wanted.empty()) {
    Statement probe;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_dbptr LIMIT 0", -1, &probe.s, nullptr) != SQLITE_OK)
      sqlite3_dbdata_init(db, nullptr, nullptr);
    const char* sql =
        "WITH RECURSIVE tree(root, pgno) AS (SELECT rootpage, rootpage FROM sqlite_schema WHERE rootpage > 0 "
        "UNION SELECT tree.root, p.child FROM tree JOIN sqlite_dbptr p ON p.pgno = tree.pgno) "
        "SELECT tree.pgno, s.type || ' ' || s.name FROM tree JOIN sqlite_schema s ON s.rootpage = tree.root";
    Statement walk;
    if (sqlite3_prepare_v2(db, sql, -1, &walk.s, nullptr) == SQLITE_OK)
      while (sqlite3_step(walk.s) == SQLITE_ROW) {
        int64_t pgno = sqlite3_column_int64(walk.s, 0);
        const unsigned char* name = sqlite3_column_text(walk.s, 1);
        if (wanted.count(pgno) && name) owner.emplace(pgno, reinterpret_cast<const char*>(name));
      }
    // Page 1 holds sqlite_schema's root.
    owner.emplace(1, "table sqlite_schema");
  }
  for (const std::string& f : findings) {
    std::string where;
    uint64_t offset = 0;
    if (int64_t page = page_in(f)) {
      offset = uint64_t(page - 1) * page_size;
      auto it = owner.find(page);
      std::string number = std::to_string(page);
      where = it != owner.end() ? it->second + ", page " + number + ": " : "page " + number + " (in no b-tree SQLite can walk): ";
    }
    out.push_back({offset, file.name + ": " + where + f});
  }
  if (more) out.push_back({0, file.name + ": " + std::to_string(more) + " more findings of SQLite's integrity check"});
  return out;
}

void check_tables_readable(BagFile& file, Report& r) {
  if (!file.reader || file.tables_read) return;
  sqlite3* db = file.reader->handle();
  for (const char* table : {"schema", "metadata", "topics", "message_definitions", "messages"}) {
    // Every column of every row: the rows' pages and their overflow chains.
    std::string sql = std::string("SELECT * FROM ") + table;
    Statement s;
    int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &s.s, nullptr);
    if (rc != SQLITE_OK) {
      std::string why = sqlite3_errmsg(db);
      if (why.rfind("no such table", 0) != 0)
        r.add_problem(Severity::Error, 0, "rosbag2.db.table_unreadable", file.name + ": table " + table + ": " + why);
      continue;
    }
    uint64_t rows = 0;
    int64_t last = 0;
    while ((rc = sqlite3_step(s.s)) == SQLITE_ROW) {
      ++rows;
      last = sqlite3_column_int64(s.s, 0);
    }
    if (rc != SQLITE_DONE)
      r.add_problem(Severity::Error, 0, "rosbag2.db.table_unreadable",
                    printf_string("%s: table %s: reading stopped after %llu rows%s: %s", file.name.c_str(), table,
                                  static_cast<unsigned long long>(rows),
                                  rows ? (" (the last with id " + std::to_string(last) + ")").c_str() : "", sqlite3_errmsg(db)));
  }
}

void check_duplicates(Bag& bag, Report& r) {
  for (BagFile& f : bag.files) {
    if (!f.reader || !f.tables_read) continue;
    // Rows equal in topic, time and bytes; the later row is the duplicate.
    const char* sql =
        "SELECT b.id, a.id, b.topic_id, b.timestamp FROM messages a JOIN messages b "
        "ON a.topic_id = b.topic_id AND a.timestamp = b.timestamp AND a.id < b.id AND a.data = b.data "
        "WHERE NOT EXISTS (SELECT 1 FROM messages c WHERE c.topic_id = b.topic_id AND c.timestamp = b.timestamp "
        "AND c.id < a.id AND c.data = b.data) ORDER BY b.id";
    Statement s;
    if (sqlite3_prepare_v2(f.reader->handle(), sql, -1, &s.s, nullptr) != SQLITE_OK) continue;
    uint64_t count = 0;
    while (sqlite3_step(s.s) == SQLITE_ROW)
      if (++count <= kMaxListed)
        r.add_problem(Severity::Warning, 0, "rosbag2.messages.duplicate",
                      printf_string("%s: table messages, row %lld: the same topic_id %lld, time %lld and bytes as row %lld",
                                    f.name.c_str(), static_cast<long long>(sqlite3_column_int64(s.s, 0)),
                                    static_cast<long long>(sqlite3_column_int64(s.s, 2)),
                                    static_cast<long long>(sqlite3_column_int64(s.s, 3)),
                                    static_cast<long long>(sqlite3_column_int64(s.s, 1))));
    if (count > kMaxListed)
      r.add_problem(Severity::Warning, 0, "rosbag2.messages.more",
                    printf_string("%s: %llu more duplicate messages", f.name.c_str(),
                                  static_cast<unsigned long long>(count - kMaxListed)));
  }
}

void check_definitions(Bag& bag, Report& r) {
  for (const BagFile& f : bag.files) {
    if (!f.tables_read) continue;
    if (!f.tables.has_definitions_table) {
      if (!f.tables.topics.empty())
        r.add_problem(Severity::Info, 0, "rosbag2.definitions.absent",
                      f.name + ": no message_definitions table (schema version " +
                          (f.tables.schema_version ? std::to_string(*f.tables.schema_version) : std::string("1")) +
                          ", Humble or older): messages are shown as CDR bytes unless definitions are supplied");
      continue;
    }
    std::set<std::string> defined;
    for (const Definition& d : f.tables.definitions)
      if (!d.encoded_message_definition.empty()) defined.insert(d.topic_type);  // rosbag2 writes "unknown" and "" when it had none
    std::set<std::string> reported;
    // A service's event topic (`pkg/srv/Name_Event`) is defined by the service's entry (`pkg/srv/Name`).
    auto is_defined = [&](const std::string& type) {
      const std::string event = "_Event";
      return defined.count(type) || (type.size() > event.size() && type.compare(type.size() - event.size(), event.size(), event) == 0 &&
                                     type.find("/srv/") != std::string::npos && defined.count(type.substr(0, type.size() - event.size())));
    };
    for (const Topic& t : f.tables.topics)
      if (!is_defined(t.type) && reported.insert(t.type).second)
        r.add_problem(Severity::Warning, 0, "rosbag2.definitions.missing",
                      f.name + ": table message_definitions has no definition of " + t.type + " (topic " + t.name + ", topics row " +
                          std::to_string(t.id) + ")");
  }
}

void check_yaml_span(Bag& bag, Report& r) {
  if (!bag.metadata) return;
  const BagMetadata& m = *bag.metadata;
  BagTotals totals = bag_totals(bag);
  if (totals.from_yaml) return;
  bool all_read = std::all_of(bag.files.begin(), bag.files.end(), [](const BagFile& f) { return f.tables_read; });
  bool yaml_empty = !m.starting_time_ns || *m.starting_time_ns == INT64_MAX || m.message_count.value_or(0) == 0;
  std::optional<int64_t> span = totals.start_ns && totals.end_ns ? time_math::span(*totals.start_ns, *totals.end_ns) : std::nullopt;
  if (all_read && span && !yaml_empty && m.duration_ns) {
    if (*m.starting_time_ns != *totals.start_ns || *m.duration_ns != *span)
      r.add_problem(Severity::Warning, 0, "rosbag2.yaml.span_mismatch",
                    "metadata.yaml" + (m.starting_time_line ? " line " + std::to_string(m.starting_time_line) : std::string()) +
                        printf_string(": starting_time %lld and duration %lld ns; the databases' messages span %lld to %lld "
                                  "(duration %lld ns)",
                                  static_cast<long long>(*m.starting_time_ns), static_cast<long long>(*m.duration_ns),
                                  static_cast<long long>(*totals.start_ns), static_cast<long long>(*totals.end_ns),
                                  static_cast<long long>(*span)));
  }
  // `files:` (v5+) against relative_file_paths.
  for (const YamlFile& yf : m.files)
    if (std::find(m.relative_file_paths.begin(), m.relative_file_paths.end(), yf.path) == m.relative_file_paths.end())
      r.add_problem(Severity::Warning, 0, "rosbag2.yaml.files_mismatch",
                    "metadata.yaml: files lists " + yf.path + ", which relative_file_paths does not");
  if (!m.files.empty())
    for (const std::string& p : m.relative_file_paths)
      if (std::none_of(m.files.begin(), m.files.end(), [&](const YamlFile& yf) { return yf.path == p; }))
        r.add_problem(Severity::Warning, 0, "rosbag2.yaml.files_mismatch",
                      "metadata.yaml: relative_file_paths names " + p + ", which files does not describe");
}

}  // namespace logscope::rosbag2
