// A read-only SQLite VFS over ByteSource: SQLite asks for pages through xRead, so a 10 GB .db3 is
// never loaded and a remote one is read by Range. A `-wal` beside the database is applied from a
// second ByteSource; SQLite then keeps the WAL's index in heap memory (locking_mode=EXCLUSIVE
// before the first read), so no -shm is read or written. Nothing is ever written: checkpoints and
// deletions are refused or ignored.
#pragma once

#include <memory>
#include <string>

#include "core/byte_source.h"

struct sqlite3;

namespace logscope::rosbag2 {

// One read-only connection to a database held in `db` (and its WAL in `wal`, or none). Both
// sources must outlive it.
class SqliteReader {
 public:
  // Null with `error` set when SQLite refuses the database (not SQLite, header damaged...).
  static std::unique_ptr<SqliteReader> open(ByteSource& db, ByteSource* wal, std::string* error);
  ~SqliteReader();
  SqliteReader(const SqliteReader&) = delete;
  SqliteReader& operator=(const SqliteReader&) = delete;

  sqlite3* handle() const { return db_; }
  // SQLite's last error text on this connection.
  std::string last_error() const;

 private:
  SqliteReader() = default;
  sqlite3* db_ = nullptr;
  std::string name_;  // the VFS's name for this database
};

// The VFS's name ("logscope-bytes"); registered on first use.
const char* byte_source_vfs_name();

}  // namespace logscope::rosbag2
