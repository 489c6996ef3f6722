// Index first: magic, Header, Footer, then [DataEnd, footer) in one read; a scan (scan.cpp)
// when the summary cannot serve.
#include "mcap/reader.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include "mcap/crc32.h"

namespace logscope::mcap {
namespace {

// No honest Header is this long (two strings); a longer one is damage, not a reason to allocate.
constexpr uint64_t kMaxHeaderContent = 16u << 20;
constexpr char kLineEndingMagic[] = "\x89MCAP0\n";  // kMagic after "\r\n" -> "\n"

uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

bool allowed_in_summary(uint8_t op) {
  return op == kOpSchema || op == kOpChannel || op == kOpChunkIndex || op == kOpAttachmentIndex || op == kOpStatistics ||
         op == kOpMetadataIndex;
}

// Reads the Header at model->header_offset; false when the file ends or the record is unusable.
// `known_prefix`: its opcode and length when already read with the magic (null: read them here).
bool read_header(ByteSource& source, FileModel* m, const uint8_t* known_prefix) {
  uint64_t at = m->header_offset, size = m->file_size;
  uint8_t prefix[kRecordPrefix];
  if (known_prefix) std::memcpy(prefix, known_prefix, kRecordPrefix);
  if (size - at < kRecordPrefix || (!known_prefix && source.read(at, prefix, kRecordPrefix) != kRecordPrefix)) {
    m->problem(Severity::Error, at, "mcap.file.truncated",
               "the file ends " + std::to_string(size - at) + " bytes into the Header record's 9-byte opcode and length at byte " + std::to_string(at));
    m->scan_end = at;
    return false;
  }
  uint64_t length = load_u64(prefix + 1);
  if (prefix[0] != kOpHeader) {
    m->problem(Severity::Error, at, "mcap.header.missing",
               "the first record is " + op_name(prefix[0]) + ", not a Header; the data section is read from byte " + std::to_string(at));
    m->header_end = at;
    return true;
  }
  if (length > size - at - kRecordPrefix) {
    m->problem(Severity::Error, at, "mcap.file.truncated",
               "the file ends inside the Header record at byte " + std::to_string(at) + ": it declares " + std::to_string(length) +
                   " bytes of content, " + std::to_string(size - at - kRecordPrefix) + " are there");
    m->scan_end = at;
    return false;
  }
  m->header_end = at + kRecordPrefix + length;
  if (length > kMaxHeaderContent) {
    m->problem(Severity::Error, at, "mcap.header.damaged", "the Header declares " + std::to_string(length) + " bytes of content; no Header is that long");
    return true;
  }
  std::vector<uint8_t> content = source.read_vector(at + kRecordPrefix, static_cast<size_t>(length));
  std::string why;
  if (content.size() != length || !parse_header(std::string_view(reinterpret_cast<const char*>(content.data()), content.size()), &m->header, &why))
    m->problem(Severity::Error, at, "mcap.header.damaged", why.empty() ? "the Header could not be read" : why);
  else
    m->has_header = true;
  return true;
}

// The Footer and the closing magic at the end of the file, and the 25 bytes the summary CRC covers.
bool read_footer(ByteSource& source, FileModel* m, std::string* footer_prefix) {
  uint64_t size = m->file_size;
  if (size < m->header_end + kFooterRecord + kMagicSize) return false;
  uint8_t tail[kFooterRecord + kMagicSize];
  uint64_t at = size - sizeof tail;
  if (source.read(at, tail, sizeof tail) != sizeof tail) return false;
  if (std::memcmp(tail + kFooterRecord, kMagic, kMagicSize) != 0 || tail[0] != kOpFooter || load_u64(tail + 1) != kFooterContent) return false;
  std::string why;
  if (!parse_footer(std::string_view(reinterpret_cast<const char*>(tail + kRecordPrefix), kFooterContent), &m->footer, &why)) return false;
  m->has_footer = true;
  m->footer_offset = at;
  footer_prefix->assign(reinterpret_cast<const char*>(tail), kFooterCrcPrefix);
  return true;
}

void clear_index(FileModel* m) {
  m->schemas.clear();
  m->channels.clear();
  m->chunks.clear();
  m->attachments.clear();
  m->metadata.clear();
  m->statistics.reset();
  m->statistics_offset = 0;
  m->summary_offsets.clear();
  m->summary_records.clear();
  m->message_count = 0;
  m->channel_counts.clear();
  m->channel_counts_known = false;
  m->start_time.reset();
  m->end_time.reset();
}

// How many ChunkIndex records the summary can hold, from its ChunkIndex group's summary offset
// (bounded by the bytes read, so never more than they can hold): the chunk list is reserved once,
// where growing it record by record took a fifth of a 100 GB file's open in page faults. 0 when
// the file has no such offset.
uint64_t chunk_index_bound(std::string_view bytes, uint64_t base, const Footer& f) {
  constexpr uint64_t kSmallestChunkIndex = kRecordPrefix + 68;  // no message index offsets, no compression name
  if (f.summary_offset_start < base || f.summary_offset_start - base >= bytes.size()) return 0;
  for (uint64_t pos = f.summary_offset_start - base; pos < bytes.size();) {
    RecordFrame frame;
    std::string why;
    if (!frame_at(bytes, pos, &frame, &why) || frame.op != kOpSummaryOffset) return 0;
    SummaryOffset so;
    if (parse_summary_offset(bytes.substr(static_cast<size_t>(pos + kRecordPrefix), static_cast<size_t>(frame.length)), &so, &why) &&
        so.group_opcode == kOpChunkIndex)
      return std::min<uint64_t>(so.group_length, bytes.size()) / kSmallestChunkIndex;
    pos += kRecordPrefix + frame.length;
  }
  return 0;
}

// Which summary groups came before, across the pieces of the summary read (parse_summary).
struct Grouping {
  std::set<uint8_t> done;
  uint8_t group = 0;
  bool reported = false;
};

// Parses the summary and summary offset sections' records in `bytes` (file offset `base`) from
// file offset `from` on. False (with a problem) when a record is damaged: the caller scans instead.
bool parse_summary(std::string_view bytes, uint64_t base, uint64_t from, FileModel* m, Grouping& grouping) {
  const Footer& f = m->footer;
  uint64_t pos = from - base;
  std::set<uint8_t>& groups_done = grouping.done;
  uint8_t& group = grouping.group;
  bool& grouping_reported = grouping.reported;
  auto damaged = [&](uint64_t offset, const std::string& why) {
    m->problem(Severity::Error, offset, "mcap.summary.damaged", "the summary section is damaged at byte " + std::to_string(offset) + ": " + why);
    return false;
  };
  if (from == f.summary_start) m->chunks.reserve(static_cast<size_t>(chunk_index_bound(bytes, base, f)));
  while (pos < bytes.size()) {
    RecordFrame frame;
    std::string why;
    if (!frame_at(bytes, pos, &frame, &why)) return damaged(base + pos, why);
    uint64_t at = base + pos;
    frame.offset = at;
    std::string_view content = bytes.substr(static_cast<size_t>(pos + kRecordPrefix), static_cast<size_t>(frame.length));
    if (m->summary_records.size() < kMaxListedRecords) m->summary_records.push_back(frame);
    pos += kRecordPrefix + frame.length;
    bool in_offsets = f.summary_offset_start != 0 && at >= f.summary_offset_start;
    if (frame.op != group) {
      if (groups_done.count(frame.op) && !grouping_reported && !in_offsets) {
        m->problem(Severity::Warning, at, "mcap.summary.not_grouped",
                   "the summary's " + op_name(frame.op) + " records are not all together (the spec groups summary records by opcode)");
        grouping_reported = true;
      }
      if (group) groups_done.insert(group);
      group = frame.op;
    }
    if (is_private_op(frame.op) || (frame.op > kOpDataEnd)) {
      ++(is_private_op(frame.op) ? m->private_records : m->unknown_records);
      continue;
    }
    if (in_offsets ? frame.op != kOpSummaryOffset : !allowed_in_summary(frame.op)) {
      m->problem(Severity::Warning, at, "mcap.summary.unexpected_record",
                 "a " + op_name(frame.op) + " record in the " + (in_offsets ? "summary offset section" : "summary section") + " (not allowed there)");
      continue;
    }
    switch (frame.op) {
      case kOpSchema: {
        Schema s;
        if (!parse_schema(content, &s, &why)) return damaged(at, why);
        m->add_schema(std::move(s), at, false);
        break;
      }
      case kOpChannel: {
        Channel c;
        if (!parse_channel(content, &c, &why)) return damaged(at, why);
        if (!m->channels.count(c.id)) m->channels[c.id] = ChannelInfo{std::move(c), at, false};
        break;
      }
      case kOpChunkIndex: {
        ChunkIndex ci;
        if (!parse_chunk_index(content, &ci, &why)) return damaged(at, why);
        ChunkInfo c;
        c.offset = ci.chunk_start_offset;
        c.length = ci.chunk_length;
        c.message_start_time = ci.message_start_time;
        c.message_end_time = ci.message_end_time;
        c.compression = ci.compression;
        c.compressed_size = ci.compressed_size;
        c.uncompressed_size = ci.uncompressed_size;
        c.message_index_offsets = std::move(ci.message_index_offsets);
        c.message_index_length = ci.message_index_length;
        c.index_offset = at;
        m->chunks.push_back(std::move(c));
        break;
      }
      case kOpAttachmentIndex: {
        AttachmentIndex ai;
        if (!parse_attachment_index(content, &ai, &why)) return damaged(at, why);
        m->attachments.push_back(AttachmentInfo{ai.offset, ai.length, ai.log_time, ai.create_time, ai.data_size, ai.name, ai.media_type, at});
        break;
      }
      case kOpMetadataIndex: {
        MetadataIndex mi;
        if (!parse_metadata_index(content, &mi, &why)) return damaged(at, why);
        m->metadata.push_back(MetadataInfo{mi.offset, mi.length, mi.name, at});
        break;
      }
      case kOpStatistics: {
        Statistics s;
        if (!parse_statistics(content, &s, &why)) return damaged(at, why);
        if (m->statistics) {
          m->problem(Severity::Error, at, "mcap.statistics.multiple", "a second Statistics record (a file holds at most one); the first is used");
          break;
        }
        m->statistics = std::move(s);
        m->statistics_offset = at;
        break;
      }
      case kOpSummaryOffset: {
        SummaryOffset so;
        if (!parse_summary_offset(content, &so, &why)) return damaged(at, why);
        m->summary_offsets.emplace_back(at, so);
        break;
      }
    }
  }
  return true;
}

// The index's records must lie inside the file, between the Header and the summary.
void check_index_positions(FileModel* m) {
  uint64_t data_end = m->footer.summary_start;
  for (const ChunkInfo& c : m->chunks)
    if (c.offset < m->header_end || c.length < kRecordPrefix || c.offset > data_end || c.length > data_end - c.offset)
      m->problem(Severity::Error, c.index_offset, "mcap.index.chunk_bad_offset",
                 "the ChunkIndex at byte " + std::to_string(c.index_offset) + " puts a chunk at [" + std::to_string(c.offset) + ", +" +
                     std::to_string(c.length) + "), outside the data section [" + std::to_string(m->header_end) + ", " + std::to_string(data_end) + ")");
  for (const AttachmentInfo& a : m->attachments)
    if (a.offset < m->header_end || a.offset > data_end || a.length > data_end - a.offset)
      m->problem(Severity::Error, a.index_offset, "mcap.index.attachment_bad_offset",
                 "the AttachmentIndex at byte " + std::to_string(a.index_offset) + " points outside the data section");
  for (const MetadataInfo& d : m->metadata)
    if (d.offset < m->header_end || d.offset > data_end || d.length > data_end - d.offset)
      m->problem(Severity::Error, d.index_offset, "mcap.index.metadata_bad_offset",
                 "the MetadataIndex at byte " + std::to_string(d.index_offset) + " points outside the data section");
}

// The DataEnd record right before the summary, read with it from `read_from`.
void take_data_end(std::string_view bytes, uint64_t read_from, FileModel* m) {
  if (read_from >= m->footer.summary_start) return;
  RecordFrame frame;
  std::string why;
  if (frame_at(bytes, 0, &frame, &why) && frame.op == kOpDataEnd && frame.length == 4 &&
      parse_data_end(bytes.substr(kRecordPrefix, 4), &m->data_end, &why)) {
    m->has_data_end = true;
    m->data_end_offset = read_from;
  }
}

// The counts the summary shows, from the Statistics record.
void take_statistics(FileModel* m) {
  m->source = SummarySource::Index;
  const Statistics& s = *m->statistics;
  m->message_count = s.message_count;
  for (const auto& [id, n] : s.channel_message_counts) m->channel_counts[id] += n;
  m->channel_counts_known = !s.channel_message_counts.empty() || s.message_count == 0;
  if (s.message_count > 0) {
    m->start_time = s.message_start_time;
    m->end_time = s.message_end_time;
  }
}

// The summary offset section is one record per group: a longer one is not read for a shortcut.
constexpr uint64_t kMaxSummaryOffsetsRead = 1u << 20;

// The summary without its ChunkIndex group, when that group is longer than `defer_above`: the
// summary offsets place the groups, so the schemas and channels before it, and the other indexes
// and the statistics after it, are read alone. The chunk indexes, and the summary CRC that covers
// them, wait (FileModel::chunk_indexes_deferred). False, with `m` untouched, where the offsets
// do not place the groups so: the whole summary is then read, which says what is wrong.
// (Called before anything of the summary is in `m`: the header and footer only.)
bool read_summary_first(ByteSource& source, FileModel* m, uint64_t read_from, uint64_t defer_above) {
  const Footer& f = m->footer;
  uint64_t offsets_at = f.summary_offset_start, offsets_end = m->footer_offset;
  // (A summary no longer than that holds no such group: not a read more for it.)
  if (offsets_end - f.summary_start <= defer_above) return false;
  if (offsets_at == 0 || offsets_at >= offsets_end || offsets_end - offsets_at > kMaxSummaryOffsetsRead) return false;
  std::vector<uint8_t> offsets = source.read_vector(offsets_at, static_cast<size_t>(offsets_end - offsets_at));
  if (offsets.size() != offsets_end - offsets_at) return false;
  std::string_view offsets_view(reinterpret_cast<const char*>(offsets.data()), offsets.size());
  std::optional<SummaryOffset> chunk_group;
  bool statistics_group = false;
  for (uint64_t pos = 0; pos < offsets_view.size();) {
    RecordFrame frame;
    SummaryOffset so;
    std::string why;
    if (!frame_at(offsets_view, pos, &frame, &why) || frame.op != kOpSummaryOffset ||
        !parse_summary_offset(offsets_view.substr(static_cast<size_t>(pos + kRecordPrefix), static_cast<size_t>(frame.length)), &so, &why))
      return false;
    pos += kRecordPrefix + frame.length;
    if (so.group_start < f.summary_start || so.group_start > offsets_at || so.group_length > offsets_at - so.group_start) return false;
    if (so.group_opcode == kOpChunkIndex) {
      if (chunk_group) return false;
      chunk_group = so;
    }
    statistics_group |= so.group_opcode == kOpStatistics;
  }
  if (!chunk_group || !statistics_group || chunk_group->group_length <= defer_above) return false;
  uint64_t chunks_at = chunk_group->group_start, chunks_end = chunks_at + chunk_group->group_length;
  if (chunks_at - read_from > kMaxSummaryRead || offsets_at - chunks_end > kMaxSummaryRead) return false;
  std::vector<uint8_t> head = source.read_vector(read_from, static_cast<size_t>(chunks_at - read_from));
  std::vector<uint8_t> tail = source.read_vector(chunks_end, static_cast<size_t>(offsets_at - chunks_end));
  if (head.size() != chunks_at - read_from || tail.size() != offsets_at - chunks_end) return false;
  std::string_view head_view(reinterpret_cast<const char*>(head.data()), head.size());
  std::string_view tail_view(reinterpret_cast<const char*>(tail.data()), tail.size());
  // Undone on failure: what the pieces added (not a copy of the model: the page's module is
  // downloaded, and a FileModel copy made it 1 KB larger).
  size_t problems_before = m->problems.size();
  auto undo = [&] {
    clear_index(m);
    m->problems.resize(problems_before);
    m->has_data_end = false;
    m->data_end_offset = 0;
    m->kept_schema_data = 0;
    m->private_records = m->unknown_records = 0;
    return false;
  };
  take_data_end(head_view, read_from, m);
  Grouping grouping;
  if (!parse_summary(head_view, read_from, f.summary_start, m, grouping)) return undo();
  if (grouping.group) grouping.done.insert(grouping.group);
  grouping.group = kOpChunkIndex;  // the group skipped
  if (!parse_summary(tail_view, chunks_end, chunks_end, m, grouping) || !parse_summary(offsets_view, offsets_at, offsets_at, m, grouping))
    return undo();
  // A ChunkIndex outside its group, or no Statistics record: the whole summary says so.
  if (!m->statistics || !m->chunks.empty()) return undo();
  m->chunk_indexes_deferred = true;
  m->deferred_chunk_indexes = {chunks_at, chunk_group->group_length};
  check_index_positions(m);
  take_statistics(m);
  return true;
}

}  // namespace

void open_file(ByteSource& source, FileModel* m, const ProgressFn& progress, bool force_scan, uint64_t defer_chunk_indexes_above) {
  uint64_t size = m->file_size = source.size();
  m->scan_end = size;
  // The magic and the Header's opcode and length in one read (the summary's budget is 4 reads:
  // this, the Header's content, the Footer, then DataEnd with the summary).
  char head[kMagicSize + kRecordPrefix] = {};
  size_t got = source.read(0, head, static_cast<size_t>(std::min<uint64_t>(sizeof head, size)));
  if (got >= kMagicSize && std::memcmp(head, kMagic, kMagicSize) == 0) {
    m->magic_size = kMagicSize;
  } else if (got >= kMagicSize - 1 && std::memcmp(head, kLineEndingMagic, kMagicSize - 1) == 0) {
    m->magic_size = kMagicSize - 1;
    m->line_endings_damaged = true;
    m->problem(Severity::Error, 6, "mcap.file.line_endings",
               "the magic ends in \"\\n\" instead of \"\\r\\n\": the file went through a text-mode transfer (FTP ASCII mode, git "
               "autocrlf) that turned every \"\\r\\n\" into \"\\n\", so every byte after the first such pair has moved and the "
               "offsets the file stores no longer hold; it is read by scanning, and records around each changed pair are damaged");
  } else {
    bool cut = got < kMagicSize && got > 0 && std::memcmp(head, kMagic, got) == 0;
    m->problem(Severity::Error, 0, cut ? "mcap.file.truncated" : "mcap.file.bad_magic",
               cut ? "the file ends " + std::to_string(got) + " bytes into the 8-byte MCAP magic"
                   : "the file does not start with the MCAP magic 89 4D 43 41 50 30 0D 0A");
    m->scan_end = 0;
    if (cut) {
      m->recovery.performed = true;
      m->recovery.reason = "truncated";
      m->recovery.message = "the file ends inside the MCAP magic: there is nothing to read";
      m->recovery.recovered = {{"chunks", 0}, {"messages", 0}};
    }
    return;
  }
  m->header_offset = m->magic_size;
  bool prefix_read = got >= m->magic_size + kRecordPrefix;
  if (!read_header(source, m, prefix_read ? reinterpret_cast<const uint8_t*>(head) + m->magic_size : nullptr)) {
    m->recovery.performed = true;
    m->recovery.reason = "truncated";
    m->recovery.message = "the file ends inside its Header record: there is nothing to read";
    m->recovery.ends_at = m->header_offset;
    m->recovery.recovered = {{"chunks", 0}, {"messages", 0}};
    return;
  }
  if (m->line_endings_damaged) {
    scan_file(source, m, "the file's line endings were converted, so the offsets it stores are wrong", true, progress);
    return;
  }
  std::string footer_prefix;
  if (!read_footer(source, m, &footer_prefix)) {
    m->problem(Severity::Error, size, "mcap.file.no_footer",
               "the file does not end with a Footer record and the closing magic: it was cut, or its writer never finished it; it is read by scanning");
    scan_file(source, m, "the file has no footer: it was cut, or never finalised", true, progress);
    return;
  }
  const Footer& f = m->footer;
  if (force_scan) {
    scan_file(source, m, "asked to scan", false, progress);
    return;
  }
  if (f.summary_start == 0) {
    m->problem(Severity::Info, m->footer_offset, "mcap.summary.absent", "the file has no summary section (the footer's summary_start is 0): it is read by scanning");
    scan_file(source, m, "the file has no summary section", false, progress);
    return;
  }
  if (f.summary_start < m->header_end || f.summary_start > m->footer_offset ||
      (f.summary_offset_start != 0 && (f.summary_offset_start < f.summary_start || f.summary_offset_start > m->footer_offset))) {
    m->problem(Severity::Error, m->footer_offset, "mcap.footer.bad_summary_start",
               "the footer puts the summary at byte " + std::to_string(f.summary_start) + " and the summary offsets at byte " +
                   std::to_string(f.summary_offset_start) + ", outside [" + std::to_string(m->header_end) + ", " + std::to_string(m->footer_offset) + "]");
    scan_file(source, m, "the footer's summary offsets are impossible", true, progress);
    return;
  }
  uint64_t read_from = f.summary_start >= m->header_end + kDataEndRecord ? f.summary_start - kDataEndRecord : f.summary_start;
  if (defer_chunk_indexes_above != UINT64_MAX && read_summary_first(source, m, read_from, defer_chunk_indexes_above)) return;
  if (m->footer_offset - read_from > kMaxSummaryRead) {
    m->problem(Severity::Warning, f.summary_start, "mcap.summary.too_large",
               "the summary section is " + std::to_string(m->footer_offset - f.summary_start) + " bytes, more than the " +
                   std::to_string(kMaxSummaryRead >> 20) + " MiB read at once; it is scanned instead");
    scan_file(source, m, "the summary section is too large to read at once", false, progress);
    return;
  }
  std::vector<uint8_t> buffer = source.read_vector(read_from, static_cast<size_t>(m->footer_offset - read_from));
  if (buffer.size() != m->footer_offset - read_from) {
    m->problem(Severity::Error, read_from, "mcap.file.unreadable", "the summary section could not be read");
    scan_file(source, m, "the summary section could not be read", true, progress);
    return;
  }
  std::string_view bytes(reinterpret_cast<const char*>(buffer.data()), buffer.size());
  take_data_end(bytes, read_from, m);
  // A DataEnd with fields appended (the spec lets records grow) is not found here; the doctor's
  // walk finds it wherever it is.
  if (f.summary_crc != 0) {
    Crc32 crc;
    crc.update(bytes.substr(static_cast<size_t>(f.summary_start - read_from)));
    crc.update(footer_prefix);
    if (crc.value() != f.summary_crc) {
      m->problem(Severity::Error, f.summary_start, "mcap.summary.crc_mismatch",
                 "the summary CRC does not match (stored " + std::to_string(f.summary_crc) + ", computed " + std::to_string(crc.value()) +
                     "): the summary is not trusted and the file is read by scanning");
      scan_file(source, m, "the summary CRC does not match", true, progress);
      return;
    }
  }
  Grouping grouping;
  if (!parse_summary(bytes, read_from, f.summary_start, m, grouping)) {
    clear_index(m);
    scan_file(source, m, "the summary section is damaged", true, progress);
    return;
  }
  if (!m->statistics) {
    m->problem(Severity::Info, f.summary_start, "mcap.summary.no_statistics",
               "the summary has no Statistics record: the message counts come from a scan of the data section");
    clear_index(m);
    scan_file(source, m, "the summary has no Statistics record", false, progress);
    return;
  }
  auto by_offset = [](const ChunkInfo& a, const ChunkInfo& b) { return a.offset < b.offset; };
  // Writers list chunks in file order: the check spares a 100 GB file's sort its buffer.
  if (!std::is_sorted(m->chunks.begin(), m->chunks.end(), by_offset)) std::stable_sort(m->chunks.begin(), m->chunks.end(), by_offset);
  check_index_positions(m);
  take_statistics(m);
}

std::vector<RecordFrame> list_records(ByteSource& source, uint64_t from, uint64_t end, bool* listed_all) {
  std::vector<RecordFrame> out;
  *listed_all = true;
  end = std::min(end, source.size());
  bool end_is_boundary = end < source.size();
  uint64_t p = from;
  while (p < end) {
    if (out.size() >= kMaxListedRecords) {
      *listed_all = false;
      break;
    }
    uint8_t prefix[kRecordPrefix];
    if (end - p < kRecordPrefix || source.read(p, prefix, kRecordPrefix) != kRecordPrefix) break;
    RecordFrame frame{p, prefix[0], load_u64(prefix + 1)};
    if (frame.op == 0 || frame.length > end - p - kRecordPrefix) {
      uint64_t next = find_next_record(source, p, end, end_is_boundary);
      if (next >= end) break;
      p = next;
      continue;
    }
    out.push_back(frame);
    p = frame.end();
  }
  return out;
}

bool message_index_places(const ChunkInfo& c, std::vector<MessageIndexPlace>* places) {
  places->clear();
  if (c.message_index_offsets.empty() || c.message_index_length == 0) return false;
  // In offset order (sorting plain offsets: the page's module already holds that sort).
  std::vector<uint64_t> offsets;
  offsets.reserve(c.message_index_offsets.size());
  for (const auto& [id, o] : c.message_index_offsets) offsets.push_back(o);
  std::sort(offsets.begin(), offsets.end());
  places->resize(offsets.size());
  for (const auto& [id, o] : c.message_index_offsets) {
    MessageIndexPlace& p = (*places)[static_cast<size_t>(std::lower_bound(offsets.begin(), offsets.end(), o) - offsets.begin())];
    if (p.frame.op) return false;  // two channels at one offset
    p = {id, RecordFrame{o, kOpMessageIndex, 0}};
  }
  const uint64_t from = places->front().frame.offset;
  if (from != c.end() || c.message_index_length > UINT64_MAX - from) return false;
  const uint64_t end = from + c.message_index_length;
  for (size_t i = 0; i < places->size(); i++) {
    RecordFrame& f = (*places)[i].frame;
    uint64_t next = i + 1 < places->size() ? (*places)[i + 1].frame.offset : end;
    if (next < f.offset || next - f.offset < kRecordPrefix + 6 || (next - f.offset - kRecordPrefix - 6) % 16 != 0) return false;
    f.length = next - f.offset - kRecordPrefix;
  }
  return true;
}

}  // namespace logscope::mcap
