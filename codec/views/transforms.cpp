// The transforms view: every update of every edge kept compactly per file after one walk over the
// transform topics (time, translation, rotation), sorted by time per edge, so the tree at any
// time is a binary search per edge and never reads the file again.
#include "views/transforms.h"

#include "views/view_support.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

namespace logscope::views {
namespace {

constexpr uint64_t kCacheBudget = 192ull << 20;  // bytes of updates kept per file
constexpr size_t kMaxEdges = 100000;              // distinct parent->child pairs
constexpr uint64_t kMinStaleNs = 100000000;       // an edge is stale after 5 of its periods, and never sooner than 100 ms
constexpr uint64_t kStalePeriods = 5;

enum class Kind { Ros, FoxgloveOne, FoxgloveList };

std::optional<Kind> kind_of(std::string_view type) {
  if (type == "tf2_msgs/TFMessage" || type == "tf2_msgs/msg/TFMessage" || type == "tf/tfMessage" || type == "tf/msg/tfMessage")
    return Kind::Ros;
  if (type == "foxglove.FrameTransform" || type == "foxglove_msgs/msg/FrameTransform" || type == "foxglove_msgs/FrameTransform")
    return Kind::FoxgloveOne;
  if (type == "foxglove.FrameTransforms" || type == "foxglove_msgs/msg/FrameTransforms" || type == "foxglove_msgs/FrameTransforms")
    return Kind::FoxgloveList;
  return std::nullopt;
}

// tf2 drops a frame id's leading '/', which tf (ROS 1) allowed: "/odom" and "odom" are one frame.
std::string frame_id(const std::string& id) { return !id.empty() && id[0] == '/' ? id.substr(1) : id; }

bool text_of(const Json& object, const char* name, std::string* out, std::string* error) {
  const Json* j = object.find(name);
  if (!j || !j->is_string()) {
    *error = std::string(j ? "field \"" : "no field \"") + name + (j ? "\" is not text" : "\"");
    return false;
  }
  *out = frame_id(j->as_string());
  return true;
}

// x, y, z (and w) of a vector or quaternion; protobuf leaves zero fields out, so a missing one
// of a foxglove message is 0 (`defaults`), and a missing rotation is the identity.
bool numbers_of(const Json* object, const char* what, const char* const* names, size_t n, double* out, bool defaults, std::string* error) {
  if (!object) {
    if (defaults) return true;
    *error = std::string("no field \"") + what + "\"";
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    const Json* v = object->find(names[i]);
    if (!v && defaults) {
      out[i] = 0;
      continue;
    }
    if (!v || !v->is_number()) {
      *error = std::string("field \"") + what + "." + names[i] + "\" is " + (v ? "not a number" : "missing");
      return false;
    }
    out[i] = v->as_double();
    if (!std::isfinite(out[i])) {
      *error = std::string("field \"") + what + "." + names[i] + "\" is not finite";
      return false;
    }
  }
  return true;
}

const char* const kXyz[] = {"x", "y", "z"};
const char* const kXyzw[] = {"x", "y", "z", "w"};

bool ros_transform(const Json& t, TransformUpdate* u, std::string* error) {
  const Json* header = t.find("header");
  if (!header || !header->is_object()) {
    *error = "no field \"header\"";
    return false;
  }
  const Json* transform = t.find("transform");
  if (!transform || !transform->is_object()) {
    *error = "no field \"transform\"";
    return false;
  }
  return text_of(*header, "frame_id", &u->parent, error) && text_of(t, "child_frame_id", &u->child, error) &&
         numbers_of(transform->find("translation"), "transform.translation", kXyz, 3, u->translation, false, error) &&
         numbers_of(transform->find("rotation"), "transform.rotation", kXyzw, 4, u->rotation, false, error);
}

bool foxglove_transform(const Json& t, TransformUpdate* u, std::string* error) {
  if (!text_of(t, "parent_frame_id", &u->parent, error) || !text_of(t, "child_frame_id", &u->child, error)) return false;
  if (!numbers_of(t.find("translation"), "translation", kXyz, 3, u->translation, true, error)) return false;
  const Json* rotation = t.find("rotation");
  if (!rotation) return true;  // the identity
  u->rotation[3] = 0;
  return numbers_of(rotation, "rotation", kXyzw, 4, u->rotation, true, error);
}

}  // namespace

bool is_transform_type(std::string_view type) { return kind_of(type).has_value(); }

bool transform_updates(std::string_view type, const Json& message, std::vector<TransformUpdate>* out, std::string* error) {
  std::optional<Kind> kind = kind_of(type);
  if (!kind) {
    *error = "not a transform message type";
    return false;
  }
  if (!message.is_object()) {
    *error = "the message is not a structure";
    return false;
  }
  std::vector<TransformUpdate> found;
  if (*kind == Kind::FoxgloveOne) {
    found.emplace_back();
    if (!foxglove_transform(message, &found.back(), error)) return false;
  } else {
    const Json* list = message.find("transforms");
    if (!list && *kind == Kind::FoxgloveList) list = nullptr;  // an empty repeated field is left out
    else if (!list || !list->is_array()) {
      *error = list ? "field \"transforms\" is not a list" : "no field \"transforms\"";
      return false;
    }
    if (list) {
      for (size_t i = 0; i < list->size(); ++i) {
        const Json& t = (*list)[i];
        found.emplace_back();
        std::string why;
        bool ok = t.is_object() && (*kind == Kind::Ros ? ros_transform(t, &found.back(), &why) : foxglove_transform(t, &found.back(), &why));
        if (!ok) {
          *error = "transforms[" + std::to_string(i) + "]: " + (why.empty() ? "not a structure" : why);
          return false;
        }
      }
    }
  }
  for (TransformUpdate& u : found) out->push_back(std::move(u));
  return true;
}

void roll_pitch_yaw(const double q_in[4], double rpy[3]) {
  double n = std::sqrt(q_in[0] * q_in[0] + q_in[1] * q_in[1] + q_in[2] * q_in[2] + q_in[3] * q_in[3]);
  double x = 0, y = 0, z = 0, w = 1;
  if (n > 0 && std::isfinite(n)) x = q_in[0] / n, y = q_in[1] / n, z = q_in[2] / n, w = q_in[3] / n;
  rpy[0] = std::atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y));
  rpy[1] = std::asin(std::clamp(2 * (w * y - z * x), -1.0, 1.0));
  rpy[2] = std::atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

namespace {

struct Sample {
  uint64_t time_ns;
  double translation[3];
  double rotation[4];
};

struct Edge {
  std::string parent, child;
  bool is_static = false;  // seen on a /tf_static topic
  std::vector<Sample> samples;  // in time order once built
  size_t sorted = 0;  // samples in order so far (a sliced walk adds a slice's at a time)
  uint64_t median_period_ns = 0;  // of the updates' intervals (0: fewer than two)
  uint64_t longest_gap_ns = 0, longest_gap_at_ns = 0;  // the longest interval and where it ended
};

bool is_static_topic(const std::string& topic) {
  return topic.size() >= 9 && topic.compare(topic.size() - 9, 9, "tf_static") == 0;
}

// Sorts the samples added since the last call and measures the edge's rate and gaps again.
void finish_edge(Edge& e) {
  const auto by_time = [](const Sample& a, const Sample& b) { return a.time_ns < b.time_ns; };
  const auto added = e.samples.begin() + static_cast<std::ptrdiff_t>(e.sorted);
  std::stable_sort(added, e.samples.end(), by_time);
  // (A slice's samples follow the earlier slices' in time: no merge then.)
  if (added != e.samples.begin() && added != e.samples.end() && added->time_ns < (added - 1)->time_ns)
    std::inplace_merge(e.samples.begin(), added, e.samples.end(), by_time);
  e.sorted = e.samples.size();
  e.median_period_ns = e.longest_gap_ns = e.longest_gap_at_ns = 0;
  if (e.samples.size() < 2) return;
  // The typical period is the median of the intervals between updates at distinct times (several
  // updates of one edge can share a record's time).
  std::vector<uint64_t> gaps;
  gaps.reserve(e.samples.size() - 1);
  for (size_t i = 1; i < e.samples.size(); ++i) {
    uint64_t gap = e.samples[i].time_ns - e.samples[i - 1].time_ns;
    if (gap == 0) continue;
    gaps.push_back(gap);
    if (gap > e.longest_gap_ns) e.longest_gap_ns = gap, e.longest_gap_at_ns = e.samples[i].time_ns;
  }
  if (gaps.empty()) return;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  e.median_period_ns = gaps[gaps.size() / 2];
}

// How long after an update an edge of this rate counts as stale.
uint64_t stale_after_ns(const Edge& e) {
  uint64_t periods = e.median_period_ns > UINT64_MAX / kStalePeriods ? UINT64_MAX : e.median_period_ns * kStalePeriods;
  return std::max(periods, kMinStaleNs);
}

class TransformCache : public WalkedCache {
 public:
  std::vector<Edge> edges;
  std::map<std::pair<std::string, std::string>, size_t> edge_ids;
  uint64_t updates = 0, first_ns = UINT64_MAX, last_ns = 0;

  bool take(const SourceMessage& m, size_t) override {
    scratch_.clear();
    std::string why = m.error;
    if (!m.message || !transform_updates(m.type, *m.message, &scratch_, &why)) {
      not_decoded(m, why);
      return true;
    }
    bool on_static = is_static_topic(m.topic);
    for (const TransformUpdate& u : scratch_) {
      auto key = std::make_pair(u.parent, u.child);
      auto edge = edge_ids.find(key);
      if (edge == edge_ids.end()) {
        if (edges.size() >= kMaxEdges) {
          truncated = "more than " + std::to_string(kMaxEdges) + " distinct parent->child pairs at " + std::to_string(m.time_ns) +
                      " ns: the updates after it are left out";
          return false;
        }
        edge = edge_ids.emplace(key, edges.size()).first;
        edges.emplace_back();
        edges.back().parent = u.parent;
        edges.back().child = u.child;
        kept_bytes_ += u.parent.size() + u.child.size() + sizeof(Edge);
      }
      kept_bytes_ += sizeof(Sample);
      if (kept_bytes_ > kCacheBudget) {
        truncated = "the transforms passed " + std::to_string(kCacheBudget >> 20) + " MiB at " + std::to_string(m.time_ns) +
                    " ns: the updates after it are left out";
        return false;
      }
      Edge& e = edges[edge->second];
      e.is_static = e.is_static || on_static;
      Sample s{m.time_ns, {u.translation[0], u.translation[1], u.translation[2]}, {u.rotation[0], u.rotation[1], u.rotation[2], u.rotation[3]}};
      e.samples.push_back(s);
      ++updates;
      first_ns = std::min(first_ns, m.time_ns);
      last_ns = std::max(last_ns, m.time_ns);
    }
    return true;
  }

  void finish() override {
    for (Edge& e : edges) finish_edge(e);
  }

 private:
  uint64_t kept_bytes_ = 0;
  std::vector<TransformUpdate> scratch_;
};

std::string seconds_text(uint64_t ns) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, ns < 10000000 ? "%.4f s" : "%.3f s", static_cast<double>(ns) / 1e9);
  return buffer;
}

Json finding(const char* code, const char* severity, std::string message, std::optional<uint64_t> time_ns, std::vector<std::string> frames) {
  Json j = Json::object();
  j["code"] = code;
  j["severity"] = severity;
  j["message"] = std::move(message);
  j["time_ns"] = time_ns ? Json(std::to_string(*time_ns)) : Json();
  Json list = Json::array();
  for (std::string& f : frames) list.push_back(std::move(f));
  j["frames"] = std::move(list);
  return j;
}

// The file's findings: frames with two parents, cycles, and edges whose updates stopped for longer
// than they should (the longest such gap of each).
Json findings_json(const TransformCache& cache) {
  Json out = Json::array();
  std::map<std::string, std::vector<const Edge*>> parents;
  for (const Edge& e : cache.edges) parents[e.child].push_back(&e);
  for (const auto& [child, edges] : parents) {
    if (edges.size() < 2) continue;
    std::string names;
    std::vector<std::string> frames{child};
    uint64_t when = 0;  // when the last of its parents first appeared
    for (const Edge* e : edges) {
      names += (names.empty() ? "" : ", ") + e->parent;
      frames.push_back(e->parent);
      if (!e->samples.empty()) when = std::max(when, e->samples.front().time_ns);
    }
    out.push_back(finding("transforms.tree.two_parents", "warning",
                          "frame \"" + child + "\" has " + std::to_string(edges.size()) + " parents: " + names +
                              " (a tf tree gives each frame one parent; lookups through it depend on which update came last)",
                          when, frames));
  }
  // Cycles: follow parents from each frame, depth first over every parent, without recursion (a
  // chain of frames can be as long as the edges are many); each cycle is reported once.
  std::set<std::string> reported;
  std::map<std::string, int> state;  // 1 on the path, 2 done
  for (const auto& entry : parents) {
    if (state[entry.first] != 0) continue;
    std::vector<std::pair<std::string, size_t>> path{{entry.first, 0}};  // a frame and its next parent to follow
    state[entry.first] = 1;
    while (!path.empty()) {
      auto& [frame, next] = path.back();
      auto it = parents.find(frame);
      if (it == parents.end() || next >= it->second.size()) {
        state[frame] = 2;
        path.pop_back();
        continue;
      }
      const Edge* e = it->second[next++];
      int s = state[e->parent];
      if (s == 0) {
        state[e->parent] = 1;
        path.push_back({e->parent, 0});
      } else if (s == 1) {
        auto start = std::find_if(path.begin(), path.end(), [&](const auto& p) { return p.first == e->parent; });
        std::vector<std::string> cycle;
        for (auto p = start; p != path.end(); ++p) cycle.push_back(p->first);
        std::vector<std::string> sorted = cycle;
        std::sort(sorted.begin(), sorted.end());
        std::string id;
        for (const std::string& f : sorted) id += f + '\n';
        if (!reported.insert(id).second) continue;
        std::string names;
        for (const std::string& f : cycle) names += f + " <- ";
        names += e->parent;
        out.push_back(finding("transforms.tree.cycle", "error",
                              "the frames form a cycle: " + names + " (each is the parent of the one before it)", std::nullopt, cycle));
      }
    }
  }
  for (const Edge& e : cache.edges) {
    if (e.is_static || e.samples.size() < 3 || e.longest_gap_ns <= stale_after_ns(e)) continue;
    out.push_back(finding("transforms.edge.gap", "warning",
                          e.parent + " -> " + e.child + " had no update for " + seconds_text(e.longest_gap_ns) +
                              " (it usually updates every " + seconds_text(e.median_period_ns) + "); the gap ended at the time given",
                          e.longest_gap_at_ns, {e.parent, e.child}));
  }
  return out;
}

Json edge_json(const Edge& e, uint64_t at_ns) {
  Json j = Json::object();
  j["parent"] = e.parent;
  j["child"] = e.child;
  j["static"] = e.is_static;
  j["updates"] = static_cast<uint64_t>(e.samples.size());
  j["first_ns"] = e.samples.empty() ? Json() : Json(std::to_string(e.samples.front().time_ns));
  j["last_ns"] = e.samples.empty() ? Json() : Json(std::to_string(e.samples.back().time_ns));
  // The mean rate over the edge's own span (null for a static edge or a single update).
  uint64_t span = e.samples.size() > 1 ? e.samples.back().time_ns - e.samples.front().time_ns : 0;
  j["rate_hz"] = span && !e.is_static ? Json(static_cast<double>(e.samples.size() - 1) * 1e9 / static_cast<double>(span)) : Json();
  // The last update at or before at_ns; a static edge holds from its first update on, and before it too
  // (a latched /tf_static is often recorded after the first dynamic updates).
  auto after = std::upper_bound(e.samples.begin(), e.samples.end(), at_ns, [](uint64_t t, const Sample& s) { return t < s.time_ns; });
  const Sample* s = after != e.samples.begin() ? &*(after - 1) : e.is_static && !e.samples.empty() ? &e.samples.front() : nullptr;
  if (!s) {
    j["at"] = Json();
    j["stale"] = false;
    return j;
  }
  Json at = Json::object();
  at["time_ns"] = std::to_string(s->time_ns);
  at["age_ns"] = s->time_ns <= at_ns ? Json(std::to_string(at_ns - s->time_ns)) : Json("0");
  at["x"] = s->translation[0];
  at["y"] = s->translation[1];
  at["z"] = s->translation[2];
  at["qx"] = s->rotation[0];
  at["qy"] = s->rotation[1];
  at["qz"] = s->rotation[2];
  at["qw"] = s->rotation[3];
  double rpy[3];
  roll_pitch_yaw(s->rotation, rpy);
  constexpr double kDegrees = 180.0 / 3.14159265358979323846;
  at["roll_deg"] = rpy[0] * kDegrees;
  at["pitch_deg"] = rpy[1] * kDegrees;
  at["yaw_deg"] = rpy[2] * kDegrees;
  j["at"] = std::move(at);
  j["stale"] = !e.is_static && e.median_period_ns && s->time_ns <= at_ns && at_ns - s->time_ns > stale_after_ns(e);
  return j;
}

Json transforms_answer(MessageSource& source, QueryArgs& args, const ProgressFn& progress) {
  bool has_at = args.has("at_ns");
  uint64_t at_ns = args.u64("at_ns", 0);
  uint64_t slice_ms = args.u64("slice_ms", 0, 0, 60000);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  if (args.flag("topics_only")) return topics_only_answer(source, is_transform_type);  // from the index, no message read
  auto* cache = view_cache<TransformCache>(source, "transforms", is_transform_type, progress, WalkOptions(), slice_ms);
  Json out = Json::object();
  if (!cache) {
    out["cancelled"] = true;
    return out;
  }
  if (!has_at) at_ns = cache->last_ns;
  // Edges sorted parent first, then child, so a tree reads in order; roots are frames that are
  // nobody's child at the time asked.
  std::vector<const Edge*> sorted;
  for (const Edge& e : cache->edges) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(), [](const Edge* a, const Edge* b) { return std::tie(a->parent, a->child) < std::tie(b->parent, b->child); });
  Json edges = Json::array();
  std::set<std::string> frames, children;
  for (const Edge* e : sorted) {
    Json j = edge_json(*e, at_ns);
    if (!j.find("at")->is_null()) {
      frames.insert(e->parent);
      frames.insert(e->child);
      children.insert(e->child);
    }
    edges.push_back(std::move(j));
  }
  Json roots = Json::array();
  for (const std::string& f : frames)
    if (!children.count(f)) roots.push_back(f);
  out["topics"] = topics_json(*cache);
  out["at_ns"] = std::to_string(at_ns);
  out["first_ns"] = cache->updates ? Json(std::to_string(cache->first_ns)) : Json();
  out["last_ns"] = cache->updates ? Json(std::to_string(cache->last_ns)) : Json();
  out["updates"] = cache->updates;
  out["frames"] = static_cast<uint64_t>(frames.size());
  out["roots"] = std::move(roots);
  out["edges"] = std::move(edges);
  out["findings"] = findings_json(*cache);
  add_walk_account(out, *cache);
  return out;
}

}  // namespace

QuerySpec transforms_query(MessageSource& source) {
  return {"transforms",
          "the frame tree (tf2_msgs/TFMessage, tf/tfMessage, foxglove.FrameTransform(s)) at a time: each parent->child edge with its "
          "translation, rotation, rate and the age of its last update, and the tree's findings (two parents, cycles, gaps)",
          {{"at_ns", ArgType::U64, "the time, ns since the epoch (default: the last update)"},
           {"topics_only", ArgType::Bool, "only the transform topics, from the index (no message read)"},
           {"slice_ms", ArgType::U64, "read on for about this long and answer from the updates read so far (\"reading\" says how far), "
                                      "where the index allows; each query reads on (0: the whole log first)"}},
          with_walk_units({{"at_ns", Unit::TimeNs}, {"first_ns", Unit::TimeNs}, {"last_ns", Unit::TimeNs},
           {"updates", Unit::Count}, {"frames", Unit::Count}, {"roots", Unit::Text}, {"edges.parent", Unit::Text},
           {"edges.child", Unit::Text}, {"edges.static", Unit::Flag}, {"edges.updates", Unit::Count}, {"edges.first_ns", Unit::TimeNs},
           {"edges.last_ns", Unit::TimeNs}, {"edges.rate_hz", Unit::Hz}, {"edges.at.time_ns", Unit::TimeNs},
           {"edges.at.age_ns", Unit::DurationNs}, {"edges.at.x", Unit::Number}, {"edges.at.y", Unit::Number}, {"edges.at.z", Unit::Number},
           {"edges.at.qx", Unit::Number}, {"edges.at.qy", Unit::Number}, {"edges.at.qz", Unit::Number}, {"edges.at.qw", Unit::Number},
           {"edges.at.roll_deg", Unit::Number}, {"edges.at.pitch_deg", Unit::Number}, {"edges.at.yaw_deg", Unit::Number},
           {"edges.stale", Unit::Flag}, {"findings.code", Unit::Text}, {"findings.severity", Unit::Text}, {"findings.message", Unit::Text},
           {"findings.time_ns", Unit::TimeNs}, {"findings.frames", Unit::Text}}),
          [&source](QueryArgs& args, const ProgressFn& progress) { return transforms_answer(source, args, progress); }};
}

}  // namespace logscope::views
