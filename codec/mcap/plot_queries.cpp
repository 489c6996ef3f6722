// The page's plot questions about an MCAP file (docs/architecture.md, "Plots and the timeline"):
// a topic's export columns and its numeric columns over time through the export (export.cpp).
// The timeline is queries.cpp's, from the message indexes.
#include <set>

#include "core/plot.h"
#include "mcap/inspector_impl.h"

namespace logscope::mcap {

// {"topic"} -> {"topic", "type", "columns": [{"name", "kind"}]}: `logscope export --topic`'s
// columns after time_ns (for protobuf and JSON, read from every message of the topic).
Json McapInspector::columns_query(QueryArgs& args, const ProgressFn& progress) {
  if (!args.has("topic")) return QueryArgs::error_json("columns needs {\"topic\": name}");
  std::string topic = args.str("topic"), error;
  std::set<uint16_t> ids;
  std::map<uint16_t, const PayloadDecoder*> decoders;
  if (!topic_channels(topic, &ids, &error)) return QueryArgs::error_json(error);
  const PayloadDecoder* decoder = topic_decoder(topic, ids, &decoders, &error);
  if (!decoder) return QueryArgs::error_json(error);
  Json columns = Json::array();
  auto add = [&](const std::string& name, const char* kind) {
    Json column = Json::object();
    column["name"] = name;
    column["kind"] = kind;
    columns.push_back(std::move(column));
  };
  if (decoder->columns_from_messages()) {
    protobuf::LeafColumns learned;
    if (!learn_columns(decoders, 0, UINT64_MAX, progress, &learned)) return QueryArgs::error_json("cancelled");
    std::vector<std::string> paths = learned.paths();
    std::vector<protobuf::LeafType> types = learned.types();
    for (size_t i = 0; i < paths.size(); ++i) add(paths[i], protobuf::leaf_kind_name(types[i]));
  } else {
    for (size_t i = 0; i < decoder->columns().size(); ++i) add(decoder->columns()[i], TableWriter::kind_name(decoder->kinds()[i]));
  }
  Json j = Json::object();
  j["topic"] = topic;
  const Channel* channel = model_.channel(decoders.begin()->first);
  const Schema* schema = channel ? model_.schema(channel->schema_id) : nullptr;
  j["type"] = schema ? schema->name : std::string();
  j["columns"] = std::move(columns);
  return j;
}

// {"topic", "fields", "t0_ns"?, "t1_ns"?, "max_points"?, "buckets"?} -> PlotSink::to_json: the
// export's rows as numbers; the range defaults to the topic's chunks' span (the file's without
// chunk indexes).
Json McapInspector::plot_query(QueryArgs& args, const ProgressFn& progress) {
  if (!args.has("topic")) return QueryArgs::error_json("plot needs {\"topic\": name, \"fields\": \"a,b\"}");
  std::string topic = args.str("topic"), error;
  std::set<uint16_t> ids;
  if (!topic_channels(topic, &ids, &error)) return QueryArgs::error_json(error);
  uint64_t from = UINT64_MAX, to = 0;
  for (const ChunkInfo& chunk : model_.chunks)
    for (const auto& [id, offset] : chunk.message_index_offsets)
      if (ids.count(id) && chunk.message_start_time <= chunk.message_end_time) {
        from = std::min(from, chunk.message_start_time);
        to = std::max(to, chunk.message_end_time);
        break;
      }
  if (from > to) from = model_.start_time.value_or(0), to = model_.end_time.value_or(0);
  return plot_of_export(args, from, to, [&](const ExportRequest& request, ExportSink& sink) { return export_rows(topic, request, sink, progress); });
}

}  // namespace logscope::mcap
