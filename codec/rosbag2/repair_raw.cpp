// A table whose schema entry the damage changed (its type or name no longer "table messages"):
// SQLite's recovery skips it, and as its root page is still named in sqlite_schema, its pages are
// not lost either, so its rows reach neither the table nor lost_and_found. They are read here cell
// by cell through ext/recover's sqlite_dbdata, from the b-tree under the root page the damaged
// entry still names (found by its name or its CREATE statement). When page 1 itself is damaged,
// sqlite_schema's own tree may claim the table's pages: then every page's cells, by shape.
#include <sqlite3.h>

#include <memory>
#include <set>

#include "rosbag2/repair.h"

extern "C" int sqlite3_dbdata_init(sqlite3*, char**, const sqlite3_api_routines*);

namespace logscope::rosbag2 {
namespace {

struct Statement {
  sqlite3_stmt* s = nullptr;
  ~Statement() { sqlite3_finalize(s); }
};

struct Values {
  std::vector<sqlite3_value*> v;
  ~Values() { clear(); }
  void clear() {
    for (sqlite3_value* x : v) sqlite3_value_free(x);
    v.clear();
  }
};

}  // namespace

namespace {

// Copies the cells `cells` yields (pgno, cell, field, value of sqlite_dbdata, in that order) that
// have the shape of a row of `columns` into `insert`: the rowid (field -1), then one value per
// column, the first (the id, stored as NULL: it is the rowid) and the others of `types`.
uint64_t copy_cells(sqlite3_stmt* cells, sqlite3_stmt* insert, sqlite3* out, size_t columns, const std::vector<int>& types) {
  uint64_t added = 0;
  int64_t page = -1, cell = -1, rowid = 0;
  bool has_rowid = false;
  Values row;
  auto flush = [&] {
    bool fits = has_rowid && row.v.size() == columns;
    for (size_t i = 0; fits && i < row.v.size(); ++i) fits = row.v[i] && sqlite3_value_type(row.v[i]) == types[i];
    if (fits) {
      sqlite3_reset(insert);
      sqlite3_bind_int64(insert, 1, rowid);
      for (size_t i = 1; i < row.v.size(); ++i) sqlite3_bind_value(insert, static_cast<int>(i + 1), row.v[i]);
      if (sqlite3_step(insert) == SQLITE_DONE) added += static_cast<uint64_t>(sqlite3_changes(out));
    }
    row.clear();
    has_rowid = false;
  };
  while (sqlite3_step(cells) == SQLITE_ROW) {
    int64_t p = sqlite3_column_int64(cells, 0), c = sqlite3_column_int64(cells, 1), field = sqlite3_column_int64(cells, 2);
    if (p != page || c != cell) {
      flush();
      page = p;
      cell = c;
    }
    if (field == -1) {
      has_rowid = sqlite3_column_type(cells, 3) == SQLITE_INTEGER;
      rowid = sqlite3_column_int64(cells, 3);
    } else if (field == static_cast<int64_t>(row.v.size()) && row.v.size() <= columns) {
      row.v.push_back(sqlite3_value_dup(sqlite3_column_value(cells, 3)));
    } else {
      row.v.resize(columns + 1);  // out of order: not a cell of this shape
    }
  }
  flush();
  return added;
}

}  // namespace

uint64_t refill_from_root(sqlite3* input, sqlite3* out, const std::string& table, const std::vector<std::string>& columns,
                          const std::vector<int>& types, bool every_page) {
  Statement probe;
  if (sqlite3_prepare_v2(input, "SELECT 1 FROM sqlite_dbdata LIMIT 0", -1, &probe.s, nullptr) != SQLITE_OK)
    sqlite3_dbdata_init(input, nullptr, nullptr);
  // The schema's rows as stored, even where a CREATE statement no longer parses.
  sqlite3_exec(input, "PRAGMA writable_schema=ON", nullptr, nullptr, nullptr);
  std::set<int64_t> roots;
  {
    Statement find;
    const char* sql =
        "SELECT rootpage FROM sqlite_schema WHERE typeof(rootpage) = 'integer' AND rootpage > 1 AND type IS NOT 'index' "
        "AND coalesce(sql, '') NOT LIKE 'CREATE INDEX%' AND (name = ?1 OR tbl_name = ?1 OR sql LIKE 'CREATE TABLE ' || ?1 || '(%')";
    if (sqlite3_prepare_v2(input, sql, -1, &find.s, nullptr) == SQLITE_OK) {
      sqlite3_bind_text(find.s, 1, table.c_str(), -1, SQLITE_TRANSIENT);
      while (sqlite3_step(find.s) == SQLITE_ROW) roots.insert(sqlite3_column_int64(find.s, 0));
    }
  }
  sqlite3_exec(input, "PRAGMA writable_schema=OFF", nullptr, nullptr, nullptr);
  std::string names, marks;
  for (const std::string& c : columns) {
    names += (names.empty() ? "\"" : ", \"") + c + "\"";
    marks += marks.empty() ? "?" : ", ?";
  }
  Statement insert;
  if (sqlite3_prepare_v2(out, ("INSERT OR IGNORE INTO " + table + "(" + names + ") VALUES(" + marks + ")").c_str(), -1, &insert.s,
                         nullptr) != SQLITE_OK)
    return 0;
  uint64_t added = 0;
  for (int64_t root : roots) {
    if (every_page) break;  // the scan below covers every tree
    Statement cells;
    const char* sql =
        "WITH RECURSIVE tree(pgno) AS (SELECT ?1 UNION SELECT p.child FROM sqlite_dbptr p JOIN tree ON p.pgno = tree.pgno) "
        "SELECT pgno, cell, field, value FROM sqlite_dbdata WHERE pgno IN tree ORDER BY pgno, cell, field";
    if (sqlite3_prepare_v2(input, sql, -1, &cells.s, nullptr) != SQLITE_OK) continue;
    sqlite3_bind_int64(cells.s, 1, root);
    added += copy_cells(cells.s, insert.s, out, columns.size(), types);
  }
  if (every_page) {
    // The schema entry may be lost too (page 1 damaged, its tree claiming the table's pages):
    // every page's cells, by shape alone.
    Statement cells;
    if (sqlite3_prepare_v2(input, "SELECT pgno, cell, field, value FROM sqlite_dbdata", -1, &cells.s, nullptr) == SQLITE_OK)
      added += copy_cells(cells.s, insert.s, out, columns.size(), types);
  }
  return added;
}

}  // namespace logscope::rosbag2
