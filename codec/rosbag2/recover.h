// Salvage of a damaged database with SQLite's recovery extension (ext/recover, compiled from
// Debian's source with the dbpage table): the rows it finds are written to an in-memory database
// (the memdb VFS), never to the input, and counted per topic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rosbag2/sqlite_vfs.h"

namespace logscope::rosbag2 {

struct RecoveredTopic {
  std::string name;  // "topic_id N" when the topics table lost that row
  int64_t topic_id = 0;
  uint64_t messages = 0;
};

struct Recovered {
  bool ok = false;
  std::string error;
  uint64_t messages = 0;
  std::vector<RecoveredTopic> topics;
  std::vector<uint8_t> database;  // the recovered database's bytes (sqlite3_serialize), for repair
};

// Runs sqlite3_recover over `input` (read-only) into memory.
Recovered recover_database(SqliteReader& input);

}  // namespace logscope::rosbag2
