#include "rosbag/export.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "rosbag/flatten.h"
#include "rosbag/iterate.h"
#include "rosbag/msgdef.h"

namespace logscope::rosbag {

namespace {

constexpr size_t kMaxProblems = 100;  // then only counted

struct ConnectionSchema {
  std::unique_ptr<MessageSchema> schema;
  std::unique_ptr<FlatLayout> layout;  // null when its columns differ from the topic's first type
  std::string error;
};

}  // namespace

ExportResult export_topic(ByteSource& source, Bag& bag, const std::string& topic, const ExportRequest& request,
                          ExportSink& sink, const ProgressFn& progress) {
  ExportResult result;
  IterateOptions options;
  options.start_ns = request.from_ns;
  options.end_ns = request.to_ns;
  options.max_chunks = request.max_chunks;
  std::set<std::string> topics;
  std::map<uint32_t, ConnectionSchema> schemas;
  const FlatLayout* first = nullptr;
  for (const Connection& c : bag.connections) {
    topics.insert(c.topic);
    if (c.topic != topic) continue;
    options.connections.push_back(c.id);
    ConnectionSchema& entry = schemas[c.id];
    entry.schema = MessageSchema::parse(c.type, c.definition, &entry.error);
    if (!entry.schema) continue;
    entry.layout = std::make_unique<FlatLayout>(*entry.schema);
    if (entry.layout->too_wide()) {
      entry.error = "the definition of " + c.type + " flattens to more than " + std::to_string(FlatLayout::kMaxColumns) + " columns";
      entry.layout.reset();
      continue;
    }
    if (!first) first = entry.layout.get();
    else if (entry.layout->columns() != first->columns()) {
      entry.error = "connection " + std::to_string(c.id) + " of " + topic + " has another type (" + c.type + ") than the first";
      entry.layout.reset();
    }
  }
  if (options.connections.empty()) {
    std::string names;
    for (const std::string& t : topics) names += (names.empty() ? "" : ", ") + t;
    result.error = "the bag has no topic \"" + topic + "\" (topics: " + (names.empty() ? "none" : names) + ")";
    return result;
  }
  if (!first) {
    result.error = "no connection of " + topic + " can be exported: " + schemas.begin()->second.error;
    return result;
  }
  std::vector<std::string> columns{"time_ns"};
  columns.insert(columns.end(), first->columns().begin(), first->columns().end());
  result.json_columns = first->json_columns();
  TableWriter table(sink, request);
  if (!table.start(columns, &result.error)) {
    if (table.failed()) result.sink_failed = true, result.error = "could not write the output";
    return result;
  }
  result.json_columns = table.written(result.json_columns);

  uint64_t unreadable = 0;
  std::string error;
  auto problem = [&](uint64_t offset, std::string code, std::string message) {
    if (result.problems.size() < kMaxProblems) result.problems.push_back(Problem{Severity::Warning, offset, std::move(code), std::move(message)});
  };
  IterateResult walk = for_each_message(source, bag, options, [&](const MessageView& view) {
    const ConnectionSchema& entry = schemas[view.conn];
    const auto* data = reinterpret_cast<const uint8_t*>(view.data.data());
    uint64_t offset = view.chunk_pos ? view.chunk_pos : view.record_offset;
    std::string where = "message at " + std::to_string(view.time.ns()) + " ns" +
                        (view.chunk_pos ? " (chunk at byte " + std::to_string(view.chunk_pos) + ", record at " +
                                              std::to_string(view.record_offset) + " inside it)" : "");
    if (!entry.layout) {
      ++unreadable;
      problem(offset, "rosbag.export.no_schema", where + ": " + entry.error);
      return true;
    }
    if (!entry.schema->validate(data, view.data.size())) {
      ++unreadable;
      entry.schema->decode(data, view.data.size(), DecodeOptions(), &error);  // for the reason
      problem(offset, "rosbag.export.undecodable", where + " is left out: " + error);
      return true;
    }
    table.begin_row();
    table.unsigned_integer(view.time.ns());
    if (!entry.layout->write_row(data, view.data.size(), table, &error)) {
      ++unreadable;
      problem(offset, "rosbag.export.undecodable", where + " is left out: " + error);
      return true;  // the half-built row is never written: begin_row() starts over
    }
    if (!table.end_row()) return false;
    ++result.rows;
    return true;
  }, &result.problems, progress);
  if (unreadable > kMaxProblems)
    result.problems.push_back(Problem{Severity::Warning, 0, "rosbag.export.undecodable",
                                      std::to_string(unreadable) + " messages in all were left out"});
  result.cancelled = walk.cancelled;
  result.chunks_in_range = walk.chunks_in_range;
  result.chunks_read = request.max_chunks ? std::min(request.max_chunks, walk.chunks_in_range) : walk.chunks_in_range;
  result.sink_failed = table.failed();
  return result;
}

}  // namespace logscope::rosbag
