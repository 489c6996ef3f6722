// Opens the right FormatInspector for a file, chosen by content (core/detect.h).
#pragma once

#include <memory>

#include "core/detect.h"
#include "core/inspector.h"

namespace logscope {

// Null when the detection names no known format. The inspector reads through `source`,
// which must outlive it.
std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, const Detection& detection);

// The same for a log that is a folder (core/folder.h, detect_folder); `folder` must outlive it.
class Folder;
std::unique_ptr<FormatInspector> open_folder_inspector(Folder& folder, const Detection& detection);

}  // namespace logscope
