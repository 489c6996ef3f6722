// A camera for the images bench's inputs (bench/browser-images.mjs): 640 x 480 rgb8 frames of a
// scene that moves, at 30 Hz, and the JPEG files a folder holds, for the demo writers of each
// format (make-demo-camera-bag, -mcap, -rosbag2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace logscope::cli {

constexpr uint32_t kCameraWidth = 640, kCameraHeight = 480;
constexpr uint64_t kCameraStart = 1767225600000000000ull;  // 2026-01-01
constexpr uint64_t kCameraPeriod = 33333333ull;           // 30 Hz

// Frame `index` as rgb8 rows without padding: a gradient that pans, a square that crosses it.
std::string camera_rgb8(uint64_t index);

// The .jpg / .jpeg files of `folder`, sorted by name, read whole; empty with `error`.
std::vector<std::string> camera_jpegs(const std::string& folder, std::string* error);

// The --size-mb flag of a camera writer as bytes; false with `error`.
bool camera_size(const std::string& text, uint64_t* bytes, std::string* error);

}  // namespace logscope::cli
