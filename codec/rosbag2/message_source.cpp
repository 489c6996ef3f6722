// A rosbag2 bag's messages for the views (core/message_source.h): each topic of the topics table
// with its type, and a topic's messages in stored order, decoded by its definition (decode.h).
#include "cdr/decode.h"
#include "rosbag2/inspector_impl.h"

namespace logscope::rosbag2 {

MessageSource* Rosbag2Inspector::message_source() {
  if (message_source_) return message_source_.get();
  auto topics = [this] {
    std::vector<SourceTopic> list;
    for (const TopicRow& row : bag_totals(*bag_).topics) {
      SourceTopic t{row.name, row.type, ""};
      const Topic* topic = find_topic(row.name);
      if (!topic) t.note = "no readable database lists topic " + row.name;
      else if (const TopicDecoder& d = decoders().get(*topic); !d.usable()) t.note = d.note;
      list.push_back(std::move(t));
    }
    return list;
  };
  auto walk = [this](const std::set<std::string>& topics, const std::function<bool(const SourceMessage&)>& visit, const ProgressFn& progress,
                     std::string* error) {
    for (const std::string& name : topics) {
      bool go_on = true;
      std::string stop;
      bool walked = for_each_selected(name, 0, UINT64_MAX, 0, progress, [&](const BagMessage& m) {
        if (!m.topic) return true;
        const TopicDecoder& decoder = decoders().get(*m.topic);
        std::string why = m.decode_error;
        Json message;
        if (why.empty() && decoder.schema) {
          message = cdr::decode_json(*decoder.schema, m.data, m.size, cdr::DecodeOptions(), &why);
        } else if (why.empty()) {
          why = decoder.note;
        }
        uint64_t time = m.stored.timestamp_ns < 0 ? 0 : static_cast<uint64_t>(m.stored.timestamp_ns);
        go_on = visit(SourceMessage{m.topic->name, m.topic->type, time, why.empty() ? &message : nullptr, why});
        return go_on;
      }, &stop);
      if (!stop.empty() && error) *error = stop;
      if (!walked) return false;
      if (!go_on) return true;
    }
    return true;
  };
  message_source_ = std::make_unique<FunctionSource>(topics, walk);
  return message_source_.get();
}

}  // namespace logscope::rosbag2
