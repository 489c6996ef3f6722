// The record walks of V1.2 and V1.1 bags, in file order (implemented in reader_v1.cpp). The
// reader's scan builds a bag's model from them; repair and extract of V1.x bags stream through
// them, so both agree on which records are complete and on where and why reading stops.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/byte_source.h"
#include "core/report.h"
#include "rosbag/records.h"

namespace logscope::rosbag {

// One complete record. Views are valid during the callback only.
struct V1Record {
  uint64_t offset = 0;  // the record (V1.1: the message's topic line)
  uint64_t end = 0;     // the byte after it
  int op = -1;          // V1.2: the header's op; V1.1: always kOpMessageData
  std::string_view topic, type, md5;
  std::string_view definition;  // MSG_DEF's `def`
  std::string_view callerid;    // MSG_DATA's, when it has one
  bool latching = false;        // MSG_DATA's `latching` is "1"
  Time time;                    // MSG_DATA: sec and nsec (0 for a missing one)
  bool has_time = false;        // MSG_DATA carries both sec and nsec
  uint64_t data_offset = 0;     // the record's data (V1.1: the message bytes)
  uint32_t data_len = 0;
};

struct V1WalkEnd {
  uint64_t ends_at = 0;  // the first byte not walked (the file size when every record was complete)
  std::string reason;    // why the walk stopped before the end; "" when it reached it
  bool cancelled = false;
  bool stopped = false;  // the callback returned false (ends_at is that record's end)
};

using V1RecordFn = std::function<bool(const V1Record&)>;

// Every record of a V1.2 bag from `from` (the FILE_HEADER, MSG_DEF, MSG_DATA, INDEX_DATA or any
// other op) until the end of the file or the first record that is incomplete or malformed.
V1WalkEnd walk_v12_records(ByteSource& source, uint64_t from, const V1RecordFn& fn, const ProgressFn& progress);

// Every message of a V1.1 bag (`topic\n md5\n type\n`, sec, nsec, len, bytes) from `from` until
// the end of the file or the first incomplete one.
V1WalkEnd walk_v11_messages(ByteSource& source, uint64_t from, const V1RecordFn& fn, const ProgressFn& progress);

// Where a V1.2 bag's records start: after its FILE_HEADER (and `index_pos` from it), or right after
// the version line when the first record is no FILE_HEADER (the old recorder wrote none).
struct V12Start {
  bool has_header = false;
  uint64_t header_offset = 0;
  uint64_t first_record = 0;
  uint64_t index_pos = 0;
};
V12Start read_v12_start(ByteSource& source);

}  // namespace logscope::rosbag
