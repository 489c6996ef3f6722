// The MCAP FormatInspector: what the detection table registers for files looks_like_mcap()
// (format.h) accepts.
#pragma once

#include <memory>

#include "core/inspector.h"

namespace logscope::mcap {

struct FileModel;

// Opens the file index first (reader.h); never fails: damage is in the reports.
std::unique_ptr<FormatInspector> open_inspector(ByteSource& source);

// The opened model behind an inspector from open_inspector(), for tests and tools that need more
// than the FormatInspector interface. Null for another format's inspector.
const FileModel* file_model(FormatInspector& inspector);

}  // namespace logscope::mcap
