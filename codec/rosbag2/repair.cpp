#include "rosbag2/repair.h"

#include <sqlite3.h>
#include <sqlite3recover.h>

#include <algorithm>
#include <atomic>
#include <memory>

#include "core/printf_text.h"

namespace logscope::rosbag2 {
namespace {

using Connection = std::unique_ptr<sqlite3, int (*)(sqlite3*)>;

bool exec(sqlite3* db, const std::string& sql, std::string* error) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    if (error) *error = (message ? message : sqlite3_errmsg(db)) + std::string(" (in: ") + sql + ")";
    sqlite3_free(message);
    return false;
  }
  return true;
}

// The first column of each row of `sql`, as text; false with `error` when SQLite fails.
bool texts(sqlite3* db, const std::string& sql, std::vector<std::string>* out, std::string* error) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
    if (error) *error = sqlite3_errmsg(db) + std::string(" (in: ") + sql + ")";
    return false;
  }
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    const unsigned char* t = sqlite3_column_text(s, 0);
    out->push_back(t ? reinterpret_cast<const char*>(t) : "");
  }
  sqlite3_finalize(s);
  if (rc != SQLITE_DONE && error) *error = sqlite3_errmsg(db);
  return rc == SQLITE_DONE;
}

int64_t integer(sqlite3* db, const std::string& sql) {
  std::vector<std::string> v;
  return texts(db, sql, &v, nullptr) && !v.empty() ? std::atoll(v[0].c_str()) : 0;
}

bool contains(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The rows of lost_and_found (rootpgno, pgno, nfield, id, c0, c1, ...) that have the shape of
// a `table` row with `columns`: its INTEGER PRIMARY KEY `id` is the rowid (stored as NULL in c0),
// and `shape` constrains the other columns. They go back into the table; those put back (or
// already there, byte-equal) leave lost_and_found.
uint64_t put_back(sqlite3* db, const std::string& table, const std::vector<std::string>& columns, const std::string& shape,
                  std::string* error) {
  std::vector<std::string> lost_columns;
  if (!texts(db, "SELECT name FROM pragma_table_info('lost_and_found')", &lost_columns, error)) return 0;
  size_t n = columns.size();
  if (n < 2 || columns[0] != "id" || !contains(lost_columns, "c" + std::to_string(n - 1))) return 0;
  std::string names = "id", values = "id", same = "t.id = lost_and_found.id";
  for (size_t i = 1; i < n; ++i) {
    names += ", \"" + columns[i] + "\"";
    values += ", c" + std::to_string(i);
    same += " AND t.\"" + columns[i] + "\" IS c" + std::to_string(i);
  }
  std::string where = " WHERE nfield = " + std::to_string(n) + " AND id IS NOT NULL AND c0 IS NULL AND " + shape;
  if (!exec(db, "INSERT OR IGNORE INTO " + table + "(" + names + ") SELECT " + values + " FROM lost_and_found" + where, error))
    return 0;
  uint64_t put = static_cast<uint64_t>(sqlite3_changes(db));
  exec(db, "DELETE FROM lost_and_found" + where + " AND EXISTS (SELECT 1 FROM " + table + " t WHERE " + same + ")", error);
  return put;
}

// A recovered `table` whose layout is not rosbag2's (its CREATE statement damaged: `id` no longer
// the rowid, a column missing) is kept as `<table>_as_recovered`, and its rows copied into `table`
// made anew by `create`, column by column where the names agree.
bool fix_layout(sqlite3* db, const std::string& table, const std::vector<std::string>& required, const std::string& create,
                std::vector<std::string>* tables, std::string* error) {
  if (!contains(*tables, table)) return exec(db, create, error);
  std::vector<std::string> columns, id_pk;
  if (!texts(db, "SELECT name FROM pragma_table_info('" + table + "')", &columns, error) ||
      !texts(db, "SELECT upper(type) || pk FROM pragma_table_info('" + table + "') WHERE name = 'id'", &id_pk, error))
    return false;
  bool fits = id_pk == std::vector<std::string>{"INTEGER1"};
  for (const std::string& c : required) fits = fits && contains(columns, c);
  if (fits) return true;
  std::string kept = table + "_as_recovered";
  std::vector<std::string> indexes;
  if (!texts(db, "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '" + table + "' AND sql IS NOT NULL", &indexes, error))
    return false;
  for (const std::string& index : indexes)
    if (!exec(db, "DROP INDEX \"" + index + "\"", error)) return false;
  if (!exec(db, "ALTER TABLE " + table + " RENAME TO " + kept, error) || !exec(db, create, error)) return false;
  std::vector<std::string> made;
  if (!texts(db, "SELECT name FROM pragma_table_info('" + table + "')", &made, error)) return false;
  // Same width: the columns by position (a record's fields are, whatever a damaged CREATE calls
  // them); otherwise by name, a column the recovered table lacks being ''. The first column, the
  // id, was stored as NULL when it was the rowid: then the rowid is the id.
  bool by_position = columns.size() == made.size();
  auto quoted = [](const std::string& name) {
    std::string q = "\"";
    for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string id = "coalesce(" + (by_position ? quoted(columns[0]) : contains(columns, "id") ? quoted("id") : std::string("NULL")) +
                   ", _rowid_)";
  std::string names, values;
  for (size_t i = 0; i < made.size(); ++i) {
    names += (names.empty() ? "" : ", ") + quoted(made[i]);
    std::string value = i == 0 ? id : by_position ? quoted(columns[i]) : contains(columns, made[i]) ? quoted(made[i]) : "''";
    values += (values.empty() ? "" : ", ") + value;
  }
  tables->push_back(kept);
  return exec(db, "INSERT OR IGNORE INTO " + table + "(" + names + ") SELECT " + values + " FROM " + kept + " WHERE typeof(" + id +
                      ") = 'integer'",
              error);
}

// Makes the recovered database at `db` a rosbag2 database.
bool make_bag_database(sqlite3* db, sqlite3* input, RepairedDatabase* out, std::string* error) {
  std::vector<std::string> tables;
  // A new file that replaces nothing: a crash mid-repair loses only the copy, so no syncs.
  if (!exec(db, "PRAGMA synchronous=OFF", error) || !exec(db, "BEGIN", error) || !texts(db, "SELECT name FROM sqlite_schema WHERE type = 'table'", &tables, error)) return false;
  int64_t version = contains(tables, "schema") ? integer(db, "SELECT max(schema_version) FROM schema") : 0;
  // A table the recovery lost altogether, or whose layout it lost, is made anew in the layout the
  // schema table names.
  // Required: what every version has (the pre-release 2018 topics table has no serialization_format).
  if (!fix_layout(db, "topics", {"id", "name", "type"},
                  std::string("CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,"
                              "serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL") +
                      (version >= 4 ? ",type_description_hash TEXT NOT NULL" : "") + ")",
                  &tables, error) ||
      !fix_layout(db, "messages", {"id", "topic_id", "timestamp", "data"},
                  "CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL,data BLOB NOT NULL)",
                  &tables, error))
    return false;
  if (!exec(db, "CREATE INDEX IF NOT EXISTS timestamp_idx ON messages (timestamp ASC)", error)) return false;
  std::vector<std::string> message_columns, topic_columns;
  if (!texts(db, "SELECT name FROM pragma_table_info('messages')", &message_columns, error) ||
      !texts(db, "SELECT name FROM pragma_table_info('topics')", &topic_columns, error))
    return false;
  if (contains(tables, "lost_and_found")) {
    // Topics: a name that starts with '/', a type with a package ("pkg/msg/Type"); definitions'
    // rows have the same width but start with the type.
    std::string topic_shape = "typeof(c1) = 'text' AND substr(c1, 1, 1) = '/' AND typeof(c2) = 'text' AND instr(c2, '/') > 0";
    for (size_t i = 3; i < topic_columns.size(); ++i) topic_shape += " AND typeof(c" + std::to_string(i) + ") = 'text'";
    out->rehomed_topics = put_back(db, "topics", topic_columns, topic_shape, error);
    if (message_columns == std::vector<std::string>{"id", "topic_id", "timestamp", "data"})
      out->rehomed_messages = put_back(db, "messages", message_columns,
                                       "typeof(c1) = 'integer' AND typeof(c2) = 'integer' AND typeof(c3) = 'blob'", error);
    out->lost_and_found = static_cast<uint64_t>(integer(db, "SELECT count(*) FROM lost_and_found"));
    if (out->lost_and_found == 0 && !exec(db, "DROP TABLE lost_and_found", error)) return false;
  }
  // Rows SQLite's recovery skipped because a schema entry is damaged: topics from the b-tree its
  // entry still names, when none came back; messages, whose shape no other table has, from every
  // page (a damaged page 1 can also lose their entry, or claim some of their pages).
  if (integer(db, "SELECT count(*) FROM topics") == 0) {
    std::vector<int> types(topic_columns.size(), SQLITE_TEXT);
    if (!types.empty()) types[0] = SQLITE_NULL;
    out->refilled_topics = refill_from_root(input, db, "topics", topic_columns, types, false);
  }
  if (message_columns == std::vector<std::string>{"id", "topic_id", "timestamp", "data"})
    out->refilled_messages =
        refill_from_root(input, db, "messages", message_columns, {SQLITE_NULL, SQLITE_INTEGER, SQLITE_INTEGER, SQLITE_BLOB}, true);
  std::string orphan = " WHERE NOT EXISTS (SELECT 1 FROM topics t WHERE t.id = messages.topic_id)";
  out->orphan_messages = static_cast<uint64_t>(integer(db, "SELECT count(*) FROM messages" + orphan));
  if (out->orphan_messages &&
      !(exec(db, std::string("CREATE TABLE IF NOT EXISTS ") + kOrphanTable +
                     "(id INTEGER PRIMARY KEY,topic_id INTEGER,timestamp INTEGER,data BLOB)", error) &&
        exec(db, std::string("INSERT OR REPLACE INTO ") + kOrphanTable + " SELECT id, topic_id, timestamp, data FROM messages" + orphan, error) &&
        exec(db, "DELETE FROM messages" + orphan, error)))
    return false;
  if (!exec(db, "COMMIT", error)) return false;
  sqlite3_stmt* s = nullptr;
  const char* per_topic =
      "SELECT m.topic_id, (SELECT name FROM topics t WHERE t.id = m.topic_id), count(*) FROM messages m GROUP BY m.topic_id";
  if (sqlite3_prepare_v2(db, per_topic, -1, &s, nullptr) != SQLITE_OK) {
    if (error) *error = sqlite3_errmsg(db);
    return false;
  }
  while (sqlite3_step(s) == SQLITE_ROW) {
    RecoveredTopic t;
    t.topic_id = sqlite3_column_int64(s, 0);
    const unsigned char* name = sqlite3_column_text(s, 1);
    t.name = name ? reinterpret_cast<const char*>(name) : "";
    t.messages = static_cast<uint64_t>(sqlite3_column_int64(s, 2));
    out->messages += t.messages;
    out->topics.push_back(std::move(t));
  }
  sqlite3_finalize(s);
  // A rollback journal, as a bag closed by rosbag2: no -wal to carry beside the file.
  return exec(db, "PRAGMA journal_mode=DELETE", error);
}

}  // namespace

bool repair_database(SqliteReader& input, const std::string& out_uri, RepairedDatabase* out, std::string* error) {
  *out = RepairedDatabase();
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(out_uri.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, nullptr);
  Connection db(raw, sqlite3_close);
  if (rc != SQLITE_OK) {
    if (error) *error = out_uri + ": " + (raw ? sqlite3_errmsg(raw) : "cannot open");
    return false;
  }
  sqlite3_recover* recover = sqlite3_recover_init(input.handle(), "main", out_uri.c_str());
  if (!recover) {
    if (error) *error = "sqlite3_recover_init failed (out of memory)";
    return false;
  }
  int on = 1;
  sqlite3_recover_config(recover, SQLITE_RECOVER_LOST_AND_FOUND, const_cast<char*>("lost_and_found"));
  sqlite3_recover_config(recover, SQLITE_RECOVER_FREELIST_CORRUPT, &on);
  sqlite3_recover_run(recover);
  if (sqlite3_recover_errcode(recover) != SQLITE_OK) out->recover_error = sqlite3_recover_errmsg(recover);
  sqlite3_recover_finish(recover);
  std::string why;
  if (!make_bag_database(db.get(), input.handle(), out, &why)) {
    if (error) *error = "the recovered rows do not make a rosbag2 database: " + why +
                        (out->recover_error.empty() ? "" : " (recovery: " + out->recover_error + ")");
    return false;
  }
  return true;
}

void describe_repair(const std::string& file, const RepairedDatabase& r, ExtractResult* result) {
  result->kept.push_back(printf_string("%s: %llu messages", file.c_str(), static_cast<unsigned long long>(r.messages)));
  for (const RecoveredTopic& t : r.topics)
    result->kept.push_back(printf_string("%s: %s (topic_id %lld): %llu messages", file.c_str(), t.name.c_str(),
                                         static_cast<long long>(t.topic_id), static_cast<unsigned long long>(t.messages)));
  if (r.rehomed_messages || r.rehomed_topics)
    result->kept.push_back(printf_string("%s: %llu messages and %llu topics that the recovery found only as loose rows, put back",
                                         file.c_str(), static_cast<unsigned long long>(r.rehomed_messages),
                                         static_cast<unsigned long long>(r.rehomed_topics)));
  if (r.refilled_messages || r.refilled_topics)
    result->kept.push_back(printf_string("%s: %llu messages and %llu topics that the recovery skipped (a schema entry damaged), read cell by cell",
                                         file.c_str(), static_cast<unsigned long long>(r.refilled_messages),
                                         static_cast<unsigned long long>(r.refilled_topics)));
  if (r.orphan_messages)
    result->dropped.push_back(printf_string("%s: %llu messages whose topic_id has no topics row: not in the bag, kept in table %s",
                                            file.c_str(), static_cast<unsigned long long>(r.orphan_messages), kOrphanTable));
  if (r.lost_and_found)
    result->dropped.push_back(printf_string("%s: %llu rows SQLite's recovery could not attribute to a table: kept in table lost_and_found",
                                            file.c_str(), static_cast<unsigned long long>(r.lost_and_found)));
  if (!r.recover_error.empty()) result->dropped.push_back(file + ": SQLite's recovery reported: " + r.recover_error);
}

ExtractResult repair_single_database(ByteSource& source, OutputSink& out) {
  ExtractResult result;
  std::string error;
  auto reader = SqliteReader::open(source, nullptr, &error);
  if (!reader) {
    result.error = "SQLite cannot open the database: " + error;
    return result;
  }
  static std::atomic<uint64_t> next{0};
  std::string uri = "file:/logscope-repaired-" + std::to_string(++next) + "?vfs=memdb";
  // The memdb database lives while a connection holds it: this one, opened first.
  sqlite3* raw = nullptr;
  sqlite3_open_v2(uri.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, nullptr);
  Connection holder(raw, sqlite3_close);
  RepairedDatabase repaired;
  if (!raw || !repair_database(*reader, uri, &repaired, &error)) {
    result.error = raw ? error : "cannot open an in-memory database";
    return result;
  }
  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(raw, "main", &size, 0);
  if (!bytes) {
    result.error = "cannot serialize the repaired database";
    return result;
  }
  bool written = out.write(bytes, static_cast<size_t>(size));
  sqlite3_free(bytes);
  if (!written) {
    result.error = out.error();
    return result;
  }
  describe_repair("the database", repaired, &result);
  result.bytes_written = static_cast<uint64_t>(size);
  result.ok = true;
  return result;
}

}  // namespace logscope::rosbag2
