// The doctor's index checks: chunk indexes against the chunks, message index offsets, attachment
// and metadata indexes, summary offsets and grouping, the footer's offsets, and the channels and
// schemas the summary must repeat.
#include <algorithm>
#include <set>

#include "mcap/doctor.h"

namespace logscope::mcap {

void check_index(const FileModel& seen, const FileModel& opened, const WalkFindings& found, std::vector<Problem>* problems) {
  auto add = [&](Severity severity, uint64_t offset, const char* code, std::string message) {
    problems->push_back(Problem{severity, offset, code, std::move(message)});
  };
  auto at = [](uint64_t o) { return "byte " + std::to_string(o); };

  // Chunk indexes against the chunks.
  std::map<uint64_t, const WalkFindings::Chunk*> chunks;
  for (const WalkFindings::Chunk& c : found.chunks) chunks[c.info.offset] = &c;
  std::set<uint64_t> indexed;
  for (const auto& [where, ci] : found.chunk_indexes) {
    if (!indexed.insert(ci.chunk_start_offset).second) {
      add(Severity::Error, where, "mcap.index.duplicate_chunk", "a second ChunkIndex for the chunk at " + at(ci.chunk_start_offset));
      continue;
    }
    auto it = chunks.find(ci.chunk_start_offset);
    if (it == chunks.end()) {
      add(Severity::Error, where, "mcap.index.chunk_bad_offset", "the ChunkIndex at " + at(where) + " points to " + at(ci.chunk_start_offset) + ", where no Chunk record starts");
      continue;
    }
    const WalkFindings::Chunk& c = *it->second;
    std::string chunk = "the Chunk at " + at(c.info.offset);
    if (ci.chunk_length != c.info.length)
      add(Severity::Error, where, "mcap.index.chunk_length", chunk + " is " + std::to_string(c.info.length) + " bytes; its ChunkIndex says " + std::to_string(ci.chunk_length));
    if (!c.header_ok) continue;
    if (ci.message_start_time != c.info.message_start_time || ci.message_end_time != c.info.message_end_time)
      add(Severity::Error, where, "mcap.index.chunk_times",
          chunk + " spans [" + std::to_string(c.info.message_start_time) + ", " + std::to_string(c.info.message_end_time) + "]; its ChunkIndex says [" +
              std::to_string(ci.message_start_time) + ", " + std::to_string(ci.message_end_time) + "]");
    if (ci.compression != c.info.compression)
      add(Severity::Error, where, "mcap.index.chunk_compression", chunk + " is compressed \"" + c.info.compression + "\"; its ChunkIndex says \"" + ci.compression + "\"");
    if (ci.compressed_size != c.info.compressed_size || ci.uncompressed_size != c.info.uncompressed_size)
      add(Severity::Error, where, "mcap.index.chunk_size",
          chunk + " holds " + std::to_string(c.info.compressed_size) + " bytes of records (" + std::to_string(c.info.uncompressed_size) +
              " uncompressed); its ChunkIndex says " + std::to_string(ci.compressed_size) + " (" + std::to_string(ci.uncompressed_size) + ")");
    // Message index offsets: each names a MessageIndex of that channel after the chunk.
    for (const auto& [channel, offset] : ci.message_index_offsets) {
      bool ok = false;
      for (size_t i = 0; i < c.message_indexes.size(); ++i) ok |= c.message_indexes[i].offset == offset && c.index_channels[i] == channel;
      if (!ok)
        add(Severity::Error, where, "mcap.index.message_index_offset",
            "the ChunkIndex at " + at(where) + " puts channel " + std::to_string(channel) + "'s MessageIndex at " + at(offset) + ", where there is none after " + chunk);
    }
    uint64_t run = c.message_indexes.empty() ? 0 : c.message_indexes.back().end() - c.message_indexes.front().offset;
    if (!ci.message_index_offsets.empty() && ci.message_index_length != run)
      add(Severity::Error, where, "mcap.index.message_index_length",
          "the MessageIndex records after " + chunk + " take " + std::to_string(run) + " bytes; its ChunkIndex says " + std::to_string(ci.message_index_length));
    // Channels and schemas of an indexed chunk must be repeated in the summary.
    for (const auto& [channel, n] : c.info.channel_counts) {
      (void)n;
      if (!found.summary_channels.count(channel)) {
        add(Severity::Error, where, "mcap.summary.missing_channel", chunk + " holds messages on channel " + std::to_string(channel) + ", which the summary does not repeat");
        continue;
      }
      auto data = found.data_channels.find(channel);
      uint16_t schema = data == found.data_channels.end() ? 0 : data->second.schema_id;
      if (schema && !found.summary_schemas.count(schema))
        add(Severity::Error, where, "mcap.summary.missing_schema", chunk + " holds messages with schema " + std::to_string(schema) + ", which the summary does not repeat");
    }
  }
  if (!found.chunk_indexes.empty())
    for (const WalkFindings::Chunk& c : found.chunks)
      if (!indexed.count(c.info.offset))
        add(Severity::Error, c.info.offset, "mcap.index.chunk_missing", "the Chunk at " + at(c.info.offset) + " has no ChunkIndex in the summary");

  // Attachment and metadata indexes.
  for (const auto& entry : found.attachment_indexes) {
    uint64_t where = entry.first;
    const AttachmentIndex& ai = entry.second;  // (clang 14 does not let lambdas capture bindings)
    auto it = std::find_if(seen.attachments.begin(), seen.attachments.end(), [&](const AttachmentInfo& a) { return a.offset == ai.offset; });
    if (it == seen.attachments.end()) {
      add(Severity::Error, where, "mcap.index.attachment_bad_offset", "the AttachmentIndex at " + at(where) + " points to " + at(ai.offset) + ", where no Attachment starts");
    } else if (it->length != ai.length || it->name != ai.name || it->media_type != ai.media_type || it->log_time != ai.log_time ||
               it->create_time != ai.create_time || it->data_size != ai.data_size) {
      add(Severity::Error, where, "mcap.index.attachment_mismatch", "the AttachmentIndex at " + at(where) + " does not describe the Attachment \"" + it->name + "\" at " + at(it->offset));
    }
  }
  for (const auto& entry : found.metadata_indexes) {
    uint64_t where = entry.first;
    const MetadataIndex& mi = entry.second;
    auto it = std::find_if(seen.metadata.begin(), seen.metadata.end(), [&](const MetadataInfo& d) { return d.offset == mi.offset; });
    if (it == seen.metadata.end())
      add(Severity::Error, where, "mcap.index.metadata_bad_offset", "the MetadataIndex at " + at(where) + " points to " + at(mi.offset) + ", where no Metadata starts");
    else if (it->length != mi.length || it->name != mi.name)
      add(Severity::Error, where, "mcap.index.metadata_mismatch", "the MetadataIndex at " + at(where) + " does not describe the Metadata \"" + it->name + "\" at " + at(it->offset));
  }
  bool has_summary = !found.summary_frames.empty();
  if (has_summary && !found.attachment_indexes.empty())
    for (const AttachmentInfo& a : seen.attachments)
      if (std::none_of(found.attachment_indexes.begin(), found.attachment_indexes.end(), [&](const auto& x) { return x.second.offset == a.offset; }))
        add(Severity::Warning, a.offset, "mcap.index.attachment_missing", "the Attachment \"" + a.name + "\" at " + at(a.offset) + " has no AttachmentIndex");
  if (has_summary && !found.metadata_indexes.empty())
    for (const MetadataInfo& d : seen.metadata)
      if (std::none_of(found.metadata_indexes.begin(), found.metadata_indexes.end(), [&](const auto& x) { return x.second.offset == d.offset; }))
        add(Severity::Warning, d.offset, "mcap.index.metadata_missing", "the Metadata \"" + d.name + "\" at " + at(d.offset) + " has no MetadataIndex");

  // Statistics with per-channel counts: the summary repeats every channel.
  if (seen.statistics && !seen.statistics->channel_message_counts.empty())
    for (const auto& [id, channel] : found.data_channels)
      if (!found.summary_channels.count(id))
        add(Severity::Error, seen.statistics_offset, "mcap.summary.missing_channel",
            "the Statistics count messages per channel, so the summary must repeat every Channel; channel " + std::to_string(id) + " (" + channel.topic + ") is not there");

  // The summary: grouped by opcode, and the summary offsets naming each group exactly.
  const std::vector<RecordFrame>& frames = found.summary_frames;
  std::set<uint8_t> done;
  uint8_t group = 0;
  for (const RecordFrame& f : frames) {
    if (f.op == kOpSummaryOffset) break;
    if (f.op != group) {
      if (done.count(f.op)) {
        add(Severity::Warning, f.offset, "mcap.summary.not_grouped", "the summary's " + op_name(f.op) + " records are not all together (the spec groups them by opcode)");
        break;
      }
      if (group) done.insert(group);
      group = f.op;
    }
  }
  for (const auto& entry : seen.summary_offsets) {
    uint64_t where = entry.first;
    const SummaryOffset& so = entry.second;
    if (so.group_length == 0) {
      // An empty group (python mcap writes them for AttachmentIndex and MetadataIndex): right
      // when the summary has no record of that opcode.
      if (std::any_of(frames.begin(), frames.end(), [&](const RecordFrame& f) { return f.op == so.group_opcode; }))
        add(Severity::Error, where, "mcap.summary.offset_mismatch",
            "the SummaryOffset at " + at(where) + " says the " + op_name(so.group_opcode) + " group is empty, but the summary holds such records");
      continue;
    }
    auto first = std::find_if(frames.begin(), frames.end(), [&](const RecordFrame& f) { return f.offset == so.group_start; });
    bool ok = first != frames.end() && first->op == so.group_opcode;
    uint64_t end = so.group_start + so.group_length;
    auto it = first;
    for (; ok && it != frames.end() && it->offset < end; ++it) ok = it->op == so.group_opcode;
    ok = ok && (it == frames.end() ? frames.back().end() == end : it->offset == end) && (it == frames.end() || it->op != so.group_opcode);
    if (!ok)
      add(Severity::Error, where, "mcap.summary.offset_mismatch",
          "the SummaryOffset at " + at(where) + " puts the " + op_name(so.group_opcode) + " group at [" + std::to_string(so.group_start) + ", " +
              std::to_string(end) + "), which is not exactly the records of that group");
  }
  if (opened.has_footer && has_summary) {
    auto first_offset = std::find_if(frames.begin(), frames.end(), [](const RecordFrame& f) { return f.op == kOpSummaryOffset; });
    uint64_t summary_start = frames.front().op == kOpSummaryOffset ? 0 : frames.front().offset;
    if (opened.footer.summary_start != 0 && summary_start != 0 && opened.footer.summary_start != summary_start)
      add(Severity::Error, opened.footer_offset, "mcap.footer.summary_start_mismatch",
          "the footer puts the summary at " + at(opened.footer.summary_start) + "; it starts at " + at(summary_start));
    uint64_t offsets_start = first_offset == frames.end() ? 0 : first_offset->offset;
    if (opened.footer.summary_offset_start != offsets_start)
      add(Severity::Error, opened.footer_offset, "mcap.footer.summary_offset_start_mismatch",
          "the footer puts the summary offsets at " + at(opened.footer.summary_offset_start) + "; they start at " + at(offsets_start));
  }
}

}  // namespace logscope::mcap
