#include "rosbag2/recover.h"

#include <sqlite3.h>
#include <sqlite3recover.h>

#include <atomic>
#include <memory>

namespace logscope::rosbag2 {

Recovered recover_database(SqliteReader& input) {
  Recovered out;
  static std::atomic<uint64_t> next{0};
  // A memdb database: "/name" makes it shared by name, so it can be opened again after recovery.
  std::string uri = "file:/logscope-recovered-" + std::to_string(++next) + "?vfs=memdb";
  // A memdb database lives while a connection holds it: ours is opened first, so the rows survive
  // the recovery's own connection.
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, nullptr);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> guard(db, sqlite3_close);
  if (rc != SQLITE_OK) {
    out.error = db ? sqlite3_errmsg(db) : "cannot open an in-memory database";
    return out;
  }
  sqlite3_recover* recover = sqlite3_recover_init(input.handle(), "main", uri.c_str());
  if (!recover) {
    out.error = "sqlite3_recover_init failed (out of memory)";
    return out;
  }
  int lost_and_found = 1;
  sqlite3_recover_config(recover, SQLITE_RECOVER_LOST_AND_FOUND, const_cast<char*>("lost_and_found"));
  sqlite3_recover_config(recover, SQLITE_RECOVER_FREELIST_CORRUPT, &lost_and_found);
  sqlite3_recover_run(recover);
  if (sqlite3_recover_errcode(recover) != SQLITE_OK) out.error = sqlite3_recover_errmsg(recover);
  sqlite3_recover_finish(recover);
  sqlite3_stmt* stmt = nullptr;
  const char* sql =
      "SELECT m.topic_id, coalesce((SELECT name FROM topics t WHERE t.id = m.topic_id), ''), count(*) "
      "FROM messages m GROUP BY m.topic_id ORDER BY m.topic_id";
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
    // No messages table came back.
    if (out.error.empty()) out.error = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return out;
  }
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    RecoveredTopic t;
    t.topic_id = sqlite3_column_int64(stmt, 0);
    const unsigned char* name = sqlite3_column_text(stmt, 1);
    t.name = name && *name ? reinterpret_cast<const char*>(name) : "topic_id " + std::to_string(t.topic_id);
    t.messages = static_cast<uint64_t>(sqlite3_column_int64(stmt, 2));
    out.messages += t.messages;
    out.topics.push_back(std::move(t));
  }
  sqlite3_finalize(stmt);
  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(db, "main", &size, 0);
  if (bytes) out.database.assign(bytes, bytes + size);
  sqlite3_free(bytes);
  out.ok = true;
  return out;
}

}  // namespace logscope::rosbag2
