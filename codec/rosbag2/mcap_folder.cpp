// A rosbag2 folder that stores MCAP: opening the splits, the merged summary and check, the tree
// and the timeline. Export, plot and the decoded pages across the splits: mcap_folder_data.cpp.
#include "rosbag2/mcap_folder.h"

#include <algorithm>
#include <map>

#include "core/plot.h"
#include "core/printf_text.h"
#include "core/time_findings.h"
#include "core/time_math.h"
#include "mcap/inspector.h"
#include "rosbag2/bag.h"
#include "rosbag2/mcap_folder_impl.h"
#include "rosbag2/metadata.h"

namespace logscope::rosbag2 {
ProgressFn split_progress(const ProgressFn& progress, uint64_t before, uint64_t total) {
  if (!progress) return nullptr;
  return [&progress, before, total](uint64_t done, uint64_t) { return progress(before + done, total); };
}

McapBagInspector::McapBagInspector(Folder& folder) {
  FolderYaml yaml = read_folder_yaml(folder);
  has_yaml_ = yaml.present;
  if (yaml.metadata) meta_ = *yaml.metadata;
  problems_ = yaml.problems;
  check_storage(yaml, "mcap", &problems_);
  SplitFiles files = split_files(folder.files(), yaml.metadata ? &*yaml.metadata : nullptr, "mcap", &problems_);
  for (const std::string& name : files.order) {
    std::string error;
    Split s;
    s.name = name;
    s.source = folder.open(name, &error);
    if (!s.source) {
      problems_.push_back({Severity::Error, 0, "rosbag2.file.unreadable", name + ": " + error});
      continue;
    }
    s.inspector = mcap::open_inspector(*s.source);
    splits_.push_back(std::move(s));
  }
}

Report McapBagInspector::summary() {
  std::vector<Report> parts;
  for (Split& s : splits_) parts.push_back(s.inspector->summary());
  return merged(parts, false);
}

Report McapBagInspector::check(const ProgressFn& progress) {
  std::vector<Report> parts;
  uint64_t total = 0, done = 0;
  for (Split& s : splits_) total += s.source->size();
  for (Split& s : splits_) {
    parts.push_back(s.inspector->check(split_progress(progress, done, total)));
    done += s.source->size();
  }
  return merged(parts, true);
}

std::string McapBagInspector::info_text(const InfoOptions&) {
  Report r = summary();
  std::string out = "\n";
  auto line = [&](const char* key, const std::string& value) { out += printf_string("%-19s", key) + value + "\n"; };
  for (size_t i = 0; i < splits_.size(); ++i) line(i == 0 ? "Files:" : "", splits_[i].name);
  line("Bag size:", format_bytes(r.file.size_bytes));
  line("Storage id:", "mcap");
  if (r.file.start_ns && r.file.end_ns) {
    line("Duration:", printf_string("%.9fs", time_math::span_seconds(*r.file.start_ns, *r.file.end_ns).value_or(0)));
    line("Start:", std::to_string(*r.file.start_ns) + " ns");
    line("End:", std::to_string(*r.file.end_ns) + " ns");
  } else {
    line("Duration:", "0.000000000s");  // an empty bag: no start or end to show
  }
  line("Messages:", std::to_string(r.file.count("messages") ? r.file.count("messages")->value : 0));
  bool first = true;
  for (const auto& [name, t] : topics_)
    line(first ? "Topic information:" : "",
         "Topic: " + name + " | Type: " + t.type + " | Count: " + std::to_string(t.count) + " | Serialization Format: " + t.encoding),
        first = false;
  // What ros2 bag info does not say: what is amiss in the yaml and the files.
  for (const Problem& p : problems_)
    out += std::string(p.severity == Severity::Info ? "note" : p.severity == Severity::Warning ? "warning" : "error") + ": " +
           p.message + "\n";
  return out;
}

Json McapBagInspector::checksum(const ProgressFn& progress) {
  Json files = Json::array();
  std::string status;
  for (Split& s : splits_) {
    Json c = s.inspector->checksum(progress);
    const Json* st = c.find("status");
    std::string one = st && st->is_string() ? st->as_string() : "none";
    // Any mismatch wins; "valid" only when every split is.
    if (status.empty() || one == "mismatch" || (status == "valid" && one != "valid")) status = status == "mismatch" ? status : one;
    Json f = Json::object();
    f["file"] = s.name;
    f["checksum"] = std::move(c);
    files.push_back(std::move(f));
  }
  Json j = Json::object();
  j["status"] = status.empty() ? "absent" : status;
  j["files"] = std::move(files);
  return j;
}

// The tree: one node per split, the split's MCAP tree beneath ("s<i>" + "|" + its node id).
uint64_t McapBagInspector::child_count(const std::string& node_id) {
  if (node_id.empty()) return splits_.size();
  std::string inner;
  Split* s = route(node_id, &inner);
  return s ? s->inspector->child_count(inner) : 0;
}
std::vector<TreeNode> McapBagInspector::children(const std::string& node_id, uint64_t first, uint64_t count) {
  std::vector<TreeNode> out;
  if (node_id.empty()) {
    for (uint64_t k = first; k < splits_.size() && k - first < count; ++k) {
      TreeNode n;
      n.id = "s" + std::to_string(k);
      n.label = splits_[k].name + " (" + format_bytes(splits_[k].source->size()) + ")";
      n.kind = "chunk";
      n.length = k == 0 ? splits_[k].source->size() : 0;  // the byte views show the first split
      n.child_count = splits_[k].inspector->child_count("");
      out.push_back(n);
    }
    return out;
  }
  std::string inner;
  Split* s = route(node_id, &inner);
  if (!s) return out;
  out = s->inspector->children(inner, first, count);
  std::string prefix = node_id.substr(0, node_id.find('|')) + "|";
  for (TreeNode& n : out) {
    n.id = prefix + n.id;
    if (s != &splits_[0]) n.offset = 0, n.length = 0;
  }
  return out;
}
std::vector<std::string> McapBagInspector::locate(uint64_t offset) {
  std::vector<std::string> path{"s0"};
  if (splits_.empty()) return {};
  for (const std::string& id : splits_[0].inspector->locate(offset)) path.push_back("s0|" + id);
  return path;
}
std::vector<Span> McapBagInspector::spans(uint64_t offset, uint64_t length) {
  return splits_.empty() ? std::vector<Span>{} : splits_[0].inspector->spans(offset, length);
}
Json McapBagInspector::decode(const std::string& node_id) {
  std::string inner;
  Split* s = route(node_id, &inner);
  if (s) return s->inspector->decode(inner);
  Json j = Json::object();
  j["error"] = "no such node: " + node_id;
  return j;
}
FileMap McapBagInspector::file_map(bool full_check, const ProgressFn& progress) {
  return splits_.empty() ? FileMap{} : splits_[0].inspector->file_map(full_check, progress);
}

McapBagInspector::Split* McapBagInspector::route(const std::string& node_id, std::string* inner) {
  size_t bar = node_id.find('|');
  std::string head = node_id.substr(0, bar);
  if (head.size() < 2 || head[0] != 's' || head.find_first_not_of("0123456789", 1) != std::string::npos || head.size() > 8) return nullptr;
  size_t k = std::stoul(head.substr(1));
  if (k >= splits_.size()) return nullptr;
  *inner = bar == std::string::npos ? "" : node_id.substr(bar + 1);
  return &splits_[k];
}

Report McapBagInspector::merged(const std::vector<Report>& parts, bool checking) {
  Report r;
  r.format = "rosbag2";
  r.format_label = "rosbag2 (MCAP)";
  r.problems = problems_;
  topics_.clear();
  uint64_t messages = 0;
  Table files{"files", {"file", "size", "messages", "format"}, {}, {Unit::Text, Unit::Bytes, Unit::Count, Unit::Text}};
  for (size_t i = 0; i < parts.size(); ++i) {
    const Report& p = parts[i];
    r.file.size_bytes += p.file.size_bytes;
    if (p.file.start_ns) r.file.start_ns = r.file.start_ns ? std::min(*r.file.start_ns, *p.file.start_ns) : *p.file.start_ns;
    if (p.file.end_ns) r.file.end_ns = r.file.end_ns ? std::max(*r.file.end_ns, *p.file.end_ns) : *p.file.end_ns;
    uint64_t n = p.file.count("messages") ? p.file.count("messages")->value : 0;
    messages += n;
    files.rows.push_back({splits_[i].name, p.file.size_bytes, n, p.format_label});
    for (const Problem& q : p.problems) r.add_problem(q.severity, q.offset, q.code, splits_[i].name + ": " + q.message);
    splits_[i].topic_messages.clear();
    splits_[i].start_ns = p.file.start_ns ? std::optional<uint64_t>(static_cast<uint64_t>(*p.file.start_ns)) : std::nullopt;
    splits_[i].end_ns = p.file.end_ns ? std::optional<uint64_t>(static_cast<uint64_t>(*p.file.end_ns)) : std::nullopt;
    for (const Table& t : p.tables) {
      if (t.name != "channels" || t.columns.size() < 6) continue;
      for (const auto& row : t.rows) {
        TopicTotal& total = topics_[row[1].as_string()];
        if (total.type.empty() && row[2].is_string()) total.type = row[2].as_string();
        if (total.encoding.empty() && row[4].is_string()) total.encoding = row[4].as_string();
        if (row[5].is_number()) total.count += row[5].as_uint();
        // Two channels of one topic in a split: their counts add up, unknown if either is.
        std::optional<uint64_t>& n = splits_[i].topic_messages.emplace(row[1].as_string(), uint64_t{0}).first->second;
        if (!row[5].is_number()) n.reset();
        else if (n) *n += row[5].as_uint();
      }
    }
    if (p.recovery.performed && !r.recovery.performed) r.recovery = p.recovery;
  }
  drop_out_of_range_times(r);  // also drops a start without an end
  r.file.counts = {{"messages", messages}, {"topics", topics_.size()}, {"files", splits_.size()}};
  merged_ = true;
  r.facts.set("storage", "mcap", Unit::Text);
  if (meta_.version) r.facts.set("metadata_version", meta_.version, Unit::Id);
  r.facts.set("metadata_yaml", has_yaml_, Unit::Flag);
  if (!meta_.ros_distro.empty()) r.facts.set("ros_distro", meta_.ros_distro, Unit::Text);
  Table topics{"topics", {"topic", "type", "messages", "serialization_format", "first", "last"}, {},
               {Unit::Text, Unit::Text, Unit::Count, Unit::Text, Unit::TimeNs, Unit::TimeNs}};
  for (const auto& [name, t] : topics_) topics.rows.push_back({name, t.type, t.count, t.encoding, Json(), Json()});
  r.tables.push_back(std::move(topics));
  r.tables.push_back(std::move(files));
  if (!checking) return r;
  // The yaml against the splits: the splits win, a warning gives both.
  auto at = [](uint64_t line) { return line ? "metadata.yaml line " + std::to_string(line) + ": " : std::string("metadata.yaml: "); };
  if (meta_.message_count && *meta_.message_count != messages)
    r.add_problem(Severity::Warning, 0, "rosbag2.yaml.count_mismatch",
                  at(meta_.message_count_line) + printf_string("message_count %llu, the MCAP files hold %llu",
                                static_cast<unsigned long long>(*meta_.message_count), static_cast<unsigned long long>(messages)));
  for (const YamlTopic& t : meta_.topics) {
    auto it = topics_.find(t.name);
    if (it == topics_.end() && t.message_count)
      r.add_problem(Severity::Warning, 0, "rosbag2.yaml.topic_missing",
                    at(t.line) + printf_string("topic %s has message_count %llu; it is in no MCAP file's channels", t.name.c_str(),
                                               static_cast<unsigned long long>(t.message_count)));
    else if (it != topics_.end() && it->second.count != t.message_count)
      r.add_problem(Severity::Warning, 0, "rosbag2.yaml.topic_count_mismatch",
                    at(t.line) + printf_string("topic %s has message_count %llu, the MCAP files hold %llu", t.name.c_str(),
                                  static_cast<unsigned long long>(t.message_count), static_cast<unsigned long long>(it->second.count)));
  }
  for (const YamlFile& yf : meta_.files)
    for (size_t i = 0; i < parts.size(); ++i)
      if (splits_[i].name == base_name(yf.path) && yf.message_count && parts[i].file.count("messages") &&
          *yf.message_count != parts[i].file.count("messages")->value)
        r.add_problem(Severity::Warning, 0, "rosbag2.yaml.file_count_mismatch",
                      at(yf.line) + printf_string("%s has message_count %llu, the file holds %llu", splits_[i].name.c_str(),
                                    static_cast<unsigned long long>(*yf.message_count),
                                    static_cast<unsigned long long>(parts[i].file.count("messages")->value)));
  bool yaml_empty = !meta_.starting_time_ns || *meta_.starting_time_ns == INT64_MAX || meta_.message_count.value_or(0) == 0;
  std::optional<int64_t> span = r.file.start_ns ? time_math::span(*r.file.start_ns, *r.file.end_ns) : std::nullopt;
  if (!yaml_empty && meta_.duration_ns && span && (*meta_.starting_time_ns != *r.file.start_ns || *meta_.duration_ns != *span))
    r.add_problem(Severity::Warning, 0, "rosbag2.yaml.span_mismatch",
                  at(meta_.starting_time_line) + printf_string("starting_time %lld and duration %lld ns; the MCAP files span %lld to %lld",
                                static_cast<long long>(*meta_.starting_time_ns), static_cast<long long>(*meta_.duration_ns),
                                static_cast<long long>(*r.file.start_ns), static_cast<long long>(*r.file.end_ns)));
  return r;
}

Json McapBagInspector::timeline(QueryArgs& args, const ProgressFn& progress) {
  Report s = summary();
  uint64_t lo = s.file.start_ns ? static_cast<uint64_t>(*s.file.start_ns) : 0, hi = s.file.end_ns ? static_cast<uint64_t>(*s.file.end_ns) : 0;
  uint64_t t0 = 0, t1 = 0;
  size_t bins = 0;
  if (!read_timeline_args(args, lo, hi, &t0, &t1, &bins)) return QueryArgs::error_json(args.error());
  Json ask = Json::object();
  ask["t0_ns"] = std::to_string(t0);
  ask["t1_ns"] = std::to_string(t1);
  ask["bins"] = static_cast<uint64_t>(bins);
  Json out;
  std::map<std::string, size_t> rows;  // topic -> index in out["rows"]
  for (Split& split : splits_) {
    Json part = split.inspector->query("timeline", ask, progress);
    if (part.find("error")) return part;
    if (out.is_null()) {
      out = part;
      out["rows"] = Json::array();
    }
    const Json* part_rows = part.find("rows");
    if (!part_rows) continue;
    for (const Json& row : part_rows->elements()) {
      const std::string& name = row.find("name")->as_string();
      auto it = rows.find(name);
      if (it == rows.end()) {
        rows[name] = out["rows"].size();
        out["rows"].push_back(row);
        continue;
      }
      Json& into = out["rows"].elements()[it->second];
      into["total"] = into.find("total")->as_uint() + row.find("total")->as_uint();
      into["in_range"] = into.find("in_range")->as_double() + row.find("in_range")->as_double();
      Json& counts = into["counts"];
      const Json& more = *row.find("counts");
      // Every split was asked for the same bins; a split that got fewer (its row cap) adds totals only.
      if (counts.size() == more.size())
        for (size_t b = 0; b < counts.size(); ++b) counts.elements()[b] = counts[b].as_double() + more[b].as_double();
    }
  }
  if (out.is_null()) return QueryArgs::error_json("the bag has no readable MCAP file");
  return out;
}

std::unique_ptr<FormatInspector> open_mcap_bag_inspector(Folder& folder) { return std::make_unique<McapBagInspector>(folder); }

}  // namespace logscope::rosbag2
