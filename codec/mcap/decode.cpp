// The record view: one node's fields as JSON. Message payloads (and schema data, attachment data)
// are shown as hex, at most kMaxHexBytes of them.
#include "core/node_id.h"
#include "mcap/inspector_impl.h"

namespace logscope::mcap {
namespace {

constexpr uint64_t kMaxHexBytes = 4096;
constexpr uint64_t kMaxDecodedRecord = 16u << 20;  // larger records are decoded from their start

Json hex_json(std::string_view bytes, uint64_t total) {
  Json j = Json::object();
  j["size"] = total;
  size_t shown = static_cast<size_t>(std::min<uint64_t>(bytes.size(), kMaxHexBytes));
  j["hex"] = hex_string(reinterpret_cast<const uint8_t*>(bytes.data()), shown);
  j["truncated"] = shown < total;
  return j;
}

Json pairs_json(const StringPairs& pairs) {
  Json j = Json::object();
  for (const auto& [k, v] : pairs) j[k] = v;
  return j;
}

std::string ns(uint64_t t) { return std::to_string(t); }  // exact in JavaScript

}  // namespace

// The fields of one record; `file_offset` is where its content starts in the file (0 inside a
// compressed chunk). `whole` false: `content` is the record's start only.
Json McapInspector::record_json(const RecordFrame& frame, std::string_view content, bool whole, uint64_t file_offset) {
  Json j = Json::object();
  j["record"] = op_name(frame.op);
  j["opcode"] = frame.op;
  j["offset"] = frame.offset;
  j["length"] = frame.length;
  if (!whole) j["note"] = "the record is " + std::to_string(frame.length) + " bytes; only its first " + std::to_string(content.size()) + " were read";
  std::string why;
  bool ok = true;
  switch (frame.op) {
    case kOpHeader: {
      Header h;
      if ((ok = parse_header(content, &h, &why))) j["profile"] = h.profile, j["library"] = h.library;
      break;
    }
    case kOpFooter: {
      Footer f;
      if ((ok = parse_footer(content, &f, &why))) {
        j["summary_start"] = f.summary_start;
        j["summary_offset_start"] = f.summary_offset_start;
        j["summary_crc"] = f.summary_crc;
      }
      break;
    }
    case kOpSchema: {
      Schema s;
      if ((ok = parse_schema(content, &s, &why))) {
        j["id"] = s.id;
        j["name"] = s.name;
        j["encoding"] = s.encoding;
        // Text schemas (ros2msg, jsonschema...) are readable as they are.
        if (s.encoding != "protobuf" && s.encoding != "flatbuffer") j["data_text"] = s.data.substr(0, 65536);
        j["data"] = hex_json(s.data, s.data.size());
      }
      break;
    }
    case kOpChannel: {
      Channel c;
      if ((ok = parse_channel(content, &c, &why))) {
        j["id"] = c.id;
        j["schema_id"] = c.schema_id;
        j["topic"] = c.topic;
        j["message_encoding"] = c.message_encoding;
        j["metadata"] = pairs_json(c.metadata);
      }
      break;
    }
    case kOpMessage: {
      MessageHeader m;
      if ((ok = parse_message_header(content, &m, &why))) {
        j["channel_id"] = m.channel_id;
        if (const Channel* c = model_.channel(m.channel_id)) j["topic"] = c->topic;
        j["sequence"] = m.sequence;
        j["log_time"] = ns(m.log_time);
        j["publish_time"] = ns(m.publish_time);
        j["data"] = hex_json(content.substr(MessageHeader::kSize), frame.length - MessageHeader::kSize);
        if (file_offset) j["data_offset"] = file_offset + MessageHeader::kSize;
        add_decoded(j, m.channel_id, content.substr(MessageHeader::kSize), whole);
      }
      break;
    }
    case kOpChunk: {
      ChunkHeader h;
      if ((ok = parse_chunk_header(content, &h, &why) || (!whole && content.size() >= 36))) {
        j["message_start_time"] = ns(h.message_start_time);
        j["message_end_time"] = ns(h.message_end_time);
        j["uncompressed_size"] = h.uncompressed_size;
        j["uncompressed_crc"] = h.uncompressed_crc;
        j["compression"] = h.compression;
        j["records_size"] = h.records_size;
        if (file_offset) j["records_offset"] = file_offset + h.records_offset;
      }
      break;
    }
    case kOpMessageIndex: {
      MessageIndex mi;
      if ((ok = parse_message_index(content, &mi, &why))) {
        j["channel_id"] = mi.channel_id;
        j["count"] = mi.entries.size();
        Json entries = Json::array();
        for (size_t i = 0; i < mi.entries.size() && i < 1000; ++i) {
          Json e = Json::array();
          e.push_back(ns(mi.entries[i].first));
          e.push_back(mi.entries[i].second);
          entries.push_back(std::move(e));
        }
        j["entries"] = std::move(entries);  // (log_time, offset in the chunk's records), the first 1000
      }
      break;
    }
    case kOpChunkIndex: {
      ChunkIndex ci;
      if ((ok = parse_chunk_index(content, &ci, &why))) {
        j["message_start_time"] = ns(ci.message_start_time);
        j["message_end_time"] = ns(ci.message_end_time);
        j["chunk_start_offset"] = ci.chunk_start_offset;
        j["chunk_length"] = ci.chunk_length;
        Json offsets = Json::object();
        for (const auto& [id, o] : ci.message_index_offsets) offsets[std::to_string(id)] = o;
        j["message_index_offsets"] = std::move(offsets);
        j["message_index_length"] = ci.message_index_length;
        j["compression"] = ci.compression;
        j["compressed_size"] = ci.compressed_size;
        j["uncompressed_size"] = ci.uncompressed_size;
      }
      break;
    }
    case kOpAttachment: {
      AttachmentHeader a;
      if ((ok = parse_attachment_header(content, frame.length, &a, &why))) {
        j["log_time"] = ns(a.log_time);
        j["create_time"] = ns(a.create_time);
        j["name"] = a.name;
        j["media_type"] = a.media_type;
        j["data"] = hex_json(content.substr(static_cast<size_t>(std::min<uint64_t>(a.data_offset, content.size()))), a.data_size);
        if (a.crc_offset + 4 <= content.size()) j["crc"] = a.crc;
      }
      break;
    }
    case kOpAttachmentIndex: {
      AttachmentIndex a;
      if ((ok = parse_attachment_index(content, &a, &why))) {
        j["attachment_offset"] = a.offset;
        j["attachment_length"] = a.length;
        j["log_time"] = ns(a.log_time);
        j["create_time"] = ns(a.create_time);
        j["data_size"] = a.data_size;
        j["name"] = a.name;
        j["media_type"] = a.media_type;
      }
      break;
    }
    case kOpStatistics: {
      Statistics s;
      if ((ok = parse_statistics(content, &s, &why))) {
        j["message_count"] = s.message_count;
        j["schema_count"] = s.schema_count;
        j["channel_count"] = s.channel_count;
        j["attachment_count"] = s.attachment_count;
        j["metadata_count"] = s.metadata_count;
        j["chunk_count"] = s.chunk_count;
        j["message_start_time"] = ns(s.message_start_time);
        j["message_end_time"] = ns(s.message_end_time);
        Json counts = Json::object();
        for (const auto& [id, n] : s.channel_message_counts) counts[std::to_string(id)] = n;
        j["channel_message_counts"] = std::move(counts);
      }
      break;
    }
    case kOpMetadata: {
      Metadata d;
      if ((ok = parse_metadata(content, &d, &why))) j["name"] = d.name, j["metadata"] = pairs_json(d.metadata);
      break;
    }
    case kOpMetadataIndex: {
      MetadataIndex d;
      if ((ok = parse_metadata_index(content, &d, &why))) {
        j["metadata_offset"] = d.offset;
        j["metadata_length"] = d.length;
        j["name"] = d.name;
      }
      break;
    }
    case kOpSummaryOffset: {
      SummaryOffset so;
      if ((ok = parse_summary_offset(content, &so, &why))) {
        j["group_opcode"] = so.group_opcode;
        j["group"] = op_name(so.group_opcode);
        j["group_start"] = so.group_start;
        j["group_length"] = so.group_length;
      }
      break;
    }
    case kOpDataEnd: {
      DataEnd d;
      if ((ok = parse_data_end(content, &d, &why))) j["data_section_crc"] = d.data_section_crc;
      break;
    }
    default:
      j["content"] = hex_json(content, frame.length);
      break;
  }
  if (!ok) j["error"] = why;
  return j;
}

const PayloadDecoder* McapInspector::payload_decoder(uint16_t channel_id, std::string* error) {
  const Channel* channel = model_.channel(channel_id);
  if (!channel) {
    *error = "the message's channel " + std::to_string(channel_id) + " is not in the file";
    return nullptr;
  }
  auto info = model_.schemas.find(channel->schema_id);
  const Schema* schema = info == model_.schemas.end() ? nullptr : &info->second.schema;
  if (schema && info->second.data_size != schema->data.size()) {
    *error = "the schema " + schema->name + " is not kept in memory (the file's schemas pass " + std::to_string(kMaxKeptSchemaData >> 20) + " MiB)";
    return nullptr;
  }
  if (channel->schema_id != 0 && !schema) {
    *error = "the channel's schema " + std::to_string(channel->schema_id) + " is not in the file";
    return nullptr;
  }
  // A ROS 2 schema stored without its text: the definition the user gave, or a note (an empty
  // definition would read every message as an empty structure).
  if (schema && schema->data.empty() && schema->encoding == "ros2msg" &&
      schema->name.find("Empty") == std::string::npos) {
    auto filled = filled_.find(schema->id);
    if (filled == filled_.end()) {
      std::string encoding, text, why;
      if (!supplied_ || !supplied_->definition(schema->name, &encoding, &text, &why)) {
        *error = "the file stores an empty definition for " + schema->name + "; give it with --msg-path or --definitions-from";
        return nullptr;
      }
      Schema copy = *schema;
      copy.encoding = encoding == "ros1msg" ? "ros2msg" : encoding;  // ROS 1's text is used only where it matches ROS 2's layout
      copy.data = text;
      filled = filled_.emplace(schema->id, std::move(copy)).first;
    }
    schema = &filled->second;
  }
  return decoders_.get(*channel, schema, error);
}

void McapInspector::set_message_definitions(std::shared_ptr<const cdr::TypeLibrary> definitions) {
  supplied_ = std::move(definitions);
  filled_.clear();
  decoders_ = PayloadDecoders();  // made again with them
}

// The payload by its channel's encodings; an encoding without a decoder leaves the hex alone.
void McapInspector::add_decoded(Json& j, uint16_t channel_id, std::string_view payload, bool whole) {
  std::string error;
  const PayloadDecoder* decoder = payload_decoder(channel_id, &error);
  if (!decoder) {
    j["decode_note"] = error;
    return;
  }
  if (!whole) {
    j["decode_note"] = "the message was not read whole";
    return;
  }
  Json message = decoder->to_json(payload, false, &error);
  j["message"] = std::move(message);
  if (!error.empty()) j["decode_error"] = error;
}

Json McapInspector::decode(const std::string& id) {
  read_whole_summary();
  auto parsed = NodeId::parse(id);
  const std::vector<RecordFrame>& list = records();
  if (!parsed || parsed->segments.empty() || parsed->segments[0].tag != 'r' || parsed->segments[0].numbers.size() != 1 ||
      parsed->number(0) >= list.size())
    return QueryArgs::error_json("no node " + id);
  size_t k = static_cast<size_t>(parsed->number(0));
  const RecordFrame& f = list[k];
  if (parsed->segments.size() == 1) {
    bool whole = f.length <= kMaxDecodedRecord;
    std::string bytes = content(f, whole ? f.length : kMaxHexBytes + 1024);
    if (bytes.size() < std::min<uint64_t>(f.length, whole ? f.length : 1)) whole = false;
    Json j = record_json(f, bytes, whole, f.content_offset());
    if (f.op == kOpChunk)
      if (const LoadedChunk* chunk = chunk_at(k)) {
        j["records"] = chunk->inner.size();
        if (!chunk->error.empty()) j["records_error"] = chunk->error;
      }
    return j;
  }
  if (parsed->segments.size() != 2 || parsed->segments[1].tag != 'm' || parsed->segments[1].numbers.size() != 1)
    return QueryArgs::error_json("no node " + id);
  const LoadedChunk* chunk = chunk_at(k);
  uint64_t j = parsed->number(1, 0);
  if (!chunk || j >= chunk->inner.size()) return QueryArgs::error_json("no node " + id);
  const RecordFrame& inner = chunk->inner[static_cast<size_t>(j)];
  bool in_file = chunk->header.compression.empty();
  uint64_t file_offset = in_file ? chunk->offset + kRecordPrefix + chunk->header.records_offset + inner.content_offset() : 0;
  Json out = record_json(inner, chunk->bytes().substr(static_cast<size_t>(inner.content_offset()), static_cast<size_t>(inner.length)), true, file_offset);
  out["offset_in_chunk"] = inner.offset;
  out["chunk_offset"] = chunk->offset;
  return out;
}

}  // namespace logscope::mcap
