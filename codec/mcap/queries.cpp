// The MCAP query table: messages a page at a time (fields, no payload decoding yet), channels,
// attachments, metadata, and the timeline of messages per channel from the message indexes.
#include <algorithm>
#include <cstring>
#include <functional>

#include "core/plot.h"
#include "core/sha1.h"
#include "mcap/inspector_impl.h"
#include "views/views.h"

namespace logscope::mcap {
namespace {

constexpr uint64_t kMaxPage = 10000;
constexpr uint64_t kMaxTimelineMessageReads = 1000000;  // messages outside chunks read for the timeline
constexpr size_t kMaxExactTimelineChunks = 512;  // chunks in a timeline's range whose MessageIndex records are read
constexpr uint64_t kMaxHashedOutsideMessage = 256u << 20;  // a message outside chunks read whole for its SHA1

// Where a chunk's MessageIndex records start (UINT64_MAX: the index names none, or too many bytes).
uint64_t index_records_start(const ChunkInfo& c) {
  if (c.message_index_offsets.empty() || c.message_index_length == 0 || c.message_index_length > (64u << 20)) return UINT64_MAX;
  uint64_t from = UINT64_MAX;
  for (const auto& [id, o] : c.message_index_offsets) from = std::min(from, o);
  return from;
}

// Messages per channel in a chunk from its MessageIndex records' lengths, without reading them.
bool counts_from_index_lengths(const ChunkInfo& c, std::vector<std::pair<uint16_t, uint64_t>>* counts) {
  std::vector<MessageIndexPlace> places;
  if (!message_index_places(c, &places)) return false;
  counts->clear();
  for (const MessageIndexPlace& p : places) counts->push_back({p.channel_id, p.messages()});
  return true;
}

}  // namespace

Json McapInspector::channels_query() {
  Json list = Json::array();
  for (const auto& [id, info] : model_.channels) {
    const Channel& c = info.channel;
    Json j = Json::object();
    j["id"] = c.id;
    j["topic"] = c.topic;
    j["schema_id"] = c.schema_id;
    const Schema* s = model_.schema(c.schema_id);
    j["schema"] = s ? Json(s->name) : Json();
    j["schema_encoding"] = s ? Json(s->encoding) : Json();
    j["message_encoding"] = c.message_encoding;
    auto n = model_.channel_counts.find(id);
    j["messages"] = model_.channel_counts_known ? Json(n == model_.channel_counts.end() ? uint64_t{0} : n->second) : Json();
    Json metadata = Json::object();
    for (const auto& [k, v] : c.metadata) metadata[k] = v;
    j["metadata"] = std::move(metadata);
    j["offset"] = info.offset;
    list.push_back(std::move(j));
  }
  Json out = Json::object();
  out["channels"] = std::move(list);
  return out;
}

// {"channel"?, "first", "count", "t0_ns"?, "t1_ns"?} -> {"messages": [...], "first", "count", "more", "problems"}:
// messages in file order (chunks in file order, records in chunk order). Chunks whose time range
// misses [t0_ns, t1_ns] are not read.
Json McapInspector::messages_query(QueryArgs& args, const ProgressFn& progress) {
  uint64_t first = args.u64("first", 0);
  uint64_t count = std::min(args.u64("count", 100), kMaxPage);
  uint64_t t0 = args.u64("t0_ns", 0), t1 = args.u64("t1_ns", UINT64_MAX);
  bool one_channel = args.has("channel");
  uint64_t channel = args.u64("channel", 0, 0, 65535);
  bool with_sha1 = args.flag("sha1");
  if (!args.ok()) return QueryArgs::error_json(args.error());
  if (one_channel && !model_.channels.count(static_cast<uint16_t>(channel)))
    return QueryArgs::error_json("no channel " + std::to_string(channel) + " in this file");
  Json messages = Json::array();
  Json problems = Json::array();
  uint64_t index = 0, chunks_read = 0, chunks_skipped = 0;
  bool more = false;
  // `payload` gives the message's data when its SHA1 is asked for (null: too large to read).
  auto take = [&](const MessageHeader& m, uint64_t data_size, Json where, const std::function<const std::string_view*()>& payload) {
    if ((one_channel && m.channel_id != channel) || m.log_time < t0 || m.log_time > t1) return true;
    if (index++ < first) return true;
    if (messages.size() >= count) {
      more = true;
      return false;
    }
    Json j = std::move(where);
    j["index"] = index - 1;
    j["channel"] = m.channel_id;
    if (const Channel* c = model_.channel(m.channel_id)) j["topic"] = c->topic;
    j["sequence"] = m.sequence;
    j["log_time"] = std::to_string(m.log_time);
    j["publish_time"] = std::to_string(m.publish_time);
    j["size"] = data_size;
    if (with_sha1) {
      const std::string_view* data = payload();
      j["sha1"] = data ? Json(Sha1::hex(Sha1::of(data->data(), data->size()))) : Json();
    }
    messages.push_back(std::move(j));
    return true;
  };
  const std::vector<RecordFrame>& list = records();
  ProgressTicker ticker(progress, model_.file_size);
  for (size_t k = 0; k < list.size() && !more; ++k) {
    const RecordFrame& f = list[k];
    if (!ticker.update(f.offset)) break;
    if (f.op == kOpMessage) {
      std::string bytes = content(f, MessageHeader::kSize);
      MessageHeader m;
      std::string why;
      if (!parse_message_header(bytes, &m, &why)) continue;
      Json where = Json::object();
      where["offset"] = f.offset;
      where["chunk_offset"] = Json();
      std::string whole;
      std::string_view data;
      auto payload = [&]() -> const std::string_view* {
        if (f.length > kMaxHashedOutsideMessage) return nullptr;
        whole = content(f, f.length);
        if (whole.size() != f.length) return nullptr;
        data = std::string_view(whole).substr(MessageHeader::kSize);
        return &data;
      };
      if (!take(m, f.length - MessageHeader::kSize, std::move(where), payload)) break;
    } else if (f.op == kOpChunk) {
      auto info = std::lower_bound(model_.chunks.begin(), model_.chunks.end(), f.offset, [](const ChunkInfo& c, uint64_t o) { return c.offset < o; });
      if (info != model_.chunks.end() && info->offset == f.offset && info->message_end_time < t0 && info->message_start_time <= info->message_end_time) {
        ++chunks_skipped;
        continue;
      }
      if (info != model_.chunks.end() && info->offset == f.offset && info->message_start_time > t1) {
        ++chunks_skipped;
        continue;
      }
      const LoadedChunk* chunk = chunk_at(k);
      ++chunks_read;
      if (!chunk) continue;
      if (!chunk->error.empty()) {
        Json p = Json::object();
        p["offset"] = f.offset;
        p["message"] = "the Chunk at byte " + std::to_string(f.offset) + ": " + chunk->error;
        problems.push_back(std::move(p));
      }
      bool in_file = chunk->header_ok && chunk->header.compression.empty();
      for (const RecordFrame& inner : chunk->inner) {
        if (inner.op != kOpMessage) continue;
        MessageHeader m;
        std::string why;
        std::string_view record = chunk->bytes().substr(static_cast<size_t>(inner.content_offset()), static_cast<size_t>(inner.length));
        if (!parse_message_header(record, &m, &why)) continue;
        std::string_view data = record.substr(MessageHeader::kSize);
        auto payload = [&]() -> const std::string_view* { return &data; };
        Json where = Json::object();
        where["offset"] = in_file ? Json(f.content_offset() + chunk->header.records_offset + inner.offset) : Json();
        where["chunk_offset"] = f.offset;
        where["offset_in_chunk"] = inner.offset;
        if (!take(m, inner.length - MessageHeader::kSize, std::move(where), payload)) break;
      }
    }
  }
  Json out = Json::object();
  out["first"] = first;
  out["count"] = messages.size();
  out["more"] = more;
  out["chunks_read"] = chunks_read;
  out["chunks_skipped"] = chunks_skipped;
  out["messages"] = std::move(messages);
  out["problems"] = std::move(problems);
  return out;
}

Json McapInspector::attachments_query(QueryArgs& args) {
  uint64_t first = args.u64("first", 0), count = std::min(args.u64("count", 100), kMaxPage);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  Json list = Json::array();
  for (uint64_t i = first; i < model_.attachments.size() && list.size() < count; ++i) {
    const AttachmentInfo& a = model_.attachments[static_cast<size_t>(i)];
    Json j = Json::object();
    j["name"] = a.name;
    j["media_type"] = a.media_type;
    j["size"] = a.data_size;
    j["log_time"] = std::to_string(a.log_time);
    j["create_time"] = std::to_string(a.create_time);
    j["offset"] = a.offset;
    j["length"] = a.length;
    list.push_back(std::move(j));
  }
  Json out = Json::object();
  out["total"] = model_.attachments.size();
  out["attachments"] = std::move(list);
  return out;
}

// The metadata records' names and key/value pairs (each record read once, at most 1 MiB of it).
Json McapInspector::metadata_query(QueryArgs& args) {
  uint64_t first = args.u64("first", 0), count = std::min(args.u64("count", 100), kMaxPage);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  Json list = Json::array();
  for (uint64_t i = first; i < model_.metadata.size() && list.size() < count; ++i) {
    const MetadataInfo& d = model_.metadata[static_cast<size_t>(i)];
    Json j = Json::object();
    j["name"] = d.name;
    j["offset"] = d.offset;
    j["length"] = d.length;
    RecordFrame frame{d.offset, kOpMetadata, d.length >= kRecordPrefix ? d.length - kRecordPrefix : 0};
    Metadata parsed;
    std::string why;
    if (frame.length <= (1u << 20) && parse_metadata(content(frame, frame.length), &parsed, &why)) {
      Json pairs = Json::object();
      for (const auto& [k, v] : parsed.metadata) pairs[k] = v;
      j["metadata"] = std::move(pairs);
    } else {
      j["error"] = why.empty() ? "the record is too large to show" : why;
    }
    list.push_back(std::move(j));
  }
  Json out = Json::object();
  out["total"] = model_.metadata.size();
  out["metadata"] = std::move(list);
  return out;
}

// Adds a chunk's messages at their exact times from its MessageIndex records; false when they
// cannot be read whole or do not parse (the caller then spreads the chunk's count).
bool McapInspector::add_message_indexes(const ChunkInfo& c, Timeline& timeline, const std::map<uint16_t, size_t>& rows) {
  uint64_t from = index_records_start(c);
  if (from == UINT64_MAX) return false;
  std::vector<uint8_t> bytes = source_.read_vector(from, static_cast<size_t>(c.message_index_length));
  if (bytes.size() != c.message_index_length) return false;
  std::string_view view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::vector<std::pair<size_t, uint64_t>> times;  // (row, log time), added once all parse
  for (uint64_t pos = 0; pos < view.size();) {
    RecordFrame frame;
    MessageIndex mi;
    std::string why;
    if (!frame_at(view, pos, &frame, &why) || frame.op != kOpMessageIndex ||
        !parse_message_index(view.substr(static_cast<size_t>(frame.content_offset()), static_cast<size_t>(frame.length)), &mi, &why))
      return false;
    auto row = rows.find(mi.channel_id);
    if (row != rows.end())
      for (const auto& [t, o] : mi.entries) times.push_back({row->second, t});
    pos = frame.end();
  }
  for (const auto& [row, t] : times) timeline.add(row, t);
  return true;
}

// Per channel. A whole-log view has a few bins per chunk at most, so each chunk's count is spread
// over its span (as a bag's), counted without a read from its MessageIndex records' lengths. Up to
// kMaxExactTimelineChunks chunks in [t0, t1] give exact times instead: their MessageIndex records
// are read (one planned pass, so a remote file fetches them a window at a time). A chunk whose count
// the index cannot give is read too; messages outside chunks come from the records (bounded). No
// chunk is decompressed.
Json McapInspector::timeline_query(QueryArgs& args) {
  uint64_t lo = model_.start_time.value_or(0), hi = model_.end_time.value_or(0);
  uint64_t t0 = 0, t1 = 0;
  size_t bins = 0;
  if (!read_timeline_args(args, lo, hi, &t0, &t1, &bins)) return QueryArgs::error_json(args.error());
  Timeline timeline(t0, t1, bins, model_.channels.size());
  std::map<uint16_t, size_t> rows;
  for (const auto& [id, info] : model_.channels) {
    const Schema* s = model_.schema(info.channel.schema_id);
    rows[id] = timeline.row(info.channel.topic, s ? s->name : "");
  }
  auto spread = [&](const ChunkInfo& c, const std::vector<std::pair<uint16_t, uint64_t>>& counts) {
    for (const auto& [id, n] : counts) {
      auto row = rows.find(id);
      if (row != rows.end()) timeline.spread(row->second, c.message_start_time, c.message_end_time, n);
    }
  };
  size_t in_range = 0;
  for (const ChunkInfo& c : model_.chunks) in_range += c.message_end_time >= t0 && c.message_start_time <= t1;
  const bool exact = in_range <= kMaxExactTimelineChunks;
  std::vector<std::pair<uint16_t, uint64_t>> counts;  // one chunk's, from the lengths (not kept: 1 TB has a million chunks)
  std::vector<size_t> to_read;  // chunks whose MessageIndex records are read, in file order
  std::vector<ByteRange> ranges;
  for (size_t k = 0; k < model_.chunks.size(); k++) {
    const ChunkInfo& c = model_.chunks[k];
    bool wanted = exact && c.message_end_time >= t0 && c.message_start_time <= t1;
    if (!wanted && (c.counted || counts_from_index_lengths(c, &counts))) continue;
    uint64_t from = index_records_start(c);
    if (from == UINT64_MAX) continue;
    to_read.push_back(k);
    ranges.push_back({from, c.message_index_length});
  }
  bool spread_any = false, partial = false;
  {
    PlannedReads planned(source_, std::move(ranges));
    size_t next = 0;
    for (size_t k = 0; k < model_.chunks.size(); k++) {
      const ChunkInfo& c = model_.chunks[k];
      if (next < to_read.size() && to_read[next] == k) {
        next++;
        if (add_message_indexes(c, timeline, rows)) continue;
      }
      if (c.counted) {
        spread(c, c.channel_counts);
      } else if (counts_from_index_lengths(c, &counts)) {
        spread(c, counts);
      } else {
        partial = true;
        continue;
      }
      spread_any |= c.message_end_time >= t0 && c.message_start_time <= t1;  // the bins shown are not exact
    }
  }
  std::string resolution = partial ? "partial" : spread_any ? "chunk" : "message";
  // Messages outside chunks have no index: their records are read (22 bytes each), up to a bound.
  bool outside = model_.messages_outside_chunks > 0 || (model_.chunks.empty() && model_.message_count > 0);
  if (outside) {
    uint64_t read = 0;
    for (const RecordFrame& f : records()) {
      if (f.op != kOpMessage) continue;
      if (++read > kMaxTimelineMessageReads) {
        resolution = "partial";
        break;
      }
      MessageHeader m;
      std::string why;
      if (!parse_message_header(content(f, MessageHeader::kSize), &m, &why)) continue;
      auto row = rows.find(m.channel_id);
      if (row != rows.end()) timeline.add(row->second, m.log_time);
    }
  }
  return timeline.to_json(resolution);
}

// Every message of every channel in file order, each chunk decompressed once, each payload viewed
// (with `touch`, every byte of it read into a checksum) and none decoded: what a reader that hands
// out raw messages does, timed by `npm run bench` against @mcap/core.
Json McapInspector::iterate_query(QueryArgs& args, const ProgressFn& progress) {
  bool touch = args.flag("touch");
  if (!args.ok()) return QueryArgs::error_json(args.error());
  std::set<uint16_t> every;
  for (const auto& [id, info] : model_.channels) every.insert(id);
  uint64_t messages = 0, bytes = 0, sum = 0;
  std::vector<Problem> problems;
  bool finished = for_each_message(every, 0, UINT64_MAX, progress, [&](const MessageHeader&, std::string_view payload, uint64_t, uint64_t) {
    ++messages;
    bytes += payload.size();
    if (touch) {
      // Eight bytes at a time, as bench_rosbag's iterate-touch.
      uint64_t word = 0;
      size_t i = 0;
      for (; i + 8 <= payload.size(); i += 8) std::memcpy(&word, payload.data() + i, 8), sum += word;
      for (; i < payload.size(); ++i) sum += static_cast<uint8_t>(payload[i]);
    }
    return true;
  }, &problems);
  Json out = Json::object();
  out["messages"] = messages;
  out["message_bytes"] = bytes;
  out["checksum"] = std::to_string(sum);
  out["cancelled"] = !finished;
  out["problems"] = problems.size();
  return out;
}

std::vector<QuerySpec> McapInspector::queries() {
  read_whole_summary();  // (the view queries' message source needs it too)
  std::vector<QuerySpec> list = {
      {"messages", "messages in file order, a page at a time: channel, sequence, log_time, publish_time, offset, size",
       {{"channel", ArgType::U64, "only this channel id"}, {"first", ArgType::U64, "index of the first message (in the selection)"},
        {"count", ArgType::U64, "messages (at most 10000)"}, {"t0_ns", ArgType::U64, "from log_time, ns"}, {"t1_ns", ArgType::U64, "to log_time, ns"},
        {"sha1", ArgType::Bool, "add each payload's SHA1 (hex)"}},
       {{"first", Unit::Id}, {"count", Unit::Count}, {"more", Unit::Flag}, {"chunks_read", Unit::Count}, {"chunks_skipped", Unit::Count},
        {"messages.index", Unit::Id}, {"messages.channel", Unit::Id}, {"messages.topic", Unit::Text}, {"messages.sequence", Unit::Id},
        {"messages.log_time", Unit::TimeNs}, {"messages.publish_time", Unit::TimeNs}, {"messages.size", Unit::Bytes},
        {"messages.offset", Unit::Offset}, {"messages.chunk_offset", Unit::Offset}, {"messages.offset_in_chunk", Unit::Offset},
        {"messages.sha1", Unit::Text}, {"problems.offset", Unit::Offset}, {"problems.message", Unit::Text}},
       [this](QueryArgs& args, const ProgressFn& progress) { return messages_query(args, progress); }},
      {"iterate_all", "every message in file order, payloads viewed, none decoded (the iteration benchmark)",
       {{"touch", ArgType::Bool, "read every byte of every payload (a checksum)"}},
       {{"messages", Unit::Count}, {"message_bytes", Unit::Bytes}, {"checksum", Unit::Text}, {"cancelled", Unit::Flag},
        {"problems", Unit::Count}},
       [this](QueryArgs& args, const ProgressFn& progress) { return iterate_query(args, progress); }},
      {"channels", "every channel: id, topic, schema, encodings, messages, metadata", {},
       {{"channels.id", Unit::Id}, {"channels.topic", Unit::Text}, {"channels.schema_id", Unit::Id}, {"channels.schema", Unit::Text},
        {"channels.schema_encoding", Unit::Text}, {"channels.message_encoding", Unit::Text}, {"channels.messages", Unit::Count},
        {"channels.metadata", Unit::Data}, {"channels.offset", Unit::Offset}},
       [this](QueryArgs&, const ProgressFn&) { return channels_query(); }},
      {"definitions", "each schema's name, encoding and text, for --definitions-from", {},
       {{"definitions.type", Unit::Text}, {"definitions.encoding", Unit::Text}, {"definitions.text", Unit::Text}},
       [this](QueryArgs&, const ProgressFn&) {
         Json list = Json::array();
         for (const auto& [id, info] : model_.schemas) {
           if (info.schema.data.empty()) continue;  // none, or dropped past kMaxKeptSchemaData
           Json j = Json::object();
           j["type"] = info.schema.name, j["encoding"] = info.schema.encoding, j["text"] = info.schema.data;
           list.push_back(std::move(j));
         }
         Json out = Json::object();
         out["definitions"] = std::move(list);
         return out;
       }},
      {"attachments", "the attachments: name, media type, size, times, offset",
       {{"first", ArgType::U64, "first attachment"}, {"count", ArgType::U64, "attachments (at most 10000)"}},
       {{"total", Unit::Count}, {"attachments.name", Unit::Text}, {"attachments.media_type", Unit::Text}, {"attachments.size", Unit::Bytes},
        {"attachments.log_time", Unit::TimeNs}, {"attachments.create_time", Unit::TimeNs}, {"attachments.offset", Unit::Offset},
        {"attachments.length", Unit::Bytes}},
       [this](QueryArgs& args, const ProgressFn&) { return attachments_query(args); }},
      {"metadata", "the metadata records: name and key/value pairs",
       {{"first", ArgType::U64, "first record"}, {"count", ArgType::U64, "records (at most 10000)"}},
       {{"total", Unit::Count}, {"metadata.name", Unit::Text}, {"metadata.offset", Unit::Offset}, {"metadata.length", Unit::Bytes},
        {"metadata.metadata", Unit::Data}, {"metadata.error", Unit::Text}},
       [this](QueryArgs& args, const ProgressFn&) { return metadata_query(args); }},
      {"decoded", "messages in file order, a page at a time, with their payloads decoded by their channel's encodings",
       {{"channel", ArgType::U64, "only this channel id"}, {"topic", ArgType::String, "only this topic's channels"},
        {"first", ArgType::U64, "index of the first message (in the selection)"}, {"count", ArgType::U64, "messages (at most 1000)"},
        {"t0_ns", ArgType::U64, "from log_time, ns"}, {"t1_ns", ArgType::U64, "to log_time, ns"}},
       {{"first", Unit::Id}, {"count", Unit::Count}, {"more", Unit::Flag}, {"cancelled", Unit::Flag}, {"selected", Unit::Count},
        {"messages.index", Unit::Id},
        {"messages.channel", Unit::Id}, {"messages.topic", Unit::Text}, {"messages.sequence", Unit::Id}, {"messages.log_time", Unit::TimeNs},
        {"messages.publish_time", Unit::TimeNs}, {"messages.size", Unit::Bytes}, {"messages.offset", Unit::Offset},
        {"messages.offset_in_chunk", Unit::Offset}, {"messages.message", Unit::Data}, {"messages.decode_error", Unit::Text},
        {"messages.decode_note", Unit::Text}, {"problems.offset", Unit::Offset}, {"problems.message", Unit::Text}},
       [this](QueryArgs& args, const ProgressFn& progress) { return decoded_query(args, progress); }},
      {"columns", "the columns of `logscope export --topic` and what each holds (number, bool, text, json)",
       {{"topic", ArgType::String, "the topic"}},
       {{"topic", Unit::Text}, {"type", Unit::Text}, {"columns.name", Unit::Text}, {"columns.kind", Unit::Text}},
       [this](QueryArgs& args, const ProgressFn& progress) { return columns_query(args, progress); }},
      {"plot", "numeric columns of a topic over time, as `logscope export` writes them: every point, or per-bucket first/last/min/max beyond max_points, and the exact count",
       [] {
         std::vector<ArgSpec> specs{{"topic", ArgType::String, "the topic"}};
         for (ArgSpec& spec : plot_arg_specs()) specs.push_back(std::move(spec));
         return specs;
       }(),
       plot_units(), [this](QueryArgs& args, const ProgressFn& progress) { return plot_query(args, progress); }},
      {"timeline", "messages per channel and time bin from the message indexes (no chunk decompressed)", timeline_arg_specs(),
       timeline_units(), [this](QueryArgs& args, const ProgressFn&) { return timeline_query(args); }},
  };
  views::add_view_queries(list, message_source());
  return list;
}

}  // namespace logscope::mcap
