#include "rosbag/message_source.h"

#include <algorithm>

#include "rosbag/iterate.h"
#include "rosbag/sparse_read.h"

namespace logscope::rosbag {

std::vector<SourceTopic> BagMessageSource::topics() {
  std::vector<SourceTopic> list;
  std::set<std::string> seen;  // a topic recorded by several connections is one topic
  for (const Connection& c : bag_.connections) {
    if (!seen.insert(c.topic).second) continue;
    SourceTopic t{c.topic, c.type, ""};
    if (c.definition.empty()) t.note = "the bag stores no message definition for " + c.type;
    list.push_back(std::move(t));
  }
  return list;
}

bool BagMessageSource::walk(const std::set<std::string>& topics, const std::function<bool(const SourceMessage&)>& visit,
                            const ProgressFn& progress, std::string* error) {
  return walk_with(topics, WalkOptions(), visit, progress, error);
}

// A V2.0 bag's chunks by their ChunkInfo times (for_each_message reads only those in range).
bool BagMessageSource::indexed_times(const std::set<std::string>& topics, IndexedTimes* out) {
  if (bag_.format != Format::RosbagV20 || bag_.chunks.empty()) return false;
  std::vector<bool> wanted;  // by connection id, as for_each_message selects them
  for (const Connection& c : bag_.connections)
    if (topics.count(c.topic) && c.id < (1u << 24)) {
      if (c.id >= wanted.size()) wanted.resize(size_t{c.id} + 1);
      wanted[c.id] = true;
    }
  out->chunk_starts.clear();
  for (const Chunk& c : bag_.chunks) {
    if (!std::any_of(c.counts.begin(), c.counts.end(), [&](const auto& p) { return p.second > 0 && p.first < wanted.size() && wanted[p.first]; })) continue;
    bool first = out->chunk_starts.empty();
    out->first_ns = first ? c.start.ns() : std::min(out->first_ns, c.start.ns());
    out->last_ns = first ? c.end.ns() : std::max(out->last_ns, c.end.ns());
    out->chunk_starts.push_back(c.start.ns());
  }
  std::sort(out->chunk_starts.begin(), out->chunk_starts.end());
  return !out->chunk_starts.empty();
}

bool BagMessageSource::walk_with(const std::set<std::string>& topics, const WalkOptions& walk_options,
                                 const std::function<bool(const SourceMessage&)>& visit, const ProgressFn& progress, std::string* error) {
  IterateOptions options;
  options.start_ns = walk_options.t0_ns;
  options.end_ns = walk_options.t1_ns;
  options.read_ahead = walk_options.read_ahead;
  for (const Connection& c : bag_.connections)
    if (topics.count(c.topic)) options.connections.push_back(c.id);
  if (options.connections.empty()) return true;
  MessageDecoder& decoder = walk_options.whole_bytes ? whole_decoder_ : decoder_;
  std::vector<Problem> problems;
#ifdef LOGSCOPE_VIEW_ONLY
  constexpr bool times_only = false;  // the images view, which lists times alone, runs in the full module
#else
  const bool times_only = walk_options.times_only;
#endif
  auto deliver = [&](const MessageView& view) {
    if (!view.connection) return true;
    if (times_only) {
      static const std::string no_error;
      return visit(SourceMessage{view.connection->topic, view.connection->type, view.time.ns(), nullptr, no_error,
                                 view.chunk_pos != 0 ? view.chunk_pos : view.record_offset, view.chunk_pos != 0 ? view.record_offset : 0});
    }
    std::string why;
    Json message = decoder.decode(view.connection, view.data, &why);
    bool decoded = why.empty() && !message.is_null();
    // V2.0: the chunk's offset and the record's in its data; V1.x: the record's file offset.
    bool chunked = view.chunk_pos != 0;
    return visit(SourceMessage{view.connection->topic, view.connection->type, view.time.ns(), decoded ? &message : nullptr, why,
                               chunked ? view.chunk_pos : view.record_offset, chunked ? view.record_offset : 0});
  };
  // A visitor that stops after a message or few: an uncompressed chunk's messages one at a time.
  // (Not in the page's view module, whose views read whole topics: compiled per module.)
#ifndef LOGSCOPE_VIEW_ONLY
  // Times alone: from the IndexData after each chunk, no chunk read.
  if ((!walk_options.read_ahead || walk_options.times_only) && bag_.format == Format::RosbagV20) {
    SparseResult sparse = sparse_messages(source_, bag_, options, deliver, progress, walk_options.times_only);
    if (sparse.cancelled) return false;
    if (sparse.usable || sparse.stopped) return true;
    options.skip = sparse.delivered;  // the rest from the chunks themselves
  }
#endif
  IterateResult result = for_each_message(source_, bag_, options, deliver, &problems, progress);
  if (!problems.empty() && error) {
    *error = problems.front().message + " (byte " + std::to_string(problems.front().offset) + ")";
    if (problems.size() > 1) *error += " and " + std::to_string(problems.size() - 1) + " more";
  }
  return !result.cancelled;
}

}  // namespace logscope::rosbag
