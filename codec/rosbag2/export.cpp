// The rosbag2 export (FormatInspector::export_rows): one topic's messages as the flat columns of
// its definition (cdr::FlatLayout, the engine MCAP's CDR export uses), `time_ns` (the stored
// timestamp) first, in stored order (file by file, rowid order). The plot and columns queries are
// views of it, as MCAP's (plot_queries.cpp there).
#include <algorithm>

#include "core/plot.h"
#include "rosbag2/inspector_impl.h"

namespace logscope::rosbag2 {
namespace {

constexpr size_t kMaxProblems = 100;  // then only counted

uint64_t time_of(const BagMessage& m) { return m.stored.timestamp_ns < 0 ? 0 : static_cast<uint64_t>(m.stored.timestamp_ns); }

}  // namespace

void Rosbag2Inspector::set_message_definitions(std::shared_ptr<const cdr::TypeLibrary> definitions) {
  supplied_ = std::move(definitions);
  decoders_.reset();  // made again with them
}

TopicDecoders& Rosbag2Inspector::decoders() {
  if (!decoders_) decoders_ = std::make_unique<TopicDecoders>(*bag_, supplied_);
  return *decoders_;
}

const Topic* Rosbag2Inspector::find_topic(const std::string& name) const {
  for (const BagFile& f : bag_->files)
    for (const Topic& t : f.tables.topics)
      if (t.name == name) return &t;
  return nullptr;
}

ExportResult Rosbag2Inspector::export_rows(const std::string& topic, const ExportRequest& request, ExportSink& sink,
                                           const ProgressFn& progress) {
  ExportResult result;
  const Topic* first = find_topic(topic);
  if (!first) {
    std::string names;
    for (const TopicRow& row : bag_totals(*bag_).topics) names += (names.empty() ? "" : ", ") + row.name;
    result.error = "the bag has no topic \"" + topic + "\" (topics: " + (names.empty() ? "none" : names) + ")";
    return result;
  }
  const TopicDecoder& decoder = decoders().get(*first);
  if (!decoder.usable()) {
    result.error = "topic " + topic + " cannot be exported: " + decoder.note;
    return result;
  }
  std::vector<std::string> columns{"time_ns"};
  columns.insert(columns.end(), decoder.layout->columns().begin(), decoder.layout->columns().end());
  TableWriter table(sink, request);
  if (!table.start(columns, &result.error)) {
    if (table.failed()) result.sink_failed = true, result.error = "could not write the output";
    return result;
  }
  result.json_columns = table.written(decoder.layout->json_columns());
  uint64_t left_out = 0;
  auto problem = [&](Problem p) {
    ++left_out;
    if (result.problems.size() < kMaxProblems) result.problems.push_back(std::move(p));
  };
  std::string error, walk_error;
  bool walked = for_each_selected({topic}, request.from_ns, request.to_ns, 0, progress, [&](const BagMessage& m) {
    std::string where = bag_->files[m.file].name + " row " + std::to_string(m.stored.row_id);
    if (m.topic->type != first->type) {
      problem(Problem{Severity::Warning, 0, "rosbag2.export.other_type",
                      where + " is left out: its topic has type " + m.topic->type + ", the export's is " + first->type});
      return true;
    }
    if (!m.decode_error.empty()) {
      problem(Problem{Severity::Warning, 0, "rosbag2.messages.zstd_damaged", where + " is left out: " + m.decode_error});
      return true;
    }
    table.begin_row();
    table.unsigned_integer(time_of(m));
    if (!decoder.layout->write_row(m.data, m.size, table, &error)) {
      problem(size_mismatch(decoder, where, m.size, error));
      return true;  // the half-built row is never written: begin_row() starts over
    }
    if (!table.end_row()) return false;
    ++result.rows;
    return true;
  }, &walk_error);
  if (left_out > kMaxProblems)
    result.problems.push_back(Problem{Severity::Warning, 0, "rosbag2.decode.size_mismatch", std::to_string(left_out) + " messages in all were left out"});
  if (!walk_error.empty()) result.problems.push_back(Problem{Severity::Error, 0, "rosbag2.messages.unreadable", walk_error});
  result.cancelled = !walked;
  result.sink_failed = table.failed();
  return result;
}

// {"topic"} -> {"topic", "type", "columns": [{"name", "kind"}]}: `logscope export --topic`'s
// columns after time_ns.
Json Rosbag2Inspector::columns_query(QueryArgs& args) {
  if (!args.has("topic")) return QueryArgs::error_json("columns needs {\"topic\": name}");
  std::string topic = args.str("topic");
  const Topic* t = find_topic(topic);
  if (!t) return QueryArgs::error_json("the bag has no topic \"" + topic + "\"");
  const TopicDecoder& decoder = decoders().get(*t);
  if (!decoder.usable()) return QueryArgs::error_json("topic " + topic + " cannot be exported: " + decoder.note);
  Json columns = Json::array();
  for (size_t i = 0; i < decoder.layout->columns().size(); ++i) {
    Json column = Json::object();
    column["name"] = decoder.layout->columns()[i];
    column["kind"] = TableWriter::kind_name(decoder.layout->kinds()[i]);
    columns.push_back(std::move(column));
  }
  Json j = Json::object();
  j["topic"] = topic;
  j["type"] = t->type;
  j["columns"] = std::move(columns);
  return j;
}

// {"topic", "fields", "t0_ns"?, "t1_ns"?, "max_points"?, "buckets"?} -> PlotSink::to_json: the
// export's rows as numbers; the range defaults to the topic's first and last message.
Json Rosbag2Inspector::plot_query(QueryArgs& args, const ProgressFn& progress) {
  if (!args.has("topic")) return QueryArgs::error_json("plot needs {\"topic\": name, \"fields\": \"a,b\"}");
  std::string topic = args.str("topic");
  uint64_t from = 0, to = 0;
  for (const TopicRow& row : bag_totals(*bag_).topics)
    if (row.name == topic && row.first_ns && row.last_ns)
      from = static_cast<uint64_t>(std::max<int64_t>(0, *row.first_ns)), to = static_cast<uint64_t>(std::max<int64_t>(0, *row.last_ns));
  return plot_of_export(args, from, to, [&](const ExportRequest& request, ExportSink& sink) { return export_rows(topic, request, sink, progress); });
}

}  // namespace logscope::rosbag2
