#pragma once

#include <memory>

#include "core/detect.h"
#include "core/inspector.h"

namespace logscope::rosbag {

// `format` is one of Format::RosbagV20, RosbagV12, RosbagV11.
std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, Format format);

}  // namespace logscope::rosbag
