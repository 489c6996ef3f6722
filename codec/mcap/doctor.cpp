// The doctor's walk: the checks `mcap doctor` makes on every record (schema and channel
// consistency, message order, chunk contents against their fields, message indexes against the
// messages), every CRC, and the statistics against what was counted. The summary's index is
// checked against the walk's findings in doctor_index.cpp.
#include "mcap/doctor.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "core/printf_text.h"
#include "mcap/crc32.h"
#include "mcap/inspector_impl.h"
#include "mcap/line_endings.h"
#include "mcap/summary.h"

namespace logscope::mcap {
namespace {

class DoctorRun : public ScanBuilder {
 public:
  // data_crc: the walk's data section CRC, told each uncompressed chunk's records' CRC (or null).
  DoctorRun(FileModel& seen, CheckResult& result, WalkFindings& found, Crc32Stream* data_crc)
      : ScanBuilder(seen), result_(result), found_(found), data_crc_(data_crc) {}

  void record(const RecordFrame& frame, std::string_view content, bool whole) override {
    end_message_index_run(frame);
    bool summary_before = in_summary();
    ScanBuilder::record(frame, content, whole);
    std::string why;
    uint64_t at = frame.offset;
    if (!summary_before && in_summary() && frame.op == kOpDataEnd) found_.summary_begin = frame.end();
    if (summary_before) {
      found_.summary_frames.push_back(frame);
      summary_record(frame, content);
      return;
    }
    switch (frame.op) {
      case kOpChunk: {
        chunk_messages_.clear();
        chunk_decoded_messages_ = 0;
        chunk_decoded_ = false;
        in_index_run_ = listed_ = found_.chunks.size() < kMaxListedChunks;  // past the cap: counted, not cross-checked
        if (!listed_) break;
        WalkFindings::Chunk c;
        c.info = model_.chunks.empty() || model_.chunks.back().offset != at ? ChunkInfo{} : model_.chunks.back();
        c.header_ok = !model_.chunks.empty() && model_.chunks.back().offset == at;
        c.info.offset = at;
        c.info.length = frame.end() - at;
        found_.chunks.push_back(std::move(c));
        break;
      }
      case kOpMessageIndex:
        if (in_index_run_ && !found_.chunks.empty()) {
          MessageIndex mi;
          if (parse_message_index(content, &mi, &why)) {
            found_.chunks.back().message_indexes.push_back(frame);
            found_.chunks.back().index_channels.push_back(mi.channel_id);
            check_message_index(mi, at);
          }
        } else {
          add(Severity::Warning, at, "mcap.index.message_index_stray",
              "a MessageIndex record at byte " + std::to_string(at) + " that does not follow a chunk");
        }
        break;
      case kOpAttachment: {
        found_.attachments[at] = frame.end() - at;
        AttachmentHeader a;
        if (!parse_attachment_header(content, frame.length, &a, &why)) break;
        check_utf8(a.name, at, "attachment name");
        check_utf8(a.media_type, at, "attachment media type");
        ++result_.attachments.total;
        if (a.crc == 0) break;
        ++result_.attachments.present;
        if (!whole) {
          add(Severity::Info, at, "mcap.attachment.crc_unchecked",
              "the Attachment at byte " + std::to_string(at) + " is too large to hold at once: its CRC was not checked");
          break;
        }
        ++result_.attachments.checked;
        uint32_t computed = crc32(content.substr(0, static_cast<size_t>(a.crc_offset)));
        if (computed != a.crc) {
          ++result_.attachments.mismatched;
          add(Severity::Error, at, "mcap.attachment.crc_mismatch",
              "the Attachment \"" + a.name + "\" at byte " + std::to_string(at) + " fails its CRC (stored " + std::to_string(a.crc) +
                  ", computed " + std::to_string(computed) + ")");
        }
        break;
      }
      case kOpMetadata: {
        found_.metadata[at] = frame.end() - at;
        Metadata d;
        if (!parse_metadata(content, &d, &why)) break;
        check_utf8(d.name, at, "metadata name");
        for (const auto& [k, v] : d.metadata) check_utf8(k, at, "metadata key"), check_utf8(v, at, "metadata value");
        break;
      }
      case kOpHeader:
        break;
      default:
        break;
    }
  }

  void chunk(const RecordFrame& frame, const ChunkHeader& header, const Decompressed& records) override {
    ++result_.chunks.total;
    if (header.uncompressed_crc) ++result_.chunks.present;
    chunk_min_ = UINT64_MAX;
    chunk_max_ = 0;
    chunk_count_ = 0;
    ScanBuilder::chunk(frame, header, records);
    if (records.status != DecompressStatus::Ok) return;
    chunk_decoded_ = listed_;
    if (header.uncompressed_crc) {
      ++result_.chunks.checked;
      uint32_t computed = crc32(records.view());
      // Uncompressed, the records are the file's bytes: the data section CRC takes this CRC for them.
      if (data_crc_ && header.compression.empty())
        data_crc_->known(frame.content_offset() + header.records_offset, records.view().size(), computed);
      if (computed != header.uncompressed_crc) {
        ++result_.chunks.mismatched;
        add(Severity::Error, frame.offset, "mcap.chunk.crc_mismatch",
            "the Chunk at byte " + std::to_string(frame.offset) + " fails its CRC (stored " + std::to_string(header.uncompressed_crc) +
                ", computed " + std::to_string(computed) + " over its " + std::to_string(records.bytes.size()) + " uncompressed bytes)");
      }
    }
    if (chunk_count_) {
      if (chunk_min_ != header.message_start_time)
        add(Severity::Error, frame.offset, "mcap.chunk.start_time",
            "the Chunk at byte " + std::to_string(frame.offset) + " states message_start_time " + std::to_string(header.message_start_time) +
                "; its earliest message is at " + std::to_string(chunk_min_));
      if (chunk_max_ != header.message_end_time)
        add(Severity::Error, frame.offset, "mcap.chunk.end_time",
            "the Chunk at byte " + std::to_string(frame.offset) + " states message_end_time " + std::to_string(header.message_end_time) +
                "; its latest message is at " + std::to_string(chunk_max_));
    }
    if (listed_ && !found_.chunks.empty() && !model_.chunks.empty() && model_.chunks.back().offset == frame.offset)
      found_.chunks.back().info = model_.chunks.back();
  }

  // The walk is over: the last chunk's message index run ends, the statistics are compared.
  void finish() { end_message_index_run(RecordFrame{}); }

  uint64_t max_log_time() const { return max_time_; }

 private:
  void add(Severity severity, uint64_t offset, const std::string& code, std::string message) {
    result_.report.problems.push_back(Problem{severity, offset, code, std::move(message)});
  }
  void check_utf8(const std::string& text, uint64_t at, const char* what) {
    if (!valid_utf8(text)) add(Severity::Error, at, "mcap.record.not_utf8", std::string("the ") + what + " of the record at byte " + std::to_string(at) + " is not valid UTF-8");
  }

  void on_schema(const Schema& s, uint64_t offset, bool in_chunk) override {
    (void)in_chunk;
    check_utf8(s.name, offset, "schema name");
    check_utf8(s.encoding, offset, "schema encoding");
    if (s.id == 0) add(Severity::Error, offset, "mcap.schema.id_zero", "a Schema record with id 0 (reserved) at byte " + std::to_string(offset));
    if (s.encoding.empty() && !s.data.empty())
      add(Severity::Error, offset, "mcap.schema.data_without_encoding", "schema " + std::to_string(s.id) + " has an empty encoding but " + std::to_string(s.data.size()) + " bytes of data");
    WalkFindings::SchemaDigest digest{s.name, s.encoding, s.data.size(), crc32(s.data)};
    auto it = found_.data_schemas.find(s.id);
    if (it != found_.data_schemas.end() && it->second != digest)
      add(Severity::Error, offset, "mcap.schema.conflict", "two Schema records with id " + std::to_string(s.id) + " differ (\"" + it->second.name + "\" and \"" + s.name + "\")");
    if (in_summary()) {
      if (it == found_.data_schemas.end())
        add(Severity::Error, offset, "mcap.summary.schema_not_in_data", "schema " + std::to_string(s.id) + " in the summary is not in the data section");
      found_.summary_schemas[s.id] = digest;
      found_.summary_schema_at[s.id] = offset;
    } else if (it == found_.data_schemas.end()) {
      found_.data_schemas[s.id] = digest;
    }
  }

  void on_channel(const Channel& c, uint64_t offset, bool in_chunk) override {
    (void)in_chunk;
    check_utf8(c.topic, offset, "channel topic");
    check_utf8(c.message_encoding, offset, "channel message encoding");
    auto it = found_.data_channels.find(c.id);
    if (it != found_.data_channels.end() &&
        (it->second.schema_id != c.schema_id || it->second.topic != c.topic || it->second.message_encoding != c.message_encoding || it->second.metadata != c.metadata))
      add(Severity::Error, offset, "mcap.channel.conflict", "two Channel records with id " + std::to_string(c.id) + " differ (\"" + it->second.topic + "\" and \"" + c.topic + "\")");
    if (c.schema_id != 0 && !found_.data_schemas.count(c.schema_id) && !in_summary())
      add(Severity::Error, offset, "mcap.channel.unknown_schema", "channel " + std::to_string(c.id) + " (" + c.topic + ") refers to schema " + std::to_string(c.schema_id) + ", not defined before it");
    if (in_summary()) {
      if (it == found_.data_channels.end())
        add(Severity::Error, offset, "mcap.summary.channel_not_in_data", "channel " + std::to_string(c.id) + " in the summary is not in the data section");
      found_.summary_channels[c.id] = c;
      found_.summary_channel_at[c.id] = offset;
    } else if (it == found_.data_channels.end()) {
      found_.data_channels[c.id] = c;
    }
  }

  void on_message(const MessageHeader& m, uint64_t offset, bool in_chunk) override {
    uint64_t at = in_chunk && !found_.chunks.empty() ? found_.chunks.back().info.offset : offset;
    if (!found_.data_channels.count(m.channel_id) && unknown_channels_.insert(m.channel_id).second)
      add(Severity::Error, at, "mcap.message.unknown_channel",
          "a message on channel " + std::to_string(m.channel_id) + " before any Channel record defines it" + (in_chunk ? " (in the chunk at byte " + std::to_string(at) + ")" : " (at byte " + std::to_string(at) + ")"));
    if (m.log_time < max_time_ && !order_reported_) {
      add(Severity::Warning, at, "mcap.message.out_of_order",
          "a message's log_time " + std::to_string(m.log_time) + " is earlier than one before it (" + std::to_string(max_time_) + ")" +
              " (reported once; mcap doctor --strict-message-order makes this an error)");
      order_reported_ = true;
    }
    max_time_ = std::max(max_time_, m.log_time);
    if (in_chunk) {
      chunk_min_ = std::min(chunk_min_, m.log_time);
      chunk_max_ = std::max(chunk_max_, m.log_time);
      ++chunk_count_;
      if (listed_ && chunk_decoded_messages_++ < kMaxCheckedMessages) chunk_messages_[m.channel_id].emplace_back(offset, m.log_time);
    } else if (!outside_reported_) {
      outside_reported_ = true;
      outside_at_ = offset;
    }
  }

  void on_inner_other(const RecordFrame& inner, uint64_t chunk_offset) override {
    add(Severity::Error, chunk_offset, "mcap.chunk.unexpected_record",
        "a " + op_name(inner.op) + " record inside the Chunk at byte " + std::to_string(chunk_offset) + " (a chunk holds Schema, Channel and Message records)");
  }

  void check_message_index(const MessageIndex& mi, uint64_t at) {
    if (!chunk_decoded_ || chunk_decoded_messages_ > kMaxCheckedMessages) return;
    auto it = chunk_messages_.find(mi.channel_id);
    std::vector<std::pair<uint64_t, uint64_t>> expected = it == chunk_messages_.end() ? std::vector<std::pair<uint64_t, uint64_t>>{} : it->second;
    std::vector<std::pair<uint64_t, uint64_t>> listed;
    for (const auto& [t, o] : mi.entries) listed.emplace_back(o, t);
    std::sort(expected.begin(), expected.end());
    std::sort(listed.begin(), listed.end());
    indexed_channels_.insert(mi.channel_id);
    if (expected != listed) {
      size_t wrong = 0;
      for (const auto& e : listed) wrong += !std::binary_search(expected.begin(), expected.end(), e);
      add(Severity::Error, at, "mcap.index.message_index_mismatch",
          "the MessageIndex at byte " + std::to_string(at) + " lists " + std::to_string(listed.size()) + " messages on channel " +
              std::to_string(mi.channel_id) + "; the chunk holds " + std::to_string(expected.size()) + " (" + std::to_string(wrong) +
              " entries name no message at that offset and time)");
    }
  }

  // A chunk's run of MessageIndex records ends at the first record that is not one.
  void end_message_index_run(const RecordFrame& next) {
    if (next.op == kOpMessageIndex || !in_index_run_) return;
    in_index_run_ = false;
    if (!chunk_decoded_ || found_.chunks.empty() || chunk_decoded_messages_ > kMaxCheckedMessages) return;
    const WalkFindings::Chunk& c = found_.chunks.back();
    if (c.message_indexes.empty()) {
      indexed_channels_.clear();
      return;  // a writer without message indexes (the chunk index says so)
    }
    for (const auto& [channel, messages] : chunk_messages_)
      if (!indexed_channels_.count(channel))
        add(Severity::Error, c.info.offset, "mcap.index.message_index_missing",
            "the Chunk at byte " + std::to_string(c.info.offset) + " holds " + std::to_string(messages.size()) + " messages on channel " +
                std::to_string(channel) + " but no MessageIndex after it lists them");
    indexed_channels_.clear();
  }

  void summary_record(const RecordFrame& frame, std::string_view content) {
    std::string why;
    switch (frame.op) {
      case kOpChunkIndex: {
        ChunkIndex ci;
        if (parse_chunk_index(content, &ci, &why)) found_.chunk_indexes.emplace_back(frame.offset, std::move(ci));
        else add(Severity::Error, frame.offset, "mcap.summary.damaged", "the ChunkIndex at byte " + std::to_string(frame.offset) + " cannot be read: " + why);
        break;
      }
      case kOpAttachmentIndex: {
        AttachmentIndex ai;
        if (parse_attachment_index(content, &ai, &why)) found_.attachment_indexes.emplace_back(frame.offset, std::move(ai));
        else add(Severity::Error, frame.offset, "mcap.summary.damaged", "the AttachmentIndex at byte " + std::to_string(frame.offset) + " cannot be read: " + why);
        break;
      }
      case kOpMetadataIndex: {
        MetadataIndex mi;
        if (parse_metadata_index(content, &mi, &why)) found_.metadata_indexes.emplace_back(frame.offset, std::move(mi));
        else add(Severity::Error, frame.offset, "mcap.summary.damaged", "the MetadataIndex at byte " + std::to_string(frame.offset) + " cannot be read: " + why);
        break;
      }
      case kOpStatistics:
        if (++statistics_seen_ > 1) add(Severity::Error, frame.offset, "mcap.statistics.multiple", "a second Statistics record at byte " + std::to_string(frame.offset));
        break;
    }
  }

 public:
  bool outside_reported_ = false;
  uint64_t outside_at_ = 0;

 private:
  CheckResult& result_;
  WalkFindings& found_;
  Crc32Stream* data_crc_;
  std::map<uint16_t, std::vector<std::pair<uint64_t, uint64_t>>> chunk_messages_;  // channel -> (offset in records, log_time)
  std::set<uint16_t> indexed_channels_;
  std::set<uint16_t> unknown_channels_;
  bool chunk_decoded_ = false;
  bool in_index_run_ = false;
  bool listed_ = true;  // the current chunk is in found_.chunks (under kMaxListedChunks)
  // A chunk's messages kept to check its message indexes against; a chunk with more is not checked.
  static constexpr uint64_t kMaxCheckedMessages = 4u << 20;
  uint64_t chunk_decoded_messages_ = 0;
  bool order_reported_ = false;
  uint64_t max_time_ = 0;
  uint64_t chunk_min_ = UINT64_MAX, chunk_max_ = 0, chunk_count_ = 0;
  int statistics_seen_ = 0;
};

void check_statistics(const FileModel& seen, const WalkResult& walk, CheckResult& result) {
  if (!seen.statistics || !walk.complete) return;  // counts of a cut or damaged file prove nothing
  const Statistics& s = *seen.statistics;
  auto add = [&](const char* code, const std::string& message) {
    result.report.problems.push_back(Problem{Severity::Error, seen.statistics_offset, code, message});
  };
  auto compare = [&](const char* code, const char* what, uint64_t stated, uint64_t counted) {
    if (stated != counted)
      add(code, std::string("Statistics states ") + what + " " + std::to_string(stated) + "; the file holds " + std::to_string(counted));
  };
  compare("mcap.statistics.message_count", "message_count", s.message_count, seen.message_count);
  compare("mcap.statistics.chunk_count", "chunk_count", s.chunk_count, seen.chunks.size() + seen.unlisted_chunks);
  compare("mcap.statistics.attachment_count", "attachment_count", s.attachment_count, seen.attachments.size());
  compare("mcap.statistics.metadata_count", "metadata_count", s.metadata_count, seen.metadata.size());
  compare("mcap.statistics.channel_count", "channel_count", s.channel_count, seen.channels.size());
  compare("mcap.statistics.schema_count", "schema_count", s.schema_count, seen.schemas.size());
  if (seen.message_count > 0 && seen.start_time && seen.end_time) {
    compare("mcap.statistics.start_time", "message_start_time", s.message_start_time, *seen.start_time);
    compare("mcap.statistics.end_time", "message_end_time", s.message_end_time, *seen.end_time);
  }
  if (!s.channel_message_counts.empty()) {
    std::map<uint16_t, uint64_t> stated;
    for (const auto& [id, n] : s.channel_message_counts) stated[id] += n;
    for (const auto& [id, n] : seen.channel_counts)
      if (stated[id] != n) add("mcap.statistics.channel_count_mismatch", "Statistics states " + std::to_string(stated[id]) + " messages on channel " + std::to_string(id) + "; the file holds " + std::to_string(n));
    for (const auto& [id, n] : stated)
      if (n && !seen.channel_counts.count(id)) add("mcap.statistics.channel_count_mismatch", "Statistics states " + std::to_string(n) + " messages on channel " + std::to_string(id) + "; the file holds none");
  }
}

// A data section CRC stored as 0 ("not computed") verifies nothing, so it is not computed either:
// a pass over every byte (known before the walk when the DataEnd came with the summary).
bool data_crc_not_stored(const FileModel& model) { return model.has_data_end && model.data_end.data_section_crc == 0; }

// CRC of [from, to) read in pieces.
bool crc_of(ByteSource& source, uint64_t from, uint64_t to, Crc32* crc) {
  std::vector<uint8_t> buffer;
  for (uint64_t at = from; at < to;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(to - at, 1u << 20));
    buffer.resize(n);
    if (source.read(at, buffer.data(), n) != n) return false;
    crc->update(buffer.data(), n);
    at += n;
  }
  return true;
}

}  // namespace

struct DoctorPass::State {
  explicit State(ByteSource& source) : source(source) {}
  ByteSource& source;
  CheckResult result;
  FileModel seen;
  WalkFindings found;
  std::unique_ptr<DoctorRun> run;  // refers to seen, result and found
  std::optional<Crc32Stream> data_crc;  // none when it cannot be computed (line endings damaged) or is not stored
  uint64_t end = 0;
};

DoctorPass::DoctorPass(ByteSource& source, const FileModel& model) : model_(model), state_(std::make_unique<State>(source)) {
  CheckResult& result = state_->result;
  result.report = summary_report(model);
  std::vector<Problem>& problems = result.report.problems;
  if (model.header_end == 0) return;  // no Header: nothing to walk
  if (model.has_header) {
    if (model.header.library.empty())
      problems.push_back(Problem{Severity::Warning, model.header_offset, "mcap.header.library_empty", "the Header's library field is empty (it should name the writer)"});
    if (!model.header.profile.empty() && model.header.profile != "ros1" && model.header.profile != "ros2")
      problems.push_back(Problem{Severity::Info, model.header_offset, "mcap.header.profile_unknown", "the Header's profile \"" + model.header.profile + "\" is not a well-known profile (ros1, ros2)"});
    if (!valid_utf8(model.header.profile) || !valid_utf8(model.header.library))
      problems.push_back(Problem{Severity::Error, model.header_offset, "mcap.record.not_utf8", "the Header's profile or library is not valid UTF-8"});
  }
  FileModel& seen = state_->seen;
  seen.file_size = model.file_size;
  seen.header_end = model.header_end;
  seen.has_footer = model.has_footer;
  seen.footer_offset = model.footer_offset;
  Crc32 head;
  if (!data_crc_not_stored(model) && !model.line_endings_damaged && crc_of(source, 0, model.header_end, &head))
    state_->data_crc.emplace(head, model.header_end);
  state_->run = std::make_unique<DoctorRun>(seen, result, state_->found, data_crc());
  state_->end = model.has_footer ? model.footer_offset : model.file_size;
}

DoctorPass::~DoctorPass() = default;

bool DoctorPass::walks() const { return state_->run != nullptr; }
uint64_t DoctorPass::from() const { return model_.header_end; }
uint64_t DoctorPass::end() const { return state_->end; }
RecordHandler& DoctorPass::handler() { return *state_->run; }
std::vector<Problem>* DoctorPass::problems() { return &state_->result.report.problems; }
Crc32Stream* DoctorPass::data_crc() { return state_->data_crc ? &*state_->data_crc : nullptr; }

CheckResult DoctorPass::finish(const WalkResult& walk) {
  if (!walks()) return std::move(state_->result);
  state_->run->finish();  // its last problems go to state_->result
  CheckResult result = std::move(state_->result);
  const FileModel& model = model_;
  ByteSource& source = state_->source;
  FileModel& seen = state_->seen;
  WalkFindings& found = state_->found;
  DoctorRun& run = *state_->run;
  std::vector<Problem>& problems = result.report.problems;
  uint64_t end = state_->end;
  result.cancelled = walk.cancelled;
  if (walk.cancelled) {
    problems.push_back(Problem{Severity::Warning, walk.end, "mcap.check.cancelled", "the check was cancelled at byte " + std::to_string(walk.end)});
  }
  for (Problem& p : seen.problems) problems.push_back(std::move(p));

  // DataEnd and the data section CRC.
  if (seen.has_data_end) {
    result.data_crc_stored_known = true;
    result.data_crc_stored = seen.data_end.data_section_crc;
    if (walk.data_crc_known && walk.data_crc_offset == seen.data_end_offset) {
      result.data_crc_computed_known = true;
      result.data_crc_computed = walk.data_crc;
      if (result.data_crc_stored != 0 && walk.data_crc != result.data_crc_stored)
        problems.push_back(Problem{Severity::Error, seen.data_end_offset, "mcap.data_end.crc_mismatch",
                                   "the data section CRC does not match (stored " + std::to_string(result.data_crc_stored) + ", computed " +
                                       std::to_string(walk.data_crc) + " over bytes [0, " + std::to_string(seen.data_end_offset) + "))"});
    } else {
      result.data_crc_why = data_crc_not_stored(model) ? "the DataEnd before the summary stores 0 (not computed), so there is nothing to compare"
                            : walk.skipped_bytes   ? "damaged bytes were skipped before the DataEnd record"
                                                   : "the data section could not be read in one pass";
    }
  } else if (walk.complete && !walk.cancelled) {
    problems.push_back(Problem{Severity::Error, end, "mcap.data_end.missing", "the file has no DataEnd record (the last record of the data section must be one)"});
  }
  if (!model.has_footer && model.header_end) {
    // open_file reported the missing footer already.
  }

  // The summary CRC, over [summary_start, footer) and the footer's first 25 bytes.
  if (model.has_footer) {
    result.summary_crc_stored = model.footer.summary_crc;
    uint64_t start = model.footer.summary_start ? model.footer.summary_start : (found.summary_begin ? found.summary_begin : model.footer_offset);
    Crc32 crc;
    if (start <= model.footer_offset && crc_of(source, start, model.footer_offset + kFooterCrcPrefix, &crc)) {
      result.summary_crc_computed_known = true;
      result.summary_crc_computed = crc.value();
      if (model.footer.summary_crc != 0 && crc.value() != model.footer.summary_crc &&
          !std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return p.code == "mcap.summary.crc_mismatch"; }))
        problems.push_back(Problem{Severity::Error, start, "mcap.summary.crc_mismatch",
                                   "the summary CRC does not match (stored " + std::to_string(model.footer.summary_crc) + ", computed " + std::to_string(crc.value()) + ")"});
    }
  }

  check_statistics(seen, walk, result);
  if (run.outside_reported_ && !found.chunk_indexes.empty())
    problems.push_back(Problem{Severity::Warning, run.outside_at_, "mcap.message.outside_chunks",
                               "the file is indexed but has Message records outside chunks: indexed readers will miss them"});
  if (walk.complete) check_index(seen, model, found, &problems);
  // Which records lost bytes to a line-ending conversion, and whether repair puts them back.
  if (model.line_endings_damaged && !walk.cancelled) line_ending_problems(restore_line_endings(source), &problems);

  // One problem per (code, offset): the opened model's scan and this walk see the same damage.
  std::vector<Problem> unique;
  for (Problem& p : problems)
    if (std::none_of(unique.begin(), unique.end(), [&](const Problem& q) { return q.code == p.code && q.offset == p.offset; }))
      unique.push_back(std::move(p));
  std::stable_sort(unique.begin(), unique.end(), [](const Problem& a, const Problem& b) { return a.offset < b.offset; });
  problems = std::move(unique);
  return result;
}


CheckResult run_doctor(ByteSource& source, const FileModel& model, const ProgressFn& progress) {
  DoctorPass pass(source, model);
  if (!pass.walks()) return pass.finish(WalkResult{});
  return pass.finish(walk_records(source, pass.from(), pass.end(), pass.handler(), pass.problems(), progress, pass.data_crc()));
}

Json checksum_json(const CheckResult& r) {
  Json j = Json::object();
  auto tally = [](const CrcTally& t, const char* what) {
    Json x = Json::object();
    x["total"] = t.total;
    x["present"] = t.present;
    x["checked"] = t.checked;
    x["mismatched"] = t.mismatched;
    x["text"] = std::string(what) + " CRCs: " + std::to_string(t.present) + " of " + std::to_string(t.total) + " present" +
                (t.present ? ", " + std::to_string(t.checked - t.mismatched) + " of " + std::to_string(t.checked) + " checked match" : "");
    return x;
  };
  // One line for people (the page's checksum card): "stored 0x1A2B3C4D, computed 0x1A2B3C4D (match)".
  auto crc_text = [](bool stored_known, uint32_t stored, bool computed_known, uint32_t computed, const std::string& why) {
    auto hex = [](uint32_t v) { return printf_string("0x%08X", static_cast<unsigned>(v)); };
    if (!stored_known) return std::string("no record holds it");
    if (stored == 0) return std::string("not stored (0 means not computed)");
    if (!computed_known) return "stored " + hex(stored) + ", not computed" + (why.empty() ? "" : ": " + why);
    return "stored " + hex(stored) + ", computed " + hex(computed) + (stored == computed ? " (match)" : " (MISMATCH)");
  };
  Json data = Json::object();
  data["text"] = crc_text(r.data_crc_stored_known, r.data_crc_stored, r.data_crc_computed_known, r.data_crc_computed, r.data_crc_why);
  data["present"] = r.data_crc_stored_known && r.data_crc_stored != 0;
  data["stored"] = r.data_crc_stored_known ? Json(uint64_t{r.data_crc_stored}) : Json();
  data["computed"] = r.data_crc_computed_known ? Json(uint64_t{r.data_crc_computed}) : Json();
  if (!r.data_crc_why.empty()) data["why_not_computed"] = r.data_crc_why;
  Json summary = Json::object();
  summary["text"] = crc_text(true, r.summary_crc_stored, r.summary_crc_computed_known, r.summary_crc_computed, "");
  summary["present"] = r.summary_crc_stored != 0;
  summary["stored"] = uint64_t{r.summary_crc_stored};
  summary["computed"] = r.summary_crc_computed_known ? Json(uint64_t{r.summary_crc_computed}) : Json();
  j["algorithm"] = "CRC-32";
  bool data_bad = r.data_crc_stored && r.data_crc_computed_known && r.data_crc_computed != r.data_crc_stored;
  bool summary_bad = r.summary_crc_stored && r.summary_crc_computed_known && r.summary_crc_computed != r.summary_crc_stored;
  uint64_t bad = r.chunks.mismatched + r.attachments.mismatched + data_bad + summary_bad;
  uint64_t checked = r.chunks.checked + r.attachments.checked + (r.data_crc_stored && r.data_crc_computed_known) + (r.summary_crc_stored && r.summary_crc_computed_known);
  if (r.cancelled) {
    j["status"] = "cancelled";
    j["message"] = "cancelled before every CRC was checked";
  } else if (bad) {
    j["status"] = "mismatch";
    j["message"] = std::to_string(bad) + " of " + std::to_string(checked) + " stored CRCs do not match";
  } else if (checked) {
    j["status"] = "valid";
    j["message"] = "every stored CRC matches (" + std::to_string(checked) + " checked)";
  } else {
    j["status"] = "none";
    j["message"] = "the file stores no CRC (every CRC field is 0, which MCAP uses for \"not computed\")";
  }
  j["data_section_crc"] = std::move(data);
  j["summary_crc"] = std::move(summary);
  j["chunk_crcs"] = tally(r.chunks, "chunk");
  j["attachment_crcs"] = tally(r.attachments, "attachment");
  return j;
}

Report check_report(CheckResult result) {
  Json crcs = checksum_json(result);
  result.report.details["checksum"] = crcs;
  result.report.facts.set("chunk_crcs", crcs.find("chunk_crcs")->find("text")->as_string(), Unit::Text);
  return std::move(result.report);
}

Report McapInspector::check(const ProgressFn& progress) {
  read_whole_summary(progress);
  return check_report(run_doctor(source_, model_, progress));
}

Json McapInspector::checksum(const ProgressFn& progress) {
  read_whole_summary(progress);
  return checksum_json(run_doctor(source_, model_, progress));
}

}  // namespace logscope::mcap
