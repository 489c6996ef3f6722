#include "rosbag2/inspector.h"

#include <algorithm>
#include <ctime>

#include "core/node_id.h"
#include "core/printf_text.h"
#include "core/sha1.h"
#include "core/time_findings.h"
#include "core/time_math.h"
#include "rosbag2/inspector_impl.h"
#include "views/views.h"

namespace logscope::rosbag2 {

Rosbag2Inspector::Rosbag2Inspector(Folder& folder, std::unique_ptr<Folder> owned)
    : owned_(std::move(owned)), bag_(open_bag(folder)) {}

std::unique_ptr<FormatInspector> open_folder_inspector(Folder& folder) {
  return std::make_unique<Rosbag2Inspector>(folder, nullptr);
}

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source) {
  auto folder = std::make_unique<SingleSourceFolder>("database.db3", source);
  Folder& ref = *folder;
  return std::make_unique<Rosbag2Inspector>(ref, std::move(folder));
}

Bag* bag_of(FormatInspector& inspector) {
  auto* r = dynamic_cast<Rosbag2Inspector*>(&inspector);
  return r ? &r->bag() : nullptr;
}

BagTotals bag_totals(const Bag& bag) {
  // Exact per-topic numbers: read on first use (a pass over each messages table's leaves). The
  // bag itself is not const; only the stats are filled in.
  read_topic_stats(const_cast<Bag&>(bag));
  BagTotals totals;
  auto row_for = [&](const std::string& name) -> TopicRow& {
    for (TopicRow& r : totals.topics)
      if (r.name == name) return r;
    totals.topics.push_back(TopicRow{name, "", "", 0, std::nullopt, std::nullopt});
    return totals.topics.back();
  };
  bool any_read = false;
  for (const BagFile& f : bag.files) {
    if (!f.tables_read) continue;
    any_read = true;
    for (const Topic& t : f.tables.topics) {
      TopicRow& row = row_for(t.name);
      if (row.type.empty()) row.type = t.type;
      if (row.serialization_format.empty()) row.serialization_format = t.serialization_format;
      auto st = f.tables.stats.find(t.id);
      if (st == f.tables.stats.end()) continue;
      row.count += st->second.count;
      row.first_ns = row.first_ns ? std::min(*row.first_ns, st->second.first_ns) : st->second.first_ns;
      row.last_ns = row.last_ns ? std::max(*row.last_ns, st->second.last_ns) : st->second.last_ns;
    }
    totals.messages += f.tables.message_count;
    if (f.tables.first_ns) totals.start_ns = totals.start_ns ? std::min(*totals.start_ns, *f.tables.first_ns) : *f.tables.first_ns;
    if (f.tables.last_ns) totals.end_ns = totals.end_ns ? std::max(*totals.end_ns, *f.tables.last_ns) : *f.tables.last_ns;
  }
  if (!any_read && bag.metadata) {
    // Nothing readable (a whole-file zstd bag): what the yaml says.
    totals.from_yaml = true;
    const BagMetadata& m = *bag.metadata;
    for (const YamlTopic& t : m.topics) {
      TopicRow& row = row_for(t.name);
      row.type = t.type;
      row.serialization_format = t.serialization_format;
      row.count = t.message_count;
    }
    totals.messages = m.message_count.value_or(0);
    std::optional<int64_t> end = m.starting_time_ns ? time_math::add(*m.starting_time_ns, m.duration_ns.value_or(0)) : std::nullopt;
    if (end && *m.starting_time_ns != INT64_MAX && totals.messages > 0) {
      totals.start_ns = *m.starting_time_ns;
      totals.end_ns = *end;
    }
  }
  return totals;
}

// Per-topic first and last times from a short walk at each end of every database's
// timestamp_idx (kIndexWalk rows, a few pages), where it decides them: a topic's earliest time
// met is its first when no database could hold an earlier one unmet (each database's walk went
// past it, or met every row). Topics it does not decide keep none (the exact pass has them).
namespace {
constexpr int kIndexWalk = 48;
void index_ends(Bag& bag, BagTotals* totals) {
  struct Walked {
    const BagFile* file;
    IndexEnds ends;
  };
  std::vector<Walked> walks;
  for (const BagFile& f : bag.files) {
    if (!f.tables_read || !f.tables.has_timestamp_index || f.tables.message_count == 0) continue;
    Walked w{&f, {}};
    std::string error;
    if (!walk_index_ends(*f.reader, kIndexWalk, &w.ends, &error)) return;  // the exact pass will say why
    walks.push_back(std::move(w));
  }
  for (TopicRow& row : totals->topics) {
    if (row.count == 0) continue;
    std::optional<int64_t> first, last;
    bool first_sure = true, last_sure = true;
    for (const Walked& w : walks) {
      const Topic* topic = nullptr;
      for (const Topic& t : w.file->tables.topics)
        if (t.name == row.name) topic = &t;
      if (!topic) continue;
      auto f = w.ends.first.find(topic->id);
      auto l = w.ends.last.find(topic->id);
      if (f != w.ends.first.end()) first = first ? std::min(*first, f->second) : f->second;
      if (l != w.ends.last.end()) last = last ? std::max(*last, l->second) : l->second;
    }
    // Sure when every database that did not meet the topic walked past the candidate.
    for (const Walked& w : walks) {
      const Topic* topic = nullptr;
      for (const Topic& t : w.file->tables.topics)
        if (t.name == row.name) topic = &t;
      if (!topic || w.ends.whole) continue;
      if (!w.ends.first.count(topic->id) && (!first || w.ends.bound_first < *first)) first_sure = false;
      if (!w.ends.last.count(topic->id) && (!last || w.ends.bound_last > *last)) last_sure = false;
    }
    if (first && first_sure) row.first_ns = first;
    if (last && last_sure) row.last_ns = last;
  }
}
}  // namespace

// The first view's numbers within a few percent of the bag's bytes: the totals and the bag's
// first and last times from each database's timestamp_idx, and the per-topic counts from
// metadata.yaml when its numbers agree with the databases' counts (they are exact then, unless a
// topic's rows were swapped for another's), per-topic first and last times where the index's ends
// decide them. Otherwise, and for a bag without a yaml, the exact per-topic numbers (bag_totals).
// `counts_from_yaml` says which.
BagTotals first_view_totals(Bag& bag, bool* counts_from_yaml) {
  *counts_from_yaml = false;
  if (topic_stats_read(bag) || !bag.metadata || !bag.metadata->complete || bag.metadata->topics.empty() || !bag.missing_files.empty())
    return bag_totals(bag);
  BagTotals totals;
  uint64_t yaml_sum = 0;
  for (const YamlTopic& t : bag.metadata->topics) yaml_sum += t.message_count;
  for (const BagFile& f : bag.files) {
    if (!f.tables_read) return bag_totals(bag);
    totals.messages += f.tables.message_count;
    if (f.tables.first_ns) totals.start_ns = totals.start_ns ? std::min(*totals.start_ns, *f.tables.first_ns) : *f.tables.first_ns;
    if (f.tables.last_ns) totals.end_ns = totals.end_ns ? std::max(*totals.end_ns, *f.tables.last_ns) : *f.tables.last_ns;
    for (const Topic& t : f.tables.topics) {
      auto it = std::find_if(totals.topics.begin(), totals.topics.end(), [&](const TopicRow& r) { return r.name == t.name; });
      if (it == totals.topics.end()) totals.topics.push_back(TopicRow{t.name, t.type, t.serialization_format, 0, std::nullopt, std::nullopt});
    }
  }
  if (yaml_sum != totals.messages || bag.metadata->message_count.value_or(yaml_sum) != totals.messages) return bag_totals(bag);
  for (TopicRow& row : totals.topics) {
    const YamlTopic* yaml = nullptr;
    for (const YamlTopic& t : bag.metadata->topics)
      if (t.name == row.name) yaml = &t;
    if (!yaml) return bag_totals(bag);  // a topic the yaml does not know: it cannot say its count
    row.count = yaml->message_count;
  }
  *counts_from_yaml = true;
  index_ends(bag, &totals);
  return totals;
}

Report Rosbag2Inspector::summary() {
  bool counts_from_yaml = false;
  BagTotals totals = first_view_totals(*bag_, &counts_from_yaml);
  Report r = report_of(totals);
  if (counts_from_yaml) {
    r.facts.set("counts_from", "metadata.yaml", Unit::Text);
    r.later = {"topic_counts"};
  }
  return r;
}

Report Rosbag2Inspector::info_report(const ProgressFn&) {
  Report r = report_of(bag_totals(*bag_));
  if (!r.facts.find("counts_from")) r.facts.set("topic_counts", "exact, from the databases", Unit::Text);
  return r;
}

Report Rosbag2Inspector::report_of(const BagTotals& totals) {
  Report r;
  r.format = "rosbag2";
  r.format_label = "rosbag2 (SQLite)";
  Bag& bag = *bag_;
  r.file.size_bytes = bag.total_size();
  if (totals.start_ns && totals.end_ns) {
    r.file.start_ns = totals.start_ns;
    r.file.end_ns = totals.end_ns;
  }
  r.file.counts.push_back({"messages", totals.messages});
  r.file.counts.push_back({"topics", totals.topics.size()});
  r.file.counts.push_back({"files", bag.files.size()});
  r.facts.set("storage", "sqlite3", Unit::Text);
  if (bag.metadata) r.facts.set("metadata_version", bag.metadata->version, Unit::Id);
  r.facts.set("metadata_yaml", bag.has_yaml, Unit::Flag);
  for (const BagFile& f : bag.files)
    if (f.tables_read && f.tables.schema_version) {
      r.facts.set("schema_version", *f.tables.schema_version, Unit::Id);
      if (!f.tables.ros_distro.empty()) r.facts.set("ros_distro", f.tables.ros_distro, Unit::Text);
      break;
    }
  if (bag.metadata && !bag.metadata->compression_format.empty())
    r.facts.set("compression", bag.metadata->compression_format + " (" + bag.metadata->compression_mode + ")", Unit::Text);
  bool definitions = false;
  for (const BagFile& f : bag.files) definitions |= !f.tables.definitions.empty();
  r.facts.set("message_definitions", definitions, Unit::Flag);
  if (totals.from_yaml) r.facts.set("counts_from", "metadata.yaml", Unit::Text);

  Table topics;
  topics.name = "topics";
  topics.columns = {"topic", "type", "messages", "serialization_format", "first", "last"};
  topics.units = {Unit::Text, Unit::Text, Unit::Count, Unit::Text, Unit::TimeNs, Unit::TimeNs};
  for (const TopicRow& t : totals.topics)
    topics.rows.push_back({t.name, t.type, t.count, t.serialization_format,
                           t.first_ns ? Json(std::to_string(*t.first_ns)) : Json(), t.last_ns ? Json(std::to_string(*t.last_ns)) : Json()});
  r.tables.push_back(std::move(topics));
  Table files;
  files.name = "files";
  files.columns = {"file", "size", "wal", "messages", "schema_version"};
  files.units = {Unit::Text, Unit::Bytes, Unit::Bytes, Unit::Count, Unit::Id};
  for (const BagFile& f : bag.files)
    files.rows.push_back({f.name, f.size, f.wal_size, f.tables.message_count,
                          f.tables.schema_version ? Json(*f.tables.schema_version) : Json()});
  r.tables.push_back(std::move(files));
  r.problems = bag.problems;
  drop_out_of_range_times(r);
  return r;
}

namespace {

// rosbag2's size text: B, KiB, MiB, GiB with one decimal.
std::string size_text(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? std::to_string(bytes) + " B" : printf_string("%.1f %s", v, units[u]);
}

// "Sep 18 2018 14:56:44.241440135 (1537282604.241440135)", in UTC.
std::string time_text(int64_t ns) {
  time_math::SecondsAndNanos split = time_math::split_seconds(ns);
  int64_t seconds = split.seconds, fraction = split.nanos;
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char date[64];
  std::strftime(date, sizeof date, "%b %e %Y %H:%M:%S", &tm);
  return printf_string("%s.%09lld (%lld.%09lld)", date, static_cast<long long>(fraction), static_cast<long long>(seconds),
                       static_cast<long long>(fraction));
}

}  // namespace

std::string Rosbag2Inspector::info_text(const InfoOptions&) {
  Bag& bag = *bag_;
  BagTotals totals = bag_totals(bag);
  Report report = report_of(totals);  // its times: none beyond time_math's range, and a warning for them
  std::string out = "\n";
  // Concatenated, not printf_string (which stops at 512 bytes): names and types may be long.
  auto line = [&](const char* key, const std::string& value) { out += printf_string("%-19s", key) + value + "\n"; };
  for (size_t i = 0; i < bag.files.size(); ++i) line(i == 0 ? "Files:" : "", bag.files[i].name);
  if (bag.files.empty()) line("Files:", "");
  line("Bag size:", size_text(bag.total_size()));
  line("Storage id:", "sqlite3");
  const FileFacts& times = report.file;
  int64_t duration = times.start_ns ? time_math::span(*times.start_ns, *times.end_ns).value_or(0) : 0;
  line("Duration:", printf_string("%lld.%09llds", static_cast<long long>(duration / 1000000000),
                                  static_cast<long long>(duration % 1000000000)));
  if (times.start_ns) line("Start:", time_text(*times.start_ns));
  if (times.end_ns) line("End:", time_text(*times.end_ns));
  line("Messages:", std::to_string(totals.messages));
  for (size_t i = 0; i < totals.topics.size(); ++i) {
    const TopicRow& t = totals.topics[i];
    line(i == 0 ? "Topic information:" : "",
         "Topic: " + t.name + " | Type: " + t.type + " | Count: " + std::to_string(t.count) +
             " | Serialization Format: " + t.serialization_format);
  }
  if (totals.topics.empty()) line("Topic information:", "");
  // What ros2 bag info does not say: where the numbers come from and what is amiss.
  if (totals.from_yaml) out += "\n(counts from metadata.yaml: no database could be read)\n";
  for (const Problem& p : report.problems)
    out += std::string(p.severity == Severity::Info ? "note" : p.severity == Severity::Warning ? "warning" : "error") + ": " +
           p.message + "\n";
  return out;
}

Json Rosbag2Inspector::checksum(const ProgressFn&) {
  Json j = Json::object();
  j["status"] = "not_applicable";
  j["reason"] = "SQLite databases carry no checksum; `logscope check` runs SQLite's integrity check";
  return j;
}

// The tree: the bag's files ("f<k>"), each with its topics ("f<k>/t<j>").
namespace {

// The file of "f<k>" or "f<k>/t<j>", and the topic (SIZE_MAX for a file node); false for no node.
bool parse_node(const std::string& id, const Bag& bag, size_t* file, size_t* topic) {
  auto parsed = NodeId::parse(id);
  if (!parsed || parsed->segments.empty() || parsed->segments.size() > 2) return false;
  const NodeSegment& f = parsed->segments[0];
  if (f.tag != 'f' || f.numbers.size() != 1 || f.numbers[0] >= bag.files.size()) return false;
  *file = static_cast<size_t>(f.numbers[0]);
  *topic = SIZE_MAX;
  if (parsed->segments.size() == 1) return true;
  const NodeSegment& t = parsed->segments[1];
  if (t.tag != 't' || t.numbers.size() != 1 || t.numbers[0] >= bag.files[*file].tables.topics.size()) return false;
  *topic = static_cast<size_t>(t.numbers[0]);
  return true;
}

}  // namespace

uint64_t Rosbag2Inspector::child_count(const std::string& node_id) {
  if (node_id.empty()) return bag_->files.size();
  size_t file = 0, topic = 0;
  if (!parse_node(node_id, *bag_, &file, &topic) || topic != SIZE_MAX) return 0;
  return bag_->files[file].tables.topics.size();
}

std::vector<TreeNode> Rosbag2Inspector::children(const std::string& node_id, uint64_t first, uint64_t count) {
  std::vector<TreeNode> out;
  uint64_t total = child_count(node_id);
  for (uint64_t k = first; k < total && k - first < count; ++k) {
    TreeNode n;
    if (node_id.empty()) {
      const BagFile& f = bag_->files[k];
      n.id = NodeId::one('f', {k});
      n.label = f.name + " (" + size_text(f.size) + ")";
      n.kind = "chunk";
      // The byte views show one file: the first (a lone database is the whole of it).
      n.length = k == 0 ? f.size : 0;
      n.child_count = f.tables.topics.size();
    } else {
      size_t file = 0, topic = 0;
      parse_node(node_id, *bag_, &file, &topic);
      const Topic& t = bag_->files[file].tables.topics[k];
      n.id = node_id + "/" + NodeId::one('t', {k});
      n.label = t.name + " (" + t.type + ")";
      n.kind = "index";
    }
    out.push_back(n);
  }
  return out;
}

std::vector<std::string> Rosbag2Inspector::locate(uint64_t offset) {
  if (bag_->files.empty() || offset >= bag_->files[0].size) return {};
  return {NodeId::one('f', {0})};
}
std::vector<Span> Rosbag2Inspector::spans(uint64_t, uint64_t) { return {}; }

Json Rosbag2Inspector::decode(const std::string& node_id) {
  size_t file = 0, topic = 0;
  if (!parse_node(node_id, *bag_, &file, &topic)) return QueryArgs::error_json("no node " + node_id);
  Json j = Json::object();
  const BagFile& f = bag_->files[file];
  if (topic != SIZE_MAX) {
    const Topic& t = f.tables.topics[topic];
    j["id"] = t.id;
    j["name"] = t.name;
    j["type"] = t.type;
    j["serialization_format"] = t.serialization_format;
    j["offered_qos_profiles"] = t.offered_qos_profiles;
    j["type_description_hash"] = t.type_description_hash;
    read_topic_stats(*bag_);
    auto st = f.tables.stats.find(t.id);
    j["messages"] = st == f.tables.stats.end() ? 0 : st->second.count;
    return with_units(std::move(j), {{"id", Unit::Id}, {"name", Unit::Text}, {"type", Unit::Text},
                                     {"serialization_format", Unit::Text}, {"offered_qos_profiles", Unit::Text},
                                     {"type_description_hash", Unit::Text}, {"messages", Unit::Count}});
  }
  j["file"] = f.name;
  j["size"] = f.size;
  j["wal"] = f.wal_name;
  j["wal_size"] = f.wal_size;
  j["wal_mode"] = f.wal_mode;
  j["schema_version"] = f.tables.schema_version ? Json(*f.tables.schema_version) : Json();
  j["ros_distro"] = f.tables.ros_distro;
  j["messages"] = f.tables.message_count;
  j["definitions"] = f.tables.definitions.size();
  j["error"] = f.error;
  return with_units(std::move(j), {{"file", Unit::Text}, {"size", Unit::Bytes}, {"wal", Unit::Text}, {"wal_size", Unit::Bytes},
                                   {"wal_mode", Unit::Flag}, {"schema_version", Unit::Id}, {"ros_distro", Unit::Text},
                                   {"messages", Unit::Count}, {"definitions", Unit::Count}, {"error", Unit::Text}});
}

FileMap Rosbag2Inspector::file_map(bool, const ProgressFn&) {
  FileMap map;
  map.file_size = bag_->total_size();
  map.source = "index";
  map.error = "a rosbag2 bag's map of SQLite pages is not made yet";
  return map;
}

std::vector<QuerySpec> Rosbag2Inspector::queries() {
  std::vector<QuerySpec> list = {
      {"messages", "messages in stored order: topic, time, size and SHA1 of the (decompressed) bytes",
       {{"topic", ArgType::String, "only this topic"}, {"first", ArgType::U64, "first result"}, {"limit", ArgType::U64, "results"}},
       {{"messages.file", Unit::Text}, {"messages.row", Unit::Id}, {"messages.topic", Unit::Text}, {"messages.time", Unit::TimeNs},
        {"messages.size", Unit::Bytes}, {"messages.sha1", Unit::Text}, {"messages.error", Unit::Text}},
       [this](QueryArgs& args, const ProgressFn&) {
         std::string topic = args.str("topic", "");
         uint64_t first = args.u64("first", 0, 0, UINT64_MAX);
         uint64_t limit = args.u64("limit", 100, 0, 100000);
         Json list = Json::array();
         uint64_t seen = 0;
         std::string error;
         for_each_bag_message(*bag_, [&](const BagMessage& m) {
           if (!topic.empty() && (!m.topic || m.topic->name != topic)) return true;
           if (seen++ < first) return true;
           if (list.size() >= limit) return false;
           Json j = Json::object();
           j["file"] = bag_->files[m.file].name;
           j["row"] = m.stored.row_id;
           j["topic"] = m.topic ? m.topic->name : "";
           j["time"] = std::to_string(m.stored.timestamp_ns);
           j["size"] = m.size;
           j["sha1"] = Sha1::hex(Sha1::of(m.data, m.size));
           if (!m.decode_error.empty()) j["error"] = m.decode_error;
           list.push_back(std::move(j));
           return true;
         }, &error);
         Json answer = Json::object();
         answer["messages"] = std::move(list);
         if (!error.empty()) answer["error"] = error;
         return answer;
       }},
  };
  add_data_queries(list);  // decoded, columns, plot, timeline, definitions (decoded.cpp)
  views::add_view_queries(list, message_source());
  return list;
}

}  // namespace logscope::rosbag2
