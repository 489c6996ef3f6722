#include "rosbag2/database.h"

#include <sqlite3.h>
#include <zstd.h>

#include <algorithm>
#include <memory>

namespace logscope::rosbag2 {
namespace {

struct Finalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Statement = std::unique_ptr<sqlite3_stmt, Finalize>;

Statement prepare(SqliteReader& db, const std::string& sql, std::string* error) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    if (error) *error = db.last_error() + " (in: " + sql + ")";
    sqlite3_finalize(stmt);
    return nullptr;
  }
  return Statement(stmt);
}

std::string column_text(sqlite3_stmt* s, int i) {
  const unsigned char* t = sqlite3_column_text(s, i);
  return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s, i))) : "";
}

// Runs a statement to its end; false with `error` unless it ends with SQLITE_DONE.
bool run(SqliteReader& db, sqlite3_stmt* s, const std::function<void(sqlite3_stmt*)>& row, std::string* error) {
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) row(s);
  if (rc != SQLITE_DONE) {
    if (error) *error = db.last_error();
    return false;
  }
  return true;
}

bool quote_ok(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

std::optional<int64_t> query_integer(SqliteReader& db, const std::string& sql, std::string* error) {
  std::optional<int64_t> value;
  auto s = prepare(db, sql, error);
  if (!s || !run(db, s.get(), [&](sqlite3_stmt* r) {
        if (!value && sqlite3_column_type(r, 0) == SQLITE_INTEGER) value = sqlite3_column_int64(r, 0);
      }, error))
    return std::nullopt;
  return value;
}

bool read_tables(SqliteReader& db, DatabaseTables* out, std::string* error) {
  DatabaseTables t;
  std::vector<std::string> tables, indexes;
  auto list = prepare(db, "SELECT type, name FROM sqlite_schema", error);
  if (!list || !run(db, list.get(), [&](sqlite3_stmt* s) {
        (column_text(s, 0) == "table" ? tables : indexes).push_back(column_text(s, 1));
      }, error))
    return false;
  auto has = [&](const std::string& name) { return std::find(tables.begin(), tables.end(), name) != tables.end(); };
  t.has_messages_table = has("messages");
  t.has_timestamp_index = std::find(indexes.begin(), indexes.end(), "timestamp_idx") != indexes.end();
  if (!has("topics") || !t.has_messages_table) {
    if (error) *error = std::string("no `") + (has("topics") ? "messages" : "topics") + "` table: not a rosbag2 database";
    return false;
  }
  t.has_schema_table = has("schema");
  if (t.has_schema_table) {
    auto s = prepare(db, "SELECT * FROM schema ORDER BY schema_version DESC LIMIT 1", error);
    if (!s || !run(db, s.get(), [&](sqlite3_stmt* r) {
          for (int i = 0; i < sqlite3_column_count(r); ++i) {
            std::string name = sqlite3_column_name(r, i);
            if (name == "schema_version") t.schema_version = sqlite3_column_int64(r, i);
            if (name == "ros_distro") t.ros_distro = column_text(r, i);
          }
        }, error))
      return false;
  }
  auto columns = prepare(db, "SELECT name FROM pragma_table_info('topics')", error);
  if (!columns || !run(db, columns.get(), [&](sqlite3_stmt* s) { t.topic_columns.push_back(column_text(s, 0)); }, error))
    return false;
  std::string select = "SELECT id";
  const char* optional_columns[] = {"name", "type", "serialization_format", "offered_qos_profiles", "type_description_hash"};
  for (const char* c : optional_columns)
    select += std::find(t.topic_columns.begin(), t.topic_columns.end(), c) != t.topic_columns.end() && quote_ok(c)
                  ? std::string(", ") + c
                  : ", ''";
  auto topics = prepare(db, select + " FROM topics ORDER BY id", error);
  if (!topics || !run(db, topics.get(), [&](sqlite3_stmt* s) {
        Topic topic;
        topic.id = sqlite3_column_int64(s, 0);
        topic.name = column_text(s, 1);
        topic.type = column_text(s, 2);
        topic.serialization_format = column_text(s, 3);
        topic.offered_qos_profiles = column_text(s, 4);
        topic.type_description_hash = column_text(s, 5);
        t.topics.push_back(std::move(topic));
      }, error))
    return false;
  t.has_definitions_table = has("message_definitions");
  if (t.has_definitions_table) {
    auto d = prepare(db, "SELECT topic_type, encoding, encoded_message_definition, type_description_hash FROM message_definitions ORDER BY id", error);
    if (!d || !run(db, d.get(), [&](sqlite3_stmt* s) {
          t.definitions.push_back({column_text(s, 0), column_text(s, 1), column_text(s, 2), column_text(s, 3)});
        }, error))
      return false;
  }
  if (has("metadata")) {
    auto m = prepare(db, "SELECT metadata FROM metadata ORDER BY id", error);
    if (!m || !run(db, m.get(), [&](sqlite3_stmt* s) { t.stored_metadata.push_back(column_text(s, 0)); }, error)) return false;
  }
  if (t.has_timestamp_index) {
    // Each a query of its own: SQLite answers a lone min() or max() with one seek in the index,
    // and count(*) from the smallest index, but not the three together.
    auto one = [&](const char* sql, const std::function<void(sqlite3_stmt*)>& row) {
      auto s = prepare(db, sql, error);
      return s && run(db, s.get(), row, error);
    };
    if (!one("SELECT count(*) FROM messages", [&](sqlite3_stmt* s) { t.message_count = static_cast<uint64_t>(sqlite3_column_int64(s, 0)); }) ||
        !one("SELECT min(timestamp) FROM messages", [&](sqlite3_stmt* s) {
          if (sqlite3_column_type(s, 0) != SQLITE_NULL) t.first_ns = sqlite3_column_int64(s, 0);
        }) ||
        !one("SELECT max(timestamp) FROM messages", [&](sqlite3_stmt* s) {
          if (sqlite3_column_type(s, 0) != SQLITE_NULL) t.last_ns = sqlite3_column_int64(s, 0);
        }))
      return false;
  } else if (!read_topic_stats(db, &t, error)) {
    return false;
  }
  *out = std::move(t);
  return true;
}

bool walk_index_ends(SqliteReader& db, int limit, IndexEnds* out, std::string* error) {
  IndexEnds ends;
  int rows = 0;
  for (bool forward : {true, false}) {
    rows = 0;
    auto s = prepare(db, std::string("SELECT topic_id, timestamp FROM messages INDEXED BY timestamp_idx ORDER BY timestamp ") +
                             (forward ? "ASC" : "DESC") + " LIMIT " + std::to_string(limit),
                     error);
    std::map<int64_t, int64_t>& seen = forward ? ends.first : ends.last;
    if (!s || !run(db, s.get(), [&](sqlite3_stmt* r) {
          int64_t topic = sqlite3_column_int64(r, 0), t = sqlite3_column_int64(r, 1);
          seen.emplace(topic, t);  // the walk is in time order: the first met is the end
          (forward ? ends.bound_first : ends.bound_last) = t;
          ++rows;
        }, error))
      return false;
  }
  ends.whole = rows < limit;
  *out = std::move(ends);
  return true;
}

bool read_topic_stats(SqliteReader& db, DatabaseTables* tables, std::string* error) {
  DatabaseTables& t = *tables;
  std::map<int64_t, TopicStats> stats;
  uint64_t count = 0;
  std::optional<int64_t> first, last;
  // The timestamps alone, never the data (its overflow pages are not read).
  auto s = prepare(db, "SELECT topic_id, count(*), min(timestamp), max(timestamp) FROM messages GROUP BY topic_id", error);
  if (!s || !run(db, s.get(), [&](sqlite3_stmt* r) {
        TopicStats st;
        st.count = static_cast<uint64_t>(sqlite3_column_int64(r, 1));
        st.first_ns = sqlite3_column_int64(r, 2);
        st.last_ns = sqlite3_column_int64(r, 3);
        stats[sqlite3_column_int64(r, 0)] = st;
        count += st.count;
        first = first ? std::min(*first, st.first_ns) : st.first_ns;
        last = last ? std::max(*last, st.last_ns) : st.last_ns;
      }, error))
    return false;
  t.stats = std::move(stats);
  t.message_count = count;
  t.first_ns = first;
  t.last_ns = last;
  t.topic_stats_read = true;
  return true;
}

bool for_each_message(SqliteReader& db, const std::function<bool(const StoredMessage&)>& visit, std::string* error) {
  auto s = prepare(db, "SELECT id, topic_id, timestamp, data FROM messages ORDER BY id", error);
  if (!s) return false;
  int rc;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    StoredMessage m;
    m.row_id = sqlite3_column_int64(s.get(), 0);
    m.topic_id = sqlite3_column_int64(s.get(), 1);
    m.timestamp_ns = sqlite3_column_int64(s.get(), 2);
    m.data = static_cast<const uint8_t*>(sqlite3_column_blob(s.get(), 3));
    m.size = static_cast<size_t>(sqlite3_column_bytes(s.get(), 3));
    if (!visit(m)) return true;
  }
  if (rc != SQLITE_DONE) {
    if (error) *error = db.last_error();
    return false;
  }
  return true;
}

bool is_zstd_frame(const uint8_t* data, size_t size) {
  return size >= 4 && data[0] == 0x28 && data[1] == 0xB5 && data[2] == 0x2F && data[3] == 0xFD;
}

bool zstd_decompress_message(const uint8_t* data, size_t size, std::vector<uint8_t>* out, std::string* error) {
  out->clear();
  std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
  if (!stream) {
    *error = "zstd: out of memory";
    return false;
  }
  ZSTD_inBuffer in{data, size, 0};
  std::vector<uint8_t> piece(64 * 1024);
  size_t last = 1;
  while (in.pos < in.size || last != 0) {
    ZSTD_outBuffer o{piece.data(), piece.size(), 0};
    size_t before = in.pos;
    last = ZSTD_decompressStream(stream.get(), &o, &in);
    if (ZSTD_isError(last)) {
      *error = std::string("zstd: ") + ZSTD_getErrorName(last);
      return false;
    }
    if (out->size() + o.pos > kMaxMessageBytes) {
      *error = "zstd: the message expands beyond " + std::to_string(kMaxMessageBytes >> 20) + " MB";
      return false;
    }
    out->insert(out->end(), piece.data(), piece.data() + o.pos);
    if (last == 0 && in.pos < in.size) {
      // Another frame follows: rosbag2 writes one per message, but a concatenation is valid zstd.
      continue;
    }
    if (in.pos == before && o.pos == 0) {
      *error = "zstd: the frame is cut short";
      return false;
    }
  }
  return true;
}

std::vector<std::string> integrity_check(SqliteReader& db, int limit, std::string* error) {
  std::vector<std::string> findings;
  auto s = prepare(db, "PRAGMA integrity_check(" + std::to_string(std::max(1, limit)) + ")", error);
  if (!s) return findings;
  if (!run(db, s.get(), [&](sqlite3_stmt* r) { findings.push_back(column_text(r, 0)); }, error)) return findings;
  return findings;
}

}  // namespace logscope::rosbag2
