#include "rosbag/inspector.h"

#include <algorithm>

#include "rosbag/inspector_impl.h"

namespace logscope::rosbag {

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, Format format) {
  return std::make_unique<BagInspector>(source, format);
}

BagInspector::BagInspector(ByteSource& source, Format format) : source_(source) { open_bag(source_, format, &bag_); }

const BagStats& BagInspector::stats() {
  if (!stats_) stats_ = compute_stats(source_, bag_, false);
  return *stats_;
}

Report BagInspector::summary() {
  Report report = summary_report(stats(), bag_);
  report.problems = bag_.problems;
  return report;
}

std::string BagInspector::info_text(const InfoOptions& options) {
  if (options.freq) {
    BagStats with_rates = compute_stats(source_, bag_, true);
    return rosbag::info_text(with_rates, bag_, options.path);
  }
  return rosbag::info_text(stats(), bag_, options.path);
}

const LoadedChunk* BagInspector::cached_chunk(size_t index) {
  if (index >= bag_.chunks.size()) return nullptr;
  if (!chunk_cache_ || chunk_cache_->chunk_index != index) {
    read_chunk_headers(source_, &bag_);
    chunk_cache_ = std::make_unique<LoadedChunk>();
    load_chunk(source_, bag_, index, chunk_cache_.get());
  }
  return chunk_cache_.get();
}

Json BagInspector::connections_query() {
  Json list = Json::array();
  for (const Connection& c : bag_.connections) {
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

// {"topic"?, "first", "count", "t0"?, "t1"?} -> {"messages": [...], "first", "count", "more"}.
// Times are ns (integers). Pages are found by skipping: cheap next to decompression.
Json BagInspector::messages_query(const Json& args, const ProgressFn& progress) {
  IterateOptions options;
  uint64_t first = 0, count = 100;
  if (const Json* v = args.find("first")) first = v->as_uint();
  if (const Json* v = args.find("count")) count = std::min<uint64_t>(v->as_uint(), 10000);
  if (const Json* v = args.find("t0")) options.start_ns = v->as_uint();
  if (const Json* v = args.find("t1")) options.end_ns = v->as_uint();
  Json out = Json::object();
  if (const Json* topic = args.find("topic"); topic && !topic->as_string().empty()) {
    for (const Connection& c : bag_.connections)
      if (c.topic == topic->as_string()) options.connections.push_back(c.id);
    if (options.connections.empty()) {
      out["error"] = "no topic " + topic->as_string() + " in this bag";
      return out;
    }
  }
  Json messages = Json::array();
  uint64_t index = 0;
  bool more = false;
  std::vector<Problem> problems;
  for_each_message(
      source_, bag_, options,
      [&](const MessageView& view) {
        if (index >= first + count) {
          more = true;
          return false;
        }
        if (index++ >= first) {
          Json m = decoder_.to_json(view);
          m["index"] = index - 1;
          messages.push_back(std::move(m));
        }
        return true;
      },
      &problems, progress);
  out["first"] = first;
  out["count"] = messages.size();
  out["more"] = more;
  out["messages"] = std::move(messages);
  Json p = Json::array();
  for (const Problem& problem : problems) p.push_back(problem_to_json(problem));
  out["problems"] = std::move(p);
  return out;
}

Json BagInspector::query(const std::string& name, const Json& args, const ProgressFn& progress) {
  if (name == "messages") return messages_query(args, progress);
  if (name == "connections") return connections_query();
  return FormatInspector::query(name, args, progress);
}

}  // namespace logscope::rosbag
