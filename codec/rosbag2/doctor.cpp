// `logscope check` of a rosbag2 bag: SQLite's integrity check of every database, messages whose
// topic_id has no topic, per-message zstd that does not decode, timestamps outside the yaml's
// span, messages their topic's definition does not fit, and the yaml against the databases
// (files, counts per topic and in all). Problems name the file, the table and the row.
#include <algorithm>
#include <map>

#include "core/printf_text.h"
#include "core/time_math.h"
#include "rosbag2/doctor_checks.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/recover.h"

namespace logscope::rosbag2 {

namespace {
constexpr int kIntegrityLimit = 20;
constexpr size_t kMaxProblemsPerKind = 20;  // per file: the rest are counted in one line
}  // namespace

Report Rosbag2Inspector::check(const ProgressFn& progress) {
  Report r = info_report(progress);  // the exact per-topic counts, not the first view's yaml counts
  Bag& bag = *bag_;
  uint64_t total_bytes = bag.total_size();
  uint64_t done_bytes = 0;
  for (BagFile& f : bag.files) {
    check_truncation(f, r);
    check_tables_readable(f, r);
    if (!f.reader) continue;
    std::string error;
    std::vector<std::string> findings = integrity_check(*f.reader, kIntegrityLimit, &error);
    if (!error.empty()) {
      r.add_problem(Severity::Error, 0, "rosbag2.db.integrity", f.name + ": SQLite's integrity check failed: " + error);
    } else if (!(findings.size() == 1 && findings[0] == "ok")) {
      for (const NamedFinding& finding : name_integrity_findings(f, findings))
        r.add_problem(Severity::Error, finding.offset, "rosbag2.db.integrity", finding.text);
    }
    done_bytes += f.size + f.wal_size;
    if (progress && !progress(done_bytes, total_bytes)) {
      r.add_problem(Severity::Warning, 0, "rosbag2.check.cancelled", "the check was cancelled");
      return r;
    }
  }

  // The rows: orphans, zstd, span.
  std::optional<int64_t> yaml_start, yaml_end;
  if (bag.metadata && bag.metadata->starting_time_ns && *bag.metadata->starting_time_ns != INT64_MAX && bag.metadata->duration_ns) {
    yaml_end = time_math::add(*bag.metadata->starting_time_ns, *bag.metadata->duration_ns);
    if (yaml_end) yaml_start = *bag.metadata->starting_time_ns;  // a span past int64 is no span to check against
  }
  std::map<std::pair<size_t, std::string>, uint64_t> counted;  // (file, kind) -> problems
  auto limited = [&](size_t file, const std::string& kind) { return ++counted[{file, kind}] <= kMaxProblemsPerKind; };
  std::string error;
  std::map<size_t, int64_t> last_row;  // per file: the last row read, to say where reading stopped
  bool ok = for_each_bag_message(bag, [&](const BagMessage& m) {
    const std::string& file = bag.files[m.file].name;
    last_row[m.file] = m.stored.row_id;
    if (!m.topic && limited(m.file, "orphan"))
      r.add_problem(Severity::Error, 0, "rosbag2.messages.orphan_topic",
                    printf_string("%s: table messages, row %lld: topic_id %lld has no row in topics", file.c_str(),
                                  static_cast<long long>(m.stored.row_id), static_cast<long long>(m.stored.topic_id)));
    if (!m.decode_error.empty() && limited(m.file, "zstd"))
      r.add_problem(Severity::Error, 0, "rosbag2.messages.zstd_damaged",
                    printf_string("%s: table messages, row %lld: %s", file.c_str(), static_cast<long long>(m.stored.row_id),
                                  m.decode_error.c_str()));
    if (yaml_start && (m.stored.timestamp_ns < *yaml_start || m.stored.timestamp_ns > *yaml_end) && limited(m.file, "span"))
      r.add_problem(Severity::Warning, 0, "rosbag2.messages.outside_span",
                    printf_string("%s: table messages, row %lld: time %lld is outside metadata.yaml's span [%lld, %lld]", file.c_str(),
                                  static_cast<long long>(m.stored.row_id), static_cast<long long>(m.stored.timestamp_ns),
                                  static_cast<long long>(*yaml_start), static_cast<long long>(*yaml_end)));
    std::string why;  // a definition (the bag's or a supplied one) that does not fit the bytes (decode.h)
    if (m.topic && m.decode_error.empty() && !fits_definition(decoders().get(*m.topic), m.data, m.size, &why) && limited(m.file, "decode")) {
      Problem p = size_mismatch(decoders().get(*m.topic), file + " row " + std::to_string(m.stored.row_id), m.size, why);
      r.add_problem(p.severity, p.offset, p.code, p.message);
    }
    return true;
  }, &error);
  if (!ok) {
    // for_each_bag_message stops at the first file that fails: the one after the last read.
    std::string where;
    for (size_t i = 0; i < bag.files.size(); ++i)
      if (error.compare(0, bag.files[i].name.size() + 1, bag.files[i].name + ":") == 0)
        where = last_row.count(i) ? printf_string("table messages, after row %lld: ", static_cast<long long>(last_row[i]))
                                  : "table messages, before its first row: ";
    size_t colon = error.find(": ");
    r.add_problem(Severity::Error, 0, "rosbag2.messages.unreadable",
                  colon == std::string::npos ? "reading the messages stopped: " + error
                                             : error.substr(0, colon + 2) + where + "reading stopped: " + error.substr(colon + 2));
  }
  check_duplicates(bag, r);
  check_definitions(bag, r);
  for (const auto& c : counted)
    if (c.second > kMaxProblemsPerKind)
      r.add_problem(Severity::Warning, 0, "rosbag2.messages.more",
                    printf_string("%s: %llu more problems of the kind above", bag.files[c.first.first].name.c_str(),
                                  static_cast<unsigned long long>(c.second - kMaxProblemsPerKind)));

  // Damaged databases: what SQLite's recovery extension salvages, per topic.
  std::vector<std::string> damaged;
  for (const Problem& p : r.problems)
    if (p.code == "rosbag2.db.integrity" || p.code == "rosbag2.messages.unreadable" || p.code == "rosbag2.db.tables" ||
        p.code == "rosbag2.db.truncated" || p.code == "rosbag2.db.table_unreadable")
      for (const BagFile& f : bag.files)
        if (p.message.compare(0, f.name.size() + 1, f.name + ":") == 0 &&
            std::find(damaged.begin(), damaged.end(), f.name) == damaged.end())
          damaged.push_back(f.name);
  uint64_t salvaged = 0;
  for (BagFile& f : bag.files) {
    if (!f.reader || std::find(damaged.begin(), damaged.end(), f.name) == damaged.end()) continue;
    Recovered rec = recover_database(*f.reader);
    if (!rec.ok) {
      r.add_problem(Severity::Error, 0, "rosbag2.recover.failed", f.name + ": SQLite's recovery found no messages table: " + rec.error);
      continue;
    }
    salvaged += rec.messages;
    for (const RecoveredTopic& t : rec.topics)
      r.add_problem(Severity::Info, 0, "rosbag2.recover.rows",
                    printf_string("%s: recovery brings back %llu messages of %s", f.name.c_str(),
                                  static_cast<unsigned long long>(t.messages), t.name.c_str()));
  }
  if (!damaged.empty()) {
    r.recovery.performed = true;
    r.recovery.reason = "sqlite_recover";
    r.recovery.message = "SQLite's recovery extension read the damaged database" + std::string(damaged.size() == 1 ? "" : "s") +
                         " page by page";
    r.recovery.ends_at = r.file.size_bytes;
    r.recovery.recovered.push_back({"messages", salvaged});
  }

  // The yaml against the databases: the databases win, a warning gives both.
  check_yaml_span(bag, r);
  if (bag.metadata) {
    const BagMetadata& m = *bag.metadata;
    BagTotals totals = bag_totals(bag);
    auto at = [](uint64_t line) { return line ? "metadata.yaml line " + std::to_string(line) + ": " : std::string("metadata.yaml: "); };
    if (!totals.from_yaml) {
      if (m.message_count && *m.message_count != totals.messages)
        r.add_problem(Severity::Warning, 0, "rosbag2.yaml.count_mismatch",
                      at(m.message_count_line) + printf_string("message_count %llu, the databases hold %llu",
                                    static_cast<unsigned long long>(*m.message_count), static_cast<unsigned long long>(totals.messages)));
      for (const YamlTopic& t : m.topics) {
        const TopicRow* row = nullptr;
        for (const TopicRow& x : totals.topics)
          if (x.name == t.name) row = &x;
        if (!row) {
          r.add_problem(Severity::Warning, 0, "rosbag2.yaml.topic_missing",
                        at(t.line) + printf_string("topic %s has message_count %llu; it is in no database's topics table", t.name.c_str(),
                                                   static_cast<unsigned long long>(t.message_count)));
        } else if (row->count != t.message_count) {
          r.add_problem(Severity::Warning, 0, "rosbag2.yaml.topic_count_mismatch",
                        at(t.line) + printf_string("topic %s has message_count %llu, the databases hold %llu", t.name.c_str(),
                                      static_cast<unsigned long long>(t.message_count), static_cast<unsigned long long>(row->count)));
        }
      }
      for (const YamlFile& yf : m.files) {
        for (const BagFile& f : bag.files) {
          if (!f.tables_read || (f.name != yf.path && yf.path.size() > f.name.size() &&
                                 yf.path.compare(yf.path.size() - f.name.size(), f.name.size(), f.name) != 0))
            continue;
          if (f.name != yf.path && !(yf.path.size() > f.name.size() && yf.path[yf.path.size() - f.name.size() - 1] == '/')) continue;
          if (yf.message_count && *yf.message_count != f.tables.message_count)
            r.add_problem(Severity::Warning, 0, "rosbag2.yaml.file_count_mismatch",
                          at(yf.line) + printf_string("%s has message_count %llu, the database holds %llu", f.name.c_str(),
                                        static_cast<unsigned long long>(*yf.message_count),
                                        static_cast<unsigned long long>(f.tables.message_count)));
        }
      }
    }
  }
  return r;
}

}  // namespace logscope::rosbag2
