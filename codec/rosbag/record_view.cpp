// What the record view shows for a node of the structure tree (tree.cpp): a record's header
// fields, a connection's header and a message decoded with its definition.
#include <algorithm>

#include "rosbag/inspector_impl.h"
#include "rosbag/tree.h"

namespace logscope::rosbag {
namespace {

bool printable(std::string_view v) {
  for (unsigned char ch : v)
    if (ch < 0x20 && ch != '\n' && ch != '\t') return false;
  return true;
}

Json field_value(std::string_view name, std::string_view value) {
  if (name == "op" && value.size() == 1) return static_cast<uint8_t>(value[0]);
  if ((name == "time" || name == "start_time" || name == "end_time") && value.size() == 8)
    return format_time(Time{load_u32(value.data()), load_u32(value.data() + 4)});
  if ((name == "index_pos" || name == "chunk_pos" || name == "pos") && value.size() == 8) return load_u64(value.data());
  if ((name == "conn" || name == "count" || name == "ver" || name == "size" || name == "chunk_count" || name == "conn_count" ||
       name == "sec" || name == "nsec") &&
      value.size() == 4)
    return load_u32(value.data());
  if (printable(value)) return std::string(value);
  return hex_string(reinterpret_cast<const uint8_t*>(value.data()), std::min<size_t>(value.size(), 64));
}

Json fields_json(std::string_view header) {
  Json j = Json::object();
  for_each_field(header, [&](std::string_view n, std::string_view v) { j[std::string(n)] = field_value(n, v); });
  return j;
}

}  // namespace

Json BagInspector::record_json(uint64_t offset) {
  Json j = Json::object();
  RecordFrame frame;
  std::string header, why;
  if (read_record(source_, offset, &frame, &header, &why) != FrameStatus::Ok) {
    j["error"] = why;
    return j;
  }
  j["offset"] = offset;
  j["header_len"] = frame.header_len;
  j["data_len"] = frame.data_len;
  j["header"] = fields_json(header);
  HeaderFields fields;
  fields.parse(header);
  int op = fields.op();
  if (op == kOpConnection) {
    std::vector<uint8_t> data = source_.read_vector(frame.data_offset(), std::min<uint32_t>(frame.data_len, 1u << 20));
    j["connection_header"] = fields_json(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
  } else if (op == kOpMessageData && bag_.version == 102) {
    for (const Connection& c : bag_.connections)
      if (c.topic == fields.str("topic")) {
        std::vector<uint8_t> data = source_.read_vector(frame.data_offset(), frame.data_len);
        std::string error;
        j["message"] = decoder_.decode(&c, std::string_view(reinterpret_cast<const char*>(data.data()), data.size()), &error);
        if (!error.empty()) j["error"] = error;
      }
  }
  return j;
}

Json BagInspector::decode(const std::string& id) {
  static const ResultUnits units = {
      {"offset", Unit::Offset}, {"chunk_offset", Unit::Offset}, {"header_len", Unit::Bytes}, {"data_len", Unit::Bytes},
      {"header", Unit::Data}, {"connection_header", Unit::Data}, {"message", Unit::Data}, {"error", Unit::Text},
      {"chunk_info.start_ns", Unit::TimeNs}, {"chunk_info.end_ns", Unit::TimeNs}, {"chunk_info.connections.conn", Unit::Id},
      {"chunk_info.connections.messages", Unit::Count}};
  return with_units(node_json(id), units);
}

Json BagInspector::node_json(const std::string& id) {
  Json j = Json::object();
  uint64_t i = 0;
  if (id == "h") return record_json(bag_.header_offset);
  if (!id.empty() && id[0] == 'x' && parse_node_index(id, 1, &i) && i < bag_.index_records.size()) return record_json(bag_.index_records[i]);
  if (!id.empty() && id[0] == 'r' && parse_node_index(id, 1, &i) && i < top_records().size()) return record_json(top_records()[i]);
  if (!id.empty() && id[0] == 'c' && parse_node_index(id, 1, &i) && i < bag_.chunks.size()) {
    size_t slash = id.find('/');
    if (slash == std::string::npos) {
      j = record_json(bag_.chunks[i].pos);
      const Chunk& c = bag_.chunks[i];
      Json info = Json::object();
      info["start_ns"] = c.start.ns();
      info["end_ns"] = c.end.ns();
      Json counts = Json::array();
      for (const auto& p : c.counts) {
        Json e = Json::object();
        e["conn"] = p.first;
        e["messages"] = p.second;
        counts.push_back(std::move(e));
      }
      info["connections"] = std::move(counts);
      j["chunk_info"] = std::move(info);
      return j;
    }
    uint64_t k = 0;
    if (slash + 1 < id.size() && id[slash + 1] == 'i' && parse_node_index(id, slash + 2, &k)) {
      auto index = chunk_index_children(i);
      if (k < index.size()) return record_json(index[k].first);
    }
    if (slash + 1 < id.size() && id[slash + 1] == 'r' && parse_node_index(id, slash + 2, &k)) {
      const LoadedChunk* chunk = cached_chunk(i);
      if (!chunk || !chunk->status.ok) {
        j["error"] = chunk ? chunk->status.message : "chunk unreadable";
        return j;
      }
      auto inner = chunk_record_offsets(*chunk);
      if (k < inner.size()) {
        RecordFrame frame;
        std::string_view header;
        std::string why;
        parse_record(chunk->data, chunk->size, inner[k], &frame, &header, &why);
        std::string_view data(reinterpret_cast<const char*>(chunk->data + frame.data_offset()), frame.data_len);
        j["chunk_offset"] = inner[k];
        j["header_len"] = frame.header_len;
        j["data_len"] = frame.data_len;
        j["header"] = fields_json(header);
        HeaderFields fields;
        fields.parse(header);
        uint32_t conn = 0;
        fields.u32("conn", &conn);
        if (fields.op() == kOpConnection) j["connection_header"] = fields_json(data);
        if (fields.op() == kOpMessageData) {
          std::string error;
          j["message"] = decoder_.decode(bag_.connection(conn), data, &error);
          if (!error.empty()) j["error"] = error;
        }
        return j;
      }
    }
  }
  j["error"] = "no node " + id;
  return j;
}

}  // namespace logscope::rosbag
