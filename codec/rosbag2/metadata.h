// metadata.yaml of a rosbag2 bag (versions 1 to 9): what rosbag2 wrote about the bag when it
// closed it, read through yaml-cpp (the library rosbag2 writes it with). docs/rosbag2.md lists
// the fields per version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace logscope::rosbag2 {

// `line` fields: the 1-based line of the value in metadata.yaml (0: not in the file), for
// warnings that set the yaml against the data.
struct YamlTopic {
  std::string name, type, serialization_format;
  std::string offered_qos_profiles;  // the text rosbag2 stores (v9: the list, written back as text)
  std::string type_description_hash;  // v7+
  uint64_t message_count = 0;
  uint64_t line = 0;  // of its message_count
};

struct YamlFile {  // `files:` (v5+)
  std::string path;
  std::optional<int64_t> starting_time_ns;
  std::optional<int64_t> duration_ns;
  std::optional<uint64_t> message_count;
  uint64_t line = 0;  // of its message_count
};

struct BagMetadata {
  uint64_t version = 0;
  std::string storage_identifier;  // "sqlite3", "mcap"
  std::vector<std::string> relative_file_paths;
  std::vector<uint64_t> relative_file_path_lines;  // the line of each
  std::optional<int64_t> duration_ns;
  std::optional<int64_t> starting_time_ns;  // INT64_MAX in empty bags
  std::optional<uint64_t> message_count;
  std::vector<YamlTopic> topics;
  std::string compression_format;  // "zstd" or ""
  std::string compression_mode;    // "FILE", "MESSAGE" or ""
  std::vector<YamlFile> files;
  std::string ros_distro;  // v6+
  uint64_t storage_line = 0, message_count_line = 0, starting_time_line = 0;
  // Every field rosbag2 requires was read: no problem was found. A yaml read only in part
  // (cut, a field of the wrong type) is not trusted for the first view's counts.
  bool complete = true;
};

// Reads metadata.yaml; never throws. False when it holds no rosbag2 metadata at all (not YAML up
// to its first lines, no `rosbag2_bagfile_information` mapping), with why in `problems`.
// Otherwise true with every field that could be read in `out`, and in `problems` each that could
// not, by line: "line 12: message_count: expected a whole number, got \"x\"". YAML that breaks
// off (a cut file) is read up to the line before the break, which the first problem names.
bool parse_metadata(const std::string& text, BagMetadata* out, std::vector<std::string>* problems);

}  // namespace logscope::rosbag2
