// Drives every FormatInspector entry point over one input, the way the CLI and the web UI would:
// detection, summary, info, doctor, checksum, the paged tree, locate, spans, decode and the
// format's queries. Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp) and the
// deterministic hostile-input test (tests/codec/test_hostile_inputs.cpp). It checks nothing but
// that the codec returns: sanitizers and the fuzzer's timeout and RSS limits do the judging.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/export.h"
#include "core/inspector.h"
#include "core/json.h"
#include "core/message_source.h"
#include "inspector.h"

namespace logscope_fuzz {

using logscope::Json;

// Keeps results alive long enough that nothing is optimised away, and prints them as the CLI and
// the page would, up to a budget per input: printing megabytes of JSON covers no more of the
// printer than the first 16 KB do, and it was most of a fuzz input's time.
struct Consumer {
  size_t print_budget = 16 * 1024;
  size_t operator()(const Json& j) {
    if (!print_budget) return j.size() + 1;
    size_t printed = j.dump().size();
    print_budget -= std::min(print_budget, printed);
    return printed;
  }
};

inline Json object_of(std::initializer_list<std::pair<const char*, Json>> members) {
  Json j = Json::object();
  for (const auto& [key, value] : members) j[key] = value;
  return j;
}

// family: "" exercises whatever detection finds; otherwise inputs of another family are skipped
// after detection (so each format's fuzzer spends its time in its own parser).
// exercise_inspector() drives an inspector already opened over `size` bytes (the harnesses open
// once per input and then also check the invariants on the same inspector).
inline size_t exercise_inspector(logscope::FormatInspector* inspector, const logscope::Detection& detection, uint64_t size);

inline size_t exercise(const uint8_t* data, size_t size, const std::string& family = "") {
  logscope::MemoryByteSource source(data, size);
  logscope::Detection detection = logscope::detect(source);
  size_t sink = detection.to_json().dump().size();
  if (!family.empty() && detection.family != family) return sink;
  std::unique_ptr<logscope::FormatInspector> inspector = logscope::open_inspector(source, detection);
  return sink + exercise_inspector(inspector.get(), detection, size);
}

inline size_t exercise_inspector(logscope::FormatInspector* inspector, const logscope::Detection& detection, uint64_t size) {
  if (!inspector) return 0;
  Consumer consume;
  size_t sink = 0;
  logscope::ProgressFn progress = [](uint64_t, uint64_t) { return true; };

  sink += consume(inspector->summary().to_json());
  sink += consume(inspector->info_report(progress).to_json());
  sink += consume(inspector->check(progress).to_json());
  sink += consume(inspector->checksum(progress));
  for (int variant = 0; variant < 4; ++variant) {
    logscope::InfoOptions options;
    options.path = "fuzz.input";
    options.all = variant & 1;
    options.freq = variant & 2;
    sink += inspector->info_text(options).size();
  }

  // The tree: the root paged from both ends, then two levels below the first few nodes.
  std::vector<std::string> ids;
  uint64_t root_count = inspector->child_count("");
  std::vector<logscope::TreeNode> nodes = inspector->children("", 0, 8);
  if (root_count > 8) {
    std::vector<logscope::TreeNode> tail = inspector->children("", root_count - 4, 8);
    nodes.insert(nodes.end(), tail.begin(), tail.end());
  }
  sink += inspector->children("", root_count, 4).size();  // past the end
  for (size_t i = 0; i < nodes.size() && i < 12; ++i) {
    ids.push_back(nodes[i].id);
    sink += consume(logscope::tree_node_to_json(nodes[i]));
    uint64_t count = inspector->child_count(nodes[i].id);
    std::vector<logscope::TreeNode> below = inspector->children(nodes[i].id, 0, 6);
    if (count > 6) {
      std::vector<logscope::TreeNode> tail = inspector->children(nodes[i].id, count - 2, 6);
      below.insert(below.end(), tail.begin(), tail.end());
    }
    for (size_t k = 0; k < below.size() && i < 4; ++k) {
      ids.push_back(below[k].id);
      std::vector<logscope::TreeNode> deeper = inspector->children(below[k].id, 0, 4);
      for (size_t m = 0; m < deeper.size() && k < 3; ++m) ids.push_back(deeper[m].id);
    }
  }
  sink += inspector->children("no/such/node", 0, 4).size();
  ids.push_back("no/such/node");
  ids.push_back("");

  // locate() and spans() over a spread of offsets, including the edges and past the end.
  const uint64_t offsets[] = {0, 1, 8, 13, size / 7, size / 3, size / 2, size - size / 5, size ? size - 1 : 0, size, size + 100};
  for (uint64_t offset : offsets) {
    std::vector<std::string> path = inspector->locate(offset);
    if (!path.empty()) ids.push_back(path.back());
    sink += path.size();
  }
  const std::pair<uint64_t, uint64_t> ranges[] = {
      {0, 64}, {0, 4096}, {size / 3, 1024}, {size / 2, 16384}, {size ? size - 16 : 0, 64}, {size, 32}, {0, size}};
  for (const auto& [offset, length] : ranges)
    for (const logscope::Span& span : inspector->spans(offset, length))
      sink += consume.print_budget ? consume(logscope::span_to_json(span)) : span.children.size() + 1;

  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (size_t i = 0; i < ids.size() && i < 16; ++i) sink += consume(inspector->decode(ids[i]));  // decoding builds JSON: 16 nodes vary enough

  // The format's queries.
  auto query = [&](const char* name, Json args) {
    Json result = inspector->query(name, args, progress);
    sink += consume(result);
    return result;
  };
  query("no_such_query", Json::object());
  // The images view (codec/views/image_query.h; an unknown query where the format carries no
  // messages): the frame times from one walk, then one frame read alone, by time and by index.
  query("images", Json::object());
  query("images", object_of({{"at_ns", Json(UINT64_MAX)}}));
  query("images", object_of({{"index", Json(1)}}));
  // A thumbnail of each image topic: its first frame in a span, read without the list.
  Json image_topics = query("images", object_of({{"topics_only", Json(true)}}));
  if (const Json* list = image_topics.find("topics"); list && list->is_array())
    for (size_t i = 0; i < list->size() && i < 4; ++i)
      if (const Json* topic = (*list)[i].find("topic"); topic && topic->is_string()) {
        query("images", object_of({{"topic", *topic}, {"from_ns", Json(uint64_t{0})}, {"to_ns", Json(UINT64_MAX)}}));
        query("images", object_of({{"topic", *topic}, {"from_ns", Json(uint64_t{1} << 62)}, {"to_ns", Json(uint64_t{1} << 61)}}));
        // A frame by index with the video frames listed: a video frame's run from its keyframe.
        query("images", object_of({{"topic", *topic}, {"index", Json("2")}, {"video_frames", Json(true)}}));
      }
  // A few messages of every topic read alone (WalkOptions::read_ahead false: a bag's and an MCAP's
  // uncompressed chunks through their index records), the whole range and one instant.
  if (logscope::MessageSource* source = logscope::message_source_of(*inspector)) {
    std::set<std::string> names;
    for (const logscope::SourceTopic& t : source->topics()) names.insert(t.topic);
    for (uint64_t t1 : {UINT64_MAX, uint64_t{1}}) {
      logscope::WalkOptions sparse;
      sparse.t1_ns = t1;
      sparse.read_ahead = false;
      size_t seen = 0;
      std::string stopped;
      source->walk_with(names, sparse, [&](const logscope::SourceMessage& m) {
        sink += m.time_ns + m.offset + m.in_chunk + (m.message ? 1 : 0);
        return ++seen < 8;
      }, progress, &stopped);
      sink += stopped.size();
    }
  }
  if (detection.family == "bddf") {
    query("blocks", Json::object());
    for (uint64_t series = 0; series < 3; ++series) {
      query("blocks", object_of({{"series", Json(series)}, {"first", Json(0)}, {"count", Json(20)}}));
      query("blocks", object_of({{"series", Json(series)}, {"first", Json(uint64_t{1} << 40)}, {"count", Json(20)}}));
    }
    query("extract", Json::object());
    query("extract", object_of({{"series", Json(0)}, {"t0_ns", Json(int64_t{0})}, {"t1_ns", Json(int64_t{1} << 62)}, {"max", Json(50)}}));
    Json blocks = query("extract", object_of({{"max", Json(16)}}));
    std::vector<uint64_t> block_offsets = {0, 8, size / 2, size ? size - 1 : 0, size + 1000};
    if (const Json* list = blocks.find("blocks"))
      for (const Json& b : list->elements())
        if (const Json* offset = b.find("file_offset")) block_offsets.push_back(offset->as_uint());
    for (size_t i = 0; i < block_offsets.size() && i < 6; ++i)
      query("block", object_of({{"offset", Json(block_offsets[i])}, {"max_items", Json(i % 2 ? 5 : 200)}}));
    query("block", Json::object());
    // The plot queries: timelines from the index, each series' columns and plot (all, and buckets).
    query("timeline", Json::object());
    query("timeline", object_of({{"t0_ns", Json(uint64_t{1})}, {"t1_ns", Json(UINT64_MAX)}, {"bins", Json(4000)}}));
    for (uint64_t series = 0; series < 3; ++series) {
      query("columns", object_of({{"series", Json(series)}}));
      query("plot", object_of({{"series", Json(series)}, {"fields", Json("sample,value")}}));
      query("plot", object_of({{"series", Json(series)}, {"fields", Json("value")}, {"max_points", Json(3)}, {"buckets", Json(7)}}));
    }
  } else if (detection.family == "rosbag") {
    Json connections = query("connections", Json::object());
    query("messages", object_of({{"first", Json(0)}, {"count", Json(20)}}));
    query("messages", object_of({{"first", Json(7)}, {"count", Json(5)}, {"t0", Json(uint64_t{0})}, {"t1", Json(UINT64_MAX)}}));
    query("messages", object_of({{"first", Json(uint64_t{1} << 40)}, {"count", Json(5)}}));
    query("messages", object_of({{"topic", Json("/no/such/topic")}}));
    if (const Json* list = connections.find("connections"))
      for (size_t i = 0; i < list->size() && i < 3; ++i)
        if (const Json* topic = (*list)[i].find("topic"))
          query("messages", object_of({{"topic", *topic}, {"first", Json(0)}, {"count", Json(10)}}));
    // The plot queries: the timeline from the index, then each of the first topics' numeric columns.
    query("timeline", object_of({{"bins", Json(500)}}));
    query("timeline", object_of({{"t0_ns", Json(UINT64_MAX)}}));
    if (const Json* list = connections.find("connections"))
      for (size_t i = 0; i < list->size() && i < 3; ++i) {
        const Json* topic = (*list)[i].find("topic");
        if (!topic) continue;
        Json columns = query("columns", object_of({{"topic", *topic}}));
        std::string fields;
        if (const Json* names = columns.find("columns"))
          for (const Json& c : names->elements())
            if (const Json* name = c.find("name"); name && fields.size() < 200) fields += (fields.empty() ? "" : ",") + name->as_string();
        query("plot", object_of({{"topic", *topic}, {"fields", Json(fields.empty() ? "x" : fields)}}));
        query("plot", object_of({{"topic", *topic}, {"fields", Json(fields.empty() ? "x" : fields)}, {"max_points", Json(2)}, {"buckets", Json(5)}}));
        query("plot", object_of({{"topic", *topic}, {"fields", Json(fields.empty() ? "x" : fields)}, {"max_chunks", Json(2)}}));  // a sample
      }
  } else if (detection.family == "carla") {
    query("frames", Json::object());
    query("frames", object_of({{"first", Json(3)}, {"count", Json(4)}}));
    query("frames", object_of({{"first", Json(-5)}, {"count", Json(1e300)}}));
    query("file_info", object_of({{"text", Json(true)}, {"all", Json(true)}}));
    query("collisions", Json::object());
    query("collisions", object_of({{"type1", Json("v")}, {"type2", Json("w")}}));
    query("blocked", Json::object());
    query("blocked", object_of({{"min_time", Json(0.0)}, {"min_distance", Json(0.0)}}));
    Json actors = query("actors", object_of({{"text", Json(true)}}));
    std::vector<uint64_t> actor_ids = {0, 1, 0xffffffffu};
    if (const Json* list = actors.find("actors"))
      for (size_t i = 0; i < list->size() && i < 4; ++i)
        if (const Json* id = (*list)[i].find("id")) actor_ids.push_back(id->as_uint());
    for (uint64_t id : actor_ids) query("trajectory", object_of({{"actor", Json(id)}}));
    query("trajectory", Json::object());
    // The plot queries: timeline, paths, one frame's positions, an actor's plot.
    query("timeline", Json::object());
    query("paths", object_of({{"max_points", Json(1000)}}));
    for (uint64_t frame : {uint64_t{0}, uint64_t{3}, uint64_t{1} << 40}) query("positions", object_of({{"frame", Json(frame)}}));
    for (size_t i = 0; i < actor_ids.size() && i < 4; ++i) {
      query("plot", object_of({{"actor", Json(actor_ids[i])}, {"fields", Json("x,y,speed,yaw")}}));
      query("plot", object_of({{"actor", Json(actor_ids[i])}, {"fields", Json("x")}, {"max_points", Json(2)}, {"buckets", Json(3)}}));
    }
  } else if (detection.family == "rosbag2") {
    // A bag folder (SQLite or MCAP splits): the decoded pages across its files, by topic row and
    // by time, and each topic's export (one header over the splits), columns and plot.
    query("decoded", object_of({{"first", Json(0)}, {"count", Json(20)}}));
    query("decoded", object_of({{"first", Json(7)}, {"count", Json(5)}, {"t0_ns", Json("5")}, {"t1_ns", Json("1700000000100000000")}}));
    query("decoded", object_of({{"first", Json(uint64_t{1} << 40)}, {"count", Json(5)}}));
    logscope::Report summary = inspector->summary();
    for (const logscope::Table& table : summary.tables)
      for (size_t i = 0; table.name == "topics" && i < table.rows.size() && i < 3; ++i) {
        query("decoded", object_of({{"channel", Json(static_cast<uint64_t>(i))}, {"first", Json(2)}, {"count", Json(3)}}));
        if (!table.rows[i][0].is_string()) continue;
        std::string topic = table.rows[i][0].as_string();
        logscope::StringSink text;
        logscope::ExportRequest request;
        request.format = i % 2 ? logscope::ExportFormat::Jsonl : logscope::ExportFormat::Csv;
        sink += inspector->export_rows(topic, request, text, progress).rows + text.text().size();
        query("columns", object_of({{"topic", Json(topic)}}));
        query("plot", object_of({{"topic", Json(topic)}, {"fields", Json("x")}, {"max_points", Json(2)}, {"buckets", Json(3)}}));
        query("plot", object_of({{"topic", Json(topic)}, {"fields", Json("x")}, {"max_chunks", Json(1)}}));
      }
  }
  return sink;
}

}  // namespace logscope_fuzz
