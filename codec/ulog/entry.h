// ULog's entry in the format table, listed in codec/formats.cpp.
#pragma once

#include "core/format_table.h"

namespace logscope::ulog {
// The format's reading entry (entry.cpp).
FormatEntry format_entry();
// Adds repair and the demo writers (outputs.cpp).
void add_outputs(FormatEntry& entry);
}  // namespace logscope::ulog
