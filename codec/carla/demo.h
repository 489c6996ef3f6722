// A realistic demo recording (Town03, 20 Hz, a hero car with a collision sensor, traffic,
// pedestrians, traffic lights, a blocked car and two collisions), written with our writer.
#pragma once

#include <cstdint>
#include <string>

namespace logscope::carla {

// Writes about `target_bytes` (at least a few frames) to `path`, streaming in bounded memory.
bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error);

}  // namespace logscope::carla
