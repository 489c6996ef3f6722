// rosbag2's entry in the format table (core/format_table.h): a bag folder of SQLite databases.
// Its reading links SQLite, so the page reads it in the full module (codec/formats.cpp).
#pragma once

#include "core/format_table.h"

namespace logscope::rosbag2 {
// What any module knows: names, detection, endings, the bag folder rule (entry.cpp).
FormatEntry format_entry();
// The file names that make a folder a bag (entry.cpp): the entry's folder_rule, which bag_storage
// (bag.h) applies and the page reads from the table.
const FolderRule& bag_folder_rule();
// Opening a database or a bag folder through SQLite, recognising a bag folder, the small demo (reading.cpp).
void add_reading(FormatEntry& entry);
// The demo writers (outputs.cpp).
void add_outputs(FormatEntry& entry);
}  // namespace logscope::rosbag2
