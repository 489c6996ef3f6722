// One block decoded for the record view: descriptors as fields, POD payloads as samples,
// protobuf payloads as a raw wire tree.
#include "bddf/decode.h"

#include <algorithm>
#include <cstring>

#include "bddf.pb.h"
#include "bddf/blocks.h"
#include "bddf/format.h"
#include "bddf/wire.h"
#include "bddf/message_export.h"
#include "protobuf/schemas.h"

namespace logscope::bddf {
namespace {

constexpr size_t kMaxPayloadRead = 16u << 20;  // bigger protobuf payloads are decoded from their first 16 MB

template <typename MapT>
Json map_json(const MapT& map) {
  std::map<std::string, std::string> sorted(map.begin(), map.end());
  Json j = Json::object();
  for (const auto& [k, v] : sorted) j[k] = v;
  return j;
}

Json identifier_json(const bosdyn::api::SeriesIdentifier& id) {
  Json j = Json::object();
  j["series_type"] = id.series_type();
  j["spec"] = map_json(id.spec());
  return j;
}

Json descriptor_json(const bosdyn::api::DescriptorBlock& block, size_t max_items) {
  Json j = Json::object();
  switch (block.DescriptorType_case()) {
    case bosdyn::api::DescriptorBlock::kFileDescriptor: {
      const auto& fd = block.file_descriptor();
      j["descriptor_type"] = "file_descriptor";
      j["version"] = std::to_string(fd.version().major_version()) + "." + std::to_string(fd.version().minor_version()) +
                     "." + std::to_string(fd.version().patch_level());
      j["annotations"] = map_json(fd.annotations());
      j["checksum_type"] = checksum_type_name(fd.checksum_type());
      j["checksum_num_bytes"] = fd.checksum_num_bytes();
      break;
    }
    case bosdyn::api::DescriptorBlock::kSeriesDescriptor: {
      const auto& sd = block.series_descriptor();
      j["descriptor_type"] = "series_descriptor";
      j["series_index"] = sd.series_index();
      j["series_identifier"] = identifier_json(sd.series_identifier());
      j["identifier_hash"] = std::to_string(sd.identifier_hash());  // a u64: exact as text
      j["identifier_hash_hex"] = hex_u64(sd.identifier_hash());
      if (sd.has_message_type()) {
        Json m = Json::object();
        m["content_type"] = sd.message_type().content_type();
        m["type_name"] = sd.message_type().type_name();
        m["is_metadata"] = sd.message_type().is_metadata();
        j["message_type"] = std::move(m);
      } else if (sd.has_pod_type()) {
        Json p = Json::object();
        p["pod_type"] = pod_type_name(sd.pod_type().pod_type());
        Json dims = Json::array();
        for (uint32_t d : sd.pod_type().dimension()) dims.push_back(d);
        p["dimension"] = std::move(dims);
        j["pod_type"] = std::move(p);
      } else if (sd.has_struct_type()) {
        Json keys = Json::object();
        std::map<std::string, uint64_t> sorted(sd.struct_type().key_to_series_identifier_hash().begin(),
                                               sd.struct_type().key_to_series_identifier_hash().end());
        for (const auto& [k, v] : sorted) keys[k] = std::to_string(v);
        j["struct_type"] = std::move(keys);
      }
      j["annotations"] = map_json(sd.annotations());
      Json names = Json::array();
      for (const auto& n : sd.additional_index_names()) names.push_back(n);
      j["additional_index_names"] = std::move(names);
      j["description"] = sd.description();
      break;
    }
    case bosdyn::api::DescriptorBlock::kSeriesBlockIndex: {
      const auto& sbi = block.series_block_index();
      j["descriptor_type"] = "series_block_index";
      j["series_index"] = sbi.series_index();
      j["descriptor_file_offset"] = sbi.descriptor_file_offset();
      j["total_bytes"] = sbi.total_bytes();
      j["num_entries"] = sbi.block_entries_size();
      Json entries = Json::array();
      size_t shown = std::min<size_t>(max_items, static_cast<size_t>(sbi.block_entries_size()));
      for (size_t i = 0; i < shown; ++i) {
        const auto& e = sbi.block_entries(static_cast<int>(i));
        Json entry = Json::object();
        entry["timestamp_ns"] = to_ns(e.timestamp().seconds(), e.timestamp().nanos());
        entry["file_offset"] = e.file_offset();
        Json extra = Json::array();
        for (int64_t x : e.additional_indexes()) extra.push_back(x);
        entry["additional_indexes"] = std::move(extra);
        entries.push_back(std::move(entry));
      }
      j["block_entries"] = std::move(entries);
      if (shown < static_cast<size_t>(sbi.block_entries_size()))
        j["note"] = "first " + std::to_string(shown) + " entries shown; the blocks query pages through all";
      break;
    }
    case bosdyn::api::DescriptorBlock::kFileIndex: {
      const auto& fi = block.file_index();
      j["descriptor_type"] = "file_index";
      Json ids = Json::array(), offsets = Json::array(), hashes = Json::array();
      for (const auto& id : fi.series_identifiers()) ids.push_back(identifier_json(id));
      for (uint64_t o : fi.series_block_index_offsets()) offsets.push_back(o);
      for (uint64_t h : fi.series_identifier_hashes()) hashes.push_back(std::to_string(h));
      j["series_identifiers"] = std::move(ids);
      j["series_block_index_offsets"] = std::move(offsets);
      j["series_identifier_hashes"] = std::move(hashes);
      break;
    }
    default:
      j["descriptor_type"] = Json();
      j["note"] = "an empty DescriptorBlock (no oneof field set)";
      break;
  }
  return j;
}

template <typename T>
Json pod_value(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::is_floating_point<T>::value) return Json(static_cast<double>(v));
  else return Json(v);
}

Json pod_element(int type, const uint8_t* p) {
  switch (type) {
    case 1: return pod_value<int8_t>(p);
    case 2: return pod_value<int16_t>(p);
    case 3: return pod_value<int32_t>(p);
    case 4: return pod_value<int64_t>(p);
    case 5: return pod_value<uint8_t>(p);
    case 6: return pod_value<uint16_t>(p);
    case 7: return pod_value<uint32_t>(p);
    case 8: return pod_value<uint64_t>(p);
    case 9: return pod_value<float>(p);
    case 10: return pod_value<double>(p);
  }
  return Json();
}

// A sample as nested arrays, row-major with the innermost dimension fastest.
Json pod_sample(int type, const std::vector<uint32_t>& dims, size_t level, const uint8_t*& p) {
  if (level == dims.size()) {
    Json v = pod_element(type, p);
    p += pod_type_size(type);
    return v;
  }
  Json array = Json::array();
  for (uint32_t i = 0; i < dims[level]; ++i) array.push_back(pod_sample(type, dims, level + 1, p));
  return array;
}

}  // namespace

Json decode_pod(const Series& series, const std::vector<uint8_t>& bytes, uint64_t payload_size, size_t max_items) {
  Json j = Json::object();
  j["kind"] = "pod";
  j["pod_type"] = pod_type_name(series.pod_type);
  Json dims = Json::array();
  for (uint32_t d : series.dimension) dims.push_back(d);
  j["dimension"] = std::move(dims);
  size_t sample_size = series.pod_sample_size();
  j["sample_size"] = sample_size;
  if (!sample_size) {
    j["error"] = "the series' POD type or dimensions give no sample size";
    return j;
  }
  j["num_samples"] = payload_size / sample_size;
  if (payload_size % sample_size)
    j["error"] = "payload of " + std::to_string(payload_size) + " bytes is not a whole number of " +
                 std::to_string(sample_size) + "-byte samples";
  size_t available = bytes.size() / sample_size;
  size_t shown = std::min(available, max_items);
  Json samples = Json::array();
  const uint8_t* p = bytes.data();
  for (size_t i = 0; i < shown; ++i) samples.push_back(pod_sample(series.pod_type, series.dimension, 0, p));
  j["samples"] = std::move(samples);
  j["truncated"] = shown < payload_size / sample_size;
  return j;
}

ResultUnits block_units() {
  return {
      {"offset", Unit::Offset}, {"block_type", Unit::Text}, {"magic", Unit::Text}, {"error", Unit::Text}, {"kind", Unit::Text},
      {"part", Unit::Text}, {"message", Unit::Text}, {"length", Unit::Bytes}, {"size_field", Unit::Bytes},
      // The end block.
      {"index_offset", Unit::Offset}, {"sha1", Unit::Text}, {"end_magic", Unit::Text},
      // A descriptor block that does not parse: its wire fields.
      {"raw.fields", Unit::Data}, {"raw.truncated", Unit::Flag}, {"raw.note", Unit::Text}, {"raw.error", Unit::Text},
      // Descriptor blocks (descriptor_json).
      {"descriptor.descriptor_type", Unit::Text}, {"descriptor.version", Unit::Text}, {"descriptor.annotations", Unit::Data},
      {"descriptor.checksum_type", Unit::Text}, {"descriptor.checksum_num_bytes", Unit::Bytes},
      {"descriptor.series_index", Unit::Id}, {"descriptor.series_identifier.series_type", Unit::Text},
      {"descriptor.series_identifier.spec", Unit::Data}, {"descriptor.identifier_hash", Unit::Id},
      {"descriptor.identifier_hash_hex", Unit::Text}, {"descriptor.message_type.content_type", Unit::Text},
      {"descriptor.message_type.type_name", Unit::Text}, {"descriptor.message_type.is_metadata", Unit::Flag},
      {"descriptor.pod_type.pod_type", Unit::Text}, {"descriptor.pod_type.dimension", Unit::Count},
      {"descriptor.struct_type", Unit::Data}, {"descriptor.additional_index_names", Unit::Text},
      {"descriptor.description", Unit::Text}, {"descriptor.descriptor_file_offset", Unit::Offset},
      {"descriptor.total_bytes", Unit::Bytes}, {"descriptor.num_entries", Unit::Count},
      {"descriptor.block_entries.timestamp_ns", Unit::TimeNs}, {"descriptor.block_entries.file_offset", Unit::Offset},
      {"descriptor.block_entries.additional_indexes", Unit::Number}, {"descriptor.note", Unit::Text},
      {"descriptor.series_identifiers.series_type", Unit::Text}, {"descriptor.series_identifiers.spec", Unit::Data},
      {"descriptor.series_block_index_offsets", Unit::Offset}, {"descriptor.series_identifier_hashes", Unit::Id},
      // Data blocks.
      {"descriptor_size", Unit::Bytes}, {"data_descriptor.series_index", Unit::Id},
      {"data_descriptor.timestamp_ns", Unit::TimeNs}, {"data_descriptor.timestamp_iso", Unit::Text},
      {"data_descriptor.additional_indexes", Unit::Number}, {"payload_offset", Unit::Offset}, {"payload_size", Unit::Bytes},
      {"series.index", Unit::Id}, {"series.channel", Unit::Text}, {"series.type", Unit::Text},
      // The payload: POD samples, protobuf wire fields or bytes.
      {"payload.kind", Unit::Text}, {"payload.pod_type", Unit::Text}, {"payload.dimension", Unit::Count},
      {"payload.sample_size", Unit::Bytes}, {"payload.num_samples", Unit::Count}, {"payload.samples", Unit::Data},
      {"payload.truncated", Unit::Flag}, {"payload.error", Unit::Text}, {"payload.fields", Unit::Data},
      {"payload.note", Unit::Text}, {"payload.type_name", Unit::Text}, {"payload.hex", Unit::Text},
      {"payload.message", Unit::Data}, {"payload.message_truncated", Unit::Flag}, {"payload.schema_note", Unit::Text},
  };
}

Json decode_block(ByteSource& source, const FileModel& model, uint64_t offset, size_t max_items,
                  const protobuf::Schemas* schemas) {
  Json j = Json::object();
  j["offset"] = offset;
  if (offset == 0) {
    j["block_type"] = "magic";
    j["magic"] = model.magic_ok ? "BDDF" : "(bad)";
    return j;
  }
  BlockFrame frame;
  std::string why;
  FrameStatus status = read_frame(source, offset, model.size, &frame, &why);
  if (status != FrameStatus::Ok) {
    j["error"] = "no complete block at " + std::to_string(offset) + (why.empty() ? std::string() : ": " + why);
    return j;
  }
  j["block_type"] = block_type_name(frame.type);
  j["length"] = frame.length;
  j["size_field"] = frame.size_field;
  if (frame.type == kEndBlock) {
    uint8_t bytes[32];
    if (source.read(offset + 8, bytes, 32) == 32) {
      uint64_t index_offset;
      std::memcpy(&index_offset, bytes, 8);
      j["index_offset"] = index_offset;
      j["sha1"] = hex_string(bytes + 8, kDigestSize);
      j["end_magic"] = std::string(reinterpret_cast<const char*>(bytes + 28), 4);
    }
    return j;
  }
  std::string descriptor_bytes = read_descriptor_bytes(source, frame);
  if (frame.type == kDescriptorBlock) {
    bosdyn::api::DescriptorBlock block;
    if (!parse_message(block, descriptor_bytes)) {
      j["error"] = "the descriptor block does not parse";
      j["raw"] = decode_wire(reinterpret_cast<const uint8_t*>(descriptor_bytes.data()), descriptor_bytes.size(),
                             frame.body_offset(), WireLimits{});
      return j;
    }
    j["descriptor"] = descriptor_json(block, max_items);
    return j;
  }
  if (frame.type != kDataBlock) {
    j["error"] = "unknown block type " + std::to_string(frame.type);
    return j;
  }
  j["descriptor_size"] = frame.descriptor_size;
  if (frame.descriptor_too_big) {
    j["error"] = "descriptor size exceeds the block size";
    return j;
  }
  bosdyn::api::DataDescriptor descriptor;
  if (!parse_message(descriptor, descriptor_bytes)) {
    j["error"] = "the DataDescriptor does not parse";
    return j;
  }
  Json dd = Json::object();
  dd["series_index"] = descriptor.series_index();
  int64_t ts = to_ns(descriptor.timestamp().seconds(), descriptor.timestamp().nanos());
  dd["timestamp_ns"] = ts;
  dd["timestamp_iso"] = iso_time(ts);
  Json extra = Json::array();
  for (int64_t x : descriptor.additional_indexes()) extra.push_back(x);
  dd["additional_indexes"] = std::move(extra);
  j["data_descriptor"] = std::move(dd);
  uint64_t payload_size = frame.payload_size();
  j["payload_offset"] = frame.payload_offset();
  j["payload_size"] = payload_size;
  uint32_t position = model.series_position(descriptor.series_index());
  if (position == UINT32_MAX) {
    j["error"] = "the block names series " + std::to_string(descriptor.series_index()) + ", which the file does not have";
    return j;
  }
  const Series& series = model.series[position];
  Json s = Json::object();
  s["index"] = series.index;
  s["channel"] = series.channel();
  s["type"] = series.type_label();
  j["series"] = std::move(s);
  if (series.pod_sample_size()) {
    uint64_t want = std::min<uint64_t>(payload_size, static_cast<uint64_t>(max_items) * series.pod_sample_size());
    want = std::min<uint64_t>(want, kMaxPayloadRead);
    std::vector<uint8_t> bytes = source.read_vector(frame.payload_offset(), static_cast<size_t>(want));
    j["payload"] = decode_pod(series, bytes, payload_size, max_items);
    return j;
  }
  uint64_t want = std::min<uint64_t>(payload_size, kMaxPayloadRead);
  std::vector<uint8_t> bytes = source.read_vector(frame.payload_offset(), static_cast<size_t>(want));
  if (series.data_type == "message_type" && series.content_type.find("protobuf") != std::string::npos) {
    WireLimits limits;
    limits.max_fields = max_items;
    Json payload = decode_wire(bytes.data(), bytes.size(), frame.payload_offset(), limits);
    payload["kind"] = "protobuf_raw";
    payload["type_name"] = series.type_name;
    if (want < payload_size) payload["note"] = "decoded from the first " + std::to_string(want) + " bytes";
    // By name when the schemas know the type (the wire fields stay for the hex view's offsets).
    MessageReading reading = message_reading(series, schemas);
    if (reading.schemas && want == payload_size) {
      protobuf::JsonLimits json_limits;
      json_limits.max_values = std::max<size_t>(max_items, 1);
      Json named = reading.schemas->message_json(series.type_name, bytes.data(), bytes.size(), json_limits);
      payload["kind"] = "protobuf";
      if (const Json* message = named.find("message")) payload["message"] = *message;
      if (const Json* error = named.find("error")) payload["error"] = *error;
      if (const Json* cut = named.find("truncated")) payload["message_truncated"] = *cut;
    } else {
      payload["schema_note"] = reading.schemas ? "the message is bigger than the 16 MB decoded here: fields by number" : reading.note;
    }
    j["payload"] = std::move(payload);
  } else {
    Json payload = Json::object();
    payload["kind"] = "bytes";
    size_t shown = std::min<size_t>(bytes.size(), 1024);
    payload["hex"] = hex_string(bytes.data(), shown);
    payload["truncated"] = shown < payload_size;
    j["payload"] = std::move(payload);
  }
  return j;
}

}  // namespace logscope::bddf
