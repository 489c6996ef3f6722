// A rosbag2 bag opened from a Folder (core/folder.h): metadata.yaml when there is one, and its
// SQLite databases in split order, each with its -wal when one lies beside it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/folder.h"
#include "core/report.h"
#include "rosbag2/database.h"
#include "rosbag2/metadata.h"
#include "rosbag2/sqlite_vfs.h"

namespace logscope::rosbag2 {

struct BagFile {
  std::string name;      // in the folder
  std::string wal_name;  // "" when there is no -wal beside it
  uint64_t size = 0, wal_size = 0;
  bool wal_mode = false;     // the database header says WAL (bytes 18/19 = 2)
  bool zstd_file = false;    // a whole-file zstd .db3.zstd: not opened
  std::unique_ptr<ByteSource> source, wal;
  std::unique_ptr<SqliteReader> reader;
  bool tables_read = false;
  DatabaseTables tables;
  bool topic_stats_tried = false;  // read_topic_stats ran (tables.topic_stats_read: and succeeded)
  std::string error;  // why it could not be opened or read
};

struct Bag {
  std::string folder_name;
  bool has_yaml = false;
  std::optional<BagMetadata> metadata;
  std::string yaml_error;
  std::vector<BagFile> files;  // in split order
  std::vector<std::string> missing_files;  // named by the yaml, not in the folder
  std::vector<std::string> extra_files;    // databases in the folder the yaml does not name
  bool message_compression = false;        // the yaml says compression_mode MESSAGE
  std::vector<Problem> problems;           // found while opening

  uint64_t total_size() const;
};

// A folder's metadata.yaml as read: absent, read in whole or in part, or not at all. Its problems
// are warnings naming the yaml's line: the bag is read from its files whatever the yaml says.
struct FolderYaml {
  bool present = false;
  std::optional<BagMetadata> metadata;
  std::vector<Problem> problems;
};
FolderYaml read_folder_yaml(Folder& folder);

// The storage of the bag a folder holds, "sqlite3" or "mcap"; none when it is no bag. Whether it
// is one is the entry's folder rule (bag_folder_rule, entry.cpp), by file names alone: a folder
// that holds a metadata.yaml (whatever is in it) or .db3/.db3.zstd files is a bag, and so is one
// with .mcap files named as rosbag2 names its splits (`<folder>_<N>.mcap`) or a file beside its
// -wal/-shm (the 2018 `test.bag`). Where the yaml's storage_identifier and the files disagree,
// the files decide. `yaml`: the folder's, when already read.
std::optional<std::string> bag_storage(Folder& folder, const FolderYaml* yaml = nullptr);
// A warning when the yaml names another storage than the one read.
void check_storage(const FolderYaml& yaml, const std::string& storage, std::vector<Problem>* problems);

// The bag's files in split order: those relative_file_paths names that are in the folder, then
// the folder's files of the storage it does not name (by split index). A file named and absent,
// or there and not named, is a warning with both sides; the bag is read from the files there.
struct SplitFiles {
  std::vector<std::string> order, missing, extra;
};
SplitFiles split_files(const std::vector<std::string>& names, const BagMetadata* metadata, const std::string& storage,
                       std::vector<Problem>* problems);
// Opens every file; never fails: what is wrong is in `problems`.
std::unique_ptr<Bag> open_bag(Folder& folder);

// Reads every database's per-topic stats that is not read yet (DatabaseTables::stats): a pass
// over each messages table's leaves. A failure is a problem of the bag.
void read_topic_stats(Bag& bag);
// True when every readable database's per-topic stats are read.
bool topic_stats_read(const Bag& bag);

// A file name's split index (`name_3.db3` -> 3), or none.
std::optional<uint64_t> split_index(const std::string& file);
// `s` ends with `tail`; the part of a path after its last '/'.
bool ends_with(const std::string& s, const std::string& tail);
std::string base_name(const std::string& path);

}  // namespace logscope::rosbag2

namespace logscope::rosbag2 {

// One message of the bag as the user sees it: per-message zstd decoded (when the yaml says
// compression_mode MESSAGE, or the bytes start with zstd's frame magic).
struct BagMessage {
  size_t file = 0;  // index in Bag::files
  const Topic* topic = nullptr;  // null: its topic_id has no topic in that database
  StoredMessage stored;
  const uint8_t* data = nullptr;  // decoded bytes, valid during the callback
  size_t size = 0;
  bool decompressed = false;
  std::string decode_error;  // the zstd frame that did not decode (data is then the stored bytes)
};
// Every message of every readable database, file by file in rowid order. False with `error`
// (naming the file) when SQLite fails midway; the callback returns false to stop.
bool for_each_bag_message(Bag& bag, const std::function<bool(const BagMessage&)>& visit, std::string* error);

}  // namespace logscope::rosbag2
