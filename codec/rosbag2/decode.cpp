#include "rosbag2/decode.h"

#include <algorithm>

#include "cdr/decode.h"

namespace logscope::rosbag2 {
namespace {

constexpr size_t kHexShown = 256;  // bytes of an undecoded message the decoded query shows

bool same_type(const std::string& a, const std::string& b) {
  return cdr::TypeLibrary::canonical(a) == cdr::TypeLibrary::canonical(b);
}

std::unique_ptr<cdr::Schema> parse(const std::string& type, const std::string& encoding, const std::string& text, std::string* error) {
  if (encoding == "ros2msg") return cdr::Schema::parse_ros2msg(type, text, error);
  if (encoding == "ros2idl") return cdr::Schema::parse_ros2idl(type, text, error);
  *error = "its definition's encoding \"" + encoding + "\" is not ros2msg or ros2idl";
  return nullptr;
}

// A ROS 1 definition reads as ros2msg text, but a ROS 1 std_msgs/Header has a `seq` a ROS 2 one
// lacks: such a definition would misplace every later field, so it is refused.
bool ros1_header(const std::string& text) {
  size_t at = text.find("MSG: std_msgs/Header");
  return at != std::string::npos && text.find("uint32 seq", at) != std::string::npos;
}

}  // namespace

bool bag_definition(const Bag& bag, const std::string& type, std::string* encoding, std::string* text) {
  for (const BagFile& f : bag.files)
    for (const Definition& d : f.tables.definitions)
      if (same_type(d.topic_type, type) && !d.encoded_message_definition.empty() && (d.encoding == "ros2msg" || d.encoding == "ros2idl")) {
        *encoding = d.encoding;
        *text = d.encoded_message_definition;
        return true;
      }
  return false;
}

const TopicDecoder& TopicDecoders::get(const Topic& topic) {
  auto key = std::make_pair(topic.name, topic.type);
  auto it = decoders_.find(key);
  if (it != decoders_.end()) return *it->second;
  auto d = std::make_unique<TopicDecoder>();
  d->topic = topic.name;
  d->type = topic.type;
  std::string why;
  if (!topic.serialization_format.empty() && topic.serialization_format != "cdr") {
    d->note = "serialization format \"" + topic.serialization_format + "\" is not CDR";
  } else if (bag_definition(bag_, topic.type, &d->encoding, &d->text)) {
    d->origin = "bag";
  } else if (supplied_ && supplied_->definition(topic.type, &d->encoding, &d->text, &why)) {
    d->origin = "supplied";
    if (d->encoding == "ros1msg") {
      if (ros1_header(d->text)) {
        d->note = "the supplied definition of " + topic.type + " is ROS 1's, whose std_msgs/Header (with seq) differs from ROS 2's";
        d->encoding.clear(), d->text.clear(), d->origin.clear();
      } else {
        d->encoding = "ros2msg";  // the same field syntax; a layout that differs shows as a size mismatch
      }
    }
  } else {
    d->note = "no definition of " + topic.type + ": the bag stores none (message_definitions came with schema version 4, Iron)" +
              (supplied_ ? "; " + why : "; give one with --msg-path DIR or --definitions-from FILE");
  }
  if (!d->text.empty()) {
    std::string error;
    d->schema = parse(topic.type, d->encoding, d->text, &error);
    if (d->schema) {
      d->layout = std::make_unique<cdr::FlatLayout>(*d->schema);
      if (d->layout->too_wide()) {
        d->note = "the definition of " + topic.type + " flattens to more than " + std::to_string(cdr::FlatLayout::kMaxColumns) + " columns";
        d->layout.reset();
      }
    } else {
      d->note = "the " + d->origin + " definition of " + topic.type + " cannot be used: " + error;
    }
  }
  return *decoders_.emplace(key, std::move(d)).first->second;
}

void add_decoded(Json& j, const TopicDecoder& decoder, const uint8_t* data, size_t size) {
  if (!decoder.schema) {
    j["decode_note"] = decoder.note;
    j["hex"] = hex_string(data, std::min(size, kHexShown));
    return;
  }
  std::string error;
  j["message"] = cdr::decode_json(*decoder.schema, data, size, cdr::DecodeOptions(), &error);
  if (!error.empty()) j["decode_error"] = "the " + decoder.type + " definition does not fit the message's " + std::to_string(size) + " bytes: " + error;
}

bool fits_definition(const TopicDecoder& decoder, const uint8_t* data, size_t size, std::string* why) {
  return !decoder.schema || cdr::validate(*decoder.schema, data, size, why);
}

Problem size_mismatch(const TopicDecoder& decoder, const std::string& where, size_t size, const std::string& why) {
  return Problem{Severity::Warning, 0, "rosbag2.decode.size_mismatch",
                 "topic " + decoder.topic + " (" + decoder.type + "): the message at " + where + " (" + std::to_string(size) +
                     " bytes) does not fit the " + (decoder.origin == "bag" ? "bag's" : "supplied") + " definition: " + why};
}

}  // namespace logscope::rosbag2
