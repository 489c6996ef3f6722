#include "demo_camera.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "command.h"

namespace logscope::cli {

std::string camera_rgb8(uint64_t index) {
  std::string pixels(size_t{kCameraWidth} * kCameraHeight * 3, '\0');
  const uint32_t square = static_cast<uint32_t>((index * 8) % (kCameraWidth - 64));
  for (uint32_t y = 0; y < kCameraHeight; ++y) {
    char* row = &pixels[size_t{y} * kCameraWidth * 3];
    for (uint32_t x = 0; x < kCameraWidth; ++x) {
      const bool in_square = x >= square && x < square + 64 && y >= 208 && y < 272;
      row[3 * x] = static_cast<char>(in_square ? 255 : (x + index * 4) & 0xff);
      row[3 * x + 1] = static_cast<char>(in_square ? 255 : (y / 2) & 0xff);
      row[3 * x + 2] = static_cast<char>(in_square ? 255 : (x ^ y) & 0xff);
    }
  }
  return pixels;
}

std::vector<std::string> camera_jpegs(const std::string& folder, std::string* error) {
  std::vector<std::string> names, files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".jpg" || ext == ".jpeg") names.push_back(entry.path().string());
  }
  if (ec) return *error = folder + ": " + ec.message(), files;
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    std::ifstream in(name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || text.str().size() < 4) return *error = name + ": cannot read the JPEG", std::vector<std::string>();
    files.push_back(text.str());
  }
  if (files.empty()) *error = folder + ": no .jpg file";
  return files;
}

bool camera_size(const std::string& text, uint64_t* bytes, std::string* error) {
  double mb = 0;
  if (!parse_double(text, &mb) || mb <= 0 || mb > 1e6) return *error = "--size-mb needs a positive number of MB", false;
  *bytes = static_cast<uint64_t>(mb * 1024 * 1024);
  return true;
}

}  // namespace logscope::cli
