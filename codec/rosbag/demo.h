// A realistic demo bag (an outdoor wheeled robot: IMU, odometry, lidar, TF, GPS, camera, cmd_vel,
// rosout) written with our writer, streamed to disk in bounded memory.
#pragma once

#include <cstdint>
#include <string>

namespace logscope::rosbag {

struct DemoOptions {
  std::string compression = "lz4";  // none, lz4, bz2
  // Benchmark mode: 5 M-message style bags of tiny std_msgs/Int32-like messages on a few topics.
  bool tiny = false;
  int version = 200;  // 200 or 102
};

bool write_demo_file(const std::string& path, uint64_t target_bytes, std::string* error);
bool write_demo_file(const std::string& path, uint64_t target_bytes, const DemoOptions& options, std::string* error);

}  // namespace logscope::rosbag
