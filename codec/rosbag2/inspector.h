// The rosbag2 FormatInspector: a bag folder (metadata.yaml and its .db3 files) or one database
// given alone. Summary and info from the tables (sqlite_vfs.h reads only the pages SQLite asks
// for), check in doctor.cpp.
#pragma once

#include <memory>

#include "core/folder.h"
#include "core/inspector.h"

namespace logscope::rosbag2 {

struct Bag;

// A bag over `folder`, which must outlive the inspector.
std::unique_ptr<FormatInspector> open_folder_inspector(Folder& folder);
// One database alone (the format table's `open`): a folder of that one file.
std::unique_ptr<FormatInspector> open_inspector(ByteSource& source);

// The pages of each database's timestamp_idx, level by level, that the first view's count reads
// (first_reads.cpp; the format table's plan_first_reads).
std::unique_ptr<FolderReadPlan> plan_first_reads(Folder& folder);

// The bag behind an inspector from these, for tests; null for another format's inspector.
Bag* bag_of(FormatInspector& inspector);

}  // namespace logscope::rosbag2
