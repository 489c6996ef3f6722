// The index-first summary (summary.h): file facts, series facts (key names as the SDK reader's), tables.
#include "bddf/summary.h"

#include <algorithm>
#include <cstdio>

#include "bddf/format.h"
#include "core/time_findings.h"
#include "core/time_math.h"

namespace logscope::bddf {
namespace {

Json string_map_json(const std::map<std::string, std::string>& map) {
  Json j = Json::object();
  for (const auto& [key, value] : map) j[key] = value;
  return j;
}

Json trailer_json(const FileModel& model) {
  const Trailer& t = model.trailer;
  Json j = Json::object();
  j["size"] = model.size;
  j["start_magic"] = model.magic_ok ? "BDDF" : "";
  j["start_magic_ok"] = model.magic_ok;
  j["trailer_present"] = t.present;
  if (!t.readable) return j;
  j["end_magic"] = t.end_magic;
  j["end_magic_ok"] = t.end_magic == std::string(kEndMagic, 4);
  j["end_block_header_at"] = model.size - kTrailerSize;
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(t.header_raw));
  j["end_block_header_hex"] = std::string(hex);
  j["end_block_type_field"] = header_type(t.header_raw);
  j["end_block_size_field"] = header_size(t.header_raw);
  j["stored_index_offset_at"] = model.size - 32;
  j["stored_index_offset"] = t.index_offset;
  j["stored_sha1"] = hex_string(t.digest, kDigestSize);
  return j;
}

}  // namespace

uint64_t pod_sample_count(const Series& series) {
  size_t sample = series.pod_sample_size();
  return sample ? series.total_bytes / sample : 0;
}

double series_rate_hz(const Series& series) {
  size_t n = series.entries.size();
  if (n < 2) return 0;
  int64_t first = series.entries.front().timestamp_ns, last = series.entries.back().timestamp_ns;
  if (last <= first || !time_math::in_range(first) || !time_math::in_range(last)) return 0;
  double seconds = span_seconds(first, last);
  if (series.pod_sample_size()) {
    // Blocks carry only their first sample's time: the samples before the last block span [first, last).
    uint64_t total = pod_sample_count(series);
    uint64_t in_last = series.last_block_payload / series.pod_sample_size();
    if (series.last_block_payload && in_last < total) return static_cast<double>(total - in_last) / seconds;
    // Last block size unknown: assume equally filled blocks.
    return static_cast<double>(total) * static_cast<double>(n - 1) / static_cast<double>(n) / seconds;
  }
  return static_cast<double>(n - 1) / seconds;
}

Json block_entry_json(const BlockEntries::iterator& it) {
  Json j = Json::object();
  j["timestamp_ns"] = it->timestamp_ns;
  j["file_offset"] = it->file_offset;
  Json extra = Json::array();
  for (int64_t value : it.extra()) extra.push_back(value);
  j["additional_indexes"] = std::move(extra);
  return j;
}

Json series_json(const Series& s) {
  Json j = Json::object();
  j["index"] = s.index;
  j["described"] = s.described;
  j["series_descriptor_series_index"] = s.descriptor_series_index;
  j["series_type"] = s.series_type;
  j["spec"] = string_map_json(s.spec);
  j["channel"] = s.channel();
  j["identifier_hash"] = s.identifier_hash;
  j["identifier_hash_hex"] = hex_u64(s.identifier_hash);
  j["identifier_hash_matches"] = s.described && s.identifier_hash == s.computed_hash;
  j["data_type"] = s.data_type;
  if (s.data_type == "message_type") {
    Json m = Json::object();
    m["content_type"] = s.content_type;
    m["type_name"] = s.type_name;
    m["is_metadata"] = s.is_metadata;
    j["message_type"] = std::move(m);
  } else if (s.data_type == "pod_type") {
    Json p = Json::object();
    p["pod_type"] = pod_type_name(s.pod_type);
    p["pod_type_value"] = s.pod_type;
    Json dims = Json::array();
    for (uint32_t d : s.dimension) dims.push_back(d);
    p["dimension"] = std::move(dims);
    j["pod_type"] = std::move(p);
    j["num_samples"] = pod_sample_count(s);
  } else if (s.data_type == "struct_type") {
    Json st = Json::object();
    Json keys = Json::object();
    for (const auto& [key, hash] : s.struct_keys) keys[key] = hash;
    st["key_to_series_identifier_hash"] = std::move(keys);
    j["struct_type"] = std::move(st);
  }
  j["type_label"] = s.type_label();
  j["annotations"] = string_map_json(s.annotations);
  Json names = Json::array();
  for (const auto& name : s.additional_index_names) names.push_back(name);
  j["additional_index_names"] = std::move(names);
  j["description"] = s.description;
  j["descriptor_file_offset"] = s.descriptor_file_offset;
  j["block_index_file_offset"] = s.has_block_index ? Json(s.block_index_file_offset) : Json();
  j["num_blocks"] = s.entries.size();
  j["total_bytes"] = s.total_bytes;
  if (s.entries.empty()) {
    j["first_timestamp_ns"] = Json();
    j["last_timestamp_ns"] = Json();
  } else {
    int64_t lo = s.entries.front().timestamp_ns, hi = s.entries.back().timestamp_ns;
    bool monotonic = s.entries.times_ascending();
    if (!monotonic)
      for (const BlockEntry& e : s.entries) {
        lo = std::min(lo, e.timestamp_ns);
        hi = std::max(hi, e.timestamp_ns);
      }
    j["first_timestamp_ns"] = s.entries.front().timestamp_ns;
    j["last_timestamp_ns"] = s.entries.back().timestamp_ns;
    j["min_timestamp_ns"] = lo;
    j["max_timestamp_ns"] = hi;
    j["first_timestamp_iso"] = iso_time(s.entries.front().timestamp_ns);
    j["last_timestamp_iso"] = iso_time(s.entries.back().timestamp_ns);
    j["timestamps_monotonic_nondecreasing"] = monotonic;
    j["rate_hz"] = series_rate_hz(s);
  }
  return j;
}

Json recovery_json(const bddf::Recovery& r) {
  Json j = Json::object();
  j["message"] = r.message();
  j["recovered_blocks"] = r.recovered_blocks;
  j["ends_at"] = r.ends_at;
  j["reason"] = r.reason;
  j["ended"] = r.ended;
  j["end_code"] = r.end_code;
  return j;
}

Report summary_report(const FileModel& model) {
  Report report;
  report.format = "bddf";
  report.format_label = "BDDF " + (model.have_file_descriptor ? model.version() : std::string("(no file descriptor)"));
  report.problems = model.problems;

  Json& d = report.details;
  d["opened_from"] = model.indexed ? "index" : "scan";
  d["version"] = model.have_file_descriptor ? Json(model.version()) : Json();
  d["annotations"] = string_map_json(model.annotations);
  d["checksum_type"] = checksum_type_name(model.checksum_type);
  d["checksum_num_bytes"] = model.checksum_num_bytes;
  d["index_offset"] = model.indexed ? Json(model.trailer.index_offset) : Json();
  if (model.have_file_index) {
    Json fi = Json::object();
    fi["num_series"] = model.file_index_identifiers.size();
    Json offsets = Json::array(), hashes = Json::array();
    for (uint64_t o : model.file_index_offsets) offsets.push_back(o);
    for (uint64_t h : model.file_index_hashes) hashes.push_back(h);
    fi["series_block_index_offsets"] = std::move(offsets);
    fi["series_identifier_hashes"] = std::move(hashes);
    d["file_index"] = std::move(fi);
  }
  Json series = Json::array();
  for (const Series& s : model.series) series.push_back(series_json(s));
  d["series"] = std::move(series);
  d["data_blocks"] = model.data_block_count();
  d["trailer_raw"] = trailer_json(model);
  if (model.recovery.performed) d["recovery"] = recovery_json(model.recovery);

  // The common facts, then the format's own. A time beyond time_math's range is a finding (the
  // first of each series), left out of the file's span.
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const Series& s : model.series) {
    if (s.entries.empty()) continue;
    // In time order with both ends in range, every time between is: no need to go through them.
    if (s.entries.times_ascending() && time_math::in_range(s.entries.front().timestamp_ns) &&
        time_math::in_range(s.entries.back().timestamp_ns)) {
      first = std::min(first, s.entries.front().timestamp_ns);
      last = std::max(last, s.entries.back().timestamp_ns);
      continue;
    }
    bool reported = false;
    for (auto it = s.entries.begin(); it != s.entries.end(); ++it) {
      const BlockEntry& e = *it;
      if (!time_math::in_range(e.timestamp_ns)) {
        if (!reported)
          report_out_of_range_time(report, e.file_offset, "series " + s.channel() + ", block #" + std::to_string(it.index()) + ": the time",
                                   std::to_string(e.timestamp_ns) + " ns");
        reported = true;
        continue;
      }
      first = std::min(first, e.timestamp_ns);
      last = std::max(last, e.timestamp_ns);
    }
  }
  report.file.size_bytes = model.size;
  if (first <= last) {
    report.file.start_ns = first;
    report.file.end_ns = last;
  }
  report.file.counts = {{"data_blocks", model.data_block_count()}, {"series", model.series.size()}};
  Facts& f = report.facts;
  f.set("format", "BDDF", Unit::Text);
  f.set("version", model.have_file_descriptor ? model.version() : "unknown", Unit::Text);
  f.set("opened_from", model.indexed ? "index" : "forward scan (index missing or damaged)", Unit::Text);
  f.set("checksum_type", checksum_type_name(model.checksum_type), Unit::Text);
  std::string annotations;
  for (const auto& [key, value] : model.annotations) annotations += (annotations.empty() ? "" : ", ") + key + "=" + value;
  if (!annotations.empty()) f.set("annotations", annotations, Unit::Text);
  if (model.recovery.performed) {
    logscope::Recovery& r = report.recovery;
    r.performed = true;
    r.reason = model.recovery.end_code;
    r.message = model.recovery.message();
    r.ends_at = model.recovery.ends_at;
    r.recovered = {{"data_blocks", model.recovery.recovered_blocks}};
  }

  Table table;
  table.name = "series";
  table.columns = {"index", "channel", "type", "blocks", "first", "last", "rate_hz", "bytes"};
  table.units = {Unit::Id, Unit::Text, Unit::Text, Unit::Count, Unit::TimeNs, Unit::TimeNs, Unit::Hz, Unit::Bytes};
  for (const Series& s : model.series) {
    std::vector<Json> row = {Json(s.index), Json(s.channel()), Json(s.type_label()), Json(s.entries.size())};
    if (s.entries.empty()) {
      row.push_back(Json());
      row.push_back(Json());
    } else {
      row.push_back(Json(s.entries.front().timestamp_ns));
      row.push_back(Json(s.entries.back().timestamp_ns));
    }
    double rate = series_rate_hz(s);
    row.push_back(rate > 0 ? Json(rate) : Json());
    row.push_back(Json(s.total_bytes));
    table.rows.push_back(std::move(row));
  }
  report.tables.push_back(std::move(table));
  return report;
}

}  // namespace logscope::bddf
