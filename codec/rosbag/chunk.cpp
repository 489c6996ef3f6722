#include "rosbag/chunk.h"

#include <algorithm>
#include <cstring>

namespace logscope::rosbag {

DecompressStatus with_bag_code(DecompressStatus status) {
  if (!status.ok && status.code.rfind("chunk.", 0) == 0) status.code = "rosbag." + status.code;
  return status;
}

void index_chunk_records(const uint8_t* data, size_t size, ChunkRecords* out, const std::vector<bool>* keep) {
  out->messages.clear();
  out->connections.clear();
  out->other_records = 0;
  out->complete = true;
  out->stop_reason.clear();
  size_t pos = 0;
  while (pos < size) {
    RecordFrame frame;
    std::string_view header;
    std::string why;
    if (parse_record(data, size, pos, &frame, &header, &why) != FrameStatus::Ok) {
      out->complete = false;
      out->stop_offset = static_cast<uint32_t>(pos);
      out->stop_reason = why;
      return;
    }
    int op = -1;
    uint32_t conn = 0;
    bool have_conn = false, have_time = false;
    Time time;
    bool fields_ok = for_each_field(header, [&](std::string_view name, std::string_view value) {
      if (name == "op" && value.size() == 1) op = static_cast<uint8_t>(value[0]);
      else if (name == "conn" && value.size() == 4) conn = load_u32(value.data()), have_conn = true;
      else if (name == "time" && value.size() == 8)
        time = Time{load_u32(value.data()), load_u32(value.data() + 4)}, have_time = true;
    });
    if (!fields_ok) {
      out->complete = false;
      out->stop_offset = static_cast<uint32_t>(pos);
      out->stop_reason = "record header fields are malformed";
      return;
    }
    if (op == kOpMessageData && have_conn && have_time) {
      if (!keep || (conn < keep->size() && (*keep)[conn]))
        out->messages.push_back(ChunkMessage{time.ns(), conn, static_cast<uint32_t>(pos),
                                             static_cast<uint32_t>(frame.data_offset()), frame.data_len});
    } else if (op == kOpConnection && have_conn) {
      out->connections.push_back(ChunkConnectionRecord{static_cast<uint32_t>(pos), conn});
    } else {
      ++out->other_records;
    }
    pos = static_cast<size_t>(frame.end());
  }
}

}  // namespace logscope::rosbag
