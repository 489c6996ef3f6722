#pragma once

#include <memory>

#include "core/detect.h"
#include "core/inspector.h"

namespace logscope::rosbag {

struct Bag;
enum class Format;  // the bag's version (model.h)

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, Format format);

// The opened bag behind an inspector from open_inspector(), for tools that need more than the
// FormatInspector interface (benchmarks, white-box tests). Null for another format's inspector.
Bag* opened_bag(FormatInspector& inspector);

}  // namespace logscope::rosbag
