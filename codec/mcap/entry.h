// MCAP's entry in the format table, listed in codec/formats.cpp.
#pragma once

#include "core/format_table.h"

namespace logscope::mcap {
FormatEntry format_entry();
}  // namespace logscope::mcap
