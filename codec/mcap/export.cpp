// The MCAP export (FormatInspector::export_rows): one topic's messages as the flat columns of
// their channel's decoder (payload.h), `time_ns` (the log time) first, in file order. Only the
// chunks that may hold the topic in the range are read (their ChunkIndex says which channels
// and times they hold), one at a time. A decoder whose columns the messages decide (protobuf)
// makes it two passes over the range: the columns, then the rows.
#include <algorithm>
#include <set>

#include "mcap/inspector_impl.h"

namespace logscope::mcap {
namespace {

constexpr size_t kMaxProblems = 100;  // then only counted
constexpr size_t kMaxColumns = 20000;  // columns learned from the messages; more are left out, with a problem

// Whether an indexed chunk may hold messages of `channels` in [t0, t1], by its ChunkIndex. (A
// writer without message indexes lists no channel there: then only the times count.)
bool may_hold(const ChunkInfo& info, const std::set<uint16_t>& channels, uint64_t t0, uint64_t t1) {
  if (info.message_start_time > t1 || info.message_end_time < t0) return false;
  bool any = info.message_index_offsets.empty();
  for (const auto& [id, offset] : info.message_index_offsets) any |= channels.count(id) > 0;
  return any;
}

}  // namespace

bool McapInspector::for_each_message(const std::set<uint16_t>& channels, uint64_t t0, uint64_t t1, const ProgressFn& progress,
                                     const MessageFn& fn, std::vector<Problem>* problems, const std::set<uint64_t>* only_chunks, const SparseChunkFn* sparse,
                                     bool read_ahead) {
  ProgressTicker ticker(progress, model_.file_size);
  // The chunk's index entry, when the index lists it (then it says which channels and times the
  // chunk holds).
  auto indexed = [&](const RecordFrame& f) -> const ChunkInfo* {
    auto info = std::lower_bound(model_.chunks.begin(), model_.chunks.end(), f.offset,
                                 [](const ChunkInfo& c, uint64_t o) { return c.offset < o; });
    return info != model_.chunks.end() && info->offset == f.offset && info->index_offset ? &*info : nullptr;
  };
  // A chunk the index rules out: none of the channels or times fit, or not in the sample.
  auto passed_over = [&](const ChunkInfo* info) {
    return info && (!may_hold(*info, channels, t0, t1) || (only_chunks && !only_chunks->count(info->offset)));
  };
  // The chunks read whole, announced: a remote file fetches the coming ones several at once.
  const std::vector<RecordFrame> chunks = indexed_chunk_frames();
  std::vector<ByteRange> reads;
  if (!sparse && read_ahead)
    for (const RecordFrame& f : chunks)
      if (f.length <= kMaxRecordView && !passed_over(indexed(f))) reads.push_back({f.content_offset(), f.length});
  PlannedReads planned(source_, std::move(reads));
  bool cancelled = false;
  // fn's false stops the walk as a finish; the ticker's, as a cancel.
  for_each_data_record(chunks, [&](const RecordFrame& f) {
    if (!ticker.update(f.offset)) return !(cancelled = true);
    if (f.op == kOpMessage) {
      if (f.length > kMaxRecordView) return true;
      std::string bytes = content(f, f.length);
      MessageHeader m;
      std::string why;
      if (bytes.size() != f.length || !parse_message_header(bytes, &m, &why)) return true;
      if (!channels.count(m.channel_id) || m.log_time < t0 || m.log_time > t1) return true;
      return fn(m, std::string_view(bytes).substr(MessageHeader::kSize), f.offset, 0);
    }
    if (f.op != kOpChunk) return true;
    const ChunkInfo* info = indexed(f);
    if (passed_over(info)) return true;
    uint64_t delivered_through = 0;  // messages before this offset in the chunk were handed on
    if (sparse && info) {
      SparseChunk read = (*sparse)(*info, &delivered_through);
      if (read == SparseChunk::Stopped) return false;
      if (read == SparseChunk::Done) return true;
    }
    const LoadedChunk* chunk = load_chunk(f, /*verify_lz4_checksum=*/false);
    if (!chunk) return true;
    if (!chunk->error.empty() && problems && problems->size() < kMaxProblems)
      problems->push_back(Problem{Severity::Warning, f.offset, "mcap.export.chunk", "the Chunk at byte " + std::to_string(f.offset) + ": " + chunk->error});
    for (const RecordFrame& inner : chunk->inner) {
      if (inner.op != kOpMessage || inner.offset < delivered_through) continue;
      std::string_view bytes = chunk->bytes().substr(static_cast<size_t>(inner.content_offset()), static_cast<size_t>(inner.length));
      MessageHeader m;
      std::string why;
      if (!parse_message_header(bytes, &m, &why)) continue;
      if (!channels.count(m.channel_id) || m.log_time < t0 || m.log_time > t1) continue;
      if (!fn(m, bytes.substr(MessageHeader::kSize), f.offset, inner.offset)) return false;
    }
    return true;
  });
  return !cancelled;
}

std::set<uint64_t> McapInspector::sample_chunks(const std::set<uint16_t>& channels, uint64_t t0, uint64_t t1, uint64_t max_chunks,
                                                uint64_t* in_range) const {
  std::vector<const ChunkInfo*> held;
  for (const ChunkInfo& info : model_.chunks)
    if (info.index_offset && may_hold(info, channels, t0, t1)) held.push_back(&info);
  *in_range = held.size();
  std::set<uint64_t> chosen;
  if (!max_chunks || held.size() <= max_chunks) return chosen;
  // Spread in file order, which is time order in every writer we know of (no sort: the view module stays small).
  for (uint64_t k = 0; k < max_chunks; ++k) chosen.insert(held[static_cast<size_t>(k * held.size() / max_chunks)]->offset);
  return chosen;
}

bool McapInspector::topic_channels(const std::string& topic, std::set<uint16_t>* ids, std::string* error) {
  for (const auto& [id, info] : model_.channels)
    if (info.channel.topic == topic) ids->insert(id);
  if (!ids->empty()) return true;
  std::set<std::string> topics;
  for (const auto& [id, info] : model_.channels) topics.insert(info.channel.topic);
  std::string names;
  for (const std::string& t : topics) names += (names.empty() ? "" : ", ") + t;
  *error = "the file has no topic \"" + topic + "\" (topics: " + (names.empty() ? "none" : names) + ")";
  return false;
}

// The decoder whose columns the topic exports: its first channel's; another channel of the topic
// must have the same columns. Null with `error` when none can be exported.
const PayloadDecoder* McapInspector::topic_decoder(const std::string& topic, const std::set<uint16_t>& ids,
                                                    std::map<uint16_t, const PayloadDecoder*>* per_channel, std::string* error) {
  const PayloadDecoder* first = nullptr;
  std::string first_error;
  for (uint16_t id : ids) {
    std::string why;
    const PayloadDecoder* decoder = payload_decoder(id, &why);
    if (decoder && !decoder->has_columns() && !decoder->columns_from_messages()) {
      why = "channel " + std::to_string(id) + " is " + model_.channel(id)->message_encoding + ", whose messages have no columns";
      decoder = nullptr;
    }
    if (!decoder) {
      if (first_error.empty()) first_error = why;
      continue;
    }
    if (!first) first = decoder;
    else if (decoder->columns() != first->columns() || decoder->message_type() != first->message_type())
      continue;  // another type: its messages are left out
    (*per_channel)[id] = decoder;
  }
  if (!first) *error = "no channel of " + topic + " can be exported: " + first_error;
  return first;
}

bool McapInspector::learn_columns(const std::map<uint16_t, const PayloadDecoder*>& decoders, uint64_t t0, uint64_t t1,
                                  const ProgressFn& progress, protobuf::LeafColumns* out, const std::set<uint64_t>* only_chunks) {
  std::set<uint16_t> ids;
  for (const auto& [id, decoder] : decoders) ids.insert(id);
  std::vector<protobuf::Leaf> leaves;
  std::string why;
  // A message that does not parse adds nothing here; the rows' pass reports it.
  return for_each_message(ids, t0, t1, progress, [&](const MessageHeader& m, std::string_view payload, uint64_t, uint64_t) {
    leaves.clear();
    auto decoder = decoders.find(m.channel_id);
    if (decoder != decoders.end() && decoder->second->leaves(payload, &leaves, &why)) out->add(leaves);
    return true;
  }, nullptr, only_chunks);
}

ExportResult McapInspector::export_rows(const std::string& topic, const ExportRequest& request, ExportSink& sink,
                                        const ProgressFn& progress) {
  read_whole_summary(progress);
  ExportResult result;
  std::set<uint16_t> ids;
  if (!topic_channels(topic, &ids, &result.error)) return result;
  std::map<uint16_t, const PayloadDecoder*> decoders;
  const PayloadDecoder* first = topic_decoder(topic, ids, &decoders, &result.error);
  if (!first) return result;
  std::vector<std::string> columns{"time_ns"};
  // A plot's sample of a big range reads these chunks only (both passes); empty: every chunk.
  const std::set<uint64_t> sample = sample_chunks(ids, request.from_ns, request.to_ns, request.max_chunks, &result.chunks_in_range);
  result.chunks_read = sample.empty() ? result.chunks_in_range : sample.size();
  std::unique_ptr<protobuf::LeafRowWriter> leaf_row;  // columns learned from the messages (two passes)
  ProgressFn rows_progress = progress;
  if (first->columns_from_messages()) {
    ProgressFn first_half;
    if (progress) {
      first_half = [&](uint64_t done, uint64_t total) { return progress(done, 2 * total); };
      rows_progress = [&](uint64_t done, uint64_t total) { return progress(total + done, 2 * total); };
    }
    protobuf::LeafColumns learned(kMaxColumns);
    if (!learn_columns(decoders, request.from_ns, request.to_ns, first_half, &learned, sample.empty() ? nullptr : &sample)) {
      result.cancelled = true;
      return result;
    }
    if (learned.capped())
      result.problems.push_back(Problem{Severity::Warning, 0, "mcap.export.too_many_columns",
                                        "the messages of " + topic + " have more than " + std::to_string(kMaxColumns) +
                                            " numeric paths; the rest are left out"});
    std::vector<std::string> paths = learned.paths();
    leaf_row = std::make_unique<protobuf::LeafRowWriter>(paths);
    columns.insert(columns.end(), paths.begin(), paths.end());
  } else {
    columns.insert(columns.end(), first->columns().begin(), first->columns().end());
  }
  TableWriter table(sink, request);
  if (!table.start(columns, &result.error)) {
    if (table.failed()) result.sink_failed = true, result.error = "could not write the output";
    return result;
  }
  result.json_columns = table.written(first->json_columns());

  uint64_t unreadable = 0;
  std::string error;
  auto problem = [&](uint64_t offset, const std::string& code, const std::string& message) {
    ++unreadable;
    if (result.problems.size() < kMaxProblems) result.problems.push_back(Problem{Severity::Warning, offset, code, message});
  };
  std::vector<protobuf::Leaf> leaves;
  bool walked = for_each_message(ids, request.from_ns, request.to_ns, rows_progress,
                                 [&](const MessageHeader& m, std::string_view payload, uint64_t offset, uint64_t in_chunk) {
    std::string where = "message of " + topic + " at " + std::to_string(m.log_time) + " ns" +
                        (in_chunk ? " (chunk at byte " + std::to_string(offset) + ", record at " + std::to_string(in_chunk) + " inside it)"
                                  : " (record at byte " + std::to_string(offset) + ")");
    auto decoder = decoders.find(m.channel_id);
    if (decoder == decoders.end()) {
      std::string why;
      payload_decoder(m.channel_id, &why);
      problem(offset, "mcap.export.no_schema", where + " is left out: channel " + std::to_string(m.channel_id) +
                                                   (why.empty() ? " has another type than the topic's first channel" : ": " + why));
      return true;
    }
    table.begin_row();
    table.unsigned_integer(m.log_time);
    bool fits;
    if (leaf_row) {
      leaves.clear();
      if ((fits = decoder->second->leaves(payload, &leaves, &error))) leaf_row->write(leaves, table);
    } else {
      fits = decoder->second->write_row(payload, table, &error);
    }
    if (!fits) {
      problem(offset, "mcap.export.undecodable", where + " is left out: " + error);
      return true;  // the half-built row is never written: begin_row() starts over
    }
    if (!table.end_row()) return false;
    ++result.rows;
    return true;
  }, &result.problems, sample.empty() ? nullptr : &sample);
  if (unreadable > kMaxProblems)
    result.problems.push_back(Problem{Severity::Warning, 0, "mcap.export.undecodable", std::to_string(unreadable) + " messages in all were left out"});
  result.cancelled = !walked;
  result.sink_failed = table.failed();
  return result;
}

}  // namespace logscope::mcap
