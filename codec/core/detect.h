// Detection by content, never by file name, with a helpful diagnosis for anything else.
#pragma once

#include <string>

#include "core/byte_source.h"
#include "core/json.h"

namespace logscope {

enum class Format { Unknown, Bddf, RosbagV20, RosbagV12, RosbagV11, Carla };

struct Detection {
  Format format = Format::Unknown;
  std::string family;     // "bddf", "rosbag", "carla" or "unknown"
  std::string version;    // "2.0", "1.2", "1.1" for bags; "" otherwise
  std::string label;      // e.g. "ROS bag V2.0"
  // For unknown files: a stable kind ("empty", "html", "lfs-pointer", "gzip", "bzip2", "zstd",
  // "zip", "xz", "truncated-header", "text", "unknown") and a sentence a user can act on.
  std::string kind;
  std::string diagnosis;
  std::string first_bytes_hex;  // up to 16 bytes
  Json to_json() const;
};

Detection detect(ByteSource& source);

}  // namespace logscope
