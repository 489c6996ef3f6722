// metadata.yaml of a rosbag2 bag (versions 1 to 9): what rosbag2 wrote about the bag when it
// closed it. docs/rosbag2.md lists the fields per version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace logscope::rosbag2 {

struct YamlTopic {
  std::string name, type, serialization_format;
  std::string offered_qos_profiles;  // the text rosbag2 stores (v9: the list, written back as text)
  std::string type_description_hash;  // v7+
  uint64_t message_count = 0;
};

struct YamlFile {  // `files:` (v5+)
  std::string path;
  std::optional<int64_t> starting_time_ns;
  std::optional<int64_t> duration_ns;
  std::optional<uint64_t> message_count;
};

struct BagMetadata {
  uint64_t version = 0;
  std::string storage_identifier;  // "sqlite3", "mcap"
  std::vector<std::string> relative_file_paths;
  std::optional<int64_t> duration_ns;
  std::optional<int64_t> starting_time_ns;  // INT64_MAX in empty bags
  std::optional<uint64_t> message_count;
  std::vector<YamlTopic> topics;
  std::string compression_format;  // "zstd" or ""
  std::string compression_mode;    // "FILE", "MESSAGE" or ""
  std::vector<YamlFile> files;
  std::string ros_distro;  // v6+
};

// Parses metadata.yaml; false with `error` when it is no rosbag2 metadata (no
// rosbag2_bagfile_information, outside the YAML subset of yaml.h, a number that is no number).
bool parse_metadata(const std::string& text, BagMetadata* out, std::string* error);

}  // namespace logscope::rosbag2
