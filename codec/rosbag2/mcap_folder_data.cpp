// A rosbag2 folder that stores MCAP, its messages across the splits. A topic's export (and so its
// plot) is each split's export in split order under one header; the decoded pages count through
// the splits, passing over a whole split by its channel statistics where no time range is asked;
// a topic's columns are those of the first split that holds it.
#include <algorithm>
#include <iterator>

#include "core/plot.h"
#include "rosbag2/mcap_folder_impl.h"
#include "rosbag2/message_queries.h"
#include "views/views.h"

namespace logscope::rosbag2 {
namespace {

constexpr uint64_t kMaxDecodedPage = 1000;

// One split's export into the bag's: the CSV header of every split after the first is dropped,
// and must equal the first's (a protobuf topic's columns are learned per file and may differ).
class SplitSink : public ExportSink {
 public:
  SplitSink(ExportSink& out, bool csv, std::string* header) : out_(out), csv_(csv), header_(*header) {}
  bool write(std::string_view line) override {
    if (!csv_ || seen_header_) return out_.write(line);
    seen_header_ = true;
    if (header_.empty()) {
      header_ = std::string(line);
      return out_.write(line);
    }
    if (line == header_) return true;
    header_differs_ = true;
    return false;
  }
  bool header_differs() const { return header_differs_; }

 private:
  ExportSink& out_;
  bool csv_;
  std::string& header_;
  bool seen_header_ = false, header_differs_ = false;
};

}  // namespace

void McapBagInspector::merge_once() {
  if (!merged_) summary();
}

ExportResult McapBagInspector::export_rows(const std::string& topic, const ExportRequest& request, ExportSink& sink,
                                           const ProgressFn& progress) {
  merge_once();
  ExportResult result;
  if (!topics_.count(topic)) {
    std::string names;
    for (const auto& [name, t] : topics_) names += (names.empty() ? "" : ", ") + name;
    result.error = "the bag has no topic \"" + topic + "\" (topics: " + (names.empty() ? "none" : names) + ")";
    return result;
  }
  uint64_t total = 0, done = 0;
  for (const Split& s : splits_)
    if (s.topic_messages.count(topic)) total += s.source->size();
  std::string header, header_from;
  for (Split& s : splits_) {
    if (!s.topic_messages.count(topic)) continue;
    SplitSink into(sink, request.format == ExportFormat::Csv, &header);
    ExportResult part = s.inspector->export_rows(topic, request, into, split_progress(progress, done, total));
    done += s.source->size();
    if (header_from.empty() && !header.empty()) header_from = s.name;
    if (into.header_differs()) {
      result.error = s.name + ": the columns of " + topic + " differ from those in " + header_from + "; export each split on its own";
      return result;
    }
    result.rows += part.rows;
    for (const std::string& c : part.json_columns)
      if (std::find(result.json_columns.begin(), result.json_columns.end(), c) == result.json_columns.end()) result.json_columns.push_back(c);
    for (Problem p : part.problems) {
      p.message = s.name + ": " + p.message;
      result.problems.push_back(std::move(p));
    }
    if (!part.error.empty()) result.error = s.name + ": " + part.error;
    result.cancelled = part.cancelled;
    result.sink_failed = part.sink_failed;
    if (!part.error.empty() || part.cancelled || part.sink_failed) break;
  }
  return result;
}

// {"topic"? | "channel"?, "first", "count", "t0_ns"?, "t1_ns"?} -> the decoded page of
// message_queries.h, `index` counted through the splits in order and `file` naming the split.
Json McapBagInspector::decoded(QueryArgs& args, const ProgressFn& progress) {
  uint64_t first = args.u64("first", 0);
  uint64_t count = std::min(args.u64("count", 50), kMaxDecodedPage);
  bool ranged = args.has("t0_ns") || args.has("t1_ns");
  uint64_t t0 = args.u64("t0_ns", 0), t1 = args.u64("t1_ns", UINT64_MAX);
  std::string topic = args.str("topic", "");
  bool by_channel = args.has("channel");
  uint64_t channel = args.u64("channel", 0);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  merge_once();
  if (by_channel) {
    if (channel >= topics_.size()) return QueryArgs::error_json("no channel " + std::to_string(channel) + " in this bag");
    topic = std::next(topics_.begin(), static_cast<long>(channel))->first;
  } else if (!topic.empty() && !topics_.count(topic)) {
    return QueryArgs::error_json("the bag has no topic \"" + topic + "\"");
  }
  std::map<std::string, uint64_t> rows;  // topic -> its row in the topics table
  for (const auto& [name, t] : topics_) rows.emplace(name, rows.size());

  Json messages = Json::array(), problems = Json::array();
  uint64_t skip = first;  // selected messages still to pass over
  uint64_t base = 0;      // selected messages in the splits before this one
  bool more = false, cancelled = false;
  uint64_t total = 0, done = 0;
  for (const Split& s : splits_) total += s.source->size();
  for (Split& s : splits_) {
    uint64_t before = done;
    done += s.source->size();
    // The split's selected messages, where its statistics tell without a walk.
    std::optional<uint64_t> known;
    if (!topic.empty()) {
      auto it = s.topic_messages.find(topic);
      if (it == s.topic_messages.end()) continue;
      if (!ranged) known = it->second;
    } else if (!ranged) {
      known = uint64_t{0};
      for (const auto& [name, n] : s.topic_messages) known = known && n ? std::optional<uint64_t>(*known + *n) : std::nullopt;
    }
    if (known && skip >= *known) {
      skip -= *known;
      base += *known;
      continue;
    }
    if (known && messages.size() >= count) {  // the page is full and this split holds more
      more = true;
      break;
    }
    // A full page still asks for 0 messages: the split's `more` says whether it holds another.
    Json ask = Json::object();
    ask["first"] = skip;
    ask["count"] = count - messages.size();
    if (!topic.empty()) ask["topic"] = topic;
    if (ranged) ask["t0_ns"] = std::to_string(t0), ask["t1_ns"] = std::to_string(t1);
    Json part = s.inspector->query("decoded", ask, split_progress(progress, before, total));
    if (const Json* error = part.find("error")) return QueryArgs::error_json(s.name + ": " + error->as_string());
    if (const Json* list = part.find("messages"))
      for (const Json& m : list->elements()) {
        Json j = m;
        j["index"] = base + m.find("index")->as_uint();
        const Json* name = m.find("topic");
        auto row = name && name->is_string() ? rows.find(name->as_string()) : rows.end();
        j["channel"] = row == rows.end() ? Json() : Json(row->second);
        j["file"] = s.name;
        messages.push_back(std::move(j));
      }
    if (const Json* list = part.find("problems"))
      for (const Json& p : list->elements()) {
        Json j = p;
        j["message"] = s.name + ": " + (p.find("message") ? p.find("message")->as_string() : std::string());
        problems.push_back(std::move(j));
      }
    const Json* selected = part.find("selected");
    if (part.find("cancelled") && part.find("cancelled")->as_bool()) {
      cancelled = true;
      break;
    }
    if ((part.find("more") && part.find("more")->as_bool()) || !selected || !selected->is_number()) {
      more = true;
      break;
    }
    skip = skip > selected->as_uint() ? skip - selected->as_uint() : 0;
    base += selected->as_uint();
  }
  Json out = Json::object();
  out["first"] = first;
  out["count"] = messages.size();
  out["more"] = more;
  out["cancelled"] = cancelled;
  out["messages"] = std::move(messages);
  out["problems"] = std::move(problems);
  return out;
}

// {"topic"} -> the columns of the first split that holds the topic (every split's export must
// have the same: export_rows refuses otherwise).
Json McapBagInspector::columns(QueryArgs& args, const ProgressFn& progress) {
  if (!args.has("topic")) return QueryArgs::error_json("columns needs {\"topic\": name}");
  std::string topic = args.str("topic");
  merge_once();
  for (Split& s : splits_)
    if (s.topic_messages.count(topic)) {
      Json ask = Json::object();
      ask["topic"] = topic;
      return s.inspector->query("columns", ask, progress);
    }
  return QueryArgs::error_json("the bag has no topic \"" + topic + "\"");
}

// {"topic", "fields", ...} -> PlotSink::to_json of the bag's export; the range defaults to the
// span of the splits that hold the topic.
Json McapBagInspector::plot(QueryArgs& args, const ProgressFn& progress) {
  if (!args.has("topic")) return QueryArgs::error_json("plot needs {\"topic\": name, \"fields\": \"a,b\"}");
  std::string topic = args.str("topic");
  merge_once();
  uint64_t from = UINT64_MAX, to = 0;
  for (const Split& s : splits_)
    if (s.topic_messages.count(topic) && s.start_ns && s.end_ns) from = std::min(from, *s.start_ns), to = std::max(to, *s.end_ns);
  if (from > to) from = to = 0;
  return plot_of_export(args, from, to, [&](const ExportRequest& request, ExportSink& sink) { return export_rows(topic, request, sink, progress); });
}

std::vector<QuerySpec> McapBagInspector::queries() {
  std::vector<QuerySpec> list;
  add_message_queries(
      list, [this](QueryArgs& args, const ProgressFn& progress) { return decoded(args, progress); },
      [this](QueryArgs& args, const ProgressFn& progress) { return columns(args, progress); },
      [this](QueryArgs& args, const ProgressFn& progress) { return plot(args, progress); });
  list.push_back({"timeline", "messages per topic and time bin: each split's MCAP message indexes, summed by topic", timeline_arg_specs(),
                  timeline_units(), [this](QueryArgs& args, const ProgressFn& progress) { return timeline(args, progress); }});
  views::add_view_queries(list, message_source());
  return list;
}

}  // namespace logscope::rosbag2
