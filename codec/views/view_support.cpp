#include "views/view_support.h"

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

WalkedCache* walked_cache(MessageSource& source, const std::string& name, IsViewType is_type,
                          const std::function<std::unique_ptr<WalkedCache>()>& make, const ProgressFn& progress,
                          const WalkOptions& options) {
  std::vector<SourceTopic> all = source.topics();
  auto found = source.caches.find(name);
  if (found != source.caches.end()) {
    auto* cache = static_cast<WalkedCache*>(found->second.get());
    if (same_topics(cache->key, all)) return cache;
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
  cache->key = std::move(all);
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
}

ResultUnits with_walk_units(ResultUnits own) {
  ResultUnits units = {{"cancelled", Unit::Flag}, {"topics.topic", Unit::Text}, {"topics.type", Unit::Text},
                       {"topics.messages", Unit::Count}, {"topics.note", Unit::Text}};
  units.insert(units.end(), own.begin(), own.end());
  for (auto& u : ResultUnits{{"undecoded", Unit::Count}, {"problems.topic", Unit::Text}, {"problems.time_ns", Unit::TimeNs},
                             {"problems.message", Unit::Text}, {"stopped", Unit::Text}, {"truncated", Unit::Text}})
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
