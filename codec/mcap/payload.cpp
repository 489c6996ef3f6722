#include "mcap/payload.h"

#include <google/protobuf/stubs/strutil.h>  // Base64Unescape

#include <optional>

#include "cdr/decode.h"
#include "cdr/flatten.h"
#include "cdr/schema.h"
#include "core/report.h"
#include "rosbag/flatten.h"
#include "rosbag/msgdef.h"

namespace logscope::mcap {
namespace {

const uint8_t* bytes_of(std::string_view payload) { return reinterpret_cast<const uint8_t*>(payload.data()); }

// ROS 2: CDR by a ros2msg definition (codec/cdr).
class CdrDecoder : public PayloadDecoder {
 public:
  CdrDecoder(std::unique_ptr<cdr::Schema> schema) : schema_(std::move(schema)), layout_(*schema_) {}
  bool usable(std::string* error) const {
    if (layout_.too_wide()) *error = "the definition flattens to more than " + std::to_string(cdr::FlatLayout::kMaxColumns) + " columns";
    return !layout_.too_wide();
  }
  Json to_json(std::string_view payload, bool whole, std::string* error) const override {
    cdr::DecodeOptions options;
    if (whole) options.bytes_preview = options.array_preview = SIZE_MAX, options.raw_bytes = true;
    return cdr::decode_json(*schema_, bytes_of(payload), payload.size(), options, error);
  }
  bool has_columns() const override { return true; }
  const std::vector<std::string>& columns() const override { return layout_.columns(); }
  const std::vector<TableWriter::Kind>& kinds() const override { return layout_.kinds(); }
  const std::vector<std::string>& json_columns() const override { return layout_.json_columns(); }
  bool write_row(std::string_view payload, TableWriter& out, std::string* error) const override {
    return layout_.write_row(bytes_of(payload), payload.size(), out, error);
  }

 private:
  std::unique_ptr<cdr::Schema> schema_;
  cdr::FlatLayout layout_;
};

// ROS 1 serialization by a ros1msg definition: the bag's decoder (codec/rosbag).
class Ros1Decoder : public PayloadDecoder {
 public:
  Ros1Decoder(std::unique_ptr<rosbag::MessageSchema> schema) : schema_(std::move(schema)), layout_(*schema_) {}
  bool usable(std::string* error) const {
    if (layout_.too_wide()) *error = "the definition flattens to more than " + std::to_string(rosbag::FlatLayout::kMaxColumns) + " columns";
    return !layout_.too_wide();
  }
  Json to_json(std::string_view payload, bool whole, std::string* error) const override {
    rosbag::DecodeOptions options;
    if (whole) options.bytes_preview = options.array_preview = SIZE_MAX, options.raw_bytes = true;
    return schema_->decode(bytes_of(payload), payload.size(), options, error);
  }
  bool has_columns() const override { return true; }
  const std::vector<std::string>& columns() const override { return layout_.columns(); }
  const std::vector<TableWriter::Kind>& kinds() const override { return layout_.kinds(); }
  const std::vector<std::string>& json_columns() const override { return layout_.json_columns(); }
  bool write_row(std::string_view payload, TableWriter& out, std::string* error) const override {
    if (!schema_->validate(bytes_of(payload), payload.size())) {
      schema_->decode(bytes_of(payload), payload.size(), rosbag::DecodeOptions(), error);  // for the reason
      if (error->empty()) *error = "the message does not fit its definition";
      return false;
    }
    return layout_.write_row(bytes_of(payload), payload.size(), out, error);
  }

 private:
  std::unique_ptr<rosbag::MessageSchema> schema_;
  rosbag::FlatLayout layout_;
};

// Strings a JSON schema marks "contentEncoding": "base64" (Foxglove's schemas do so for `data`)
// become hex text, the whole-bytes form every decoder hands the views (camera images). The schema
// and the value are walked together, through "properties" and "items"; false with `error` naming
// the field whose text is not base64.
bool base64_fields_to_hex(const Json& schema, Json& value, const std::string& path, std::string* error) {
  if (!schema.is_object()) return true;
  const Json* encoding = schema.find("contentEncoding");
  if (value.is_string() && encoding && encoding->is_string() && encoding->as_string() == "base64") {
    std::string bytes;
    if (!google::protobuf::Base64Unescape(value.as_string(), &bytes)) {
      *error = "the field " + path + " is not base64, as its schema says it is";
      return false;
    }
    value = Json(hex_string(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    return true;
  }
  const Json* properties = schema.find("properties");
  if (value.is_object() && properties && properties->is_object()) {
    for (const auto& [name, sub] : properties->items())
      if (value.contains(name) && !base64_fields_to_hex(sub, value[name], path + "." + name, error)) return false;
  }
  const Json* items = schema.find("items");
  if (value.is_array() && items) {
    Json::Elements& elements = value.elements();
    for (size_t i = 0; i < elements.size(); ++i)
      if (!base64_fields_to_hex(*items, elements[i], path + "[" + std::to_string(i) + "]", error)) return false;
  }
  return true;
}

// JSON text, shown as the value it is (no columns: its fields are the data's, not a schema's).
// A jsonschema's base64 fields are bytes for the views (to_json, whole).
class JsonDecoder : public PayloadDecoder {
 public:
  explicit JsonDecoder(std::optional<Json> schema) : schema_(std::move(schema)) {}
  Json to_json(std::string_view payload, bool whole, std::string* error) const override {
    if (!whole) return parse(payload, 4u << 20, error);
    Json value = parse(payload, 64u << 20, error);  // a camera frame's base64 (3 MB of RGB: 4 MB of text)
    if (!error->empty() || !schema_) return value;
    if (!base64_fields_to_hex(*schema_, value, "message", error)) return Json();
    return value;
  }

 private:
  static Json parse(std::string_view payload, size_t max_size, std::string* error) {
    if (payload.size() > max_size) {
      *error = "the JSON message is " + std::to_string(payload.size()) + " bytes, more than the record view shows";
      return Json();
    }
    std::string why;
    std::optional<Json> value = Json::parse(payload, &why);
    if (!value) {
      *error = "the message is not JSON: " + why;
      return Json();
    }
    error->clear();
    return std::move(*value);
  }
  std::optional<Json> schema_;  // the channel's jsonschema, when it parses
};

std::unique_ptr<PayloadDecoder> make_cdr(const Schema* schema, std::string* error) {
  auto parsed = cdr::Schema::parse_ros2msg(schema->name, schema->data, error);
  if (!parsed) return nullptr;
  auto decoder = std::make_unique<CdrDecoder>(std::move(parsed));
  if (!decoder->usable(error)) return nullptr;
  return decoder;
}

std::unique_ptr<PayloadDecoder> make_cdr_idl(const Schema* schema, std::string* error) {
  auto parsed = cdr::Schema::parse_ros2idl(schema->name, schema->data, error);
  if (!parsed) return nullptr;
  auto decoder = std::make_unique<CdrDecoder>(std::move(parsed));
  if (!decoder->usable(error)) return nullptr;
  return decoder;
}

std::unique_ptr<PayloadDecoder> make_ros1(const Schema* schema, std::string* error) {
  auto parsed = rosbag::MessageSchema::parse(schema->name, schema->data, error);
  if (!parsed) return nullptr;
  auto decoder = std::make_unique<Ros1Decoder>(std::move(parsed));
  if (!decoder->usable(error)) return nullptr;
  return decoder;
}

// A schema that is not JSON leaves the messages as they are (the schema is the writer's word).
std::unique_ptr<PayloadDecoder> make_json(const Schema* schema, std::string*) {
  std::optional<Json> parsed;
  if (schema && schema->encoding == "jsonschema") parsed = Json::parse(schema->data);
  return std::make_unique<JsonDecoder>(std::move(parsed));
}

}  // namespace

const std::vector<PayloadCodec>& payload_codecs() {
  // Encodings as the MCAP registry (website/docs/spec/registry.md) names them; "ros1" is the
  // registry's, "ros" what early ros1 profile writers used.
  static const std::vector<PayloadCodec> table = {
      {"cdr", "ros2msg", make_cdr},
      {"cdr", "ros2idl", make_cdr_idl},
      {"ros1", "ros1msg", make_ros1},
      {"ros", "ros1msg", make_ros1},
      {"json", "*", make_json},
      {"protobuf", "protobuf", make_protobuf_decoder},
  };
  return table;
}

const PayloadDecoder* PayloadDecoders::get(const Channel& channel, const Schema* schema, std::string* error) {
  auto it = entries_.find(channel.id);
  if (it == entries_.end()) {
    Entry entry;
    std::string schema_encoding = schema ? schema->encoding : "";
    const PayloadCodec* codec = nullptr;
    for (const PayloadCodec& c : payload_codecs())
      if (c.message_encoding == channel.message_encoding && (c.schema_encoding == "*" || c.schema_encoding == schema_encoding)) {
        codec = &c;
        break;
      }
    if (!codec) {
      entry.error = "no decoder for message encoding \"" + channel.message_encoding + "\"" +
                    (schema ? " with schema encoding \"" + schema_encoding + "\"" : " without a schema");
    } else if (codec->schema_encoding != "*" && codec->schema_encoding != "" && !schema) {
      entry.error = "the channel has no schema";
    } else {
      entry.decoder = codec->make(schema, &entry.error);
      if (!entry.decoder && entry.error.empty()) entry.error = "the schema cannot be used";
    }
    it = entries_.emplace(channel.id, std::move(entry)).first;
  }
  if (!it->second.decoder) *error = it->second.error;
  return it->second.decoder.get();
}

}  // namespace logscope::mcap
