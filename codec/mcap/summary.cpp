#include "mcap/summary.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <map>

#include "core/printf_text.h"
#include "core/time_findings.h"
#include "core/time_math.h"

namespace logscope::mcap {
namespace {

struct CompressionRow {
  std::string name;
  uint64_t chunks = 0, compressed = 0, uncompressed = 0;
};

// Per compression, in order of first appearance; "" is shown as "none".
std::vector<CompressionRow> compression_rows(const FileModel& m) {
  std::vector<CompressionRow> rows;
  for (const ChunkInfo& c : m.chunks) {
    std::string name = c.compression.empty() ? "none" : c.compression;
    auto it = std::find_if(rows.begin(), rows.end(), [&](const CompressionRow& r) { return r.name == name; });
    if (it == rows.end()) it = rows.insert(rows.end(), CompressionRow{name});
    ++it->chunks;
    it->compressed += c.compressed_size;
    it->uncompressed += c.uncompressed_size;
  }
  return rows;
}

// Stamps beyond time_math's range (placeholders, damage) give no span and no rates.
bool times_in_range(const FileModel& m) {
  return m.start_time && m.end_time && time_math::in_range_u(*m.start_time) && time_math::in_range_u(*m.end_time);
}

double seconds_between(const FileModel& m) {
  if (!times_in_range(m) || *m.end_time <= *m.start_time) return 0;
  return static_cast<double>(*m.end_time - *m.start_time) / 1e9;
}

// As `mcap info` estimates it: count over the file's span (an upper bound; count - 1 the lower).
std::optional<double> channel_rate(const FileModel& m, uint64_t count) {
  double seconds = seconds_between(m);
  if (count < 2 || seconds <= 0) return std::nullopt;
  return static_cast<double>(count) / seconds;
}

// "mcap info" prints sizes with two decimals in B, KiB, MiB or GiB.
std::string human_bytes(uint64_t n) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB"};
  for (int i = 0; i < 4; ++i) {
    double v = static_cast<double>(n) / std::pow(1024.0, i);
    if (v <= 1024 || i == 3) return printf_string("%.2f %s", v, units[i]);
  }
  return "";
}

std::string decimal_time(uint64_t ns) { return printf_string("%" PRIu64 ".%09" PRIu64, ns / uint64_t{1000000000}, ns % uint64_t{1000000000}); }

// RFC 3339 in UTC with the nanoseconds, trailing zeros dropped (Go's RFC3339Nano).
std::string rfc3339(uint64_t ns) {
  time_t secs = static_cast<time_t>(ns / uint64_t{1000000000});
  struct tm t {};
  gmtime_r(&secs, &t);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &t);
  std::string out = buf;
  uint64_t frac = ns % uint64_t{1000000000};
  if (frac) {
    std::string f = printf_string(".%09" PRIu64, frac);
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out + "Z";
}

// Go's time.Duration text: "1m2.5s", "850ms", "0s".
std::string go_duration(uint64_t ns) {
  if (ns == 0) return "0s";
  if (ns < 1000) return std::to_string(ns) + "ns";
  auto trim = [](std::string s) {
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return s;
  };
  if (ns < 1000000) return trim(printf_string("%.3f", static_cast<double>(ns) / 1e3)) + "µs";
  if (ns < 1000000000) return trim(printf_string("%" PRIu64 ".%06" PRIu64, ns / 1000000, ns % 1000000)) + "ms";
  uint64_t total_s = ns / uint64_t{1000000000}, frac = ns % uint64_t{1000000000};
  uint64_t h = total_s / 3600, mi = (total_s / 60) % 60, s = total_s % 60;
  std::string out;
  if (h) out += std::to_string(h) + "h";
  if (h || mi) out += std::to_string(mi) + "m";
  out += trim(printf_string("%" PRIu64 ".%09" PRIu64, s, frac)) + "s";
  return out;
}

const char* source_name(SummarySource s) {
  switch (s) {
    case SummarySource::Index: return "summary";
    case SummarySource::Scan: return "scan";
    case SummarySource::None: break;
  }
  return "none";
}

}  // namespace

Report summary_report(const FileModel& m) {
  Report r;
  r.format = "mcap";
  r.format_label = m.header.profile.empty() ? "MCAP" : "MCAP (" + m.header.profile + " profile)";
  r.problems = m.problems;
  r.file.size_bytes = m.file_size;
  if (m.start_time && m.end_time && m.message_count > 0) {
    // ns since the file's epoch; the contract's times are int64.
    r.file.start_ns = static_cast<int64_t>(std::min<uint64_t>(*m.start_time, INT64_MAX));
    r.file.end_ns = static_cast<int64_t>(std::min<uint64_t>(*m.end_time, INT64_MAX));
    drop_out_of_range_times(r);
  }
  uint64_t attachments = m.attachments.size(), metadata = m.metadata.size();
  r.file.counts = {{"messages", m.message_count}, {"channels", m.channels.size()}, {"schemas", m.schemas.size()},
                   {"chunks", m.chunk_count()}, {"attachments", attachments}, {"metadata", metadata}};

  Facts& f = r.facts;
  f.set("profile", m.header.profile, Unit::Text);
  f.set("library", m.header.library, Unit::Text);
  f.set("summary_source", source_name(m.source), Unit::Text);
  if (!m.source_reason.empty()) f.set("summary_source_reason", m.source_reason, Unit::Text);
  f.set("indexed", m.source == SummarySource::Index && m.chunk_count() > 0, Unit::Flag);
  std::vector<CompressionRow> rows = compression_rows(m);
  std::string compression;
  uint64_t total_c = 0, total_u = 0;
  for (const CompressionRow& row : rows) {
    compression += (compression.empty() ? "" : ", ") + row.name + " (" + std::to_string(row.chunks) + (row.chunks == 1 ? " chunk)" : " chunks)");
    total_c += row.compressed;
    total_u += row.uncompressed;
  }
  // The compression facts come from every ChunkIndex: with the group not read yet, they come
  // later (info_report(), which reads it).
  if (m.chunk_indexes_deferred) r.later = {"compression", "compressed", "uncompressed", "compression_ratio"};
  else f.set("compression", rows.empty() ? "unchunked" : compression, Unit::Text);
  if (!rows.empty()) {
    f.set("compressed", total_c, Unit::Bytes);
    f.set("uncompressed", total_u, Unit::Bytes);
    f.set("compression_ratio", total_u ? Json(static_cast<double>(total_c) / static_cast<double>(total_u)) : Json(), Unit::Ratio);
  }
  if (m.messages_outside_chunks) f.set("messages_outside_chunks", m.messages_outside_chunks, Unit::Count);
  if (m.private_records) f.set("private_records", m.private_records, Unit::Count);
  if (m.statistics) {
    f.set("statistics_channels", m.statistics->channel_count, Unit::Count);
    f.set("statistics_attachments", m.statistics->attachment_count, Unit::Count);
    f.set("statistics_metadata", m.statistics->metadata_count, Unit::Count);
  }

  Table channels{"channels", {"id", "topic", "schema", "schema_encoding", "message_encoding", "messages", "rate"}, {},
                 {Unit::Id, Unit::Text, Unit::Text, Unit::Text, Unit::Text, Unit::Count, Unit::Hz}};
  for (const auto& [id, info] : m.channels) {
    const Channel& c = info.channel;
    const Schema* s = m.schema(c.schema_id);
    std::string schema = s ? s->name : c.schema_id ? "<missing schema " + std::to_string(c.schema_id) + ">" : "<no schema>";
    auto count = m.channel_counts.find(id);
    Json messages = m.channel_counts_known ? Json(count == m.channel_counts.end() ? uint64_t{0} : count->second) : Json();
    std::optional<double> rate = m.channel_counts_known && count != m.channel_counts.end() ? channel_rate(m, count->second) : std::nullopt;
    channels.rows.push_back({Json(uint64_t{id}), c.topic, schema, s ? Json(s->encoding) : Json(), c.message_encoding, messages, rate ? Json(*rate) : Json()});
  }
  Table schemas{"schemas", {"id", "name", "encoding", "size"}, {}, {Unit::Id, Unit::Text, Unit::Text, Unit::Bytes}};
  for (const auto& [id, info] : m.schemas)
    schemas.rows.push_back({Json(uint64_t{id}), info.schema.name, info.schema.encoding, Json(info.data_size)});
  Table compression_table{"compression", {"compression", "chunks", "compressed", "uncompressed"}, {},
                          {Unit::Text, Unit::Count, Unit::Bytes, Unit::Bytes}};
  for (const CompressionRow& row : rows) compression_table.rows.push_back({row.name, row.chunks, row.compressed, row.uncompressed});
  Table attachment_table{"attachments", {"name", "media_type", "size", "log_time", "create_time", "offset"}, {},
                         {Unit::Text, Unit::Text, Unit::Bytes, Unit::TimeNs, Unit::TimeNs, Unit::Offset}};
  for (const AttachmentInfo& a : m.attachments)
    attachment_table.rows.push_back({a.name, a.media_type, a.data_size, Json(a.log_time), Json(a.create_time), a.offset});
  Table metadata_table{"metadata", {"name", "length", "offset"}, {}, {Unit::Text, Unit::Bytes, Unit::Offset}};
  for (const MetadataInfo& d : m.metadata) metadata_table.rows.push_back({d.name, d.length, d.offset});
  r.tables.push_back(std::move(channels));
  r.tables.push_back(std::move(schemas));
  if (!m.chunk_indexes_deferred) r.tables.push_back(std::move(compression_table));
  r.tables.push_back(std::move(attachment_table));
  r.tables.push_back(std::move(metadata_table));

  if (m.recovery.performed) r.recovery = m.recovery;

  Json& d = r.details;
  d["summary_source"] = source_name(m.source);
  d["summary_source_reason"] = m.source_reason;
  d["has_footer"] = m.has_footer;
  if (m.has_footer) {
    Json footer = Json::object();
    footer["offset"] = m.footer_offset;
    footer["summary_start"] = m.footer.summary_start;
    footer["summary_offset_start"] = m.footer.summary_offset_start;
    footer["summary_crc"] = m.footer.summary_crc;
    d["footer"] = std::move(footer);
  }
  if (m.chunk_indexes_deferred) {
    Json deferred = Json::object();
    deferred["offset"] = m.deferred_chunk_indexes.first;
    deferred["length"] = m.deferred_chunk_indexes.second;
    d["chunk_indexes_deferred"] = std::move(deferred);
  }
  d["data_end_offset"] = m.has_data_end ? Json(m.data_end_offset) : Json();
  d["data_section_crc"] = m.has_data_end ? Json(uint64_t{m.data_end.data_section_crc}) : Json();
  d["scan_end"] = m.scan_end;
  if (m.statistics) {
    const Statistics& s = *m.statistics;
    Json st = Json::object();
    st["message_count"] = s.message_count;
    st["schema_count"] = s.schema_count;
    st["channel_count"] = s.channel_count;
    st["attachment_count"] = s.attachment_count;
    st["metadata_count"] = s.metadata_count;
    st["chunk_count"] = s.chunk_count;
    st["message_start_time"] = std::to_string(s.message_start_time);
    st["message_end_time"] = std::to_string(s.message_end_time);
    d["statistics"] = std::move(st);
  }
  return r;
}

std::string info_text(const FileModel& m) {
  std::string out;
  std::vector<std::pair<std::string, std::string>> head = {{"library:", m.header.library}, {"profile:", m.header.profile}};
  bool times = m.start_time && m.end_time;
  head.emplace_back("messages:", std::to_string(m.message_count));
  if (times) {
    uint64_t start = *m.start_time, end = *m.end_time;
    if (times_in_range(m)) head.emplace_back("duration:", end >= start ? go_duration(end - start) : "-" + go_duration(start - end));
    // mcap info prints dates only after 20 years ago; older stamps are time since boot.
    bool date = start / uint64_t{1000000000} > 946684800ull;  // after 2000-01-01
    head.emplace_back("start:", date ? rfc3339(start) + " (" + decimal_time(start) + ")" : decimal_time(start));
    head.emplace_back("end:", date ? rfc3339(end) + " (" + decimal_time(end) + ")" : decimal_time(end));
  }
  size_t width = 0;
  for (const auto& row : head) width = std::max(width, row.first.size());
  for (const auto& row : head) out += printf_string("%-*s %s\n", static_cast<int>(width), row.first.c_str(), row.second.c_str());
  std::vector<CompressionRow> rows = compression_rows(m);
  if (!rows.empty()) {
    double seconds = seconds_between(m);
    out += "compression:\n";
    uint64_t max_c = 0, max_u = 0;
    for (const ChunkInfo& c : m.chunks) max_c = std::max(max_c, c.compressed_size), max_u = std::max(max_u, c.uncompressed_size);
    for (const CompressionRow& row : rows) {
      double ratio = row.uncompressed ? 100.0 * (1.0 - static_cast<double>(row.compressed) / static_cast<double>(row.uncompressed)) : 0.0;
      out += printf_string("\t%s: [%" PRIu64 "/%zu chunks] [%s/%s (%.2f%%)] ", row.name == "none" ? "" : row.name.c_str(), row.chunks, m.chunks.size(),
                           human_bytes(row.uncompressed).c_str(), human_bytes(row.compressed).c_str(), ratio);
      if (seconds > 0) out += "[" + human_bytes(static_cast<uint64_t>(static_cast<double>(row.compressed) / seconds)) + "/sec] ";
      out += "\n";
    }
    out += "chunks:\n";
    out += "\tmax uncompressed size: " + human_bytes(max_u) + "\n";
    out += "\tmax compressed size: " + human_bytes(max_c) + "\n";
  }
  out += "channels:\n";
  size_t count_width = 0, topic_width = 0, id_width = 0;
  for (const auto& [id, n] : m.channel_counts) count_width = std::max(count_width, std::to_string(n).size());
  for (const auto& [id, info] : m.channels) {
    topic_width = std::max(topic_width, info.channel.topic.size());
    id_width = std::max(id_width, std::to_string(id).size());
  }
  double seconds = seconds_between(m);
  for (const auto& [id, info] : m.channels) {
    const Channel& c = info.channel;
    std::string line = printf_string("\t(%u)%*s%-*s", id, static_cast<int>(id_width - std::to_string(id).size() + 1), "",
                                     static_cast<int>(topic_width), c.topic.c_str());
    if (m.channel_counts_known) {
      auto it = m.channel_counts.find(id);
      uint64_t n = it == m.channel_counts.end() ? 0 : it->second;
      line += printf_string("  %*" PRIu64 " msgs", static_cast<int>(count_width), n);
      if (n > 1 && seconds > 0) {
        double max_hz = static_cast<double>(n) / seconds, min_hz = static_cast<double>(n - 1) / seconds;
        int precision = static_cast<int>(std::max(0.0, std::ceil(-std::log10(max_hz - min_hz))));
        line += printf_string(" (%.*f..%.*fHz)", precision, min_hz, precision, max_hz);
      }
    }
    const Schema* s = m.schema(c.schema_id);
    if (s) line += " : " + s->name + " [" + s->encoding + "]";
    else if (c.schema_id) line += " : <missing schema " + std::to_string(c.schema_id) + ">";
    else line += " : <no schema>";
    out += line + "\n";
  }
  out += "channels: " + std::to_string(m.channels.size()) + "\n";
  out += "attachments: " + std::to_string(m.attachments.size()) + "\n";
  for (const AttachmentInfo& a : m.attachments) out += "\t" + a.name + " [" + a.media_type + "] " + human_bytes(a.data_size) + "\n";
  out += "metadata: " + std::to_string(m.metadata.size()) + "\n";
  for (const MetadataInfo& d : m.metadata) out += "\t" + d.name + "\n";
  if (m.source == SummarySource::Scan) out += "(read by scanning: " + m.source_reason + ")\n";
  return out;
}

}  // namespace logscope::mcap
