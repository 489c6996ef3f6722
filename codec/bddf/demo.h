// A realistic demo BDDF file written with our writer: a Spot-like log with robot state,
// camera images, operator comments and POD sensor series, streamed to disk in bounded memory.
#pragma once

#include <cstdint>
#include <string>

namespace logscope::bddf {

// Writes about `target_bytes` (at least a few seconds of log) to `path`.
bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error);

}  // namespace logscope::bddf
