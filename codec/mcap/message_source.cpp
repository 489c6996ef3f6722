// An MCAP's messages for the views (core/message_source.h): each topic with its first channel's
// schema name, and the messages of the chosen topics in file order, decoded by their channel's
// payload decoder (payload.h).
#include "mcap/inspector_impl.h"

#include <algorithm>

namespace logscope::mcap {

MessageSource* McapInspector::message_source() {
  if (message_source_) return message_source_.get();
  read_whole_summary();
  auto topics = [this] {
    std::vector<SourceTopic> list;
    std::set<std::string> seen;
    for (const auto& [id, info] : model_.channels) {
      const Channel& c = info.channel;
      if (!seen.insert(c.topic).second) continue;
      const Schema* s = model_.schema(c.schema_id);
      SourceTopic t{c.topic, s ? s->name : "", ""};
      std::string why;
      if (!s) t.note = "the file stores no schema for channel " + std::to_string(id) + " (" + c.topic + ")";
      else if (!payload_decoder(id, &why)) t.note = why;
      list.push_back(std::move(t));
    }
    return list;
  };
  auto walk = [this](const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit,
                     const ProgressFn& progress, std::string* error) {
    std::set<uint16_t> ids;
    for (const auto& [id, info] : model_.channels)
      if (topics.count(info.channel.topic)) ids.insert(id);
    std::vector<Problem> problems;
    static const std::string no_type;
#ifdef LOGSCOPE_VIEW_ONLY
    constexpr bool times_only = false;  // the images view, which lists times alone, runs in the full module
#else
    const bool times_only = options.times_only;
#endif
    MessageFn deliver = [&](const MessageHeader& m, std::string_view payload, uint64_t offset, uint64_t in_chunk) {
      const Channel* c = model_.channel(m.channel_id);
      if (!c) return true;
      const Schema* s = model_.schema(c->schema_id);
      if (times_only) {
        static const std::string no_error;
        return visit(SourceMessage{c->topic, s ? s->name : no_type, m.log_time, nullptr, no_error, offset, in_chunk});
      }
      std::string why;
      const PayloadDecoder* decoder = payload_decoder(m.channel_id, &why);
      Json message = !decoder ? Json() : decoder->to_json(payload, options.whole_bytes, &why);
      bool decoded = decoder && why.empty();
      return visit(SourceMessage{c->topic, s ? s->name : no_type, m.log_time, decoded ? &message : nullptr, why, offset, in_chunk});
    };
    // A visitor that stops after a message or few: an uncompressed chunk's messages one at a time.
    // (Not in the page's view module, whose views read whole topics: compiled per module.)
    const SparseChunkFn* sparse = nullptr;
#ifndef LOGSCOPE_VIEW_ONLY
    SparseChunkFn sparse_reader = [&](const ChunkInfo& info, uint64_t* delivered_through) {
      return sparse_chunk_messages(info, ids, options.t0_ns, options.t1_ns, deliver, delivered_through, options.times_only);
    };
    // Times alone: from the MessageIndex records, no chunk read.
    if (!options.read_ahead || options.times_only) sparse = &sparse_reader;
#endif
    bool walked = ids.empty() || for_each_message(ids, options.t0_ns, options.t1_ns, progress, deliver, &problems, nullptr, sparse, options.read_ahead);
    if (!problems.empty() && error) {
      *error = problems.front().message;
      if (problems.size() > 1) *error += " and " + std::to_string(problems.size() - 1) + " more";
    }
    return walked;
  };
  // From the chunk index, when it lists every chunk (for_each_message then reads only the chunks
  // in range), widened to the Statistics' times, which also count messages outside chunks.
  auto times = [this](const std::set<std::string>& topics, IndexedTimes* out) {
    if (model_.chunks.empty() || model_.unlisted_chunks || model_.chunk_indexes_deferred) return false;
    std::set<uint16_t> ids;
    for (const auto& [id, info] : model_.channels)
      if (topics.count(info.channel.topic)) ids.insert(id);
    out->chunk_starts.clear();
    for (const ChunkInfo& c : model_.chunks) {
      if (!c.index_offset) return false;
      bool holds = c.message_index_offsets.empty();
      for (const auto& [id, offset] : c.message_index_offsets) holds |= ids.count(id) > 0;
      if (!holds) continue;
      bool first = out->chunk_starts.empty();
      out->first_ns = first ? c.message_start_time : std::min(out->first_ns, c.message_start_time);
      out->last_ns = first ? c.message_end_time : std::max(out->last_ns, c.message_end_time);
      out->chunk_starts.push_back(c.message_start_time);
    }
    if (out->chunk_starts.empty()) return false;
    if (model_.statistics && model_.statistics->message_count) {
      out->first_ns = std::min(out->first_ns, model_.statistics->message_start_time);
      out->last_ns = std::max(out->last_ns, model_.statistics->message_end_time);
    }
    std::sort(out->chunk_starts.begin(), out->chunk_starts.end());
    return true;
  };
  message_source_ = std::make_unique<FunctionSource>(topics, walk, times);
  return message_source_.get();
}

}  // namespace logscope::mcap
