// The robot_log view: rows from the three log types, kept compactly per file after one walk over
// the log topics, then filtered and paged from memory (a page never holds the whole log).
#include "views/robot_log.h"

#include "views/view_support.h"

#include <regex.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <memory>

namespace logscope::views {
namespace {

constexpr uint64_t kMaxPage = 10000;
constexpr uint64_t kCacheBudget = 192ull << 20;  // bytes of rows and text kept per file

enum class Kind { Ros1, Ros2, Foxglove };

std::optional<Kind> kind_of(std::string_view type) {
  if (type == "rosgraph_msgs/Log" || type == "rosgraph_msgs/msg/Log") return Kind::Ros1;
  if (type == "rcl_interfaces/msg/Log" || type == "rcl_interfaces/Log") return Kind::Ros2;
  if (type == "foxglove.Log" || type == "foxglove_msgs/msg/Log" || type == "foxglove_msgs/Log") return Kind::Foxglove;
  return std::nullopt;
}

LogLevel level_of(Kind kind, int64_t raw) {
  switch (kind) {
    case Kind::Ros1:  // rosgraph_msgs/Log: DEBUG=1 INFO=2 WARN=4 ERROR=8 FATAL=16
      switch (raw) {
        case 1: return LogLevel::Debug;
        case 2: return LogLevel::Info;
        case 4: return LogLevel::Warn;
        case 8: return LogLevel::Error;
        case 16: return LogLevel::Fatal;
      }
      return LogLevel::Unknown;
    case Kind::Ros2:  // rcl_interfaces/msg/Log: DEBUG=10 INFO=20 WARN=30 ERROR=40 FATAL=50
      if (raw > 0 && raw % 10 == 0 && raw <= 50) return static_cast<LogLevel>(raw / 10);
      return LogLevel::Unknown;
    case Kind::Foxglove:  // foxglove.Log: UNKNOWN=0 DEBUG=1 INFO=2 WARNING=3 ERROR=4 FATAL=5
      if (raw >= 1 && raw <= 5) return static_cast<LogLevel>(raw);
      return LogLevel::Unknown;
  }
  return LogLevel::Unknown;
}

// The number a level name stands for in `kind` (protobuf and JSON may give foxglove's enum by name).
std::optional<int64_t> raw_of_name(Kind kind, const std::string& name) {
  std::optional<LogLevel> level = parse_level(name);
  if (!level || *level == LogLevel::Unknown) return std::nullopt;
  int n = static_cast<int>(*level);
  if (kind == Kind::Ros1) return int64_t{1} << (n - 1);
  if (kind == Kind::Ros2) return int64_t{n} * 10;
  return n;
}

const Json* field(const Json& message, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const Json* j = message.find(name)) return j;
  return nullptr;
}

// A time given as seconds and nanoseconds, in any of the decoders' spellings; nullopt otherwise.
std::optional<uint64_t> time_of(const Json* t) {
  if (!t || !t->is_object()) return std::nullopt;
  const Json* s = field(*t, {"secs", "sec", "seconds"});
  const Json* ns = field(*t, {"nsecs", "nanosec", "nsec", "nanos"});
  // 64-bit integers may come as decimal text (protobuf's int64 seconds, exact past 2^53).
  auto integer = [](const Json* j) -> std::optional<int64_t> {
    if (j && j->is_number()) return j->as_int();
    if (!j || !j->is_string()) return std::nullopt;
    const std::string& text = j->as_string();
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return std::stoll(text);
  };
  std::optional<int64_t> seconds = integer(s);
  if (!seconds) return std::nullopt;
  int64_t secs = *seconds, nanos = integer(ns).value_or(0);
  if (secs < 0 || nanos < 0 || static_cast<uint64_t>(secs) > UINT64_MAX / 1000000000u - 1) return std::nullopt;
  return static_cast<uint64_t>(secs) * 1000000000u + static_cast<uint64_t>(nanos);
}

bool text_field(const Json& message, std::initializer_list<const char*> names, std::string* out, bool required, std::string* error) {
  const Json* j = field(message, names);
  if (!j || j->is_null()) {
    if (required) *error = std::string("no field \"") + *names.begin() + "\"";
    return !required;
  }
  if (!j->is_string()) {
    *error = std::string("field \"") + *names.begin() + "\" is not text";
    return false;
  }
  *out = j->as_string();
  return true;
}

}  // namespace

const char* level_name(LogLevel level) {
  static const char* const names[] = {"UNKNOWN", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"};
  return names[static_cast<int>(level)];
}

std::optional<LogLevel> parse_level(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "debug") return LogLevel::Debug;
  if (lower == "info") return LogLevel::Info;
  if (lower == "warn" || lower == "warning") return LogLevel::Warn;
  if (lower == "error") return LogLevel::Error;
  if (lower == "fatal") return LogLevel::Fatal;
  if (lower == "unknown") return LogLevel::Unknown;
  return std::nullopt;
}

bool is_log_type(std::string_view type) { return kind_of(type).has_value(); }

bool log_row(std::string_view type, const Json& message, uint64_t time_ns, LogRow* row, std::string* error) {
  std::optional<Kind> kind = kind_of(type);
  if (!kind) {
    *error = "not a log message type";
    return false;
  }
  if (!message.is_object()) {
    *error = "the message is not a structure";
    return false;
  }
  *row = LogRow{};
  row->time_ns = time_ns;
  const Json* level = field(message, {"level"});
  // protobuf leaves a proto3 field at its default out: foxglove.Log's level UNKNOWN, an empty text.
  bool defaults = *kind == Kind::Foxglove;
  if (!level && defaults) {
    row->raw_level = 0;
  } else if (level && level->is_number()) {
    row->raw_level = level->as_int();
  } else if (level && level->is_string()) {
    std::optional<int64_t> raw = raw_of_name(*kind, level->as_string());
    if (!raw) {
      *error = "level \"" + level->as_string() + "\" is no level";
      return false;
    }
    row->raw_level = *raw;
  } else {
    *error = "no field \"level\"";
    return false;
  }
  row->level = level_of(*kind, row->raw_level);
  if (*kind == Kind::Ros1) {
    const Json* header = field(message, {"header"});
    row->stamp_ns = header ? time_of(header->find("stamp")) : std::nullopt;
  } else {
    row->stamp_ns = time_of(field(message, {"stamp", "timestamp"}));
  }
  if (!text_field(message, {"name"}, &row->node, !defaults, error)) return false;
  if (!text_field(message, {"msg", "message"}, &row->text, !defaults, error)) return false;
  if (!text_field(message, {"file"}, &row->file, false, error)) return false;
  if (!text_field(message, {"function"}, &row->function, false, error)) return false;
  if (const Json* line = field(message, {"line"}); line && line->is_number()) row->line = line->as_uint();
  return true;
}

namespace {

// One row, its texts in the cache's arena.
struct Kept {
  uint64_t time_ns, stamp_ns;
  int64_t raw_level;
  uint64_t text, file, function;  // offsets in the arena; each text's end is the next's start
  uint64_t end;
  uint32_t line, topic, node;
  LogLevel level;
  bool has_stamp;
};

class LogCache : public WalkedCache {
 public:
  std::vector<std::string> nodes;
  std::map<std::string, uint32_t> node_ids;
  std::string arena;
  std::vector<Kept> rows;  // in time order

  std::string_view text(const Kept& k) const { return std::string_view(arena).substr(k.text, k.file - k.text); }
  std::string_view file(const Kept& k) const { return std::string_view(arena).substr(k.file, k.function - k.file); }
  std::string_view function(const Kept& k) const { return std::string_view(arena).substr(k.function, k.end - k.function); }

  bool take(const SourceMessage& m, size_t topic_index) override {
    LogRow row;
    std::string why = m.error;
    if (!m.message || !log_row(m.type, *m.message, m.time_ns, &row, &why)) {
      not_decoded(m, why);
      return true;
    }
    uint64_t size = row.text.size() + row.file.size() + row.function.size() + sizeof(Kept);
    if (arena.size() + rows.size() * sizeof(Kept) + size > kCacheBudget) {
      truncated = "the log's rows passed " + std::to_string(kCacheBudget >> 20) + " MiB at " + std::to_string(m.time_ns) +
                  " ns: the rows after it are left out";
      return false;
    }
    auto node = node_ids.emplace(row.node, static_cast<uint32_t>(nodes.size()));
    if (node.second) nodes.push_back(row.node);
    Kept k{};
    k.time_ns = row.time_ns;
    k.has_stamp = row.stamp_ns.has_value();
    k.stamp_ns = row.stamp_ns.value_or(0);
    k.raw_level = row.raw_level;
    k.level = row.level;
    k.line = static_cast<uint32_t>(std::min<uint64_t>(row.line, UINT32_MAX));
    k.topic = static_cast<uint32_t>(topic_index);
    k.node = node.first->second;
    k.text = arena.size();
    arena += row.text;
    k.file = arena.size();
    arena += row.file;
    k.function = arena.size();
    arena += row.function;
    k.end = arena.size();
    rows.push_back(k);
    return true;
  }

  // Formats hand messages in their file's order; the view is in time order (ties keep it). A sliced
  // walk's slices come in time order: only each slice's rows are sorted.
  void finish() override {
    auto earlier = [](const Kept& a, const Kept& b) { return a.time_ns < b.time_ns; };
    auto from = rows.begin() + static_cast<std::ptrdiff_t>(sorted_);
    std::stable_sort(from, rows.end(), earlier);
    // (Never with slices in time order; kept right all the same.)
    if (sorted_ > 0 && from != rows.end() && earlier(*from, *(from - 1))) std::stable_sort(rows.begin(), rows.end(), earlier);
    sorted_ = rows.size();
  }

 private:
  size_t sorted_ = 0;  // rows before it are in time order
};

// A POSIX extended regular expression (libc's regcomp: no exceptions, which the wasm build lacks).
class Pattern {
 public:
  ~Pattern() {
    if (compiled_) regfree(&re_);
  }
  bool compile(const std::string& text, bool ignore_case, std::string* error) {
    int rc = regcomp(&re_, text.c_str(), REG_EXTENDED | REG_NOSUB | (ignore_case ? REG_ICASE : 0));
    if (rc != 0) {
      std::array<char, 256> why{};
      regerror(rc, &re_, why.data(), why.size());
      *error = why.data();
      return false;
    }
    compiled_ = true;
    return true;
  }
  bool matches(std::string_view text, std::string* buffer) const {
    buffer->assign(text);  // regexec needs a terminated string
    return regexec(&re_, buffer->c_str(), 0, nullptr, 0) == 0;
  }

 private:
  regex_t re_{};
  bool compiled_ = false;
};

Json levels_json(const std::array<uint64_t, kLogLevels>& counts) {
  Json list = Json::array();
  for (int i = 0; i < kLogLevels; ++i) {
    Json j = Json::object();
    j["level"] = level_name(static_cast<LogLevel>(i));
    j["count"] = counts[static_cast<size_t>(i)];
    list.push_back(std::move(j));
  }
  return list;
}

Json row_json(const LogCache& cache, const Kept& k, uint64_t index) {
  Json j = Json::object();
  j["index"] = index;
  j["time_ns"] = std::to_string(k.time_ns);
  j["stamp_ns"] = k.has_stamp ? Json(std::to_string(k.stamp_ns)) : Json();
  j["level"] = level_name(k.level);
  j["raw_level"] = k.raw_level;
  j["node"] = cache.nodes[k.node];
  j["text"] = std::string(cache.text(k));
  j["file"] = std::string(cache.file(k));
  j["function"] = std::string(cache.function(k));
  j["line"] = k.line;
  j["topic"] = cache.topics[k.topic].topic;
  return j;
}

Json robot_log_answer(MessageSource& source, QueryArgs& args, const ProgressFn& progress) {
  uint64_t first = args.u64("first", 0);
  uint64_t count = std::min(args.u64("count", 100), kMaxPage);
  uint64_t t0 = args.u64("t0_ns", 0), t1 = args.u64("t1_ns", UINT64_MAX);
  std::string level_text = args.str("level"), node = args.str("node"), grep = args.str("grep"), topic = args.str("topic");
  bool ignore_case = args.flag("ignore_case");
  uint64_t slice_ms = args.u64("slice_ms", 0, 0, 60000);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  LogLevel min_level = LogLevel::Unknown;
  if (!level_text.empty()) {
    std::optional<LogLevel> parsed = parse_level(level_text);
    if (!parsed) return QueryArgs::error_json("robot_log: argument \"level\" must be debug, info, warn, error or fatal, got \"" + level_text + "\"");
    min_level = *parsed;
  }
  Pattern pattern;
  std::string why;
  if (!grep.empty() && !pattern.compile(grep, ignore_case, &why))
    return QueryArgs::error_json("robot_log: argument \"grep\" is no regular expression (" + why + "): " + grep);
  // What the file's index says, no message read (the Overview's first question).
  if (args.flag("topics_only")) return topics_only_answer(source, is_log_type);
  auto* cache = view_cache<LogCache>(source, "robot_log", is_log_type, progress, WalkOptions(), slice_ms);
  Json out = Json::object();
  if (!cache) {
    out["cancelled"] = true;
    return out;
  }
  std::array<uint64_t, kLogLevels> all{}, levels{};
  std::map<uint32_t, uint64_t> per_node;
  Json rows = Json::array();
  Json first_error;
  uint64_t selected = 0;
  std::string buffer;
  for (size_t i = 0; i < cache->rows.size(); ++i) {
    const Kept& k = cache->rows[i];
    ++all[static_cast<size_t>(k.level)];
    ++per_node[k.node];
    if (first_error.is_null() && k.level >= LogLevel::Error) {
      first_error = Json::object();
      first_error["index"] = i;
      first_error["time_ns"] = std::to_string(k.time_ns);
    }
    if (k.time_ns < t0 || k.time_ns > t1) continue;
    if (!topic.empty() && cache->topics[k.topic].topic != topic) continue;
    if (!node.empty() && cache->nodes[k.node] != node) continue;
    if (!grep.empty() && !pattern.matches(cache->text(k), &buffer)) continue;
    ++levels[static_cast<size_t>(k.level)];
    if (k.level < min_level) continue;
    if (selected >= first && rows.size() < count) rows.push_back(row_json(*cache, k, i));
    ++selected;
  }
  Json nodes = Json::array();
  // By name (node_ids is): the order the walk met them in differs between a whole and a sliced walk.
  for (const auto& [name, id] : cache->node_ids) {
    auto n = per_node.find(id);
    if (n == per_node.end()) continue;
    Json j = Json::object();
    j["node"] = name;
    j["count"] = n->second;
    nodes.push_back(std::move(j));
  }
  out["topics"] = topics_json(*cache);
  out["total"] = cache->rows.size();
  out["all_levels"] = levels_json(all);
  out["levels"] = levels_json(levels);
  out["nodes"] = std::move(nodes);
  if (!first_error.is_null()) out["first_error"] = std::move(first_error);  // absent when the log has none
  out["selected"] = selected;
  out["first"] = first;
  out["count"] = rows.size();
  out["more"] = selected > first + rows.size();
  out["rows"] = std::move(rows);
  add_walk_account(out, *cache);
  return out;
}

}  // namespace

QuerySpec robot_log_query(MessageSource& source) {
  return {"robot_log",
          "the robot's own log messages (rosgraph_msgs/Log, rcl_interfaces/msg/Log, foxglove.Log) in time order, filtered, a page at a time, "
          "with the totals by level",
          {{"level", ArgType::String, "at least this level: debug, info, warn, error, fatal"},
           {"node", ArgType::String, "only this node (the message's name)"},
           {"grep", ArgType::String, "only messages whose text matches this POSIX extended regular expression"},
           {"ignore_case", ArgType::Bool, "grep ignores case"},
           {"topic", ArgType::String, "only this topic"},
           {"t0_ns", ArgType::U64, "from, ns since the epoch"},
           {"t1_ns", ArgType::U64, "to, ns since the epoch"},
           {"first", ArgType::U64, "index of the first row (in the selection)"},
           {"count", ArgType::U64, "rows (at most 10000)"},
           {"topics_only", ArgType::Bool, "only the log topics, from the index (no message read)"},
           {"slice_ms", ArgType::U64, "read on for about this long and answer with what is read so far (\"reading\" says how far), "
                                      "where the index allows; each query reads on (0: the whole log first)"}},
          with_walk_units({{"total", Unit::Count}, {"all_levels.level", Unit::Text}, {"all_levels.count", Unit::Count},
           {"levels.level", Unit::Text}, {"levels.count", Unit::Count}, {"nodes.node", Unit::Text}, {"nodes.count", Unit::Count},
           {"first_error.index", Unit::Id}, {"first_error.time_ns", Unit::TimeNs}, {"selected", Unit::Count}, {"first", Unit::Id},
           {"count", Unit::Count}, {"more", Unit::Flag}, {"rows.index", Unit::Id}, {"rows.time_ns", Unit::TimeNs},
           {"rows.stamp_ns", Unit::TimeNs}, {"rows.level", Unit::Text}, {"rows.raw_level", Unit::Number}, {"rows.node", Unit::Text},
           {"rows.text", Unit::Text}, {"rows.file", Unit::Text}, {"rows.function", Unit::Text}, {"rows.line", Unit::Number},
           {"rows.topic", Unit::Text}}),
          [&source](QueryArgs& args, const ProgressFn& progress) { return robot_log_answer(source, args, progress); }};
}

}  // namespace logscope::views
