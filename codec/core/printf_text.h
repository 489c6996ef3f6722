// printf-style formatting into a std::string, for text layouts copied from other tools
// (`rosbag info`, `mcap info`). At most 511 characters: longer output is cut.
#pragma once

#include <string>

namespace logscope {

std::string printf_string(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace logscope
