// The scans view: one light walk over the scan topics keeps each topic's message times (8 bytes a
// message, cached per file); the scan at a time is then read alone, with walk_with() over that one
// time, whole, so only the chunk or page that holds it is read, and turned into points
// (scan_points.h): counted and bounded in one pass, decimated evenly in a second.
#include "views/scans.h"

#include "views/view_support.h"

#include <algorithm>
#include <cmath>

namespace logscope::views {
namespace {

constexpr uint64_t kCacheBudget = 64ull << 20;  // bytes of message times kept per file
constexpr uint64_t kDefaultPoints = 20000;
constexpr uint64_t kMaxPoints = 1000000;

class ScanCache : public WalkedCache {
 public:
  std::vector<std::vector<uint64_t>> times;  // by topic index, sorted once built

  bool take(const SourceMessage& m, size_t topic_index) override {
    if (times.size() < topics.size()) times.resize(topics.size());
    if (!m.message) not_decoded(m, m.error);
    kept_bytes_ += sizeof(uint64_t);
    if (kept_bytes_ > kCacheBudget) {
      truncated = "the scans' message times passed " + std::to_string(kCacheBudget >> 20) + " MiB at " + std::to_string(m.time_ns) +
                  " ns: the messages after it are left out";
      return false;
    }
    times[topic_index].push_back(m.time_ns);
    return true;
  }

  void finish() override {  // after each slice of a sliced walk too: a sorted list is only checked
    times.resize(topics.size());
    for (auto& t : times)
      if (!std::is_sorted(t.begin(), t.end())) std::stable_sort(t.begin(), t.end());
  }

 private:
  uint64_t kept_bytes_ = 0;
};

Json number_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(); }

// A scan message as the answer gives it: what it is, its counts and bounds, its points (at most
// `limit`, evenly spread over the valid ones), and its problems.
Json scan_json(const SourceMessage& m, uint64_t limit) {
  Json s = Json::object();
  s["time_ns"] = std::to_string(m.time_ns);
  if (!m.message) {
    s["error"] = m.error.empty() ? "the message did not decode" : m.error;
    return s;
  }
  ScanMessage scan;
  std::string error;
  if (!scan.read(m.type, *m.message, &error)) {
    s["error"] = error;
    return s;
  }
  s["kind"] = scan.kind;
  s["frame_id"] = scan.frame_id;
  s["stamp_ns"] = scan.stamp_ns ? Json(std::to_string(*scan.stamp_ns)) : Json();
  s["value"] = scan.value_name.empty() ? Json() : Json(scan.value_name);
  Json fields = Json::array();
  for (const std::string& f : scan.fields) fields.push_back(f);
  s["fields"] = std::move(fields);
  s["declared"] = scan.declared;
  // First pass: count and bound.
  uint64_t valid = 0, invalid = 0, with_value = 0;
  double lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY}, hi[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
  scan.for_each([&](const ScanPoint& p, bool ok) {
    if (!ok) return void(++invalid);
    ++valid;
    double v[4] = {p.x, p.y, p.z, p.value};
    for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], v[i]), hi[i] = std::max(hi[i], v[i]);
    if (p.has_value) ++with_value, lo[3] = std::min(lo[3], p.value), hi[3] = std::max(hi[3], p.value);
  });
  s["count"] = valid;
  s["invalid"] = invalid;
  if (valid) {
    Json bounds = Json::object();
    const char* names[] = {"x", "y", "z", "value"};
    for (int i = 0; i < 4; ++i) {
      bounds[std::string("min_") + names[i]] = i < 3 || with_value ? number_or_null(lo[i]) : Json();
      bounds[std::string("max_") + names[i]] = i < 3 || with_value ? number_or_null(hi[i]) : Json();
    }
    s["bounds"] = std::move(bounds);
  }  // no "bounds" without a point
  // Second pass: keep valid point j when floor((j + 1) * limit / valid) passes floor(j * limit / valid),
  // `limit` points spread evenly over the scan (all of them when there are no more).
  bool decimated = valid > limit;
  Json points = Json::array();
  uint64_t j = 0;
  scan.for_each([&](const ScanPoint& p, bool ok) {
    if (!ok) return;
    uint64_t at = j++;
    if (decimated && (at + 1) * limit / valid == at * limit / valid) return;
    Json point = Json::array();
    point.push_back(p.x);
    point.push_back(p.y);
    point.push_back(p.z);
    point.push_back(p.has_value ? Json(p.value) : Json());
    points.push_back(std::move(point));
  });
  s["shown"] = static_cast<uint64_t>(points.size());
  s["decimated"] = decimated;
  s["points"] = std::move(points);
  Json problems = Json::array();
  for (const ScanProblem& p : scan.problems) {
    Json j2 = Json::object();
    j2["code"] = p.code;
    j2["message"] = p.message;
    problems.push_back(std::move(j2));
  }
  s["problems"] = std::move(problems);
  return s;
}

Json scan_answer(MessageSource& source, QueryArgs& args, const ProgressFn& progress) {
  std::string topic = args.str("topic");
  bool has_at = args.has("at_ns");
  uint64_t at_ns = args.u64("at_ns", 0);
  uint64_t limit = args.u64("max_points", kDefaultPoints, 1, kMaxPoints);
  uint64_t slice_ms = args.u64("slice_ms", 0, 0, 60000);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  if (args.flag("topics_only")) return topics_only_answer(source, is_scan_type);  // from the index, no message read
  if (!topic.empty()) {
    bool known = false;
    for (const SourceTopic& t : source.topics()) {
      if (t.topic != topic) continue;
      known = true;
      if (!is_scan_type(t.type)) return QueryArgs::error_json("topic " + topic + " is " + t.type + ", not a scan or point cloud");
    }
    if (!known) return QueryArgs::error_json("no topic " + topic + " in this file");
  }
  auto* cache = view_cache<ScanCache>(source, "scans", is_scan_type, progress, WalkOptions(), slice_ms);
  Json out = Json::object();
  if (!cache) {
    out["cancelled"] = true;
    return out;
  }
  // The topic asked, or the first scan topic with messages.
  size_t chosen = cache->topics.size();
  for (size_t i = 0; i < cache->topics.size(); ++i)
    if (topic.empty() ? !cache->times[i].empty() : cache->topics[i].topic == topic) {
      chosen = i;
      break;
    }
  out["topics"] = topics_json(*cache);
  out["max_points"] = limit;
  if (chosen == cache->topics.size()) {
    out["topic"] = Json();  // and no "scan"
    add_walk_account(out, *cache);
    return out;
  }
  const ViewTopic& t = cache->topics[chosen];
  const std::vector<uint64_t>& times = cache->times[chosen];
  out["topic"] = t.topic;
  out["type"] = t.type;
  out["messages"] = static_cast<uint64_t>(times.size());
  out["first_ns"] = times.empty() ? Json() : Json(std::to_string(times.front()));
  out["last_ns"] = times.empty() ? Json() : Json(std::to_string(times.back()));
  if (!has_at) at_ns = times.empty() ? 0 : times.front();
  out["at_ns"] = std::to_string(at_ns);
  // The message at or before at_ns (of several at one time, the last).
  auto after = std::upper_bound(times.begin(), times.end(), at_ns);
  if (after == times.begin()) {
    out["index"] = Json();
    out["previous_ns"] = Json();
    out["next_ns"] = times.empty() ? Json() : Json(std::to_string(times.front()));  // and no "scan"
    add_walk_account(out, *cache);
    return out;
  }
  uint64_t index = static_cast<uint64_t>(after - times.begin()) - 1, when = times[index];
  out["index"] = index;
  // The neighbours' times, for stepping: the message before this one (at an earlier time) and after.
  auto before = std::lower_bound(times.begin(), times.end(), when);
  out["previous_ns"] = before == times.begin() ? Json() : Json(std::to_string(*(before - 1)));
  out["next_ns"] = after == times.end() ? Json() : Json(std::to_string(*after));
  WalkOptions options;
  options.t0_ns = options.t1_ns = when;
  options.whole_bytes = true;
  options.read_ahead = false;  // the chunk(s) at one time
  Json scan;
  std::string stop;
  bool walked = source.walk_with({t.topic}, options, [&](const SourceMessage& m) {
    if (m.topic == t.topic && m.time_ns == when) scan = scan_json(m, limit);
    return true;
  }, progress, &stop);
  if (!walked) {
    Json cancelled = Json::object();
    cancelled["cancelled"] = true;
    return cancelled;
  }
  if (scan.is_null()) {
    scan = Json::object();
    scan["time_ns"] = std::to_string(when);
    scan["error"] = "the message at this time could not be read again" + (stop.empty() ? std::string() : ": " + stop);
  } else if (!stop.empty() && scan.find("problems")) {
    Json p = Json::object();
    p["code"] = "scan.read.stopped";
    p["message"] = "reading stopped: " + stop;
    scan["problems"].push_back(std::move(p));
  }
  out["scan"] = std::move(scan);
  add_walk_account(out, *cache);
  return out;
}

}  // namespace

QuerySpec scan_query(MessageSource& source) {
  return {"scan",
          "a scan or point cloud (sensor_msgs/LaserScan, PointCloud2, PointCloud, foxglove.LaserScan, foxglove.PointCloud) at a "
          "time as points in the sensor's frame (x, y, z in m, and the intensity or another field), decimated to max_points",
          {{"topic", ArgType::String, "the scan topic (default: the first with messages)"},
           {"at_ns", ArgType::U64, "the time, ns since the epoch: the message at or before it (default: the topic's first)"},
           {"max_points", ArgType::U64, "points given at most, spread evenly (default 20000, at most 1000000)"},
           {"topics_only", ArgType::Bool, "only the scan topics, from the index (no message read)"},
           {"slice_ms", ArgType::U64, "read the scan topics' times on for about this long and answer from those read so far "
                                      "(\"reading\" says how far), where the index allows; each query reads on (0: all first)"}},
          with_walk_units({{"topic", Unit::Text}, {"type", Unit::Text}, {"messages", Unit::Count}, {"first_ns", Unit::TimeNs},
                           {"last_ns", Unit::TimeNs}, {"at_ns", Unit::TimeNs}, {"index", Unit::Id}, {"previous_ns", Unit::TimeNs},
                           {"next_ns", Unit::TimeNs}, {"max_points", Unit::Count},
                           {"scan.time_ns", Unit::TimeNs}, {"scan.stamp_ns", Unit::TimeNs}, {"scan.error", Unit::Text},
                           {"scan.kind", Unit::Text}, {"scan.frame_id", Unit::Text}, {"scan.value", Unit::Text}, {"scan.fields", Unit::Text},
                           {"scan.declared", Unit::Count}, {"scan.count", Unit::Count}, {"scan.invalid", Unit::Count},
                           {"scan.bounds.min_x", Unit::Number}, {"scan.bounds.max_x", Unit::Number}, {"scan.bounds.min_y", Unit::Number},
                           {"scan.bounds.max_y", Unit::Number}, {"scan.bounds.min_z", Unit::Number}, {"scan.bounds.max_z", Unit::Number},
                           {"scan.bounds.min_value", Unit::Number}, {"scan.bounds.max_value", Unit::Number}, {"scan.shown", Unit::Count},
                           {"scan.decimated", Unit::Flag}, {"scan.points", Unit::Number}, {"scan.problems.code", Unit::Text},
                           {"scan.problems.message", Unit::Text}}),
          [&source](QueryArgs& args, const ProgressFn& progress) { return scan_answer(source, args, progress); }};
}

}  // namespace logscope::views
