// rosbag2's entry in the format table (core/format_table.h): a bag folder of SQLite databases.
#pragma once

#include "core/format_table.h"

namespace logscope::rosbag2 {
FormatEntry format_entry();
}
