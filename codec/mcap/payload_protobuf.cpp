// MCAP's protobuf channels decoded by name: the schema's FileDescriptorSet loaded once per channel
// by the protobuf engine (codec/protobuf/schemas.h), its name the type. The record view gets the
// message as a tree (field names, enums by name); the export and the plots a column per numeric
// leaf path, learned from the messages (payload.h, columns_from_messages).
//
// The engine's by-name half (schemas.cpp, named.cpp: the full libprotobuf) is left out of the
// page's view module: this file is compiled per wasm module (CMakeLists.txt), and in the view
// module (LOGSCOPE_VIEW_ONLY) it only says where the names are; nothing below the #else refers
// to that half. The full module, the node module and the CLI decode by name.
#include "mcap/payload.h"

#ifndef LOGSCOPE_VIEW_ONLY
#include "protobuf/schemas.h"
#endif

namespace logscope::mcap {

#ifndef LOGSCOPE_VIEW_ONLY

namespace {

// The record view shows this many values of a message at most (a page shows up to 1000
// messages); the export takes every leaf.
constexpr size_t kMaxJsonValues = 5000;

class ProtobufDecoder : public PayloadDecoder {
 public:
  ProtobufDecoder(std::shared_ptr<const protobuf::Schemas> schemas, std::string type)
      : schemas_(std::move(schemas)), type_(std::move(type)) {}

  Json to_json(std::string_view payload, bool whole_bytes, std::string* error) const override {
    protobuf::JsonLimits limits;
    limits.max_values = kMaxJsonValues;
    if (whole_bytes) limits.max_bytes_shown = limits.max_values = SIZE_MAX;  // every value takes a byte of the payload at least
    Json j = schemas_->message_json(type_, bytes(payload), payload.size(), limits);
    if (const Json* why = j.find("error")) {
      *error = why->as_string();
      return Json();
    }
    error->clear();
    Json message = j.find("message") ? *j.find("message") : Json::object();
    if (const Json* truncated = j.find("truncated"); truncated && truncated->as_bool())
      message["[truncated]"] = "the record view shows the first " + std::to_string(kMaxJsonValues) + " values";
    return message;
  }
  bool has_columns() const override { return true; }
  bool columns_from_messages() const override { return true; }
  bool leaves(std::string_view payload, std::vector<protobuf::Leaf>* out, std::string* error) const override {
    return schemas_->numeric_leaves(type_, bytes(payload), payload.size(), out, error);
  }
  std::string message_type() const override { return type_; }

 private:
  static const uint8_t* bytes(std::string_view payload) { return reinterpret_cast<const uint8_t*>(payload.data()); }

  std::shared_ptr<const protobuf::Schemas> schemas_;
  std::string type_;
};

}  // namespace

std::unique_ptr<PayloadDecoder> make_protobuf_decoder(const Schema* schema, std::string* error) {
  if (schema->data.empty()) {
    *error = "the protobuf schema " + schema->name + " has no data (it should be a FileDescriptorSet)";
    return nullptr;
  }
  std::string why;
  std::shared_ptr<const protobuf::Schemas> schemas = protobuf::load_descriptor_set(schema->data, &why);
  if (!schemas) {
    *error = "the protobuf schema " + schema->name + " cannot be used: " + why;
    return nullptr;
  }
  // The registry's name is "foo.bar.Baz"; a leading dot (a descriptor's own type_name form) is
  // the same name.
  std::string type = schema->name;
  if (!type.empty() && type[0] == '.') type.erase(0, 1);
  if (!schemas->has_type(type)) {
    *error = "the protobuf schema's FileDescriptorSet (" + schemas->description() + ") has no message type \"" + schema->name + "\"";
    return nullptr;
  }
  return std::make_unique<ProtobufDecoder>(std::move(schemas), std::move(type));
}

#else  // LOGSCOPE_VIEW_ONLY

std::unique_ptr<PayloadDecoder> make_protobuf_decoder(const Schema*, std::string* error) {
  *error = "protobuf messages are decoded by name in the page's full module (it loads on first use) and in the "
           "command-line tool; this view shows their bytes";
  return nullptr;
}

#endif

}  // namespace logscope::mcap
