// rosbag2's outputs in the format table: the demo writers (entry.h).
#include "rosbag2/entry.h"
#include "rosbag2/writer.h"

namespace logscope::rosbag2 {

void add_outputs(FormatEntry& e) {
  e.make_small_demo = small_demo_database;
#ifndef __EMSCRIPTEN__  // a bag folder on disk: the wasm build's SQLite has no file system
  e.write_demo = [](const std::string& path, uint64_t target_bytes, std::string* error) {
    return write_demo_bag(path, target_bytes, error);
  };
#endif
}

}  // namespace logscope::rosbag2
