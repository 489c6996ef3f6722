#include "rosbag/message_source.h"

#include "rosbag/iterate.h"

namespace logscope::rosbag {

std::vector<SourceTopic> BagMessageSource::topics() {
  std::vector<SourceTopic> list;
  std::set<std::string> seen;  // a topic recorded by several connections is one topic
  for (const Connection& c : bag_.connections) {
    if (!seen.insert(c.topic).second) continue;
    SourceTopic t{c.topic, c.type, ""};
    if (c.definition.empty()) t.note = "the bag stores no message definition for " + c.type;
    list.push_back(std::move(t));
  }
  return list;
}

bool BagMessageSource::walk(const std::set<std::string>& topics, const std::function<bool(const SourceMessage&)>& visit,
                            const ProgressFn& progress, std::string* error) {
  return walk_with(topics, WalkOptions(), visit, progress, error);
}

bool BagMessageSource::walk_with(const std::set<std::string>& topics, const WalkOptions& walk_options,
                                 const std::function<bool(const SourceMessage&)>& visit, const ProgressFn& progress, std::string* error) {
  IterateOptions options;
  options.start_ns = walk_options.t0_ns;
  options.end_ns = walk_options.t1_ns;
  for (const Connection& c : bag_.connections)
    if (topics.count(c.topic)) options.connections.push_back(c.id);
  if (options.connections.empty()) return true;
  MessageDecoder& decoder = walk_options.whole_bytes ? whole_decoder_ : decoder_;
  std::vector<Problem> problems;
  IterateResult result = for_each_message(
      source_, bag_, options,
      [&](const MessageView& view) {
        if (!view.connection) return true;
        std::string why;
        Json message = decoder.decode(view.connection, view.data, &why);
        bool decoded = why.empty() && !message.is_null();
        // V2.0: the chunk's offset and the record's in its data; V1.x: the record's file offset.
        bool chunked = view.chunk_pos != 0;
        return visit(SourceMessage{view.connection->topic, view.connection->type, view.time.ns(), decoded ? &message : nullptr, why,
                                   chunked ? view.chunk_pos : view.record_offset, chunked ? view.record_offset : 0});
      },
      &problems, progress);
  if (!problems.empty() && error) {
    *error = problems.front().message + " (byte " + std::to_string(problems.front().offset) + ")";
    if (problems.size() > 1) *error += " and " + std::to_string(problems.size() - 1) + " more";
  }
  return !result.cancelled;
}

}  // namespace logscope::rosbag
