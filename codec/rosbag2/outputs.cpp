// rosbag2's outputs in the format table: the demo writers and repair (entry.h, repair.h).
#include "rosbag2/entry.h"
#include "rosbag2/repair.h"
#include "rosbag2/writer.h"

namespace logscope::rosbag2 {

void add_outputs(FormatEntry& e) {
  e.make_small_demo = small_demo_database;
#ifndef __EMSCRIPTEN__  // a bag folder on disk: the wasm build's SQLite has no file system
  e.write_demo = [](const std::string& path, uint64_t target_bytes, std::string* error) {
    return write_demo_bag(path, target_bytes, error);
  };
  e.repair_folder = [](Folder& folder, const Detection& detection, const std::string& out_folder, const ProgressFn& progress) {
    if (detection.version == "mcap") {
      ExtractResult refused;
      refused.error = "this bag stores MCAP: repair each split with `logscope repair NAME_N.mcap OUT.mcap`";
      return refused;
    }
    return repair_bag(folder, out_folder, progress);
  };
#endif
  // One database alone, through memory (the page, or a .db3 given without its folder).
  e.repair = [](ByteSource& source, const Detection&, const ExtractSelection&, OutputSink& out, const ProgressFn&) {
    return repair_single_database(source, out);
  };
  e.operations.push_back(Operation::Repair);
  e.repair_summary =
      "A new bag folder: each database salvaged by SQLite's recovery extension (rows on undamaged pages, byte for byte), "
      "with the rosbag2 tables, and a metadata.yaml counted from the rows that came back; rows per topic are listed.";
}

}  // namespace logscope::rosbag2
