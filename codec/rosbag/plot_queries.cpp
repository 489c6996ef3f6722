#include "rosbag/plot_queries.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/plot.h"
#include "rosbag/export.h"
#include "rosbag/flatten.h"
#include "rosbag/msgdef.h"

namespace logscope::rosbag {

namespace {

std::string topic_list(const Bag& bag) {
  std::set<std::string> topics;
  for (const Connection& c : bag.connections) topics.insert(c.topic);
  std::string names;
  for (const std::string& t : topics) names += (names.empty() ? "" : ", ") + t;
  return names.empty() ? "none" : names;
}

// The time span of the topic's messages: its chunks' (V2.0) or its messages' (V1.x). {0, 0} when none.
std::pair<uint64_t, uint64_t> topic_span(const Bag& bag, const std::set<uint32_t>& connections) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Chunk& chunk : bag.chunks)
    for (const auto& count : chunk.counts)
      if (count.second && connections.count(count.first)) {
        lo = std::min(lo, chunk.start.ns());
        hi = std::max(hi, chunk.end.ns());
        break;
      }
  for (const MessageRef& m : bag.messages)
    if (connections.count(m.conn)) {
      lo = std::min(lo, m.time_ns);
      hi = std::max(hi, m.time_ns);
    }
  return lo > hi ? std::make_pair<uint64_t, uint64_t>(0, 0) : std::make_pair(lo, hi);
}

}  // namespace

Json columns_query(const Bag& bag, QueryArgs& args) {
  if (!args.has("topic")) return QueryArgs::error_json("columns needs {\"topic\": name}");
  std::string topic = args.str("topic");
  for (const Connection& c : bag.connections) {
    if (c.topic != topic) continue;
    std::string error;
    auto schema = MessageSchema::parse(c.type, c.definition, &error);
    if (!schema) return QueryArgs::error_json("the definition of " + c.type + " cannot be read: " + error);
    FlatLayout layout(*schema);
    if (layout.too_wide()) return QueryArgs::error_json("the definition of " + c.type + " flattens to too many columns");
    Json columns = Json::array();
    for (size_t i = 0; i < layout.columns().size(); ++i) {
      Json column = Json::object();
      column["name"] = layout.columns()[i];
      column["kind"] = TableWriter::kind_name(layout.kinds()[i]);
      columns.push_back(std::move(column));
    }
    Json j = Json::object();
    j["topic"] = topic;
    j["type"] = c.type;
    j["columns"] = std::move(columns);
    return j;
  }
  return QueryArgs::error_json("the bag has no topic \"" + topic + "\" (topics: " + topic_list(bag) + ")");
}

Json plot_query(ByteSource& source, Bag& bag, QueryArgs& args, const ProgressFn& progress) {
  if (!args.has("topic")) return QueryArgs::error_json("plot needs {\"topic\": name, \"fields\": \"a,b\"}");
  std::string topic = args.str("topic");
  std::set<uint32_t> connections;
  for (const Connection& c : bag.connections)
    if (c.topic == topic) connections.insert(c.id);
  auto [from, to] = topic_span(bag, connections);
  return plot_of_export(args, from, to, [&](const ExportRequest& request, ExportSink& sink) {
    return export_topic(source, bag, topic, request, sink, progress);
  });
}

Json timeline_query(const Bag& bag, QueryArgs& args) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Chunk& chunk : bag.chunks)
    if (chunk.message_count()) lo = std::min(lo, chunk.start.ns()), hi = std::max(hi, chunk.end.ns());
  if (!bag.messages.empty()) lo = std::min(lo, bag.messages.front().time_ns), hi = std::max(hi, bag.messages.back().time_ns);
  if (lo > hi) lo = hi = 0;
  uint64_t t0 = 0, t1 = 0;
  size_t bins = 0;
  if (!read_timeline_args(args, lo, hi, &t0, &t1, &bins)) return QueryArgs::error_json(args.error());
  std::map<std::string, size_t> rows;  // topic -> row, rows in topic order as the summary's table
  for (const Connection& c : bag.connections) rows.emplace(c.topic, 0);
  Timeline timeline(t0, t1, bins, rows.size());
  for (auto& [topic, row] : rows) {
    std::string type;
    for (const Connection& c : bag.connections)
      if (c.topic == topic) {
        type = c.type;
        break;
      }
    row = timeline.row(topic, type);
  }
  for (const Chunk& chunk : bag.chunks)
    for (const auto& [id, count] : chunk.counts)
      if (const Connection* c = bag.connection(id)) timeline.spread(rows[c->topic], chunk.start.ns(), chunk.end.ns(), count);
  for (const MessageRef& m : bag.messages)
    if (const Connection* c = bag.connection(m.conn)) timeline.add(rows[c->topic], m.time_ns);
  return timeline.to_json(bag.format == Format::RosbagV20 ? "chunk" : "message");
}

}  // namespace logscope::rosbag
