#include "mcap/payload.h"

#include "cdr/decode.h"
#include "cdr/flatten.h"
#include "cdr/schema.h"
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
  Json to_json(std::string_view payload, std::string* error) const override {
    return cdr::decode_json(*schema_, bytes_of(payload), payload.size(), cdr::DecodeOptions(), error);
  }
  Json to_json_whole(std::string_view payload, std::string* error) const override {
    cdr::DecodeOptions options;
    options.bytes_preview = options.array_preview = SIZE_MAX;
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
  Json to_json(std::string_view payload, std::string* error) const override {
    return schema_->decode(bytes_of(payload), payload.size(), rosbag::DecodeOptions(), error);
  }
  Json to_json_whole(std::string_view payload, std::string* error) const override {
    rosbag::DecodeOptions options;
    options.bytes_preview = options.array_preview = SIZE_MAX;
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

// JSON text, shown as the value it is (no columns: its fields are the data's, not a schema's).
class JsonDecoder : public PayloadDecoder {
 public:
  Json to_json(std::string_view payload, std::string* error) const override {
    constexpr size_t kMaxShown = 4u << 20;
    if (payload.size() > kMaxShown) {
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

std::unique_ptr<PayloadDecoder> make_json(const Schema*, std::string*) { return std::make_unique<JsonDecoder>(); }

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
