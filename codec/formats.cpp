// The format table's list: one line per format, in the order detection tries them. Adding a
// format is a folder in codec/ with its entry.cpp, and a line here (docs/architecture.md).
#include "core/format_table.h"

#include "bddf/entry.h"
#include "carla/entry.h"
#include "mcap/entry.h"
#include "rosbag/entry.h"
#include "rosbag2/entry.h"

namespace logscope {

std::vector<FormatEntry> builtin_formats() {
  return {
      bddf::format_entry(),
      rosbag::format_entry(),
      carla::format_entry(),
      mcap::format_entry(),
      rosbag2::format_entry(),
  };
}

}  // namespace logscope
