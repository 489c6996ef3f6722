// rosbag2 folders that store MCAP (metadata.yaml with `storage_identifier: mcap`, `<name>_N.mcap`
// split files): one bag read through the MCAP reader (codec/mcap), split by split, merged into one
// summary, one topic table (counts summed by topic name), one timeline, and a topic's export, plot
// and decoded pages across the splits; the check adds the yaml against the splits.
#pragma once

#include <memory>

#include "core/folder.h"
#include "core/inspector.h"

namespace logscope::rosbag2 {

// The bag over `folder`, which must outlive it; never fails: what is wrong is in its problems.
std::unique_ptr<FormatInspector> open_mcap_bag_inspector(Folder& folder);

}  // namespace logscope::rosbag2
