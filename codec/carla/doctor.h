// The doctor's second pass: references between actors (destroy, parent, position, collision)
// that point at actors the log never created.
#pragma once

#include <vector>

#include "carla/model.h"
#include "core/byte_source.h"
#include "core/report.h"

namespace logscope::carla {

std::vector<Problem> check_actor_references(ByteSource& source, const ScanResult& scan, const ProgressFn& progress, bool* cancelled);

}  // namespace logscope::carla
