#pragma once

#include <memory>

#include "core/inspector.h"

namespace logscope::bddf {

struct FileModel;

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source);

// The opened index behind an inspector from open_inspector(), for tools that need more than the
// FormatInspector interface (benchmarks, white-box tests). Null for another format's inspector.
const FileModel* file_model(const FormatInspector& inspector);

}  // namespace logscope::bddf
