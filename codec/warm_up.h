// Runs the opening path once on small files of every format, written in memory by our own
// writers. A browser compiles a wasm function the first time it is called, so without this the
// first file a user opens pays for compiling the whole open-and-summary path (measured: the
// summary of a 1 GB bag went from about 10 to 70 ms in a fresh page).
#pragma once

#include <cstddef>

namespace logscope {

// Opens and summarises the small demo of the format at `index` of the table. True when it opened
// cleanly (known, summarised without errors or warnings), as every format's should unless the
// writers and readers disagree, which the tests would catch; false past the table's end, or without
// a small demo. The page warms up one format at a time, so a file asked for meanwhile waits for one only.
bool warm_up_format(size_t index);

}  // namespace logscope
