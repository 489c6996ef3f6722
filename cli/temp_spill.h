// The CLI's scratch storage for writers (core/spill.h): an unnamed file in $TMPDIR or /tmp.
#pragma once

#include <memory>
#include <string>

#include "core/spill.h"

namespace logscope {

// Null, with `error`, when no temporary file can be made.
std::unique_ptr<SpillFile> open_temp_spill(std::string* error);

}  // namespace logscope
