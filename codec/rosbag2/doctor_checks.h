// The parts of `logscope check` for a rosbag2 bag that name where damage is (the file, the
// table, the page) and what the plain row pass does not see (doctor.cpp calls them): a database
// cut short against its header's page count, the table each integrity finding's page belongs to,
// duplicate messages, definitions that are missing, and the yaml's span and file list against
// the databases.
#pragma once

#include <string>
#include <vector>

#include "core/report.h"
#include "rosbag2/bag.h"

namespace logscope::rosbag2 {

// The header's page count against the file's size: `rosbag2.db.truncated`, naming the page the
// file ends in. Returns true when the file is cut short.
bool check_truncation(BagFile& file, Report& r);

// SQLite's integrity findings ("On tree page 12 cell 3: ...") with the table or index that owns
// each page named (through the sqlite_dbptr table of ext/recover's dbdata.c).
// Each with the offset of its page in the file (0 when it names none).
struct NamedFinding {
  uint64_t offset = 0;
  std::string text;
};
std::vector<NamedFinding> name_integrity_findings(BagFile& file, const std::vector<std::string>& findings);

// A database whose tables could not be read (rosbag2.db.tables): which of rosbag2's tables
// SQLite fails on, each read in full (`rosbag2.db.table_unreadable`, naming file and table).
void check_tables_readable(BagFile& file, Report& r);

// Duplicates (same topic, time and bytes), definitions missing for a topic's type, the yaml's
// span and files against the databases.
void check_duplicates(Bag& bag, Report& r);
void check_definitions(Bag& bag, Report& r);
void check_yaml_span(Bag& bag, Report& r);

}  // namespace logscope::rosbag2
