#include "rosbag/records.h"

#include <cstdio>

namespace logscope::rosbag {

const char* op_name(int op) {
  switch (op) {
    case kOpMessageDefinition: return "message definition";
    case kOpMessageData: return "message data";
    case kOpBagHeader: return "bag header";
    case kOpIndexData: return "index data";
    case kOpChunk: return "chunk";
    case kOpChunkInfo: return "chunk info";
    case kOpConnection: return "connection";
  }
  return "unknown record";
}

FrameStatus read_record(ByteSource& source, uint64_t offset, RecordFrame* frame, std::string* header, std::string* why) {
  uint64_t size = source.size();
  frame->offset = offset;
  if (offset >= size) return FrameStatus::AtEnd;
  uint8_t word[4];
  if (size - offset < 4 || source.read(offset, word, 4) != 4) {
    *why = "the file ends inside a record length";
    return FrameStatus::Truncated;
  }
  frame->header_len = load_u32(word);
  uint64_t remaining = size - offset - 4;
  if (frame->header_len > kMaxHeaderLength) {
    *why = "header length " + std::to_string(frame->header_len) + " is implausible";
    return FrameStatus::BadHeader;
  }
  if (frame->header_len + uint64_t{4} > remaining) {
    *why = "header length " + std::to_string(frame->header_len) + " runs past the end of the file";
    return FrameStatus::Truncated;
  }
  header->resize(frame->header_len + 4);
  if (source.read(offset + 4, &(*header)[0], header->size()) != header->size()) {
    *why = "the file could not be read here";
    return FrameStatus::Truncated;
  }
  frame->data_len = load_u32(header->data() + frame->header_len);
  header->resize(frame->header_len);
  if (!for_each_field(*header, [](std::string_view, std::string_view) {})) {
    *why = "header fields are malformed (a field length runs past the header or lacks '=')";
    return FrameStatus::BadHeader;
  }
  if (frame->data_len > remaining - 4 - frame->header_len) {
    *why = "data length " + std::to_string(frame->data_len) + " runs past the end of the file (" +
           std::to_string(remaining - 4 - frame->header_len) + " bytes remain)";
    return FrameStatus::Truncated;
  }
  return FrameStatus::Ok;
}

FrameStatus parse_record(const uint8_t* data, size_t size, size_t offset, RecordFrame* frame, std::string_view* header,
                         std::string* why) {
  frame->offset = offset;
  if (offset >= size) return FrameStatus::AtEnd;
  size_t remaining = size - offset;
  if (remaining < 8) {
    *why = "only " + std::to_string(remaining) + " bytes remain, too few for a record";
    return FrameStatus::Truncated;
  }
  frame->header_len = load_u32(data + offset);
  if (frame->header_len > remaining - 8) {
    *why = "header length " + std::to_string(frame->header_len) + " runs past the end";
    return FrameStatus::Truncated;
  }
  frame->data_len = load_u32(data + offset + 4 + frame->header_len);
  if (frame->data_len > remaining - 8 - frame->header_len) {
    *why = "data length " + std::to_string(frame->data_len) + " runs past the end";
    return FrameStatus::Truncated;
  }
  *header = std::string_view(reinterpret_cast<const char*>(data + offset + 4), frame->header_len);
  return FrameStatus::Ok;
}

void append_field(std::string& header, std::string_view name, std::string_view value) {
  uint32_t len = static_cast<uint32_t>(name.size() + 1 + value.size());
  header.append(reinterpret_cast<const char*>(&len), 4);
  header.append(name);
  header += '=';
  header.append(value);
}
void append_field_u32(std::string& header, std::string_view name, uint32_t value) {
  append_field(header, name, std::string_view(reinterpret_cast<const char*>(&value), 4));
}
void append_field_u64(std::string& header, std::string_view name, uint64_t value) {
  append_field(header, name, std::string_view(reinterpret_cast<const char*>(&value), 8));
}
void append_field_time(std::string& header, std::string_view name, Time value) {
  char bytes[8];
  std::memcpy(bytes, &value.sec, 4);
  std::memcpy(bytes + 4, &value.nsec, 4);
  append_field(header, name, std::string_view(bytes, 8));
}
void append_record(std::string& out, std::string_view header, std::string_view data) {
  uint32_t hlen = static_cast<uint32_t>(header.size()), dlen = static_cast<uint32_t>(data.size());
  out.append(reinterpret_cast<const char*>(&hlen), 4);
  out.append(header);
  out.append(reinterpret_cast<const char*>(&dlen), 4);
  out.append(data);
}

std::string format_time(Time t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%u.%09u", t.sec, t.nsec);
  return buf;
}

}  // namespace logscope::rosbag
