// Decoding messages to Json with one parsed schema per connection (parsed on first use).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/json.h"
#include "rosbag/model.h"
#include "rosbag/iterate.h"
#include "rosbag/msgdef.h"

namespace logscope::rosbag {

class MessageDecoder {
 public:
  explicit MessageDecoder(DecodeOptions options = DecodeOptions()) : options_(options) {}

  // The schema of a connection, or null with `error` (no definition, a bad definition).
  const MessageSchema* schema(const Connection& connection, std::string* error);

  // {"topic", "type", "time", "time_ns", "conn", "size", "message" | "error"}.
  Json to_json(const MessageView& view);
  // Only the decoded message (or null) and the error, if any.
  Json decode(const Connection* connection, std::string_view data, std::string* error);

 private:
  struct Entry {
    std::unique_ptr<MessageSchema> schema;
    std::string error;
  };
  DecodeOptions options_;
  std::map<uint32_t, Entry> schemas_;
};

}  // namespace logscope::rosbag
