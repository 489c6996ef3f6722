// A realistic demo ULog written by our writer: a multicopter's flight (takeoff, circles around
// home, landing when the battery runs low, or when the size is reached) with attitude, two
// accelerometer instances, local and global position, a nested setpoint triplet, battery,
// vehicle status with a char[N] field, logged strings plain and tagged, parameters with defaults
// and a change in flight, info and multi-info, syncs and a dropout. Streamed: bounded memory at any size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/output_sink.h"

namespace logscope::ulog {

// About `target_bytes` (at least a few seconds of flight).
bool write_demo(OutputSink& sink, uint64_t target_bytes, std::string* error);
bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error);
// The format table's small demo: a short flight of a few KB with every message type.
std::vector<uint8_t> tiny_file();

}  // namespace logscope::ulog
