// `logscope repair` of a rosbag2 bag: each database salvaged by SQLite's recovery extension
// (recover.h) into a new database, made a rosbag2 database again (its tables, rows the recovery
// could only file under lost_and_found put back where their shape says they belong, messages
// whose topic row is lost set aside), and a metadata.yaml written from the rows that came back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/extract.h"
#include "core/folder.h"
#include "core/output_sink.h"
#include "rosbag2/bag.h"
#include "rosbag2/recover.h"

struct sqlite3;

namespace logscope::rosbag2 {

struct RepairedDatabase {
  std::string recover_error;       // what sqlite3_recover reported (rows may still have come back)
  uint64_t messages = 0;           // in `messages` once repaired
  uint64_t rehomed_messages = 0;   // lost_and_found rows of the messages' shape, put back
  uint64_t rehomed_topics = 0;     // idem for topics
  uint64_t refilled_messages = 0;  // read from the b-tree of a damaged schema entry (repair_raw.cpp)
  uint64_t refilled_topics = 0;
  uint64_t orphan_messages = 0;    // topic_id without a topics row: moved to table orphan_messages
  uint64_t lost_and_found = 0;     // rows the recovery could not attribute, kept in lost_and_found
  std::vector<RecoveredTopic> topics;  // messages per topic once repaired
};

// The table the repair moves messages to whose topic_id has no topics row: kept, not in the bag.
constexpr const char* kOrphanTable = "orphan_messages";

// Recovers `input` into the database at `out_uri` (a new file natively, or a memdb URI), then
// makes it a rosbag2 database. False with `error` when nothing usable was written.
bool repair_database(SqliteReader& input, const std::string& out_uri, RepairedDatabase* out, std::string* error);

// The bag in `folder` into a new bag folder `out_dir` (native; created, must be empty): every
// database SQLite can open repaired under its own name, and metadata.yaml from what came back.
ExtractResult repair_bag(Folder& folder, const std::string& out_dir, const ProgressFn& progress);

// One database (no -wal) repaired through memory into `out`: the format table's one-file repair.
ExtractResult repair_single_database(ByteSource& source, OutputSink& out);

// metadata.yaml (version 8) describing the bag as its databases are (`bag` opened from the
// repaired folder); `original` supplies what the databases do not hold (compression, distro).
std::string metadata_yaml_of(const Bag& bag, const BagMetadata* original);

// Rows of `table` that SQLite's recovery skipped because its schema entry is damaged, read cell by
// cell from the b-tree under the root page that entry still names, into `out`'s `table` when
// they have `columns`' shape (`types`: SQLITE_NULL for the id, which is the rowid); with
// `every_page`, also every cell of that shape anywhere in the file. Returns how many were added.
uint64_t refill_from_root(sqlite3* input, sqlite3* out, const std::string& table, const std::vector<std::string>& columns,
                          const std::vector<int>& types, bool every_page);

// "kept"/"dropped" lines for one repaired database.
void describe_repair(const std::string& file, const RepairedDatabase& repaired, ExtractResult* result);

}  // namespace logscope::rosbag2
