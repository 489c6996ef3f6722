// An MCAP of the ros2 profile whose CDR channels cover every kind of ROS 2 field (each primitive,
// fixed arrays, bounded and unbounded sequences, strings, nested types, an empty type), written
// in XCDR1 and XCDR2, little- and big-endian, beside a ros1msg channel, a JSON channel and a
// channel whose definition does not fit its bytes. For the decode and export tests and the
// comparison with @foxglove/rosmsg2-serialization (`logscope make-demo-cdr`).
#pragma once

#include <cstdint>
#include <string>

namespace logscope::mcap {

struct CdrDemoOptions {
  uint32_t messages_per_channel = 20;
  std::string compression = "zstd";
  bool message_indexes = true;  // false: chunk indexes that list no channel (an index-less writer)
};

// The file's bytes.
std::string cdr_demo(const CdrDemoOptions& options = CdrDemoOptions());

}  // namespace logscope::mcap
