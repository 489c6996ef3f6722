// Export of one topic of a bag, flattened (rosbag/flatten.h), in a time range: only the chunks that
// hold the topic in range are read (through the index where there is one), one at a time.
#pragma once

#include <string>

#include "core/byte_source.h"
#include "core/export.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

// Columns: `time_ns` (the receive time), then the message's flattened fields.
ExportResult export_topic(ByteSource& source, Bag& bag, const std::string& topic, const ExportRequest& request,
                          ExportSink& sink, const ProgressFn& progress = nullptr);

}  // namespace logscope::rosbag
