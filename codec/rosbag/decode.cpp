#include "rosbag/decode.h"

namespace logscope::rosbag {

const MessageSchema* MessageDecoder::schema(const Connection& connection, std::string* error) {
  auto it = schemas_.find(connection.id);
  if (it == schemas_.end()) {
    Entry entry;
    if (connection.definition.empty()) {
      entry.error = "connection " + std::to_string(connection.id) + " (" + connection.topic + ", " + connection.type +
                    ") has no message definition";
    } else {
      entry.schema = MessageSchema::parse(connection.type, connection.definition, &entry.error);
      if (!entry.schema) entry.error = "the message definition of " + connection.type + " is unusable: " + entry.error;
    }
    it = schemas_.emplace(connection.id, std::move(entry)).first;
  }
  *error = it->second.error;
  return it->second.schema.get();
}

Json MessageDecoder::decode(const Connection* connection, std::string_view data, std::string* error) {
  if (!connection) {
    *error = "the message's connection has no connection record";
    return Json();
  }
  const MessageSchema* s = schema(*connection, error);
  if (!s) return Json();
  return s->decode(reinterpret_cast<const uint8_t*>(data.data()), data.size(), options_, error);
}

Json MessageDecoder::to_json(const MessageView& view) {
  Json j = Json::object();
  j["topic"] = view.connection ? view.connection->topic : std::string();
  j["type"] = view.connection ? view.connection->type : std::string();
  j["time"] = format_time(view.time);
  j["time_ns"] = view.time.ns();
  j["conn"] = view.conn;
  j["size"] = view.data.size();
  std::string error;
  Json message = decode(view.connection, view.data, &error);
  j["message"] = std::move(message);
  if (!error.empty()) j["error"] = error;
  return j;
}

}  // namespace logscope::rosbag
