// The rosbag2 data queries: `decoded` (messages a page at a time, decoded by their topic's
// definition: MCAP's shape, so the page's message list reads both), `columns` and `plot`
// (export.cpp), `timeline` (timestamps only: SQLite reads the table's leaf pages, not the message
// bodies in overflow pages) and `definitions` (what `--definitions-from` takes from a bag).
#include <sqlite3.h>

#include <algorithm>
#include <map>

#include "core/plot.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/message_queries.h"

namespace logscope::rosbag2 {
namespace {

constexpr uint64_t kMaxDecodedPage = 1000;

}  // namespace

// {"topic"? | "channel"?, "first", "count", "t0_ns"?, "t1_ns"?} -> {"messages": [{index, channel,
// topic, sequence, log_time, publish_time, size, offset, file, row, message | decode_error |
// decode_note + hex}], "first", "count", "more", "cancelled", "problems"}. `channel` is the
// topic's row in the summary's topics table.
Json Rosbag2Inspector::decoded_query(QueryArgs& args, const ProgressFn& progress) {
  uint64_t first = args.u64("first", 0);
  uint64_t count = std::min(args.u64("count", 50), kMaxDecodedPage);
  uint64_t t0 = args.u64("t0_ns", 0), t1 = args.u64("t1_ns", UINT64_MAX);
  std::string topic = args.str("topic", "");
  bool by_channel = args.has("channel");
  uint64_t channel = args.u64("channel", 0);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  BagTotals totals = bag_totals(*bag_);
  std::map<std::string, size_t> rows;
  for (size_t i = 0; i < totals.topics.size(); ++i) rows[totals.topics[i].name] = i;
  if (by_channel) {
    if (channel >= totals.topics.size()) return QueryArgs::error_json("no channel " + std::to_string(channel) + " in this bag");
    topic = totals.topics[static_cast<size_t>(channel)].name;
  } else if (!topic.empty() && !rows.count(topic)) {
    return QueryArgs::error_json("the bag has no topic \"" + topic + "\"");
  }
  Json messages = Json::array();
  Json problems = Json::array();
  uint64_t index = first;
  bool more = false;
  std::string error;
  bool walked = for_each_selected(topic.empty() ? std::set<std::string>() : std::set<std::string>{topic}, t0, t1, first, progress, [&](const BagMessage& m) {
    ++index;
    if (messages.size() >= count) {
      more = true;
      return false;
    }
    Json j = Json::object();
    j["index"] = index - 1;
    j["channel"] = m.topic ? Json(rows[m.topic->name]) : Json();
    j["topic"] = m.topic ? m.topic->name : "";
    j["sequence"] = Json();
    j["log_time"] = std::to_string(m.stored.timestamp_ns);
    j["publish_time"] = Json();
    j["size"] = m.size;
    j["offset"] = Json();  // a row of SQLite pages, not a byte range of the file
    j["offset_in_chunk"] = Json();
    j["file"] = bag_->files[m.file].name;
    j["row"] = m.stored.row_id;
    if (!m.topic) {
      j["decode_note"] = "topic_id " + std::to_string(m.stored.topic_id) + " has no row in topics";
    } else if (!m.decode_error.empty()) {
      j["decode_note"] = m.decode_error;
    } else {
      const TopicDecoder& decoder = decoders().get(*m.topic);
      add_decoded(j, decoder, m.data, m.size);
      if (const Json* why = j.find("decode_error")) {
        Json p = Json::object();
        p["offset"] = 0;
        p["message"] = size_mismatch(decoder, bag_->files[m.file].name + " row " + std::to_string(m.stored.row_id), m.size, why->as_string()).message;
        problems.push_back(std::move(p));
      }
    }
    messages.push_back(std::move(j));
    return true;
  }, &error);
  if (!error.empty()) {
    Json p = Json::object();
    p["offset"] = 0;
    p["message"] = error;
    problems.push_back(std::move(p));
  }
  Json out = Json::object();
  out["first"] = first;
  out["count"] = messages.size();
  out["more"] = more;
  out["cancelled"] = !walked;
  out["messages"] = std::move(messages);
  out["problems"] = std::move(problems);
  return out;
}

// Per topic (the summary's rows) and time bin, from `SELECT topic_id, timestamp` over each file.
Json Rosbag2Inspector::timeline_query(QueryArgs& args) {
  BagTotals totals = bag_totals(*bag_);
  uint64_t lo = totals.start_ns ? static_cast<uint64_t>(std::max<int64_t>(0, *totals.start_ns)) : 0;
  uint64_t hi = totals.end_ns ? static_cast<uint64_t>(std::max<int64_t>(0, *totals.end_ns)) : 0;
  uint64_t t0 = 0, t1 = 0;
  size_t bins = 0;
  if (!read_timeline_args(args, lo, hi, &t0, &t1, &bins)) return QueryArgs::error_json(args.error());
  Timeline timeline(t0, t1, bins, totals.topics.size());
  std::map<std::string, size_t> rows;
  for (const TopicRow& t : totals.topics) rows[t.name] = timeline.row(t.name, t.type);
  std::string resolution = "message";
  for (BagFile& f : bag_->files) {
    if (!f.reader || !f.tables_read) continue;
    std::map<int64_t, size_t> by_id;
    for (const Topic& t : f.tables.topics) by_id[t.id] = rows[t.name];
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(f.reader->handle(), "SELECT topic_id, timestamp FROM messages", -1, &stmt, nullptr) != SQLITE_OK) {
      sqlite3_finalize(stmt);
      resolution = "partial";
      continue;
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      auto row = by_id.find(sqlite3_column_int64(stmt, 0));
      int64_t t = sqlite3_column_int64(stmt, 1);
      if (row != by_id.end() && t >= 0) timeline.add(row->second, static_cast<uint64_t>(t));
    }
    if (rc != SQLITE_DONE) resolution = "partial";  // damage: the rows before it are counted
    sqlite3_finalize(stmt);
  }
  return timeline.to_json(resolution);
}

// {} -> {"definitions": [{"type", "encoding", "text"}]}: message_definitions of every split file.
Json Rosbag2Inspector::definitions_query() {
  Json list = Json::array();
  std::map<std::string, bool> seen;
  for (const BagFile& f : bag_->files)
    for (const Definition& d : f.tables.definitions) {
      if (d.encoded_message_definition.empty() || seen[d.topic_type]) continue;
      seen[d.topic_type] = true;
      Json j = Json::object();
      j["type"] = d.topic_type;
      j["encoding"] = d.encoding;
      j["text"] = d.encoded_message_definition;
      list.push_back(std::move(j));
    }
  Json out = Json::object();
  out["definitions"] = std::move(list);
  return out;
}

void Rosbag2Inspector::add_data_queries(std::vector<QuerySpec>& list) {
  add_message_queries(
      list, [this](QueryArgs& args, const ProgressFn& progress) { return decoded_query(args, progress); },
      [this](QueryArgs& args, const ProgressFn&) { return columns_query(args); },
      [this](QueryArgs& args, const ProgressFn& progress) { return plot_query(args, progress); });
  list.push_back({"timeline", "messages per topic and time bin from the stored timestamps (no message body read)", timeline_arg_specs(),
                  timeline_units(), [this](QueryArgs& args, const ProgressFn&) { return timeline_query(args); }});
  list.push_back({"definitions", "the message definitions the bag stores (message_definitions, schema version 4)", {},
                  {{"definitions.type", Unit::Text}, {"definitions.encoding", Unit::Text}, {"definitions.text", Unit::Text}},
                  [this](QueryArgs&, const ProgressFn&) { return definitions_query(); }});
}

}  // namespace logscope::rosbag2
