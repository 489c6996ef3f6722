#include "rosbag/summary.h"

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <set>

#include "core/printf_text.h"
#include "core/time_findings.h"
#include "rosbag/reader.h"

namespace logscope::rosbag {
namespace {

// Per-connection message times from the IndexData records that follow each chunk (no chunk data).
std::map<uint32_t, std::vector<uint64_t>> index_times(ByteSource& source, const Bag& bag) {
  std::map<uint32_t, std::vector<uint64_t>> times;
  if (bag.format != Format::RosbagV20) {
    for (const MessageRef& m : bag.messages) times[m.conn].push_back(m.time_ns);
    return times;
  }
  std::string header, why;
  HeaderFields fields;
  for (const Chunk& chunk : bag.chunks) {
    if (!chunk.header_ok) continue;
    uint64_t pos = chunk.record_end();
    for (size_t k = 0; k < chunk.counts.size(); ++k) {
      RecordFrame frame;
      if (read_record(source, pos, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header) || fields.op() != kOpIndexData) break;
      uint32_t conn = 0;
      fields.u32("conn", &conn);
      std::vector<uint8_t> data = source.read_vector(frame.data_offset(), frame.data_len);
      auto& list = times[conn];
      for (size_t i = 0; i + 12 <= data.size(); i += 12) list.push_back(Time{load_u32(&data[i]), load_u32(&data[i + 4])}.ns());
      pos = frame.end();
    }
  }
  return times;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  if (n % 2 == 1) return values[n / 2];
  return (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

std::string rosbag_size(double size) {
  static const char* suffixes[] = {"KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
  for (const char* suffix : suffixes) {
    size /= 1024.0;
    if (size < 1024.0) return printf_string("%.1f %s", size, suffix);
  }
  return "-";
}

std::string rosbag_frequency(double freq) {
  static const char* suffixes[] = {"Hz", "kHz", "MHz", "GHz", "THz", "PHz", "EHz", "ZHz", "YHz"};
  for (const char* suffix : suffixes) {
    if (freq < 1000.0) return printf_string("%.1f %s", freq, suffix);
    freq /= 1000.0;
  }
  return "-";
}

std::string rosbag_time(double secs) {
  double whole = std::trunc(secs);
  std::string fraction = printf_string("%.2f", secs - whole).substr(1);  // ".25"; Python's ('%.2f' % frac)[1:]
  time_t t = static_cast<time_t>(std::floor(secs));
  struct tm local;
  localtime_r(&t, &local);
  char buf[64];
  std::strftime(buf, sizeof buf, "%b %d %Y %H:%M:%S", &local);
  return buf + fraction;
}

std::string rosbag_duration(double duration) {
  double secs = duration - 60.0 * std::floor(duration / 60.0);  // Python's float %
  long long mins = static_cast<long long>(duration / 60);
  long long hours = mins / 60;
  if (hours > 0)
    return printf_string("%lldhr %lld:%02llds (%llds)", hours, mins % 60, static_cast<long long>(secs), static_cast<long long>(duration));
  if (mins > 0) return printf_string("%lld:%02llds (%llds)", mins, static_cast<long long>(secs), static_cast<long long>(duration));
  return printf_string("%.1fs", duration);
}

BagStats compute_stats(ByteSource& source, Bag& bag, bool frequencies, bool read_compression, const ProgressFn& progress) {
  BagStats s;
  s.version = bag.version == 200 ? "2.0" : bag.version == 102 ? "1.2" : "1.1";
  if (!bag.indexed) s.version += " (unindexed)";
  s.empty = bag.connections.empty() && bag.chunks.empty() && bag.messages.empty();
  s.messages = bag.message_count();
  s.chunk_count = bag.chunks.size();
  if (bag.format == Format::RosbagV20) {
    if (read_compression) read_chunk_headers(source, &bag, progress);
    bool first = true;
    for (const Chunk& c : bag.chunks) {
      if (first) s.start = c.start, s.end = c.end, first = false;
      if (c.start < s.start) s.start = c.start;
      if (s.end < c.end) s.end = c.end;
      if (!c.header_read) s.compression_read = false;
      if (!c.header_ok) continue;
      auto it = std::find_if(s.compressions.begin(), s.compressions.end(), [&](const CompressionStats& x) { return x.name == c.compression; });
      if (it == s.compressions.end()) it = s.compressions.insert(s.compressions.end(), CompressionStats{c.compression});
      ++it->chunks;
      it->uncompressed += c.uncompressed_size;
      it->compressed += c.compressed_size;
    }
    if (!bag.chunks.empty()) s.rosbag_start = bag.chunks.front().start, s.rosbag_end = bag.chunks.back().end;
    // rosbag: reversed(sorted((count, name))) = most chunks first, ties by name descending.
    std::sort(s.compressions.begin(), s.compressions.end(), [](const CompressionStats& a, const CompressionStats& b) {
      return a.chunks != b.chunks ? a.chunks > b.chunks : a.name > b.name;
    });
  } else {
    if (!bag.messages.empty()) {
      uint64_t lo = bag.messages.front().time_ns, hi = bag.messages.back().time_ns;
      s.start = Time::from_ns(lo);
      s.end = Time::from_ns(hi);
    }
    s.rosbag_start = s.start;
    s.rosbag_end = s.end;
  }

  const std::vector<uint64_t> per_connection = bag.messages_by_connection();  // as bag.connections
  std::map<uint32_t, std::vector<uint64_t>> times;
  std::vector<const Connection*> connections;
  if (frequencies) times = index_times(source, bag);
  for (const Connection& c : bag.connections) {
    // rosbag --freq reads the indexes and drops connections without messages.
    if (frequencies && bag.format == Format::RosbagV20 && times[c.id].empty()) continue;
    connections.push_back(&c);
  }
  std::set<std::string> seen_types;
  for (const Connection* c : connections)
    if (seen_types.insert(c->type).second) s.types.emplace_back(c->type, c->md5);
  std::sort(s.types.begin(), s.types.end());
  std::map<std::string, TopicStats> topics;
  std::map<std::string, std::vector<uint64_t>> topic_times;
  for (const Connection* c : connections) {
    TopicStats& t = topics[c->topic];
    if (t.connections == 0) t.topic = c->topic, t.type = c->type;
    ++t.connections;
    t.messages += per_connection[static_cast<size_t>(c - bag.connections.data())];
    if (frequencies) {
      auto& list = topic_times[c->topic];
      list.insert(list.end(), times[c->id].begin(), times[c->id].end());
    }
  }
  for (auto& entry : topics) {
    TopicStats& t = entry.second;
    auto& stamps = topic_times[t.topic];
    if (frequencies && stamps.size() > 1) {
      std::sort(stamps.begin(), stamps.end());
      std::vector<double> periods;
      periods.reserve(stamps.size() - 1);
      for (size_t i = 1; i < stamps.size(); ++i)
        periods.push_back(Time::from_ns(stamps[i]).to_sec() - Time::from_ns(stamps[i - 1]).to_sec());
      double period = median(std::move(periods));
      if (period > 0) t.has_frequency = true, t.frequency = 1.0 / period;
    }
    s.topics.push_back(t);
  }
  return s;
}

std::string info_text(const BagStats& s, const Bag& bag, const std::string& path) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("path", path);
  rows.emplace_back("version", s.version);
  if (s.empty) {
    rows.emplace_back("size", rosbag_size(static_cast<double>(bag.file_size)));
  } else {
    // rosbag takes start and end from the first and last chunk in file order, which gives a wrong
    // (even negative) duration when chunks are out of time order; we print the true first and last
    // message times instead.
    double start = s.start.to_sec(), end = s.end.to_sec(), duration = end - start;
    rows.emplace_back("duration", rosbag_duration(duration));
    rows.emplace_back("start", rosbag_time(start) + printf_string(" (%.2f)", start));
    rows.emplace_back("end", rosbag_time(end) + printf_string(" (%.2f)", end));
    rows.emplace_back("size", rosbag_size(static_cast<double>(bag.file_size)));
    rows.emplace_back("messages", std::to_string(s.messages));
    if (s.compressions.empty()) {
      rows.emplace_back("compression", "none");
    } else {
      std::string text;
      bool any_compressed = false;
      uint64_t total_u = 0, total_c = 0;
      for (const CompressionStats& c : s.compressions) {
        if (!text.empty()) text += ", ";
        if (c.name != "none") {
          any_compressed = true;
          text += printf_string("%s [%llu/%llu chunks; %.2f%%]", c.name.c_str(), static_cast<unsigned long long>(c.chunks),
                                static_cast<unsigned long long>(s.chunk_count), 100.0 * static_cast<double>(c.compressed) / static_cast<double>(c.uncompressed));
        } else {
          text += printf_string("%s [%llu/%llu chunks]", c.name.c_str(), static_cast<unsigned long long>(c.chunks), static_cast<unsigned long long>(s.chunk_count));
        }
        total_u += c.uncompressed;
        total_c += c.compressed;
      }
      rows.emplace_back("compression", text);
      if (any_compressed) {
        std::string us = rosbag_size(static_cast<double>(total_u)), cs = rosbag_size(static_cast<double>(total_c));
        int width = static_cast<int>(std::max(us.size(), cs.size()));
        if (duration > 0) {
          std::string ur = rosbag_size(static_cast<double>(total_u) / duration), cr = rosbag_size(static_cast<double>(total_c) / duration);
          int rate_width = static_cast<int>(std::max(ur.size(), cr.size()));
          rows.emplace_back("uncompressed", printf_string("%*s @ %*s/s", width, us.c_str(), rate_width, ur.c_str()));
          rows.emplace_back("compressed", printf_string("%*s @ %*s/s (%.2f%%)", width, cs.c_str(), rate_width, cr.c_str(),
                                                        100.0 * static_cast<double>(total_c) / static_cast<double>(total_u)));
        } else {
          rows.emplace_back("uncompressed", printf_string("%*s", width, us.c_str()));
          rows.emplace_back("compressed", printf_string("%*s", width, cs.c_str()));
        }
      }
    }
    if (!bag.encryptor.empty()) rows.emplace_back("encryptor", bag.encryptor);
    size_t type_width = 0, topic_width = 0, count_width = 0, freq_width = 0;
    for (const auto& t : s.types) type_width = std::max(type_width, t.first.size());
    for (const TopicStats& t : s.topics) {
      topic_width = std::max(topic_width, t.topic.size());
      count_width = std::max(count_width, std::to_string(t.messages).size());
      if (t.has_frequency) freq_width = std::max(freq_width, rosbag_frequency(t.frequency).size());
    }
    for (size_t i = 0; i < s.types.size(); ++i)
      rows.emplace_back(i == 0 ? "types" : "", printf_string("%-*s [%s]", static_cast<int>(type_width), s.types[i].first.c_str(), s.types[i].second.c_str()));
    for (size_t i = 0; i < s.topics.size(); ++i) {
      const TopicStats& t = s.topics[i];
      std::string line = printf_string("%-*s   %*llu %s", static_cast<int>(topic_width), t.topic.c_str(), static_cast<int>(count_width),
                                       static_cast<unsigned long long>(t.messages), t.messages > 1 ? "msgs" : "msg ");
      if (t.has_frequency) line += printf_string(" @ %*s", static_cast<int>(freq_width), rosbag_frequency(t.frequency).c_str());
      else line += printf_string("   %*s", static_cast<int>(freq_width), "");
      line += printf_string(" : %-*s", static_cast<int>(type_width), t.type.c_str());
      if (t.connections > 1) line += printf_string(" (%llu connections)", static_cast<unsigned long long>(t.connections));
      rows.emplace_back(i == 0 ? "topics" : "", line);
    }
  }
  size_t key_width = 0;
  for (const auto& row : rows) key_width = std::max(key_width, row.first.size() + 1);
  std::string out;
  for (const auto& row : rows)
    out += printf_string("%-*s ", static_cast<int>(key_width), row.first.empty() ? "" : (row.first + ":").c_str()) + row.second + "\n";
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();  // Python's rstrip()
  return out + "\n";
}

Report summary_report(const BagStats& s, const Bag& bag) {
  Report r;
  r.format = "rosbag";
  r.format_label = "ROS bag V" + s.version;
  r.problems = bag.problems;
  double start = s.start.to_sec(), end = s.end.to_sec();
  r.file.size_bytes = bag.file_size;
  if (!s.empty) {
    r.file.start_ns = static_cast<int64_t>(s.start.ns());
    r.file.end_ns = static_cast<int64_t>(s.end.ns());
    drop_out_of_range_times(r);  // u32 seconds stay in range; kept so every format applies the same rule
  }
  r.file.counts = {{"messages", s.messages}, {"topics", s.topics.size()}, {"connections", bag.connections.size()},
                   {"chunks", s.chunk_count}};
  Facts& f = r.facts;
  f.set("version", s.version, Unit::Text);
  f.set("indexed", bag.indexed, Unit::Flag);
  // summary() reads no chunk header: the compression facts come later, from info_report().
  std::string compression = s.compressions.empty() ? "none" : s.compressions.front().name;
  uint64_t total_u = 0, total_c = 0;
  for (const CompressionStats& c : s.compressions) {
    total_u += c.uncompressed;
    total_c += c.compressed;
  }
  if (s.compression_read) {
    f.set("compression", compression, Unit::Text);
    f.set("uncompressed", total_u, Unit::Bytes);
    f.set("compressed", total_c, Unit::Bytes);
    f.set("compression_ratio", total_u > 0 ? Json(static_cast<double>(total_c) / static_cast<double>(total_u)) : Json(), Unit::Ratio);
  } else {
    r.later = {"compression", "uncompressed", "compressed", "compression_ratio"};
  }
  if (!bag.encryptor.empty()) f.set("encryptor", bag.encryptor, Unit::Text);
  if (bag.recovery.performed) {
    logscope::Recovery& rec = r.recovery;
    rec.performed = true;
    rec.reason = bag.recovery.reason;
    rec.message = bag.recovery.message;
    rec.ends_at = bag.recovery.ends_at;
    rec.recovered = {{"chunks", bag.recovery.recovered_chunks}, {"messages", bag.recovery.recovered_messages}};
  }

  Table topics{"topics", {"topic", "type", "messages", "connections"}, {}, {Unit::Text, Unit::Text, Unit::Count, Unit::Count}};
  for (const TopicStats& t : s.topics) topics.rows.push_back({t.topic, t.type, t.messages, t.connections});
  Table types{"types", {"type", "md5"}, {}, {Unit::Text, Unit::Id}};
  for (const auto& t : s.types) types.rows.push_back({t.first, t.second});
  r.tables.push_back(std::move(topics));
  r.tables.push_back(std::move(types));

  // Same keys as `rosbag info --yaml`, plus exact ns times and per-codec chunk figures.
  Json& d = r.details;
  d["version"] = s.version;
  if (!s.empty) {
    d["duration"] = end - start;
    d["start"] = start;
    d["end"] = end;
    d["start_ns"] = s.start.ns();
    d["end_ns"] = s.end.ns();
  }
  d["size"] = bag.file_size;
  d["messages"] = s.messages;
  d["indexed"] = bag.indexed;
  d["compression_read"] = s.compression_read;
  if (s.compression_read) d["compression"] = compression;
  Json codecs = Json::array();
  for (const CompressionStats& c : s.compressions) {
    Json j = Json::object();
    j["compression"] = c.name;
    j["chunks"] = c.chunks;
    j["uncompressed"] = c.uncompressed;
    j["compressed"] = c.compressed;
    codecs.push_back(std::move(j));
  }
  d["chunks"] = s.chunk_count;
  if (s.compression_read) {
    d["uncompressed"] = total_u;
    d["compressed"] = total_c;
    d["compression_by_codec"] = std::move(codecs);
    if (total_u > 0) d["compression_ratio"] = static_cast<double>(total_c) / static_cast<double>(total_u);
  }
  if (!bag.encryptor.empty()) d["encryptor"] = bag.encryptor;
  Json type_list = Json::array();
  for (const auto& t : s.types) {
    Json j = Json::object();
    j["type"] = t.first;
    j["md5"] = t.second;
    type_list.push_back(std::move(j));
  }
  d["types"] = std::move(type_list);
  Json topic_list = Json::array();
  for (const TopicStats& t : s.topics) {
    Json j = Json::object();
    j["topic"] = t.topic;
    j["type"] = t.type;
    j["messages"] = t.messages;
    j["connections"] = t.connections;
    if (t.has_frequency) j["frequency"] = t.frequency;
    topic_list.push_back(std::move(j));
  }
  d["topics"] = std::move(topic_list);
  if (bag.recovery.performed) {
    Json rec = Json::object();
    rec["message"] = bag.recovery.message;
    rec["recovered_chunks"] = bag.recovery.recovered_chunks;
    rec["recovered_messages"] = bag.recovery.recovered_messages;
    rec["ends_at"] = bag.recovery.ends_at;
    rec["reason"] = bag.recovery.reason;
    d["recovery"] = std::move(rec);
  }
  return r;
}

}  // namespace logscope::rosbag
