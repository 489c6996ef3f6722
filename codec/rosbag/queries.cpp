// The bag query table: decoded messages a page at a time, the connections, and the plot queries
// (plot_queries.cpp), plus the iteration benchmark's pass over every message.
#include "rosbag/queries.h"

#include <algorithm>
#include <optional>
#include <set>

#include "core/plot.h"
#include "rosbag/iterate.h"
#include "rosbag/plot_queries.h"

namespace logscope::rosbag {

Json connections_query(const Bag& bag) {
  Json list = Json::array();
  for (const Connection& c : bag.connections) {
    Json j = Json::object();
    j["id"] = c.id;
    j["topic"] = c.topic;
    j["type"] = c.type;
    j["md5"] = c.md5;
    j["callerid"] = c.callerid;
    j["latching"] = c.latching;
    j["offset"] = c.record_offset;
    j["message_definition"] = c.definition;
    list.push_back(std::move(j));
  }
  Json out = Json::object();
  out["connections"] = std::move(list);
  return out;
}

// {"topic"?, "first", "count", "t0_ns"?, "t1_ns"?, "preview"?} -> {"messages": [...], "first", "count", "more"}.
// Pages are found by skipping: cheap next to decompression.
Json messages_query(ByteSource& source, Bag& bag, MessageDecoder& default_decoder, QueryArgs& args, const ProgressFn& progress) {
  IterateOptions options;
  uint64_t first = args.u64("first", 0), count = std::min<uint64_t>(args.u64("count", 100), 10000);
  if (args.has("t0_ns")) options.start_ns = args.u64("t0_ns", 0);
  if (args.has("t1_ns")) options.end_ns = args.u64("t1_ns", UINT64_MAX);
  // Arrays longer than `preview` show their first elements and length (the default decoder's 16 otherwise).
  std::optional<MessageDecoder> own_decoder;
  if (args.has("preview")) {
    DecodeOptions decode_options;
    decode_options.array_preview = static_cast<size_t>(args.u64("preview", 16, 0, 1u << 20));
    own_decoder.emplace(decode_options);
  }
  MessageDecoder& decoder = own_decoder ? *own_decoder : default_decoder;
  Json out = Json::object();
  if (!args.ok()) return out;
  std::string topic = args.str("topic");
  if (!topic.empty()) {
    for (const Connection& c : bag.connections)
      if (c.topic == topic) options.connections.push_back(c.id);
    if (options.connections.empty()) return QueryArgs::error_json("no topic " + topic + " in this bag");
  }
  Json messages = Json::array();
  uint64_t index = first;
  bool more = false;
  std::vector<Problem> problems;
  // The messages before the page are passed over: whole chunks by their ChunkInfo counts (never
  // read), the rest without decoding.
  options.skip = first;
  IterateResult result = for_each_message(
      source, bag, options,
      [&](const MessageView& view) {
        if (index >= first + count) {
          more = true;
          return false;
        }
        Json m = decoder.to_json(view);
        m["index"] = index++;
        // Where the message lives, so a viewer can jump to its bytes: V2.0 messages sit inside a
        // (maybe compressed) chunk, V1.x messages are records in the file itself.
        if (bag.version == 200) {
          m["chunk_pos"] = view.chunk_pos;
          m["offset_in_chunk"] = view.record_offset;
        } else {
          m["offset"] = view.record_offset;
        }
        messages.push_back(std::move(m));
        return true;
      },
      &problems, progress);
  out["chunks_read"] = result.chunks;
  out["chunks_skipped"] = result.chunks_skipped;
  out["first"] = first;
  out["count"] = messages.size();
  out["more"] = more;
  out["messages"] = std::move(messages);
  Json p = Json::array();
  for (const Problem& problem : problems) p.push_back(problem_to_json(problem));
  out["problems"] = std::move(p);
  return out;
}

std::vector<QuerySpec> query_table(ByteSource& source, Bag& bag, MessageDecoder& decoder) {
  return {
      {"messages", "decoded messages in time order, a page at a time",
       {{"topic", ArgType::String, "only this topic"}, {"first", ArgType::U64, "index of the first message (in the selection)"},
        {"count", ArgType::U64, "messages (at most 10000)"}, {"t0_ns", ArgType::U64, "from, ns since the epoch"},
        {"t1_ns", ArgType::U64, "to, ns since the epoch"}, {"preview", ArgType::U64, "array elements shown (default 16)"}},
       join_units({{"chunks_read", Unit::Count}, {"chunks_skipped", Unit::Count}, {"first", Unit::Id}, {"count", Unit::Count},
                   {"more", Unit::Flag}, {"messages.topic", Unit::Text}, {"messages.type", Unit::Text}, {"messages.time", Unit::Text},
                   {"messages.time_ns", Unit::TimeNs}, {"messages.conn", Unit::Id}, {"messages.size", Unit::Bytes},
                   {"messages.message", Unit::Data}, {"messages.error", Unit::Text}, {"messages.index", Unit::Id},
                   {"messages.chunk_pos", Unit::Offset}, {"messages.offset_in_chunk", Unit::Offset}, {"messages.offset", Unit::Offset}},
                  problem_units("problems")),
       [&source, &bag, &decoder](QueryArgs& args, const ProgressFn& progress) { return messages_query(source, bag, decoder, args, progress); }},
      {"connections", "every connection: topic, type, md5, callerid, latching, definition", {},
       {{"connections.id", Unit::Id}, {"connections.topic", Unit::Text}, {"connections.type", Unit::Text}, {"connections.md5", Unit::Id},
        {"connections.callerid", Unit::Text}, {"connections.latching", Unit::Flag}, {"connections.offset", Unit::Offset},
        {"connections.message_definition", Unit::Text}},
       [&bag](QueryArgs&, const ProgressFn&) { return connections_query(bag); }},
      {"definitions", "each type's message definition (ros1msg), for --definitions-from", {},
       {{"definitions.type", Unit::Text}, {"definitions.encoding", Unit::Text}, {"definitions.text", Unit::Text}},
       [&bag](QueryArgs&, const ProgressFn&) {
         Json list = Json::array();
         std::set<std::string> seen;
         for (const Connection& c : bag.connections)
           if (!c.definition.empty() && seen.insert(c.type).second) {
             Json j = Json::object();
             j["type"] = c.type, j["encoding"] = "ros1msg", j["text"] = c.definition;
             list.push_back(std::move(j));
           }
         Json out = Json::object();
         out["definitions"] = std::move(list);
         return out;
       }},
      {"columns", "the columns of `logscope export --topic` and what each holds (number, bool, text, json)",
       {{"topic", ArgType::String, "the topic"}},
       {{"topic", Unit::Text}, {"type", Unit::Text}, {"columns.name", Unit::Text}, {"columns.kind", Unit::Text}},
       [&bag](QueryArgs& args, const ProgressFn&) { return columns_query(bag, args); }},
      {"plot", "numeric columns of a topic over time, as `logscope export` writes them: every point, or per-bucket first/last/min/max beyond max_points, and the exact count",
       [] {
         std::vector<ArgSpec> specs{{"topic", ArgType::String, "the topic"}};
         for (ArgSpec& spec : plot_arg_specs()) specs.push_back(std::move(spec));
         return specs;
       }(),
       plot_units(),
       [&source, &bag](QueryArgs& args, const ProgressFn& progress) { return plot_query(source, bag, args, progress); }},
      {"timeline", "messages per topic and time bin from the index (V2.0: each chunk's count spread over its span)",
       timeline_arg_specs(), timeline_units(),
       [&bag](QueryArgs& args, const ProgressFn&) { return timeline_query(bag, args); }},
      {"iterate_all", "every message in time order, counted, none decoded (the iteration benchmark)",
       {{"verify_checksums", ArgType::Bool, "check lz4 frame checksums"}},
       {{"messages", Unit::Count}, {"message_bytes", Unit::Bytes}, {"chunks", Unit::Count}, {"compressed_bytes", Unit::Bytes},
        {"cancelled", Unit::Flag}, {"problems", Unit::Count}},
       [&source, &bag](QueryArgs& args, const ProgressFn& progress) {
         IterateOptions options;
         options.verify_checksums = args.flag("verify_checksums");
         uint64_t bytes = 0;
         std::vector<Problem> problems;
         IterateResult r = for_each_message(source, bag, options, [&](const MessageView& view) {
           bytes += view.data.size();
           return true;
         }, &problems, progress);
         Json out = Json::object();
         out["messages"] = r.messages;
         out["message_bytes"] = bytes;
         out["chunks"] = r.chunks;
         out["compressed_bytes"] = r.compressed_bytes;
         out["cancelled"] = r.cancelled;
         out["problems"] = problems.size();
         return out;
       }},
  };
}

}  // namespace logscope::rosbag
