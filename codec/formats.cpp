// The format table's list: one line per format, in the order detection tries them. Adding a
// format is a folder in codec/ with its entry.cpp and outputs.cpp, and a line here
// (docs/architecture.md).
//
// The page's view module is built with LOGSCOPE_VIEW_ONLY: its entries carry no outputs, so it
// links no writer and no compressor; the job worker's module and the CLI link them (CMakeLists.txt).
#include "core/format_table.h"

#include "bddf/entry.h"
#include "carla/entry.h"
#include "mcap/entry.h"
#include "rosbag/entry.h"
#include "rosbag2/entry.h"
#include "ulog/entry.h"

// A format whose reading links a big library (SQLite) is read in the page's full module: the view
// module lists its entry (detection, labels) without its reading (add_reading).
#ifdef LOGSCOPE_VIEW_ONLY
#define LOGSCOPE_FORMAT(name) name::format_entry()
#define LOGSCOPE_FORMAT_READ_IN_FULL_MODULE(name) name::format_entry()
#else
#define LOGSCOPE_FORMAT(name) with_parts(name::format_entry(), {name::add_outputs})
#define LOGSCOPE_FORMAT_READ_IN_FULL_MODULE(name) with_parts(name::format_entry(), {name::add_reading, name::add_outputs})
#endif

namespace logscope {

std::vector<FormatEntry> builtin_formats() {
  return {
      LOGSCOPE_FORMAT(bddf),
      LOGSCOPE_FORMAT(rosbag),
      LOGSCOPE_FORMAT(carla),
      LOGSCOPE_FORMAT(mcap),
      LOGSCOPE_FORMAT_READ_IN_FULL_MODULE(rosbag2),
      LOGSCOPE_FORMAT(ulog),
  };
}

}  // namespace logscope
