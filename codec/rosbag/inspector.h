#pragma once

#include <memory>

#include "core/detect.h"
#include "core/inspector.h"

namespace logscope::rosbag {

// `format` is one of Format::RosbagV20, RosbagV12, RosbagV11.
struct Bag;

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, Format format);

// The opened bag behind an inspector from open_inspector(), for tools that need more than the
// FormatInspector interface (benchmarks, white-box tests). Null for another format's inspector.
Bag* opened_bag(FormatInspector& inspector);

}  // namespace logscope::rosbag
