#include "mcap/extract.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>

#include "mcap/crc32.h"
#include "mcap/line_endings.h"
#include "mcap/reader.h"
#include "mcap/walk.h"
#include "mcap/writer.h"

namespace logscope::mcap {
namespace {

constexpr uint64_t kDefaultChunk = 1u << 20;
constexpr uint64_t kMinChunk = 4u << 10, kMaxChunk = 16u << 20;
constexpr size_t kPendingOverhead = 64;  // bookkeeping bytes a held-back message costs beyond its data
constexpr size_t kMaxDroppedLines = 200;  // more are counted in one last line

struct Pending {
  uint64_t log_time = 0;
  uint64_t order = 0;  // file order among equal times
  uint16_t channel = 0;
  uint32_t sequence = 0;
  uint64_t publish_time = 0;
  std::string data;
};
struct LaterFirst {
  bool operator()(const Pending& a, const Pending& b) const { return a.log_time != b.log_time ? a.log_time > b.log_time : a.order > b.order; }
};

std::string at(uint64_t offset) { return "byte " + std::to_string(offset); }

// What the doctor would report as an error in the copy: strings that are not UTF-8, a schema with
// data but no encoding. Such a record is damage; it is not copied.
std::string unusable(const Schema& s) {
  if (s.id == 0) return "its id is 0";
  if (!valid_utf8(s.name) || !valid_utf8(s.encoding)) return "its name or encoding is not UTF-8";
  if (s.encoding.empty() && !s.data.empty()) return "it has data but no encoding";
  return "";
}
std::string unusable(const Channel& c) {
  return valid_utf8(c.topic) && valid_utf8(c.message_encoding) ? "" : "its topic or message encoding is not UTF-8";
}
bool utf8_pairs(const StringPairs& pairs) {
  for (const auto& [k, v] : pairs)
    if (!valid_utf8(k) || !valid_utf8(v)) return false;
  return true;
}

// The walk's handler: every Schema, Channel, Message (in or out of chunks), Attachment and
// Metadata of the data section, each kept or dropped with a reason.
class ExtractWalk : public RecordHandler {
 public:
  ExtractWalk(const FileModel& model, Writer& writer, const McapExtractOptions& options, uint64_t t0, uint64_t t1)
      : model_(model), writer_(writer), options_(options), t0_(t0), t1_(t1) {}

  void record(const RecordFrame& frame, std::string_view content, bool whole) override {
    if (frame.op == kOpDataEnd) data_ended_ = true;
    if (data_ended_) return;  // the summary repeats what the data section holds
    auto distrusted = options_.distrusted.find(frame.offset);
    if (distrusted != options_.distrusted.end()) {
      drop("the " + op_name(frame.op) + " at " + at(frame.offset) + ": " + distrusted->second);
      return;
    }
    std::string why;
    switch (frame.op) {
      case kOpSchema: {
        Schema s;
        if (parse_schema(content, &s, &why)) schemas_.emplace(s.id, std::move(s));
        else drop("the Schema at " + at(frame.offset) + ": " + why);
        break;
      }
      case kOpChannel: {
        Channel c;
        if (parse_channel(content, &c, &why)) channels_.emplace(c.id, std::move(c));
        else drop("the Channel at " + at(frame.offset) + ": " + why);
        break;
      }
      case kOpMessage: {
        MessageHeader m;
        if (parse_message_header(content, &m, &why)) message(m, content.substr(MessageHeader::kSize), frame.offset);
        else drop("the Message at " + at(frame.offset) + ": " + why);
        break;
      }
      case kOpChunk: {
        ChunkHeader h;
        if (!whole) drop("the Chunk at " + at(frame.offset) + " is " + std::to_string(frame.length) + " bytes, more than logscope reads at once: its messages are lost");
        else if (!parse_chunk_header(content, &h, &why)) drop("the Chunk at " + at(frame.offset) + ": " + why + ": its messages are lost");
        break;
      }
      case kOpAttachment: attachment(frame, content, whole); break;
      case kOpMetadata: {
        Metadata d;
        if (!whole || !parse_metadata(content, &d, &why)) {
          drop("the Metadata record at " + at(frame.offset) + ": " + (whole ? why : "too large"));
        } else if (!valid_utf8(d.name) || !utf8_pairs(d.metadata)) {
          drop("the Metadata record at " + at(frame.offset) + ": a name, key or value is not UTF-8");
        } else {
          writer_.write_metadata(d.name, std::move(d.metadata));
          ++metadata_;
        }
        break;
      }
      default: break;  // indexes are rebuilt; other records are not copied
    }
  }

  void chunk(const RecordFrame& frame, const ChunkHeader& header, const Decompressed& records) override {
    if (data_ended_ || options_.distrusted.count(frame.offset)) return;
    if (records.status != DecompressStatus::Ok) {
      drop("the Chunk at " + at(frame.offset) + ": " + records.error + ": its messages are lost");
      return;
    }
    std::string_view bytes = records.view();
    // A chunk whose records fail their CRC holds damage somewhere: none of its messages is trusted.
    if (header.uncompressed_crc != 0 && crc32(bytes) != header.uncompressed_crc) {
      drop("the Chunk at " + at(frame.offset) + " fails its CRC: its messages are lost");
      return;
    }
    std::string why;
    uint64_t bad = 0;
    bool whole = for_each_inner_record(
        bytes,
        [&](const RecordFrame& inner, std::string_view content) {
          std::string reason;
          if (inner.op == kOpSchema) {
            Schema s;
            if (parse_schema(content, &s, &reason)) schemas_.emplace(s.id, std::move(s));
          } else if (inner.op == kOpChannel) {
            Channel c;
            if (parse_channel(content, &c, &reason)) channels_.emplace(c.id, std::move(c));
          } else if (inner.op == kOpMessage) {
            MessageHeader m;
            if (parse_message_header(content, &m, &reason)) message(m, content.substr(MessageHeader::kSize), frame.offset);
          }
          if (!reason.empty()) drop("a record " + std::to_string(inner.offset) + " bytes into the Chunk at " + at(frame.offset) + ": " + reason);
        },
        &why, &bad);
    if (!whole) drop("the Chunk at " + at(frame.offset) + ": its records from " + std::to_string(bad) + " on: " + why);
  }

  // Writes what the reorder window still holds.
  void finish() {
    while (!pending_.empty()) write_next();
  }

  std::vector<std::string> dropped;
  uint64_t kept_messages = 0, outside_selection = 0, first_time = UINT64_MAX, last_time = 0;
  uint64_t attachments() const { return attachments_; }
  uint64_t metadata() const { return metadata_; }
  std::set<uint16_t> kept_channels;

  void drop(std::string line) {
    if (dropped.size() < kMaxDroppedLines) dropped.push_back(std::move(line));
    else ++unlisted_;
  }
  uint64_t unlisted() const { return unlisted_; }

 private:
  bool selected(const Channel& c) const {
    if (options_.channels.empty()) return true;
    for (const std::string& name : options_.channels)
      if (name == c.topic || name == std::to_string(c.id)) return true;
    return false;
  }

  // A usable definition: the walk's, else the model's (the summary repeats them).
  const Channel* find_channel(uint16_t id) const {
    auto it = channels_.find(id);
    if (it != channels_.end() && unusable(it->second).empty()) return &it->second;
    const Channel* known = model_.channel(id);
    return known && unusable(*known).empty() ? known : nullptr;
  }
  // A schema with its data: from the walk, or the model's when it kept the data.
  const Schema* find_schema(uint16_t id) const {
    auto it = schemas_.find(id);
    if (it != schemas_.end() && unusable(it->second).empty()) return &it->second;
    auto known = model_.schemas.find(id);
    if (known != model_.schemas.end() && known->second.schema.data.size() == known->second.data_size && unusable(known->second.schema).empty())
      return &known->second.schema;
    return nullptr;
  }

  // Registers the channel (and its schema) with the writer on its first kept message; false when
  // its definition is lost (said once per channel).
  bool ready(uint16_t id, uint64_t offset) {
    if (writer_.has_channel(id)) return true;
    if (lost_channels_.count(id)) {
      ++lost_channels_[id];
      return false;
    }
    const Channel* c = find_channel(id);
    const Schema* s = c && c->schema_id ? find_schema(c->schema_id) : nullptr;
    if (!c || (c->schema_id && !s)) {
      lost_channels_[id] = 1;
      drop("messages of channel " + std::to_string(id) + " (the first at " + at(offset) + "): " +
           (c ? "its schema " + std::to_string(c->schema_id) + " is lost or damaged" : "its Channel record is lost or damaged"));
      return false;
    }
    if (s && !writer_.has_schema(s->id)) writer_.add_schema(*s);
    writer_.add_channel(*c);
    return true;
  }

  void message(const MessageHeader& m, std::string_view data, uint64_t offset) {
    const Channel* c = find_channel(m.channel_id);
    if (m.log_time < t0_ || m.log_time > t1_ || (c && !selected(*c)) || (!c && !options_.channels.empty())) {
      ++outside_selection;
      return;
    }
    if (!ready(m.channel_id, offset)) return;
    Pending p{m.log_time, order_++, m.channel_id, m.sequence, m.publish_time, std::string(data)};
    pending_bytes_ += p.data.size() + kPendingOverhead;
    pending_.push(std::move(p));
    while (pending_bytes_ > options_.reorder_window && !pending_.empty()) write_next();
  }

  void write_next() {
    const Pending& p = pending_.top();
    writer_.write_message(p.channel, p.sequence, p.log_time, p.publish_time, p.data);
    ++kept_messages;
    kept_channels.insert(p.channel);
    first_time = std::min(first_time, p.log_time);
    last_time = std::max(last_time, p.log_time);
    pending_bytes_ -= p.data.size() + kPendingOverhead;
    pending_.pop();
  }

  void attachment(const RecordFrame& frame, std::string_view content, bool whole) {
    AttachmentHeader a;
    std::string why;
    if (!whole) {
      drop("the Attachment at " + at(frame.offset) + " is " + std::to_string(frame.length) + " bytes, more than logscope reads at once");
      return;
    }
    if (!parse_attachment_header(content, frame.length, &a, &why)) {
      drop("the Attachment at " + at(frame.offset) + ": " + why);
      return;
    }
    if (!valid_utf8(a.name) || !valid_utf8(a.media_type)) {
      drop("the Attachment at " + at(frame.offset) + ": its name or media type is not UTF-8");
      return;
    }
    if (a.crc != 0 && crc32(content.substr(0, static_cast<size_t>(a.crc_offset))) != a.crc) {
      drop("the Attachment \"" + a.name + "\" at " + at(frame.offset) + " fails its CRC");
      return;
    }
    if (a.log_time < t0_ || a.log_time > t1_) return;
    writer_.write_attachment(a.name, a.media_type, a.log_time, a.create_time,
                             std::string(content.substr(static_cast<size_t>(a.data_offset), static_cast<size_t>(a.data_size))));
    ++attachments_;
  }

  const FileModel& model_;
  Writer& writer_;
  const McapExtractOptions& options_;
  uint64_t t0_, t1_;
  bool data_ended_ = false;
  std::map<uint16_t, Schema> schemas_;
  std::map<uint16_t, Channel> channels_;
  std::map<uint16_t, uint64_t> lost_channels_;
  std::priority_queue<Pending, std::vector<Pending>, LaterFirst> pending_;
  size_t pending_bytes_ = 0;
  uint64_t order_ = 0;
  uint64_t attachments_ = 0, metadata_ = 0, unlisted_ = 0;
};

// The output's chunk size: the input's largest chunk, within bounds.
uint64_t chunk_size_of(const FileModel& model) {
  uint64_t largest = 0;
  for (const ChunkInfo& c : model.chunks) largest = std::max(largest, c.uncompressed_size);
  return largest ? std::clamp(largest, kMinChunk, kMaxChunk) : kDefaultChunk;
}

// Repair of a file whose "\r\n"s became "\n" (line_endings.h): the file with its "\r"s put back
// where the search restored them, repaired as any other; what could not be restored is dropped.
ExtractResult repair_line_endings(ByteSource& source, OutputSink& out, const McapExtractOptions& options, const ProgressFn& progress) {
  LineEndingRestoration restoration = restore_line_endings(source, LineEndingLimits(), progress);
  if (restoration.cancelled) {
    ExtractResult cancelled;
    cancelled.cancelled = true;
    cancelled.error = "cancelled";
    return cancelled;
  }
  RestoredSource restored(source, restoration.inserts);
  McapExtractOptions inner = options;
  for (const DamagedRecord& r : restoration.records)
    if (r.outcome != RestoreOutcome::Restored)
      inner.distrusted[r.restored_offset] = "it lost " + std::to_string(r.bytes_lost) + " bytes to the line-ending conversion at " + at(r.offset) +
                                            " and " + r.how + ": its messages are lost";
  ExtractResult result = extract_mcap(restored, out, inner, progress);
  if (!result.ok) return result;
  result.kept.insert(result.kept.begin(), "line endings: " + std::to_string(restoration.inserts.size()) + " \"\\r\" bytes put back (" +
                                              std::to_string(restoration.restored) + " of " + std::to_string(restoration.damaged_records) +
                                              " records that lost bytes restored, " + std::to_string(restoration.ambiguous) + " ambiguous, " +
                                              std::to_string(restoration.unresolved) + " unresolved)");
  if (restoration.damaged_records > restoration.records.size())
    result.dropped.push_back(std::to_string(restoration.damaged_records - restoration.records.size()) + " more records lost bytes; those not restored are lost");
  if (!restoration.complete)
    result.dropped.push_back("the line-ending restoration stopped at " + at(restoration.framed_to) + ": " + restoration.stop_reason);
  return result;
}

}  // namespace

ExtractResult extract_mcap(ByteSource& source, OutputSink& out, const McapExtractOptions& options, const ProgressFn& progress) {
  ExtractResult result;
  // The model names the channels and times (from the summary; a file without a usable one is
  // scanned first, a second pass).
  FileModel model;
  open_file(source, &model, progress);
  if (!model.has_header) {
    result.error = "the file has no readable MCAP Header, so nothing can be recovered";
    return result;
  }
  if (options.repair && model.line_endings_damaged) return repair_line_endings(source, out, options, progress);
  for (const std::string& name : options.channels) {
    bool found = false;
    for (const auto& [id, info] : model.channels) found = found || name == info.channel.topic || name == std::to_string(id);
    if (!found) {
      result.error = "no channel \"" + name + "\" (a topic or a channel id) in this file; nothing written";
      return result;
    }
  }
  uint64_t start = model.start_time.value_or(0);
  uint64_t t0 = options.from.resolve(start, 0), t1 = options.to.resolve(start, UINT64_MAX);
  if (t0 > t1) {
    result.error = "--from is after --to; nothing written";
    return result;
  }

  WriterOptions wo;
  bool header_text = valid_utf8(model.header.profile) && valid_utf8(model.header.library);
  wo.profile = header_text ? model.header.profile : "";
  wo.library = std::string("logscope ") + (options.repair ? "repair" : "extract") +
               (model.header.library.empty() || !header_text ? "" : " of " + model.header.library);
  wo.compression = options.compression == "none" ? "" : options.compression;
  if (options.compression.empty()) wo.compression = model.chunks.empty() ? "zstd" : model.chunks.front().compression;
  if (!wo.compression.empty() && wo.compression != "zstd" && wo.compression != "lz4") wo.compression = "zstd";
  wo.chunk_size = chunk_size_of(model);
  Writer writer(wo, &out);
  writer.keep_ledger(false);

  ExtractWalk walk(model, writer, options, t0, t1);
  uint64_t end = model.has_footer ? model.footer_offset : model.file_size;
  std::vector<Problem> problems;
  WalkResult walked = walk_records(source, model.header_end, end, walk, &problems, progress);
  if (walked.cancelled) {
    result.cancelled = true;
    result.error = "cancelled";
    return result;
  }
  walk.finish();
  writer.finish();
  if (!writer.ok()) {
    result.error = out.error().empty() ? "the output could not be written" : out.error();
    return result;
  }
  result.ok = true;
  result.bytes_written = writer.bytes_written();

  std::string times = walk.kept_messages ? ", log_time " + std::to_string(walk.first_time) + " to " + std::to_string(walk.last_time) + " ns" : "";
  result.kept.push_back(std::to_string(walk.kept_messages) + " messages of " + std::to_string(walk.kept_channels.size()) + " channels" + times +
                        " (input bytes " + std::to_string(model.header_end) + " to " + std::to_string(walked.end) + ")");
  result.kept.push_back(std::to_string(walk.attachments()) + " attachments, " + std::to_string(walk.metadata()) + " metadata records");
  result.kept.push_back("rewritten: chunks (" + (wo.compression.empty() ? std::string("uncompressed") : wo.compression) +
                        ") with message indexes, chunk/attachment/metadata indexes, statistics, summary offsets, every CRC");
  if (!header_text) walk.drop("the Header's profile and library: not UTF-8 (the copy's profile is empty)");
  for (const Problem& p : problems)
    if (p.severity == Severity::Error) walk.drop(p.code + " at " + at(p.offset) + ": " + p.message);
  if (walk.unlisted()) walk.dropped.push_back(std::to_string(walk.unlisted()) + " more losses like the above");
  result.dropped = std::move(walk.dropped);
  if (walk.outside_selection) result.dropped.push_back(std::to_string(walk.outside_selection) + " messages outside the chosen channels and time range");
  uint64_t channels_without = 0;
  for (const auto& [id, info] : model.channels) channels_without += !walk.kept_channels.count(id) && options.channels.empty();
  if (options.repair && channels_without)
    result.dropped.push_back(std::to_string(channels_without) + " channels with no complete message (not written: MCAP writes a channel before its first message)");
  return result;
}

}  // namespace logscope::mcap
