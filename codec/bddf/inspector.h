#pragma once

#include <memory>

#include "core/inspector.h"

namespace logscope::bddf {

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source);

}  // namespace logscope::bddf
