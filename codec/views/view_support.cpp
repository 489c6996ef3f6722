#include "views/view_support.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace logscope::views {
namespace {

bool same_topics(const std::vector<SourceTopic>& a, const std::vector<SourceTopic>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].topic != b[i].topic || a[i].type != b[i].type || a[i].note != b[i].note) return false;
  return true;
}

}  // namespace

void WalkedCache::not_decoded(const SourceMessage& m, const std::string& why) {
  ++undecoded;
  if (problems.size() < kProblemsKept) problems.push_back({m.topic, why.empty() ? "not decoded" : why, m.time_ns});
}

namespace {

// Walks the cache's remaining slices for about budget_ms (all of them when 0). False when cancelled.
bool walk_slices(MessageSource& source, WalkedCache& cache, const WalkOptions& options, const ProgressFn& progress, uint64_t budget_ms) {
  std::set<std::string> wanted;
  std::map<std::string, size_t> topic_ids;
  for (size_t i = 0; i < cache.topics.size(); ++i)
    if (cache.topics[i].note.empty()) wanted.insert(cache.topics[i].topic), topic_ids.emplace(cache.topics[i].topic, i);
  using Clock = std::chrono::steady_clock;
  const auto ms_since = [](Clock::time_point t) { return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count()); };
  const Clock::time_point started = Clock::now();
  if (!budget_ms) cache.span_ns = UINT64_MAX;  // the rest at once
  while (!cache.complete) {
    WalkOptions slice = options;
    slice.t0_ns = cache.next_ns;
    slice.t1_ns = cache.last_ns - cache.next_ns < cache.span_ns ? cache.last_ns : cache.next_ns + cache.span_ns - 1;
    if (slice.t1_ns < cache.last_ns) {
      // Just before a chunk's first time: the last such cut in the span, else the first after it
      // (a slice then holds one chunk at least), else the end.
      const std::vector<uint64_t>& starts = cache.chunk_starts;
      auto after = std::upper_bound(starts.begin(), starts.end(), slice.t1_ns);
      if (after != starts.begin() && *(after - 1) > cache.next_ns) slice.t1_ns = *(after - 1) - 1;
      else if (after != starts.end()) slice.t1_ns = std::min(*after - 1, cache.last_ns);
      else slice.t1_ns = cache.last_ns;
    }
    const Clock::time_point began = Clock::now();
    std::string stop;
    bool walked = source.walk_with(wanted, slice, [&](const SourceMessage& m) {
      auto id = topic_ids.find(m.topic);
      if (id == topic_ids.end()) return true;
      ++cache.topics[id->second].messages;
      return cache.take(m, id->second);
    }, progress, &stop);
    if (!walked && cache.truncated.empty()) return false;
    if (cache.stopped.empty()) cache.stopped = stop;  // a damaged chunk: the slices after it read on, as a whole walk does
    cache.finish();
    cache.next_ns = slice.t1_ns + 1;
    if (slice.t1_ns == cache.last_ns || !cache.truncated.empty()) cache.complete = true;
    // A slice of about a quarter of the budget: a few answers a second, and room to adapt.
    if (!budget_ms) continue;
    const uint64_t took = ms_since(began), span = cache.span_ns;
    if (took * 8 < budget_ms) cache.span_ns = span > UINT64_MAX / 4 ? UINT64_MAX : span * 4;
    else if (took * 4 < budget_ms) cache.span_ns = span > UINT64_MAX / 2 ? UINT64_MAX : span * 2;
    else if (took > budget_ms) cache.span_ns = std::max<uint64_t>(1, span / 2);
    if (ms_since(started) >= budget_ms) break;
  }
  return true;
}

}  // namespace

WalkedCache* walked_cache(MessageSource& source, const std::string& name, IsViewType is_type,
                          const std::function<std::unique_ptr<WalkedCache>()>& make, const ProgressFn& progress,
                          const WalkOptions& options, uint64_t slice_ms) {
  std::vector<SourceTopic> all = source.topics();
  auto found = source.caches.find(name);
  if (found != source.caches.end()) {
    auto* cache = static_cast<WalkedCache*>(found->second.get());
    if (same_topics(cache->key, all)) {
      if (cache->complete) return cache;
      if (walk_slices(source, *cache, options, progress, slice_ms)) return cache;
      source.caches.erase(found);  // cancelled in the middle of a slice: read again from the start
      return nullptr;
    }
  }
  std::unique_ptr<WalkedCache> cache = make();
  std::set<std::string> wanted;
  std::map<std::string, size_t> topic_ids;
  for (const SourceTopic& t : all) {
    if (!is_type(t.type)) continue;
    topic_ids.emplace(t.topic, cache->topics.size());
    cache->topics.push_back({t.topic, t.type, t.note, 0});
    if (t.note.empty()) wanted.insert(t.topic);
  }
  cache->key = std::move(all);
  IndexedTimes times;
  if (slice_ms && !wanted.empty() && source.indexed_times(wanted, &times) && times.first_ns <= times.last_ns) {
    cache->complete = false;
    cache->first_ns = cache->next_ns = times.first_ns;
    cache->last_ns = times.last_ns;
    cache->span_ns = (times.last_ns - times.first_ns) / 16384 + 1;  // grows four times a slice while slices are quick
    cache->chunk_starts = std::move(times.chunk_starts);
    if (!walk_slices(source, *cache, options, progress, slice_ms)) return nullptr;
  } else {
    std::string stop;
    bool walked = wanted.empty() || source.walk_with(wanted, options, [&](const SourceMessage& m) {
      auto id = topic_ids.find(m.topic);
      if (id == topic_ids.end()) return true;
      ++cache->topics[id->second].messages;
      return cache->take(m, id->second);
    }, progress, &stop);
    if (!walked && cache->truncated.empty()) return nullptr;
    cache->stopped = stop;
    cache->finish();
  }
  WalkedCache* kept = cache.get();
  source.caches[name] = std::move(cache);
  return kept;
}

Json topics_only_answer(MessageSource& source, IsViewType is_type) {
  Json topics = Json::array();
  for (const SourceTopic& t : source.topics()) {
    if (!is_type(t.type)) continue;
    Json j = Json::object();
    j["topic"] = t.topic;
    j["type"] = t.type;
    j["note"] = t.note.empty() ? Json() : Json(t.note);
    topics.push_back(std::move(j));
  }
  Json out = Json::object();
  out["topics"] = std::move(topics);
  return out;
}

Json topics_json(const WalkedCache& cache) {
  Json topics = Json::array();
  for (const ViewTopic& t : cache.topics) {
    Json j = Json::object();
    j["topic"] = t.topic;
    j["type"] = t.type;
    j["messages"] = t.messages;
    j["note"] = t.note.empty() ? Json() : Json(t.note);
    topics.push_back(std::move(j));
  }
  return topics;
}

void add_walk_account(Json& out, const WalkedCache& cache) {
  Json problems = Json::array();
  for (const ViewProblem& p : cache.problems) {
    Json j = Json::object();
    j["topic"] = p.topic;
    j["time_ns"] = std::to_string(p.time_ns);
    j["message"] = p.message;
    problems.push_back(std::move(j));
  }
  out["undecoded"] = cache.undecoded;
  out["problems"] = std::move(problems);
  out["stopped"] = cache.stopped.empty() ? Json() : Json(cache.stopped);
  out["truncated"] = cache.truncated.empty() ? Json() : Json(cache.truncated);
  if (!cache.complete) {
    Json reading = Json::object();
    reading["first_ns"] = std::to_string(cache.first_ns);
    reading["through_ns"] = std::to_string(cache.next_ns - 1);
    reading["last_ns"] = std::to_string(cache.last_ns);
    out["reading"] = std::move(reading);
  }
}

ResultUnits with_walk_units(ResultUnits own) {
  ResultUnits units = {{"cancelled", Unit::Flag}, {"topics.topic", Unit::Text}, {"topics.type", Unit::Text},
                       {"topics.messages", Unit::Count}, {"topics.note", Unit::Text}};
  units.insert(units.end(), own.begin(), own.end());
  for (auto& u : ResultUnits{{"undecoded", Unit::Count}, {"problems.topic", Unit::Text}, {"problems.time_ns", Unit::TimeNs},
                             {"problems.message", Unit::Text}, {"stopped", Unit::Text}, {"truncated", Unit::Text},
                             {"reading.first_ns", Unit::TimeNs}, {"reading.through_ns", Unit::TimeNs}, {"reading.last_ns", Unit::TimeNs}})
    units.push_back(std::move(u));
  return units;
}

namespace {
// Each byte's value as a hex digit, -1 for the others (a table: protobuf's camera frames, a
// megabyte, are read back from hex on every step).
struct HexDigits {
  int8_t value[256];
  HexDigits() {
    for (int c = 0; c < 256; ++c)
      value[c] = static_cast<int8_t>(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1);
  }
};
const HexDigits kHexDigits;
}  // namespace

WholeBytes whole_bytes_of(const Json* j, std::string* out) {
  out->clear();
  if (!j || j->is_null()) return WholeBytes::Missing;
  const std::string* hex = nullptr;
  uint64_t length = 0;
  if (j->is_string()) {
    hex = &j->as_string();
    length = hex->size() / 2;
  } else if (const Json* n = j->is_object() ? j->find("length") : nullptr) {
    length = n->as_uint();
    if (const Json* raw = j->find("raw"); raw && raw->is_string()) {
      if (raw->as_string().size() != length) return WholeBytes::Preview;
      *out = raw->as_string();
      return WholeBytes::Ok;
    }
    if (const Json* h = j->find("hex"); h && h->is_string()) hex = &h->as_string();
  }
  if (!hex || hex->size() % 2 || hex->size() / 2 != length) return WholeBytes::Preview;  // (no length * 2: a JSON message's length may be any number)
  out->resize(length);
  const uint8_t* in = reinterpret_cast<const uint8_t*>(hex->data());
  char* bytes = length ? &(*out)[0] : nullptr;
  int bad = 0;
  for (uint64_t i = 0; i < length; ++i) {
    const int hi = kHexDigits.value[in[2 * i]], lo = kHexDigits.value[in[2 * i + 1]];
    bad |= hi | lo;  // negative once any digit is not one
    bytes[i] = static_cast<char>(static_cast<unsigned>(hi) << 4 | static_cast<unsigned>(lo));  // (unsigned: no shift of a negative)
  }
  if (bad < 0) return out->clear(), WholeBytes::NotHex;
  return WholeBytes::Ok;
}

}  // namespace logscope::views
