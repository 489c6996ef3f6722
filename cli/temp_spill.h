// The CLI's temporary files: a download's copy, and scratch storage for writers (core/spill.h).
#pragma once

#include <memory>
#include <string>

#include "core/spill.h"

namespace logscope {

// A new file in $TMPDIR (or /tmp) named `prefix` and six random characters, open for reading and
// writing; its path in `path`. -1, with `error`, when none can be made.
int make_temp_file(const std::string& prefix, std::string* path, std::string* error);

// Null, with `error`, when no temporary file can be made.
std::unique_ptr<SpillFile> open_temp_spill(std::string* error);

}  // namespace logscope
