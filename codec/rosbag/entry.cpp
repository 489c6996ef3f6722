// The ROS bag's entry in the format table (core/format_table.h).
#include "rosbag/entry.h"

#include <iterator>

#include "rosbag/inspector.h"
#include "rosbag/model.h"

namespace logscope::rosbag {
namespace {

struct VersionLine {
  std::string_view line;
  const char* version;
  const char* label;
};

const VersionLine kVersions[] = {
    {"#ROSBAG V2.0\n", "2.0", "ROS bag V2.0"},
    {"#ROSRECORD V1.2\n", "1.2", "ROS bag V1.2"},
    {"#ROSRECORD V1.1\n", "1.1", "ROS bag V1.1"},
};

std::optional<FormatEntry::NearMiss> near_miss(std::string_view head, uint64_t size) {
  for (const VersionLine& v : kVersions)
    if (is_cut_magic(head, v.line))
      return FormatEntry::NearMiss{"truncated-header", std::string("This looks like a ") + v.label + " file cut off inside its version line (only " +
                                                           std::to_string(size) + " bytes)."};
  if (starts_with_magic(head, "#ROSBAG V") || starts_with_magic(head, "#ROSRECORD V")) {
    size_t eol = head.find('\n');
    std::string line(head.substr(0, eol == std::string_view::npos ? std::min<size_t>(head.size(), 24) : eol));
    return FormatEntry::NearMiss{"unsupported-version", "This is a ROS bag of a version logscope does not know (\"" + line +
                                                            "\"). Supported: V1.1, V1.2 and V2.0."};
  }
  return std::nullopt;
}

// Several lz4 chunks, two connections, a latched one. Written by make_small_demo (outputs.cpp).
const uint8_t kSmallDemo[] = {
#include "rosbag/small_demo.inc"
};

}  // namespace

FormatEntry format_entry() {
  FormatEntry e;
  e.name = "rosbag";
  e.label = "ROS bag";
  e.summary = "ROS 1 bags V1.1, V1.2 and V2.0 (chunks none, bz2, lz4)";
  e.match = [](std::string_view head, uint64_t) -> std::optional<FormatEntry::Match> {
    for (const VersionLine& v : kVersions)
      if (starts_with_magic(head, v.line)) return FormatEntry::Match{v.version, v.label};
    return std::nullopt;
  };
  e.near_miss = near_miss;
  e.file_endings = {".bag", ".bag.active"};
  e.recovery_codes = {"rosbag.index.missing", "rosbag.index.unusable", "rosbag.recovery.stopped", "rosbag.chunk.truncated"};
  e.open = [](ByteSource& source, const Detection& detection) { return open_inspector(source, format_of(detection)); };
  e.small_demo = [] { return std::vector<uint8_t>(std::begin(kSmallDemo), std::end(kSmallDemo)); };
  e.operations = {Operation::Export, Operation::Extract, Operation::Repair, Operation::Plot};
  e.source = {"topic", "topics"};
  e.extract_options = {{"compression", "chunk compression of the written bag (default: the input's)", {"", "none", "lz4", "bz2"}}};
  e.extract_summary = "A V2.0 bag with the messages of the chosen topics in [from, to], chunked with the input's compression (or --compression), only the connections used, a complete index.";
  e.repair_summary = "An indexed V2.0 bag of every message in a complete chunk: what `rosbag reindex` keeps; the input is untouched.";
  e.helpers = {Helper::Decompress};
  return e;
}

}  // namespace logscope::rosbag
