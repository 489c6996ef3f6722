#include "ulog/queries.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <map>

#include "core/plot.h"
#include "core/printf_text.h"
#include "ulog/export.h"
#include "ulog/inspector_impl.h"
#include "ulog/summary.h"
#include "ulog/values.h"

namespace logscope::ulog {
std::string topic_source(QueryArgs& args) {
  std::string topic = args.str("topic");
  if (args.has("multi_id")) {
    size_t colon = topic.rfind(':');
    if (colon != std::string::npos) topic.resize(colon);
    topic += ":" + std::to_string(args.u64("multi_id", 0, 0, 255));
  }
  return topic;
}

namespace {

bool same_value(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a.as_double() == b.as_double();
  return a.dump() == b.dump();
}

}  // namespace

// {} -> {"parameters": [{"name", "type", "value", "system_default", "config_default", "changed_from_default"}],
// "changes": [{"name", "value", "timestamp_ns", "offset"}]}: the initial values by name (a later one
// of the same name wins, as ulog_params' dict), and the changes made in flight.
Json UlogInspector::params_query(QueryArgs&) {
  std::map<std::string, const KeyValue*> initial;
  for (const KeyValue& p : model_.parameters)
    if (!p.in_data) initial[p.name] = &p;
  std::map<std::string, const KeyValue*> system_default, config_default;
  for (const KeyValue& q : model_.defaults) {
    if (q.default_types & 1) system_default[q.name] = &q;
    if (q.default_types & 2) config_default[q.name] = &q;
  }
  Json list = Json::array();
  uint64_t changed_count = 0;
  for (const auto& [name, p] : initial) {
    Json j = Json::object();
    j["name"] = name;
    j["type"] = p->type;
    j["value"] = p->value;
    auto sys = system_default.find(name);
    auto conf = config_default.find(name);
    if (sys != system_default.end()) j["system_default"] = sys->second->value;
    if (conf != config_default.end()) j["config_default"] = conf->second->value;
    // Changed from the default the airframe's configuration gives, else the system's.
    const KeyValue* reference = conf != config_default.end() ? conf->second : sys != system_default.end() ? sys->second : nullptr;
    bool changed = reference && !same_value(reference->value, p->value);
    j["changed_from_default"] = reference ? Json(changed) : Json();
    changed_count += changed;
    list.push_back(std::move(j));
  }
  Json changes = Json::array();
  for (const KeyValue& p : model_.parameters)
    if (p.in_data) {
      Json j = Json::object();
      j["name"] = p.name;
      j["value"] = p.value;
      j["timestamp_ns"] = p.timestamp_us * 1000;
      j["offset"] = p.offset;
      changes.push_back(std::move(j));
    }
  Json out = Json::object();
  out["total"] = uint64_t{initial.size()};
  out["with_defaults"] = uint64_t{model_.defaults.size()};
  out["changed_from_default"] = changed_count;
  out["parameters"] = std::move(list);
  out["changes"] = std::move(changes);
  return out;
}

// {"first"?, "count"?} -> {"total", "errors", "warnings", "messages": [{"timestamp_ns", "level", "level_name", "tagged", "tag",
// "text", "line", "offset"}]}: `line` as ulog_messages prints it ("0:02:38 ERROR: text").
Json UlogInspector::messages_query(QueryArgs& args) {
  uint64_t first = args.u64("first", 0), count = args.u64("count", 1000, 0, kMaxPage);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  Json list = Json::array();
  uint64_t errors = 0, warnings = 0;
  for (const LoggedString& s : model_.strings) errors += is_error_level(s.level), warnings += s.level == '4';
  for (uint64_t i = first; i < model_.strings.size() && i < first + count; ++i) {
    const LoggedString& s = model_.strings[i];
    Json j = Json::object();
    j["timestamp_ns"] = s.timestamp_us * 1000;
    j["level"] = std::string(1, static_cast<char>(s.level));
    j["level_name"] = level_name(s.level);
    j["tagged"] = s.tagged;
    j["tag"] = s.tagged ? Json(uint64_t{s.tag}) : Json();
    j["text"] = s.text;
    uint64_t secs = s.timestamp_us / 1000000;
    j["line"] = printf_string("%" PRIu64 ":%02" PRIu64 ":%02" PRIu64 " %s: %s", secs / 3600, (secs / 60) % 60, secs % 60, level_name(s.level), s.text.c_str());
    j["offset"] = s.offset;
    list.push_back(std::move(j));
  }
  Json out = Json::object();
  out["total"] = uint64_t{model_.strings.size()};
  out["errors"] = errors;
  out["warnings"] = warnings;
  out["messages"] = std::move(list);
  return out;
}

// {"key"?} -> {"keys": [{"key", "type", "count"}], "values": [...]}: the multi-info keys, and the
// values of one (continued pieces joined), in file order.
Json UlogInspector::info_multiple_query(QueryArgs& args) {
  std::string key = args.str("key");
  Json keys = Json::array(), values = Json::array();
  for (const MultiInfo& mi : model_.multi_infos) {
    Json j = Json::object();
    j["key"] = mi.name;
    j["type"] = mi.type;
    j["count"] = uint64_t{mi.values.size()};
    keys.push_back(std::move(j));
    if (mi.name == key)
      for (const Json& v : mi.values) values.push_back(v);
  }
  Json out = Json::object();
  out["keys"] = std::move(keys);
  out["values"] = std::move(values);
  return out;
}

// Messages per subscription and time bin: ULog has no index, so each subscription's count is
// spread over its own first-to-last span ("spread" resolution).
Json UlogInspector::timeline_query(QueryArgs& args) {
  uint64_t lo = model_.start_us() * 1000, hi = model_.end_us() * 1000, t0 = 0, t1 = 0;
  size_t bins = 0;
  if (!read_timeline_args(args, lo, hi, &t0, &t1, &bins)) return QueryArgs::error_json(args.error());
  Timeline timeline(t0, t1, bins, model_.subscriptions.size());
  for (const Subscription& s : model_.subscriptions) {
    size_t row = timeline.row(s.name + (s.multi_id ? ":" + std::to_string(s.multi_id) : std::string()), "multi_id " + std::to_string(s.multi_id));
    if (s.messages && s.min_us && s.max_us) timeline.spread(row, *s.min_us * 1000, *s.max_us * 1000, s.messages);
  }
  return timeline.to_json("spread");
}

// {"topic", "multi_id"?, "first"?, "count"?} -> {"topic", "multi_id", "total", "messages": [{"index", "offset", "timestamp_ns", "message"}]}.
Json UlogInspector::decoded_query(QueryArgs& args, const ProgressFn& progress) {
  std::string source = topic_source(args), topic, error;
  uint8_t multi_id = 0;
  uint64_t first = args.u64("first", 0), count = args.u64("count", 100, 0, 1000);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  if (!parse_source(source, &topic, &multi_id, &error)) return QueryArgs::error_json(error);
  const Subscription* s = model_.subscription(topic, multi_id);
  const Format* f = s->format >= 0 ? &model_.formats.formats[static_cast<size_t>(s->format)] : nullptr;
  Json list = Json::array();
  uint64_t index = 0, total = 0;
  for (const Subscription& x : model_.subscriptions)
    if (x.name == topic && x.multi_id == multi_id) total += x.messages;
  bool done = for_each_topic_message(source_, model_, topic, multi_id, progress, [&](const uint8_t* p, size_t size, uint64_t offset) {
    uint64_t i = index++;
    if (i < first) return true;
    if (i >= first + count) return false;
    Json j = Json::object();
    j["index"] = i;
    j["offset"] = offset;
    if (f && f->resolved) {
      if (f->timestamp_field >= 0 && f->fields[static_cast<size_t>(f->timestamp_field)].offset + 8u <= size) {
        uint64_t t;
        std::memcpy(&t, p + f->fields[static_cast<size_t>(f->timestamp_field)].offset, 8);
        j["timestamp_ns"] = t * 1000;
      }
      j["message"] = decode_fields(model_.formats, *f, p, size);
    }
    list.push_back(std::move(j));
    return true;
  });
  Json out = Json::object();
  out["topic"] = topic;
  out["multi_id"] = uint64_t{multi_id};
  out["total"] = total;
  out["first"] = first;
  out["cancelled"] = !done;
  out["messages"] = std::move(list);
  return out;
}

// {"topic"? (vehicle_global_position, else vehicle_gps_position or sensor_gps), "multi_id"?, "max_points"?} ->
// {"topic", "count", "points": [[lat, lon, alt]], "times_ns", "bounds": {lat_min, lat_max, lon_min, lon_max}}:
// degrees (an integer lat/lon field is in 1e-7 degrees, as the GPS topics write it).
Json UlogInspector::gps_track_query(QueryArgs& args, const ProgressFn& progress) {
  uint64_t max_points = args.u64("max_points", 5000, 2, 100000);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  std::string source = args.has("topic") ? topic_source(args) : "";
  if (source.empty()) {
    // The estimate where it was logged, else the raw fixes: the first with messages (old logs
    // subscribe to both and fill one), else the first subscribed.
    auto messages_of = [&](const std::string& name) {
      uint64_t n = 0;
      for (const Subscription& x : model_.subscriptions)
        if (x.name == name && x.multi_id == 0) n += x.messages;
      return n;
    };
    const char* candidates[] = {"vehicle_global_position", "vehicle_gps_position", "sensor_gps"};
    for (const char* name : candidates)
      if (source.empty() && messages_of(name)) source = name;
    for (const char* name : candidates)
      if (source.empty() && model_.subscription(name, 0)) source = name;
    if (source.empty()) {
      // No GPS topic: an empty track, not an error (the page says there is nothing to draw).
      Json out = Json::object();
      out["topic"] = Json();
      out["multi_id"] = uint64_t{0};
      out["count"] = uint64_t{0};
      out["kept"] = uint64_t{0};
      out["cancelled"] = false;
      out["points"] = Json::array();
      out["times_ns"] = Json::array();
      out["bounds"] = Json::object();
      return out;
    }
  }
  std::string topic, error;
  uint8_t multi_id = 0;
  if (!parse_source(source, &topic, &multi_id, &error)) return QueryArgs::error_json(error);
  const Subscription* s = model_.subscription(topic, multi_id);
  std::vector<Leaf> leaves;
  if (!topic_leaves(model_, *s, &leaves, &error)) return QueryArgs::error_json(error);
  const Leaf *lat = nullptr, *lon = nullptr, *alt = nullptr;
  for (const Leaf& l : leaves) {
    if (l.name == "lat") lat = &l;
    if (l.name == "lon") lon = &l;
    if (l.name == "alt" || (!alt && l.name == "altitude_msl_m")) alt = &l;
  }
  if (!lat || !lon) return QueryArgs::error_json("'" + topic + "' has no lat and lon fields");
  uint64_t total = 0;
  for (const Subscription& x : model_.subscriptions)
    if (x.name == topic && x.multi_id == multi_id) total += x.messages;
  uint64_t step = std::max<uint64_t>(1, (total + max_points - 1) / max_points);
  auto degrees = [](const Leaf& l, const uint8_t* p) {
    double v = scalar_as_double(l.base, p + l.offset);
    return l.base == BaseType::Float || l.base == BaseType::Double ? v : v * 1e-7;
  };
  double la0 = 1e9, la1 = -1e9, lo0 = 1e9, lo1 = -1e9;
  Json points = Json::array(), times = Json::array();
  uint64_t index = 0, kept = 0;
  uint32_t ts = leaves[0].offset;
  bool done = for_each_topic_message(source_, model_, topic, multi_id, progress, [&](const uint8_t* p, size_t size, uint64_t) {
    if (index++ % step != 0 && index != total) return true;
    size_t need = std::max({lat->offset + base_size(lat->base), lon->offset + base_size(lon->base), size_t{ts} + 8});
    if (size < need) return true;
    double a = degrees(*lat, p), o = degrees(*lon, p);
    if (!std::isfinite(a) || !std::isfinite(o) || (a == 0 && o == 0)) return true;  // no fix yet
    uint64_t t;
    std::memcpy(&t, p + ts, 8);
    times.push_back(t * 1000);
    Json point = Json::array();
    point.push_back(a);
    point.push_back(o);
    if (alt && alt->offset + base_size(alt->base) <= size) point.push_back(scalar_as_double(alt->base, p + alt->offset) * (alt->base == BaseType::Int32 ? 1e-3 : 1));
    points.push_back(std::move(point));
    la0 = std::min(la0, a), la1 = std::max(la1, a), lo0 = std::min(lo0, o), lo1 = std::max(lo1, o);
    ++kept;
    return true;
  });
  Json out = Json::object();
  out["topic"] = topic;
  out["multi_id"] = uint64_t{multi_id};
  out["count"] = total;
  out["kept"] = kept;
  out["cancelled"] = !done;
  out["points"] = std::move(points);
  out["times_ns"] = std::move(times);
  Json bounds = Json::object();
  if (kept) bounds["lat_min"] = la0, bounds["lat_max"] = la1, bounds["lon_min"] = lo0, bounds["lon_max"] = lo1;
  out["bounds"] = std::move(bounds);
  return out;
}

std::vector<QuerySpec> UlogInspector::queries() {
  ArgSpec topic{"topic", ArgType::String, "the topic: name, or name:multi_id"};
  ArgSpec multi{"multi_id", ArgType::U64, "the instance (default 0, or the :N of topic)"};
  return {
      {"params", "the parameters as ulog_params gives them (initial values by name), each with its defaults ('Q' messages) and whether it changed from them, and the changes made in flight",
       {},
       {{"total", Unit::Count}, {"with_defaults", Unit::Count}, {"changed_from_default", Unit::Count}, {"parameters.name", Unit::Text},
        {"parameters.type", Unit::Text}, {"parameters.value", Unit::Number}, {"parameters.system_default", Unit::Number},
        {"parameters.config_default", Unit::Number}, {"parameters.changed_from_default", Unit::Flag}, {"changes.name", Unit::Text},
        {"changes.value", Unit::Number}, {"changes.timestamp_ns", Unit::TimeNs}, {"changes.offset", Unit::Offset}},
       [this](QueryArgs& args, const ProgressFn&) { return params_query(args); }},
      {"messages", "the logged strings ('L' and tagged 'C') in file order, as ulog_messages prints them",
       {{"first", ArgType::U64, "first string"}, {"count", ArgType::U64, "strings (at most 10000)"}},
       {{"total", Unit::Count}, {"errors", Unit::Count}, {"warnings", Unit::Count}, {"messages.timestamp_ns", Unit::TimeNs},
        {"messages.level", Unit::Text}, {"messages.level_name", Unit::Text}, {"messages.tagged", Unit::Flag}, {"messages.tag", Unit::Id},
        {"messages.text", Unit::Text}, {"messages.line", Unit::Text}, {"messages.offset", Unit::Offset}},
       [this](QueryArgs& args, const ProgressFn&) { return messages_query(args); }},
      {"info_multiple", "the multi-info keys ('M' messages) with their counts, and the values of one key (continued pieces joined)",
       {{"key", ArgType::String, "the key whose values to give"}},
       {{"keys.key", Unit::Text}, {"keys.type", Unit::Text}, {"keys.count", Unit::Count}, {"values", Unit::Data}},
       [this](QueryArgs& args, const ProgressFn&) { return info_multiple_query(args); }},
      {"decoded", "a topic's messages in file order, a page at a time, decoded by its format",
       {topic, multi, {"first", ArgType::U64, "index of the first message"}, {"count", ArgType::U64, "messages (at most 1000)"}},
       {{"topic", Unit::Text}, {"multi_id", Unit::Id}, {"total", Unit::Count}, {"first", Unit::Id}, {"cancelled", Unit::Flag},
        {"messages.index", Unit::Id}, {"messages.offset", Unit::Offset}, {"messages.timestamp_ns", Unit::TimeNs}, {"messages.message", Unit::Data}},
       [this](QueryArgs& args, const ProgressFn& progress) { return decoded_query(args, progress); }},
      {"gps_track", "latitude and longitude over time (vehicle_global_position by default), at most max_points of them, for the map",
       {topic, multi, {"max_points", ArgType::U64, "points kept, evenly (default 5000)"}},
       {{"topic", Unit::Text}, {"multi_id", Unit::Id}, {"count", Unit::Count}, {"kept", Unit::Count}, {"cancelled", Unit::Flag},
        {"points", Unit::Number}, {"times_ns", Unit::TimeNs}, {"bounds.lat_min", Unit::Number}, {"bounds.lat_max", Unit::Number}, {"bounds.lon_min", Unit::Number},
        {"bounds.lon_max", Unit::Number}},
       [this](QueryArgs& args, const ProgressFn& progress) { return gps_track_query(args, progress); }},
      {"columns", "the columns of `logscope export --topic` (ulog2csv's) and what each holds (number, text)", {topic, multi},
       {{"topic", Unit::Text}, {"multi_id", Unit::Id}, {"type", Unit::Text}, {"columns.name", Unit::Text}, {"columns.kind", Unit::Text}},
       [this](QueryArgs& args, const ProgressFn&) { return columns_query(args); }},
      {"plot", "numeric columns of a topic over time, as `logscope export` writes them: every point, or per-bucket first/last/min/max beyond max_points, and the exact count",
       [&] {
         std::vector<ArgSpec> specs{topic, multi};
         for (ArgSpec& spec : plot_arg_specs()) specs.push_back(std::move(spec));
         return specs;
       }(),
       plot_units(), [this](QueryArgs& args, const ProgressFn& progress) { return plot_query(args, progress); }},
      {"timeline", "messages per subscription and time bin, each subscription's count spread over its first-to-last span (ULog has no index)",
       timeline_arg_specs(), timeline_units(), [this](QueryArgs& args, const ProgressFn&) { return timeline_query(args); }},
  };
}

}  // namespace logscope::ulog
