// A rosbag2 bag's messages for the views (core/message_source.h): each topic of the topics table
// with its type, and a topic's messages in stored order, decoded by its definition (decode.h).
#include "cdr/decode.h"
#include "rosbag2/inspector_impl.h"

namespace logscope::rosbag2 {

MessageSource* Rosbag2Inspector::message_source() {
  if (message_source_) return message_source_.get();
  // Names and types from the topics tables, read at open: not bag_totals(), whose exact counts
  // read every messages table (the page asks for them only when the user does).
  auto topics = [this] {
    std::vector<SourceTopic> list;
    auto add = [&](const std::string& name, const std::string& type) {
      for (const SourceTopic& t : list)
        if (t.topic == name) return;
      SourceTopic t{name, type, ""};
      const Topic* topic = find_topic(name);
      if (!topic) t.note = "no readable database lists topic " + name;
      else if (const TopicDecoder& d = decoders().get(*topic); !d.usable()) t.note = d.note;
      list.push_back(std::move(t));
    };
    bool any_read = false;
    for (const BagFile& f : bag_->files) {
      if (!f.tables_read) continue;
      any_read = true;
      for (const Topic& t : f.tables.topics) add(t.name, t.type);
    }
    // Nothing readable (a whole-file zstd bag): the yaml's topics, which no walk can decode.
    if (!any_read && bag_->metadata)
      for (const YamlTopic& t : bag_->metadata->topics) add(t.name, t.type);
    return list;
  };
  auto walk = [this](const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit,
                     const ProgressFn& progress, std::string* error) {
    cdr::DecodeOptions decode_options;
    if (options.whole_bytes) decode_options.bytes_preview = decode_options.array_preview = SIZE_MAX, decode_options.raw_bytes = true;
    // rosbag2 keeps signed times; a range past INT64_MAX holds nothing.
    if (options.t0_ns > static_cast<uint64_t>(INT64_MAX)) return true;
    if (topics.empty()) return true;  // (for_each_selected reads every topic for none)
    // In stored order, all topics at once. A walk that stops after a few reads in time order from
    // timestamp_idx; a listing of times reads the rows' leaf cells alone (RowSelection).
    const RowSelection how{!options.read_ahead, options.times_only};
    std::string stop;
    bool walked = for_each_selected(topics, options.t0_ns, options.t1_ns, 0, progress, [&](const BagMessage& m) {
      if (!m.topic) return true;
      uint64_t time = m.stored.timestamp_ns < 0 ? 0 : static_cast<uint64_t>(m.stored.timestamp_ns);
      std::string why = m.decode_error;
      if (options.times_only) return visit(SourceMessage{m.topic->name, m.topic->type, time, nullptr, why});  // undecoded, no error
      const TopicDecoder& decoder = decoders().get(*m.topic);
      Json message;
      if (why.empty() && decoder.schema) {
        message = cdr::decode_json(*decoder.schema, m.data, m.size, decode_options, &why);
      } else if (why.empty()) {
        why = decoder.note;
      }
      return visit(SourceMessage{m.topic->name, m.topic->type, time, why.empty() ? &message : nullptr, why});
    }, &stop, how);
    if (!stop.empty() && error) *error = stop;
    return walked;
  };
  message_source_ = std::make_unique<FunctionSource>(topics, walk);
  return message_source_.get();
}

}  // namespace logscope::rosbag2
