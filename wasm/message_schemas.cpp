#include "message_schemas.h"

#include <emscripten/bind.h>

#include <algorithm>
#include <utility>

#include "core/json.h"

using emscripten::val;

namespace logscope {

namespace {

// What one set may weigh: a descriptor set, or a folder's .proto text together (the CLI's cap).
constexpr size_t kMaxSetBytes = 256u << 20;

// Several sets as one: each question goes to the first set that has the type.
class SchemaChain : public protobuf::Schemas {
 public:
  explicit SchemaChain(std::vector<std::shared_ptr<const protobuf::Schemas>> sets) : sets_(std::move(sets)) {
    for (const auto& set : sets_) {
      description_ += (description_.empty() ? "" : "; ") + set->description();
      for (const std::string& w : set->warnings()) warnings_.push_back(w);
    }
  }
  bool has_type(const std::string& type_name) const override { return find(type_name) != nullptr; }
  bool numeric_leaves(const std::string& type_name, const uint8_t* data, size_t size, std::vector<protobuf::Leaf>* out,
                      std::string* error) const override {
    if (const protobuf::Schemas* set = find(type_name)) return set->numeric_leaves(type_name, data, size, out, error);
    *error = "no schema has the type " + type_name;
    return false;
  }
  Json message_json(const std::string& type_name, const uint8_t* data, size_t size,
                    const protobuf::JsonLimits& limits) const override {
    if (const protobuf::Schemas* set = find(type_name)) return set->message_json(type_name, data, size, limits);
    Json out = Json::object();
    out["error"] = "no schema has the type " + type_name;
    return out;
  }
  std::string description() const override { return description_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  std::vector<std::string> message_types() const override {
    std::vector<std::string> out;
    for (const auto& set : sets_)
      for (std::string& type : set->message_types()) out.push_back(std::move(type));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  const protobuf::Schemas* find(const std::string& type_name) const {
    for (const auto& set : sets_)
      if (set->has_type(type_name)) return set.get();
    return nullptr;
  }
  std::vector<std::shared_ptr<const protobuf::Schemas>> sets_;
  std::string description_;
  std::vector<std::string> warnings_;
};

// The well-known types' .proto text (CMakeLists.txt writes it from Debian's libprotobuf-dev):
// this module's generated pool lacks those a .proto folder may import (google/protobuf/*.proto).
std::vector<std::pair<std::string, std::string>> well_known_protos() {
  return {
#include "well_known_protos.inc"
  };
}

// A dropped folder's files, [[path, text], ...] from the page; false past kMaxSetBytes together.
bool text_files(val files, std::vector<std::pair<std::string, std::string>>* out) {
  size_t count = files["length"].as<size_t>(), total = 0;
  for (size_t i = 0; i < count; ++i) {
    val pair = files[i];
    if (!pair[0].isString() || !pair[1].isString()) continue;
    std::string path = pair[0].as<std::string>(), text = pair[1].as<std::string>();
    total += path.size() + text.size();
    if (total > kMaxSetBytes) return false;
    out->emplace_back(std::move(path), std::move(text));
  }
  return true;
}

Json string_array(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const std::string& item : items) out.push_back(item);
  return out;
}

}  // namespace

std::string MessageSchemas::added(const std::string& name, std::shared_ptr<const protobuf::Schemas> set, const std::string& error) {
  Json out = Json::object();
  out["ok"] = set != nullptr;
  if (!set) {
    out["error"] = name + ": " + error;
    return out.dump();
  }
  out["description"] = set->description();
  out["warnings"] = string_array(set->warnings());
  out["types"] = string_array(set->message_types());
  sets_.push_back(std::move(set));
  return out.dump();
}

std::string MessageSchemas::add_descriptor_set(const std::string& name, val bytes) {
  size_t size = bytes["length"].as<size_t>();
  if (size > kMaxSetBytes) return added(name, nullptr, "not a descriptor set (over 256 MB)");
  std::string data(size, '\0');
  val(emscripten::typed_memory_view(size, reinterpret_cast<uint8_t*>(data.data()))).call<void>("set", bytes);
  std::string error;
  auto set = protobuf::load_descriptor_set(data, &error);
  return added(name, std::move(set), error);
}

std::string MessageSchemas::add_proto_files(const std::string& name, val files) {
  std::vector<std::pair<std::string, std::string>> sources;
  if (!text_files(files, &sources)) return added(name, nullptr, "the .proto files weigh over 256 MB together");
  std::string error;
  auto set = protobuf::load_proto_sources(std::move(sources), &error, well_known_protos());
  return added(name, std::move(set), error);
}

std::string MessageSchemas::add_msg_files(const std::string& name, val files) {
  std::vector<std::pair<std::string, std::string>> sources;
  if (!text_files(files, &sources)) return added(name, nullptr, "the .msg files weigh over 256 MB together");
  cdr::TypeLibrary set;  // this set's types alone, for its answer
  for (const auto& [path, text] : sources) cdr::add_msg_file(set, path, text, name + "/" + path);
  Json out = Json::object();
  out["ok"] = !set.empty();
  if (set.empty()) {
    out["error"] = name + ": holds no .msg file";
    return out.dump();
  }
  for (auto& [path, text] : sources) cdr::add_msg_file(*definitions_, path, std::move(text), name + "/" + path);
  ++msg_sets_;
  out["description"] = std::to_string(set.size()) + " ROS 2 message definitions (.msg)";
  out["warnings"] = string_array(set.warnings());
  out["types"] = string_array(set.names());
  return out.dump();
}

std::shared_ptr<const protobuf::Schemas> MessageSchemas::schemas() const {
  if (sets_.empty()) return nullptr;
  if (sets_.size() == 1) return sets_.front();
  return std::make_shared<SchemaChain>(sets_);
}

}  // namespace logscope

EMSCRIPTEN_BINDINGS(logscope_message_schemas) {
  emscripten::class_<logscope::MessageSchemas>("MessageSchemas")
      .constructor<>()
      .function("addDescriptorSet", &logscope::MessageSchemas::add_descriptor_set)
      .function("addProtoFiles", &logscope::MessageSchemas::add_proto_files)
      .function("addMsgFiles", &logscope::MessageSchemas::add_msg_files)
      .function("size", &logscope::MessageSchemas::size);
}
