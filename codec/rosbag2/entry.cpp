// rosbag2's entry: what every module knows. Opening (reading.cpp) links SQLite; recognising a bag
// folder reads its metadata.yaml, so it is there too, with the small demo.
#include "rosbag2/entry.h"

namespace logscope::rosbag2 {

const FolderRule& bag_folder_rule() {
  static const FolderRule rule = [] {
    FolderRule r;
    r.names = {"metadata.yaml"};        // whatever it holds: the bag is then read from its files
    r.endings = {".db3", ".db3.zstd"};  // databases, and whole-file zstd ones (compression_mode FILE)
    // A database of any name beside its WAL files (the 2018 bag named test.bag).
    r.companions = {"-wal", "-shm"};
    // Without a yaml, .mcap files are a bag only as rosbag2 names its splits: a folder of
    // unrelated MCAP files is not one log.
    r.split_endings = {".mcap"};
    r.split_digits = 9;  // as split_index (bag.h) reads them
    return r;
  }();
  return rule;
}

FormatEntry format_entry() {
  FormatEntry e;
  e.name = "rosbag2";
  e.label = "rosbag2";
  e.summary = "rosbag2 bag folders of SQLite databases (.db3; schema versions 1-4, metadata.yaml up to 9, per-message zstd)";
  // Any SQLite database: a bag's tables are only known once SQLite reads its schema, and the
  // inspector says so when they are not there.
  e.match = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::Match> {
    if (!starts_with_magic(head, std::string_view("SQLite format 3\0", 16)) || size < 100) return std::nullopt;
    return FormatEntry::Match{"sqlite3", "rosbag2 (SQLite)"};
  };
  e.near_miss = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::NearMiss> {
    std::string_view magic("SQLite format 3\0", 16);
    if (is_cut_magic(head, magic) || (starts_with_magic(head, magic) && size < 100))
      return FormatEntry::NearMiss{"truncated-header", "an SQLite database cut inside its 100-byte header"};
    return std::nullopt;
  };
  e.file_endings = {".db3"};
  e.recovery_codes = {"rosbag2.db.integrity", "rosbag2.messages.unreadable", "rosbag2.file.missing"};
  e.shape = LogShape::Folder;
  e.folder_rule = bag_folder_rule();
  e.read_in_full_module = true;
  e.source = {"topic", "topics"};
  e.operations = {Operation::Export, Operation::Plot};  // CDR by the bag's or a supplied definition (decode.h)
  return e;
}

}  // namespace logscope::rosbag2
