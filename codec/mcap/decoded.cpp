// The `decoded` query: messages a page at a time with their payloads decoded by their channel's
// encodings (payload.h), for the page's Data view; the walk is the export's (export.cpp).
#include <algorithm>
#include <set>

#include "mcap/inspector_impl.h"

namespace logscope::mcap {
namespace {

constexpr uint64_t kMaxDecodedPage = 1000;

}  // namespace

// {"channel"? | "topic"?, "first", "count", "t0_ns"?, "t1_ns"?} -> {"messages": [{index, channel,
// topic, sequence, log_time, publish_time, size, offset, offset_in_chunk, message | decode_error |
// decode_note}], "first", "count", "more", "selected", "problems"}, in file order. `selected` is
// how many messages the selection holds, once the walk has reached the file's end (else null): a
// bag of several files pages across them with it (rosbag2/mcap_folder_data.cpp).
Json McapInspector::decoded_query(QueryArgs& args, const ProgressFn& progress) {
  uint64_t first = args.u64("first", 0);
  uint64_t count = std::min(args.u64("count", 50), kMaxDecodedPage);
  uint64_t t0 = args.u64("t0_ns", 0), t1 = args.u64("t1_ns", UINT64_MAX);
  bool one_channel = args.has("channel");
  uint64_t channel = args.u64("channel", 0, 0, 65535);
  std::string topic = args.str("topic", "");
  if (!args.ok()) return QueryArgs::error_json(args.error());
  std::set<uint16_t> ids;
  std::string error;
  if (one_channel) {
    if (!model_.channels.count(static_cast<uint16_t>(channel))) return QueryArgs::error_json("no channel " + std::to_string(channel) + " in this file");
    ids.insert(static_cast<uint16_t>(channel));
  } else if (!topic.empty()) {
    if (!topic_channels(topic, &ids, &error)) return QueryArgs::error_json(error);
  } else {
    for (const auto& [id, info] : model_.channels) ids.insert(id);
  }
  Json messages = Json::array();
  std::vector<Problem> problems;
  uint64_t index = 0;
  bool more = false;
  bool walked = for_each_message(ids, t0, t1, progress, [&](const MessageHeader& m, std::string_view payload, uint64_t offset, uint64_t in_chunk) {
    if (index++ < first) return true;
    if (messages.size() >= count) {
      more = true;
      return false;
    }
    Json j = Json::object();
    j["index"] = index - 1;
    j["channel"] = m.channel_id;
    if (const Channel* c = model_.channel(m.channel_id)) j["topic"] = c->topic;
    j["sequence"] = m.sequence;
    j["log_time"] = std::to_string(m.log_time);
    j["publish_time"] = std::to_string(m.publish_time);
    j["size"] = payload.size();
    j["offset"] = offset;  // the message record, or its chunk (then offset_in_chunk is set)
    j["offset_in_chunk"] = in_chunk ? Json(in_chunk) : Json();
    add_decoded(j, m.channel_id, payload, true);
    messages.push_back(std::move(j));
    return true;
  }, &problems);
  Json out = Json::object();
  out["first"] = first;
  out["count"] = messages.size();
  out["more"] = more;
  out["cancelled"] = !walked;
  out["selected"] = walked && !more ? Json(index) : Json();
  out["messages"] = std::move(messages);
  Json list = Json::array();
  for (const Problem& p : problems) {
    Json pj = Json::object();
    pj["offset"] = p.offset;
    pj["message"] = p.message;
    list.push_back(std::move(pj));
  }
  out["problems"] = std::move(list);
  return out;
}

}  // namespace logscope::mcap
