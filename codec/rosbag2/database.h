// One rosbag2 SQLite database (.db3): its tables read through SqliteReader (sqlite_vfs.h), for
// schema versions 1 to 4 (docs/rosbag2.md): `topics`, `messages`, `schema`, `metadata`,
// `message_definitions`. Columns a version lacks are left empty, never guessed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/report.h"
#include "rosbag2/sqlite_vfs.h"

namespace logscope::rosbag2 {

struct Topic {
  int64_t id = 0;
  std::string name, type, serialization_format, offered_qos_profiles, type_description_hash;
};

struct Definition {  // message_definitions (schema version 4)
  std::string topic_type, encoding, encoded_message_definition, type_description_hash;
};

struct TopicStats {
  uint64_t count = 0;
  int64_t first_ns = 0, last_ns = 0;
};

struct DatabaseTables {
  bool has_schema_table = false;
  std::optional<int64_t> schema_version;  // from `schema`; none in older layouts
  std::string ros_distro;
  std::vector<std::string> topic_columns;  // what `topics` has, in order
  std::vector<Topic> topics;
  std::vector<Definition> definitions;
  bool has_definitions_table = false;
  std::vector<std::string> stored_metadata;  // `metadata` rows (the yaml rosbag2 also keeps inside, v3+)
  bool has_messages_table = false;
  bool has_timestamp_index = false;
  // The totals, from timestamp_idx where there is one: count(*) walks the index's leaves only
  // and min/max are two seeks, never the table's pages.
  uint64_t message_count = 0;
  std::optional<int64_t> first_ns, last_ns;
  // Per topic_id: only the table's leaves hold topic_id, a pass over them all (about 7 % of a
  // bag of camera frames, where most bytes lie in overflow pages it skips), so it is read on
  // first use (read_topic_stats); at once when there is no timestamp_idx to count with.
  bool topic_stats_read = false;
  std::map<int64_t, TopicStats> stats;  // by topic_id, every id that has messages
};

// The first column of the first row `sql` gives, as an integer; none without a row or on an error.
std::optional<int64_t> query_integer(SqliteReader& db, const std::string& sql, std::string* error);

// Reads every table but the messages' data and the per-topic stats; false with `error` when a
// required table (`topics`, `messages`) is missing or SQLite fails.
bool read_tables(SqliteReader& db, DatabaseTables* out, std::string* error);
// The first and the last `limit` rows by timestamp_idx (a few pages each): per topic_id the
// earliest time among the first rows and the latest among the last; `bound_first` is the last
// time walked forward (a topic not met has no row before it), `bound_last` the last walked
// backward; `whole` when the walks met every row. Needs timestamp_idx.
struct IndexEnds {
  std::map<int64_t, int64_t> first, last;
  int64_t bound_first = 0, bound_last = 0;
  bool whole = false;
};
bool walk_index_ends(SqliteReader& db, int limit, IndexEnds* out, std::string* error);
// Fills `stats` (count, first and last per topic_id) with one pass over the messages table.
bool read_topic_stats(SqliteReader& db, DatabaseTables* tables, std::string* error);

// A message as stored; `data` is valid only during the callback.
struct StoredMessage {
  int64_t row_id = 0;
  int64_t topic_id = 0;
  int64_t timestamp_ns = 0;
  const uint8_t* data = nullptr;
  size_t size = 0;
};
// Every row of `messages` in rowid order; the callback returns false to stop. False with `error`
// when SQLite fails midway (damage).
bool for_each_message(SqliteReader& db, const std::function<bool(const StoredMessage&)>& visit, std::string* error);

// zstd: does `data` start with a zstd frame's magic; decompress one message (capped, never
// trusting the frame's size for an allocation beyond kMaxMessageBytes).
constexpr size_t kMaxMessageBytes = 512u * 1024 * 1024;
bool is_zstd_frame(const uint8_t* data, size_t size);
bool zstd_decompress_message(const uint8_t* data, size_t size, std::vector<uint8_t>* out, std::string* error);

// SQLite's own integrity check ("ok", or its findings, at most `limit`).
std::vector<std::string> integrity_check(SqliteReader& db, int limit, std::string* error);

}  // namespace logscope::rosbag2
