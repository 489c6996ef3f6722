// CDR payloads of a rosbag2 bag decoded through codec/cdr (the decoder MCAP uses): per topic, the
// definition the bag stores (`message_definitions`, schema version 4: ros2msg or ros2idl), else one
// the user supplied by type name (cdr::TypeLibrary). Without either the messages stay bytes; a
// definition is never guessed, and one that does not fit the bytes is a problem naming the topic
// (`rosbag2.decode.size_mismatch`).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "cdr/flatten.h"
#include "cdr/schema.h"
#include "cdr/type_library.h"
#include "core/json.h"
#include "rosbag2/bag.h"

namespace logscope::rosbag2 {

struct TopicDecoder {
  std::string topic, type;
  std::string encoding, text;  // the definition used ("" when there is none)
  std::string origin;          // "bag" (message_definitions) or "supplied"
  std::unique_ptr<cdr::Schema> schema;
  std::unique_ptr<cdr::FlatLayout> layout;
  std::string note;  // why the messages stay bytes
  bool usable() const { return schema && layout; }
};

// The bag's own definition of `type` (any split file's message_definitions); false when none or
// rosbag2 recorded it as unknown (empty text).
bool bag_definition(const Bag& bag, const std::string& type, std::string* encoding, std::string* text);

class TopicDecoders {
 public:
  TopicDecoders(const Bag& bag, std::shared_ptr<const cdr::TypeLibrary> supplied) : bag_(bag), supplied_(std::move(supplied)) {}
  // Made on first use and kept.
  const TopicDecoder& get(const Topic& topic);
  const cdr::TypeLibrary* supplied() const { return supplied_.get(); }

 private:
  const Bag& bag_;
  std::shared_ptr<const cdr::TypeLibrary> supplied_;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<TopicDecoder>> decoders_;  // by (name, type)
};

// The JSON of one message for the `decoded` query (MCAP's shape): `message`, or `decode_error`
// with what was decoded, or `decode_note` and `hex` (the first bytes) when there is no definition.
void add_decoded(Json& j, const TopicDecoder& decoder, const uint8_t* data, size_t size);

// Whether the message fits its topic's definition (true when there is none to check); `why` says
// where it does not.
bool fits_definition(const TopicDecoder& decoder, const uint8_t* data, size_t size, std::string* why);

// The problem for a message its definition does not fit; `where`: "file.db3 row 12".
Problem size_mismatch(const TopicDecoder& decoder, const std::string& where, size_t size, const std::string& why);

}  // namespace logscope::rosbag2
