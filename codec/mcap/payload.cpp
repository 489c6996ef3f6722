#include "mcap/payload.h"

#include <google/protobuf/stubs/strutil.h>  // Base64Unescape

#include <map>
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

// The order of a json channel's members, as its messages first write them: per object path, each
// member name's place at first sight. A leaf's key is its path's places (array elements by index),
// so the export's columns keep each object's members together, in that order, whatever order a
// later message writes them in. At most kMaxNames names; later ones sort last, by path.
class JsonMemberOrder {
 public:
  struct Member {
    uint32_t place;  // among its parent's members; UINT32_MAX past kMaxNames
    uint32_t node;   // the parent of its own members
  };
  Member member(uint32_t parent, const std::string& name) {
    if (parent == kFull) return {UINT32_MAX, kFull};
    std::string key = std::to_string(parent) + '/' + name;  // the parent in digits: no other parent's key is the same
    auto found = index_.find(key);
    if (found != index_.end()) return unpack(members_[found->second]);
    if (members_.size() >= kMaxNames) return {UINT32_MAX, kFull};
    if (parent >= count_of_.size()) count_of_.resize(size_t{parent} + 1, 0);  // node ids are dense
    Member made{++count_of_[parent], static_cast<uint32_t>(members_.size() + 1)};
    index_.emplace(std::move(key), members_.size());
    members_.push_back(uint64_t{made.place} << 32 | made.node);
    return made;
  }

 private:
  static constexpr size_t kMaxNames = 100000;
  static constexpr uint32_t kFull = UINT32_MAX;  // below a name past kMaxNames
  static Member unpack(uint64_t packed) { return {static_cast<uint32_t>(packed >> 32), static_cast<uint32_t>(packed)}; }
  // Plain containers the codec has already (the page's first download counts every new one).
  std::map<std::string, size_t> index_;  // "parent/name" -> its member in members_
  std::vector<uint64_t> members_;         // place << 32 | node
  std::vector<uint32_t> count_of_;        // members per parent node; node 0 is the message
};

// A JSON message's leaves (JsonDecoder::leaves): members by dotted path, array elements as
// `a[2]`, an array longer than kExportArrayColumns (or nested deeper than kMaxDepth) as one JSON
// cell, null as no leaf (an empty cell).
class JsonLeaves {
 public:
  JsonLeaves(std::vector<protobuf::Leaf>* out, JsonMemberOrder* order) : out_(out), order_(order) {}
  void add(const Json& value, const std::string& path, uint32_t node = 0) {
    switch (value.type()) {
      case Json::Type::Null: return;
      case Json::Type::Bool: leaf(path, protobuf::LeafType::Bool).u = value.as_bool() ? 1 : 0; return;
      case Json::Type::Int: leaf(path, protobuf::LeafType::Signed).i = value.as_int(); return;
      case Json::Type::UInt: leaf(path, protobuf::LeafType::Unsigned).u = value.as_uint(); return;
      case Json::Type::Double: leaf(path, protobuf::LeafType::Double).d = value.as_double(); return;
      case Json::Type::String: leaf(path, protobuf::LeafType::Text).s = value.as_string(); return;
      case Json::Type::Object:
      case Json::Type::Array: break;
    }
    if (key_.size() >= kMaxDepth || (value.is_array() && value.size() > kExportArrayColumns)) {
      leaf(path, protobuf::LeafType::Json).s = value.dump();
      return;
    }
    if (value.is_object()) {
      for (const auto& [name, member] : value.items()) {
        JsonMemberOrder::Member at = order_->member(node, name);
        key_.push_back(at.place);
        add(member, path.empty() ? name : path + "." + name, at.node);
        key_.pop_back();
      }
    } else {
      uint32_t index = 0, elements = order_->member(node, "[]").node;  // the parent of every element's members
      for (const Json& element : value.elements()) {
        key_.push_back(index + 1);
        add(element, (path.empty() ? "value" : path) + "[" + std::to_string(index) + "]", elements);
        key_.pop_back();
        ++index;
      }
    }
  }

 private:
  static constexpr size_t kMaxDepth = 32;
  protobuf::Leaf& leaf(const std::string& path, protobuf::LeafType type) {
    protobuf::Leaf& made = out_->emplace_back();
    made.path = path.empty() ? "value" : path;  // a message that is a bare number or string
    made.key = key_;
    made.type = type;
    return made;
  }
  std::vector<protobuf::Leaf>* out_;
  JsonMemberOrder* order_;
  std::vector<uint32_t> key_;
};

// JSON text, shown as the value it is. Its export columns are the data's, not the schema's
// (a jsonschema may leave members out, and allow any): learned from the messages, as protobuf's.
// A jsonschema's base64 fields are bytes for the views (to_json, whole).
class JsonDecoder : public PayloadDecoder {
 public:
  JsonDecoder(std::optional<Json> schema, std::string type) : schema_(std::move(schema)), type_(std::move(type)) {}
  bool columns_from_messages() const override { return true; }
  bool leaves(std::string_view payload, std::vector<protobuf::Leaf>* out, std::string* error) const override {
    Json value = parse(payload, SIZE_MAX, error);
    if (!error->empty()) return false;
    JsonLeaves(out, &order_).add(value, "");
    return true;
  }
  std::string message_type() const override { return type_; }
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
  std::string type_;            // the schema's name
  // Grows as leaves() meets members (the export's column order). Not locked: an inspector and its
  // decoders serve one thread at a time, as their other caches do.
  mutable JsonMemberOrder order_;
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
  return std::make_unique<JsonDecoder>(std::move(parsed), schema ? schema->name : std::string());
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
