// The ULog FormatInspector: what the format table opens for files looks_like_ulog() (format.h)
// accepts.
#pragma once

#include <memory>

#include "core/inspector.h"

namespace logscope::ulog {

struct FileModel;

// Reads the file in one streamed pass (reader.h); never fails: damage is in the reports.
std::unique_ptr<FormatInspector> open_inspector(ByteSource& source);

// The model behind an inspector from open_inspector(), for tests; null for another format's.
const FileModel* file_model(FormatInspector& inspector);

}  // namespace logscope::ulog
