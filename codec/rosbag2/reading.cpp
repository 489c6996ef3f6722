// rosbag2's reading in the format table: a database or a bag folder opened through SQLite (entry.h).
#include "rosbag2/entry.h"
#include "rosbag2/inspector.h"

namespace logscope::rosbag2 {

void add_reading(FormatEntry& e) {
  e.open_folder = [](Folder& folder, const Detection&) { return open_folder_inspector(folder); };
  e.open = [](ByteSource& source, const Detection&) { return open_inspector(source); };
}

}  // namespace logscope::rosbag2
