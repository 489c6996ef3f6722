// rosbag2's reading in the format table: a database or a bag folder opened through SQLite, a bag
// folder recognised by its files and metadata.yaml, and the small demo (entry.h). The page's view
// module has none of it: the full module reads rosbag2 (codec/formats.cpp).
#include <iterator>

#include "rosbag2/bag.h"
#include "rosbag2/entry.h"
#include "rosbag2/inspector.h"
#include "rosbag2/mcap_folder.h"

namespace logscope::rosbag2 {
namespace {

// A schema-4 database with definitions, two topics. Written by make_small_demo (outputs.cpp).
const uint8_t kSmallDemo[] = {
#include "rosbag2/small_demo.inc"
};

}  // namespace

void add_reading(FormatEntry& e) {
  e.match_folder = [](Folder& folder) -> std::optional<FormatEntry::Match> {
    // The storage says which reader opens it: SQLite's (inspector.h) or MCAP's (mcap_folder.h).
    std::optional<std::string> storage = bag_storage(folder);
    if (!storage) return std::nullopt;
    if (*storage == "mcap") return FormatEntry::Match{"mcap", "rosbag2 (MCAP)"};
    return FormatEntry::Match{"sqlite3", "rosbag2 (SQLite)"};
  };
  e.open_folder = [](Folder& folder, const Detection& detection) {
    return detection.version == "mcap" ? open_mcap_bag_inspector(folder) : open_folder_inspector(folder);
  };
  e.plan_first_reads = [](Folder& folder) { return plan_first_reads(folder); };
  e.open = [](ByteSource& source, const Detection&) { return open_inspector(source); };
  e.small_demo = [] { return std::vector<uint8_t>(std::begin(kSmallDemo), std::end(kSmallDemo)); };
}

}  // namespace logscope::rosbag2
