#include "ulog/plot_queries.h"

#include "core/plot.h"
#include "ulog/export.h"
#include "ulog/inspector_impl.h"
#include "ulog/queries.h"

namespace logscope::ulog {

// {"topic", "multi_id"?} -> {"topic", "multi_id", "type", "columns": [{"name", "kind"}]}: ulog2csv's columns.
Json UlogInspector::columns_query(QueryArgs& args) {
  if (!args.has("topic")) return QueryArgs::error_json("columns needs {\"topic\": name}");
  std::string source = topic_source(args), topic, error;
  uint8_t multi_id = 0;
  if (!args.ok()) return QueryArgs::error_json(args.error());
  if (!parse_source(source, &topic, &multi_id, &error)) return QueryArgs::error_json(error);
  const Subscription* s = model_.subscription(topic, multi_id);
  std::vector<Leaf> leaves;
  if (!topic_leaves(model_, *s, &leaves, &error)) return QueryArgs::error_json(error);
  Json columns = Json::array();
  for (const Leaf& l : leaves) {
    Json c = Json::object();
    c["name"] = l.name;
    c["kind"] = l.chars ? "text" : "number";
    columns.push_back(std::move(c));
  }
  Json j = Json::object();
  j["topic"] = topic;
  j["multi_id"] = uint64_t{multi_id};
  j["type"] = topic;
  j["columns"] = std::move(columns);
  return j;
}

// {"topic", "multi_id"?, "fields", "t0_ns"?, "t1_ns"?, "max_points"?, "buckets"?} -> PlotSink::to_json;
// the range defaults to the subscription's first-to-last timestamps.
Json UlogInspector::plot_query(QueryArgs& args, const ProgressFn& progress) {
  if (!args.has("topic")) return QueryArgs::error_json("plot needs {\"topic\": name, \"fields\": \"a,b\"}");
  std::string source = topic_source(args), topic, error;
  uint8_t multi_id = 0;
  if (!args.ok()) return QueryArgs::error_json(args.error());
  if (!parse_source(source, &topic, &multi_id, &error)) return QueryArgs::error_json(error);
  const Subscription* s = model_.subscription(topic, multi_id);
  uint64_t from = s->min_us ? *s->min_us * 1000 : model_.start_us() * 1000, to = s->max_us ? *s->max_us * 1000 : model_.end_us() * 1000;
  return plot_of_export(args, from, to, [&](const ExportRequest& request, ExportSink& sink) {
    return export_topic(source_, model_, topic, multi_id, request, sink, progress, true);
  });
}

}  // namespace logscope::ulog
