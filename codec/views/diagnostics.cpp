// The diagnostics view: per component only its runs of one level are kept (a run's start, the
// time of its last update, its level and how many updates it holds), never every message; the
// status at a time (message, key/values) is read again from the file, in a window before that
// time that widens until it holds each component's last update (the formats' indexes read only
// the chunks or pages in it).
#include "views/diagnostics.h"

#include "views/view_support.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

namespace logscope::views {
namespace {

constexpr uint64_t kCacheBudget = 64ull << 20;  // bytes of runs and names kept per file
constexpr size_t kMaxComponents = 10000;
constexpr uint64_t kMaxRunsAnswered = 2000;      // per component, by default
constexpr int kLevels = 5;                       // OK, WARN, ERROR, STALE, UNKNOWN
constexpr uint64_t kSecond = 1000000000ull;

int level_slot(int raw) { return raw >= 0 && raw <= 3 ? raw : 4; }

bool text_of(const Json& object, const char* name, std::string* out, std::string* error) {
  const Json* j = object.find(name);
  if (!j || j->is_null()) {  // proto3-style decoders leave an empty text out
    out->clear();
    return true;
  }
  if (!j->is_string()) {
    *error = std::string("field \"") + name + "\" is not text";
    return false;
  }
  *out = j->as_string();
  return true;
}

// Where a message lies, for the problems: its record's byte, or its chunk's and its place in it.
std::string place_of(const SourceMessage& m) {
  if (m.offset == SourceMessage::kNoOffset) return "no byte offset (a database row)";
  if (m.in_chunk) return "the chunk at byte " + std::to_string(m.offset) + ", byte " + std::to_string(m.in_chunk) + " of its data";
  return "byte " + std::to_string(m.offset);
}

std::string seconds_text(uint64_t ns) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.3f s", static_cast<double>(ns) / 1e9);
  return buffer;
}

}  // namespace

bool is_diagnostics_type(std::string_view type) {
  return type == "diagnostic_msgs/DiagnosticArray" || type == "diagnostic_msgs/msg/DiagnosticArray";
}

const char* diagnostic_level_name(int level) {
  static const char* const names[] = {"OK", "WARN", "ERROR", "STALE", "UNKNOWN"};
  return names[level_slot(level)];
}

bool diagnostic_statuses(const Json& message, bool with_values, std::vector<DiagnosticStatus>* out, std::string* error) {
  if (!message.is_object()) {
    *error = "the message is not a structure";
    return false;
  }
  const Json* list = message.find("status");
  if (!list || !list->is_array()) {
    *error = list ? "field \"status\" is not a list" : "no field \"status\"";
    return false;
  }
  std::vector<DiagnosticStatus> found(list->size());
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& s = (*list)[i];
    DiagnosticStatus& d = found[i];
    std::string why;
    auto fail = [&](const std::string& what) {
      *error = "status[" + std::to_string(i) + "]: " + what;
      return false;
    };
    if (!s.is_object()) return fail("not a structure");
    const Json* level = s.find("level");
    if (!level || !level->is_number()) return fail(level ? "field \"level\" is not a number" : "no field \"level\"");
    int64_t raw = level->as_int();
    if (raw < -128 || raw > 255) return fail("field \"level\" is " + std::to_string(raw) + ", not a byte");
    d.level = static_cast<int>(raw < 0 ? raw + 256 : raw);  // ROS 1's byte is signed
    if (!text_of(s, "name", &d.name, &why) || !text_of(s, "message", &d.message, &why) ||
        !text_of(s, "hardware_id", &d.hardware_id, &why))
      return fail(why);
    if (!with_values) continue;
    const Json* values = s.find("values");
    if (!values || values->is_null()) continue;
    if (!values->is_array()) return fail("field \"values\" is not a list");
    for (size_t k = 0; k < values->size(); ++k) {
      const Json& kv = (*values)[k];
      std::string key, value;
      if (!kv.is_object() || !text_of(kv, "key", &key, &why) || !text_of(kv, "value", &value, &why))
        return fail("values[" + std::to_string(k) + "]: " + (why.empty() ? "not a structure" : why));
      d.values.emplace_back(std::move(key), std::move(value));
    }
  }
  for (DiagnosticStatus& d : found) out->push_back(std::move(d));
  return true;
}

namespace {

struct Run {
  uint64_t start_ns, last_ns;  // its first and last update
  uint32_t updates;
  int16_t level;  // the byte as stored
};

struct Component {
  size_t topic = 0;
  std::string name, hardware_id;
  uint64_t updates = 0;
  std::vector<Run> runs;  // in time order
  uint64_t first_ns() const { return runs.front().start_ns; }
  uint64_t last_ns() const { return runs.back().last_ns; }
  // When run i ends: the next run's start, or its own last update for the last run.
  uint64_t end_ns(size_t i) const { return i + 1 < runs.size() ? runs[i + 1].start_ns : runs[i].last_ns; }
  // The run in force at `t` (the last that started at or before it); null before the first.
  const Run* run_at(uint64_t t) const {
    auto after = std::upper_bound(runs.begin(), runs.end(), t, [](uint64_t v, const Run& r) { return v < r.start_ns; });
    return after == runs.begin() ? nullptr : &*(after - 1);
  }
};

// Adds an update. Formats hand most files in time order (the fast path: extend or start the
// last run); an update older than the last is placed where its time says, splitting a run of
// another level at its time.
void add_update(Component& c, uint64_t t, int16_t level) {
  ++c.updates;
  std::vector<Run>& runs = c.runs;
  if (runs.empty() || t >= runs.back().last_ns) {
    if (!runs.empty() && runs.back().level == level) {
      runs.back().last_ns = t;
      ++runs.back().updates;
    } else {
      runs.push_back({t, t, 1, level});
    }
    return;
  }
  auto after = std::upper_bound(runs.begin(), runs.end(), t, [](uint64_t v, const Run& r) { return v < r.start_ns; });
  if (after == runs.begin()) {
    if (runs.front().level == level) {
      runs.front().start_ns = t;
      ++runs.front().updates;
    } else {
      runs.insert(runs.begin(), Run{t, t, 1, level});
    }
    return;
  }
  size_t i = static_cast<size_t>(after - runs.begin()) - 1;
  Run& r = runs[i];
  if (r.level == level) {
    r.last_ns = std::max(r.last_ns, t);
    ++r.updates;
  } else if (t >= r.last_ns) {  // between run i and the next
    if (i + 1 < runs.size() && runs[i + 1].level == level) {
      runs[i + 1].start_ns = t;
      ++runs[i + 1].updates;
    } else {
      runs.insert(runs.begin() + static_cast<std::ptrdiff_t>(i + 1), Run{t, t, 1, level});
    }
  } else {  // inside run i (which has two updates or more): split it at t, its updates shared by the halves
    Run right{t, r.last_ns, r.updates - r.updates / 2, r.level};
    r.last_ns = t;
    r.updates = r.updates / 2;
    runs.insert(runs.begin() + static_cast<std::ptrdiff_t>(i + 1), {Run{t, t, 1, level}, right});
  }
}

class DiagnosticsCache : public WalkedCache {
 public:
  std::vector<Component> components;
  std::map<std::tuple<size_t, std::string, std::string>, size_t> ids;
  uint64_t messages = 0, statuses = 0, first_ns = UINT64_MAX, last_ns = 0;
  std::string first_damage;  // where the first undecoded message lies, and why

  bool take(const SourceMessage& m, size_t topic_index) override {
    scratch_.clear();
    std::string why = m.error;
    if (!m.message || !diagnostic_statuses(*m.message, false, &scratch_, &why)) {
      why = std::string(m.message ? "diagnostics.status.field" : "diagnostics.message.damaged") + " at " + place_of(m) + ": " +
            (why.empty() ? "not decoded" : why);
      if (first_damage.empty()) first_damage = "on " + m.topic + ", " + why;
      not_decoded(m, why);
      return true;
    }
    ++messages;
    first_ns = std::min(first_ns, m.time_ns);
    last_ns = std::max(last_ns, m.time_ns);
    for (const DiagnosticStatus& s : scratch_) {
      auto key = std::make_tuple(topic_index, s.name, s.hardware_id);
      auto id = ids.find(key);
      if (id == ids.end()) {
        if (components.size() >= kMaxComponents) {
          truncated = "more than " + std::to_string(kMaxComponents) + " components at " + std::to_string(m.time_ns) +
                      " ns: the statuses after it are left out";
          return false;
        }
        id = ids.emplace(key, components.size()).first;
        components.emplace_back();
        components.back().topic = topic_index;
        components.back().name = s.name;
        components.back().hardware_id = s.hardware_id;
        kept_bytes_ += 2 * (s.name.size() + s.hardware_id.size()) + sizeof(Component) + 64;
      }
      Component& c = components[id->second];
      size_t runs = c.runs.size();
      add_update(c, m.time_ns, static_cast<int16_t>(s.level));
      kept_bytes_ += (c.runs.size() - runs) * sizeof(Run);
      ++statuses;
      if (kept_bytes_ > kCacheBudget) {
        truncated = "the diagnostics' runs passed " + std::to_string(kCacheBudget >> 20) + " MiB at " + std::to_string(m.time_ns) +
                    " ns: the statuses after it are left out";
        return false;
      }
    }
    return true;
  }

 private:
  uint64_t kept_bytes_ = 0;
  std::vector<DiagnosticStatus> scratch_;
};

WalkOptions whole() {
  WalkOptions options;
  options.whole_bytes = true;  // every array whole: a DiagnosticArray may hold more than 16 statuses
  return options;
}

// The status of each component at `at_ns` (the last update at or before it), read again from
// the file in a window before at_ns, doubled until it reaches back to each one's run start.
struct Found {
  bool found = false;
  uint64_t time_ns = 0;
  DiagnosticStatus status;
};

bool statuses_at(MessageSource& source, const DiagnosticsCache& cache, uint64_t at_ns, std::vector<Found>* found, std::string* stopped,
                 const ProgressFn& progress) {
  found->assign(cache.components.size(), Found{});
  std::set<size_t> needed;
  uint64_t earliest = UINT64_MAX, period = kSecond;
  for (size_t i = 0; i < cache.components.size(); ++i) {
    const Component& c = cache.components[i];
    const Run* r = c.run_at(at_ns);
    if (!r) continue;
    needed.insert(i);
    earliest = std::min(earliest, r->start_ns);
    if (c.updates > 1) period = std::max(period, (c.last_ns() - c.first_ns()) / (c.updates - 1));
  }
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> by_name;  // (topic, name) -> components
  for (size_t i : needed) by_name[{cache.topics[cache.components[i].topic].topic, cache.components[i].name}].push_back(i);
  uint64_t window = period > UINT64_MAX / 4 ? UINT64_MAX / 2 : 2 * period;
  std::vector<DiagnosticStatus> statuses;
  while (!needed.empty()) {
    uint64_t from = at_ns - earliest < window ? earliest : at_ns - window;
    std::set<std::string> topics;
    for (size_t i : needed) topics.insert(cache.topics[cache.components[i].topic].topic);
    WalkOptions options = whole();
    options.t0_ns = from;
    options.t1_ns = at_ns;
    std::string stop;
    bool walked = source.walk_with(topics, options, [&](const SourceMessage& m) {
      statuses.clear();
      std::string why;
      if (!m.message || m.time_ns > at_ns || m.time_ns < from || !diagnostic_statuses(*m.message, true, &statuses, &why)) return true;
      for (DiagnosticStatus& s : statuses) {
        auto list = by_name.find({m.topic, s.name});
        if (list == by_name.end()) continue;
        for (size_t i : list->second) {
          Found& f = (*found)[i];
          if (!needed.count(i) || cache.components[i].hardware_id != s.hardware_id || (f.found && m.time_ns < f.time_ns)) continue;
          f.found = true;
          f.time_ns = m.time_ns;
          f.status = s;
        }
      }
      return true;
    }, progress, &stop);
    if (!walked) return false;
    if (!stop.empty()) *stopped = stop;
    for (auto i = needed.begin(); i != needed.end();) i = (*found)[*i].found ? needed.erase(i) : std::next(i);
    if (from <= earliest) break;  // the window held every run's start: what is missing is not there (damage)
    window = window > UINT64_MAX / 2 ? UINT64_MAX : 2 * window;
  }
  return true;
}

Json finding(const char* code, const char* severity, std::string message, std::optional<uint64_t> time_ns, const DiagnosticsCache& cache,
             const Component* c) {
  Json j = Json::object();
  j["code"] = code;
  j["severity"] = severity;
  j["message"] = std::move(message);
  j["time_ns"] = time_ns ? Json(std::to_string(*time_ns)) : Json();
  j["topic"] = c ? Json(cache.topics[c->topic].topic) : Json();
  j["component"] = c ? Json(c->name) : Json();
  j["hardware_id"] = c ? Json(c->hardware_id) : Json();
  return j;
}

std::string component_text(const DiagnosticsCache& cache, const Component& c) {
  std::string out = "\"" + c.name + "\"";
  if (!c.hardware_id.empty()) out += " (hardware \"" + c.hardware_id + "\")";
  return out + " on " + cache.topics[c.topic].topic;
}

// The file's findings: each component that was ERROR or STALE (how often, how long, first when),
// each that gave a level byte no level names, and the damaged messages.
Json findings_json(const DiagnosticsCache& cache) {
  Json out = Json::array();
  for (const Component& c : cache.components) {
    struct Seen {
      uint64_t runs = 0, time = 0, first = 0;
      std::set<int> bytes;
    } seen[kLevels];
    for (size_t i = 0; i < c.runs.size(); ++i) {
      Seen& s = seen[level_slot(c.runs[i].level)];
      if (!s.runs++) s.first = c.runs[i].start_ns;
      s.time += c.end_ns(i) - c.runs[i].start_ns;
      s.bytes.insert(c.runs[i].level);
    }
    auto say = [&](int slot, const char* code, const char* severity) {
      const Seen& s = seen[slot];
      if (!s.runs) return;
      out.push_back(finding(code, severity,
                            component_text(cache, c) + " was " + diagnostic_level_name(slot) + " " + std::to_string(s.runs) +
                                (s.runs == 1 ? " time" : " times") + ", " + seconds_text(s.time) + " in all; the first began at the time given",
                            s.first, cache, &c));
    };
    say(2, "diagnostics.component.error", "error");
    say(3, "diagnostics.component.stale", "warning");
    if (seen[4].runs) {
      std::string bytes;
      for (int b : seen[4].bytes) bytes += (bytes.empty() ? "" : ", ") + std::to_string(b);
      out.push_back(finding("diagnostics.level.unknown", "warning",
                            component_text(cache, c) + " gave level " + bytes +
                                ", which no diagnostic level names (OK=0 WARN=1 ERROR=2 STALE=3): shown as UNKNOWN; the first at the time given",
                            seen[4].first, cache, &c));
    }
  }
  if (cache.undecoded)
    out.push_back(finding("diagnostics.message.damaged", "warning",
                          std::to_string(cache.undecoded) + " diagnostics message" + (cache.undecoded == 1 ? " was" : "s were") +
                              " not read; the first " + cache.first_damage,
                          cache.problems.empty() ? std::nullopt : std::optional<uint64_t>(cache.problems.front().time_ns), cache, nullptr));
  return out;
}

Json component_json(const DiagnosticsCache& cache, const Component& c, const Found* at, uint64_t max_runs) {
  Json j = Json::object();
  j["topic"] = cache.topics[c.topic].topic;
  j["name"] = c.name;
  j["hardware_id"] = c.hardware_id;
  j["updates"] = c.updates;
  j["first_ns"] = std::to_string(c.first_ns());
  j["last_ns"] = std::to_string(c.last_ns());
  uint64_t time[kLevels] = {};
  int worst = -1, worst_raw = 0;
  bool unknown = false;
  Json runs = Json::array();
  for (size_t i = 0; i < c.runs.size(); ++i) {
    const Run& r = c.runs[i];
    int slot = level_slot(r.level);
    time[slot] += c.end_ns(i) - r.start_ns;
    if (slot == 4) unknown = true;
    else if (slot > worst) worst = slot, worst_raw = r.level;
    if (runs.size() >= max_runs) continue;
    Json run = Json::object();
    run["start_ns"] = std::to_string(r.start_ns);
    run["end_ns"] = std::to_string(c.end_ns(i));
    run["level"] = diagnostic_level_name(r.level);
    run["raw_level"] = r.level;
    run["updates"] = r.updates;
    runs.push_back(std::move(run));
  }
  // The worst known level; UNKNOWN only when no update had a known one.
  j["worst"] = worst >= 0 ? diagnostic_level_name(worst) : "UNKNOWN";
  j["worst_raw"] = worst >= 0 ? worst_raw : c.runs.front().level;
  j["had_unknown"] = unknown;
  Json in_level = Json::object();
  for (int i = 0; i < kLevels; ++i) in_level[diagnostic_level_name(i)] = std::to_string(time[i]);
  j["time_in_level"] = std::move(in_level);
  j["run_count"] = static_cast<uint64_t>(c.runs.size());
  j["runs"] = std::move(runs);
  if (!at || !at->found) {
    j["at"] = Json();
    return j;
  }
  Json a = Json::object();
  a["time_ns"] = std::to_string(at->time_ns);
  a["level"] = diagnostic_level_name(at->status.level);
  a["raw_level"] = at->status.level;
  a["message"] = at->status.message;
  Json values = Json::array();
  for (const auto& [key, value] : at->status.values) {
    Json kv = Json::object();
    kv["key"] = key;
    kv["value"] = value;
    values.push_back(std::move(kv));
  }
  a["values"] = std::move(values);
  j["at"] = std::move(a);
  return j;
}

Json diagnostics_answer(MessageSource& source, QueryArgs& args, const ProgressFn& progress) {
  bool has_at = args.has("at_ns");
  uint64_t at_ns = args.u64("at_ns", 0);
  uint64_t max_runs = args.u64("max_runs", kMaxRunsAnswered);
  std::string level_text = args.str("level");
  uint64_t slice_ms = args.u64("slice_ms", 0, 0, 60000);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  int min_level = 0;
  if (!level_text.empty()) {
    static const char* const names[] = {"ok", "warn", "error", "stale"};
    auto it = std::find(std::begin(names), std::end(names), level_text);
    if (it == std::end(names)) return QueryArgs::error_json("diagnostics: argument \"level\" must be ok, warn, error or stale, got \"" + level_text + "\"");
    min_level = static_cast<int>(it - std::begin(names));
  }
  if (args.flag("topics_only")) return topics_only_answer(source, is_diagnostics_type);  // from the index, no message read
  auto* cache = view_cache<DiagnosticsCache>(source, "diagnostics", is_diagnostics_type, progress, whole(), slice_ms);
  Json out = Json::object();
  if (!cache) {
    out["cancelled"] = true;
    return out;
  }
  if (!has_at) at_ns = cache->messages ? cache->last_ns : 0;
  // A part read: the statuses are those at the time read through, at most. (Past it, the runs are
  // not known, and the values' window would reach back over the part not yet read.)
  if (!cache->complete) at_ns = std::min(at_ns, cache->next_ns - 1);
  std::vector<Found> found;
  std::string stopped;
  if (!args.flag("no_values") && !statuses_at(source, *cache, at_ns, &found, &stopped, progress)) {
    out["cancelled"] = true;
    return out;
  }
  // Components by topic, then name, then hardware id; `level` keeps those whose worst is at least it
  // (an UNKNOWN level always passes: it is named, never guessed to be harmless).
  std::vector<size_t> order;
  for (size_t i = 0; i < cache->components.size(); ++i) {
    const Component& c = cache->components[i];
    int worst = -1;
    bool unknown = false;
    for (const Run& r : c.runs) {
      if (level_slot(r.level) == 4) unknown = true;
      else worst = std::max(worst, static_cast<int>(r.level));
    }
    if (worst >= min_level || unknown) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Component &x = cache->components[a], &y = cache->components[b];
    return std::tie(x.topic, x.name, x.hardware_id) < std::tie(y.topic, y.name, y.hardware_id);
  });
  Json components = Json::array();
  for (size_t i : order) components.push_back(component_json(*cache, cache->components[i], found.empty() ? nullptr : &found[i], max_runs));
  out["topics"] = topics_json(*cache);
  out["at_ns"] = std::to_string(at_ns);
  out["first_ns"] = cache->messages ? Json(std::to_string(cache->first_ns)) : Json();
  out["last_ns"] = cache->messages ? Json(std::to_string(cache->last_ns)) : Json();
  out["messages"] = cache->messages;
  out["statuses"] = cache->statuses;
  out["component_count"] = static_cast<uint64_t>(cache->components.size());
  out["components"] = std::move(components);
  out["findings"] = findings_json(*cache);
  add_walk_account(out, *cache);
  if (cache->stopped.empty() && !stopped.empty()) out["stopped"] = stopped;
  return out;
}

}  // namespace

QuerySpec diagnostics_query(MessageSource& source) {
  return {"diagnostics",
          "the diagnostics (diagnostic_msgs/DiagnosticArray) per component: its level over time as runs, its worst level, the time "
          "in each level, its status at a time (level, message, key/values) and the findings (ERROR, STALE, unknown levels, damage)",
          {{"at_ns", ArgType::U64, "the time, ns since the epoch (default: the last message)"},
           {"level", ArgType::String, "only components whose worst level is at least this: ok, warn, error, stale"},
           {"max_runs", ArgType::U64, "runs given per component (default 2000; run_count says how many there are)"},
           {"no_values", ArgType::Bool, "leave out the status at the time (no message read again)"},
           {"topics_only", ArgType::Bool, "only the diagnostics topics, from the index (no message read)"},
           {"slice_ms", ArgType::U64, "read on for about this long and answer from the statuses read so far (\"reading\" says how far; "
                                      "at_ns is then at most the time read through), where the index allows; each query reads on "
                                      "(0: the whole log first)"}},
          with_walk_units({{"at_ns", Unit::TimeNs}, {"first_ns", Unit::TimeNs}, {"last_ns", Unit::TimeNs}, {"messages", Unit::Count},
           {"statuses", Unit::Count}, {"component_count", Unit::Count}, {"components.topic", Unit::Text}, {"components.name", Unit::Text},
           {"components.hardware_id", Unit::Text}, {"components.updates", Unit::Count}, {"components.first_ns", Unit::TimeNs},
           {"components.last_ns", Unit::TimeNs}, {"components.worst", Unit::Text}, {"components.worst_raw", Unit::Number},
           {"components.had_unknown", Unit::Flag}, {"components.time_in_level.OK", Unit::DurationNs},
           {"components.time_in_level.WARN", Unit::DurationNs}, {"components.time_in_level.ERROR", Unit::DurationNs},
           {"components.time_in_level.STALE", Unit::DurationNs}, {"components.time_in_level.UNKNOWN", Unit::DurationNs},
           {"components.run_count", Unit::Count}, {"components.runs.start_ns", Unit::TimeNs}, {"components.runs.end_ns", Unit::TimeNs},
           {"components.runs.level", Unit::Text}, {"components.runs.raw_level", Unit::Number}, {"components.runs.updates", Unit::Count},
           {"components.at.time_ns", Unit::TimeNs}, {"components.at.level", Unit::Text}, {"components.at.raw_level", Unit::Number},
           {"components.at.message", Unit::Text}, {"components.at.values.key", Unit::Text}, {"components.at.values.value", Unit::Text},
           {"findings.code", Unit::Text}, {"findings.severity", Unit::Text}, {"findings.message", Unit::Text},
           {"findings.time_ns", Unit::TimeNs}, {"findings.topic", Unit::Text}, {"findings.component", Unit::Text},
           {"findings.hardware_id", Unit::Text}}),
          [&source](QueryArgs& args, const ProgressFn& progress) { return diagnostics_answer(source, args, progress); }};
}

}  // namespace logscope::views
