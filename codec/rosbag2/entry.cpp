// rosbag2's entry: what every module knows. Opening (reading.cpp) links SQLite; recognising a bag
// folder reads its metadata.yaml, so it is there too, with the small demo.
#include "rosbag2/entry.h"

namespace logscope::rosbag2 {

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
  e.read_in_full_module = true;
  e.source = {"topic", "topics"};
  e.operations = {Operation::Export, Operation::Plot};  // CDR by the bag's or a supplied definition (decode.h)
  return e;
}

}  // namespace logscope::rosbag2
