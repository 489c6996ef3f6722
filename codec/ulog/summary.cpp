#include "ulog/summary.h"

#include <algorithm>
#include <cinttypes>

#include "core/printf_text.h"
#include "ulog/values.h"

namespace logscope::ulog {

bool is_error_level(uint8_t level) { return level >= '0' && level <= '3'; }

const char* level_name(uint8_t level) {
  switch (level) {
    case '0': return "EMERGENCY";
    case '1': return "ALERT";
    case '2': return "CRITICAL";
    case '3': return "ERROR";
    case '4': return "WARNING";
    case '5': return "NOTICE";
    case '6': return "INFO";
    case '7': return "DEBUG";
    default: break;
  }
  return "UNKNOWN";
}

std::optional<std::string> version_text(const FileModel& m) {
  std::optional<Json> v = m.info("ver_sw_release");
  if (!v || !v->is_number_integer()) return std::nullopt;
  uint64_t x = v->as_uint();
  uint64_t type = x & 0xff;
  std::string kind = type == 0 ? "dev" : type <= 63 ? "alpha" : type <= 127 ? "beta" : type <= 191 ? "rc" : type == 255 ? "" : "";
  std::string out = printf_string("v%" PRIu64 ".%" PRIu64 ".%" PRIu64, (x >> 24) & 0xff, (x >> 16) & 0xff, (x >> 8) & 0xff);
  return kind.empty() ? out : out + " " + kind;
}

namespace {

std::optional<double> rate_hz(const Subscription& s) {
  if (s.messages < 2 || !s.min_us || !s.max_us || *s.max_us <= *s.min_us) return std::nullopt;
  return static_cast<double>(s.messages - 1) / (static_cast<double>(*s.max_us - *s.min_us) / 1e6);
}

uint32_t message_size(const FileModel& m, const Subscription& s) {
  return s.format >= 0 && m.formats.formats[static_cast<size_t>(s.format)].resolved ? m.formats.formats[static_cast<size_t>(s.format)].data_size : 0;
}

std::string hms(uint64_t seconds) {
  return printf_string("%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, seconds / 3600, (seconds / 60) % 60, seconds % 60);
}

}  // namespace

Report summary_report(const FileModel& m) {
  Report r;
  r.format = "ulog";
  r.format_label = "ULog v" + std::to_string(m.version);
  r.problems = m.problems;
  r.file.size_bytes = m.file_size;
  if (m.header_ok) {
    r.file.start_ns = static_cast<int64_t>(std::min<uint64_t>(m.start_us(), INT64_MAX / 1000) * 1000);
    r.file.end_ns = static_cast<int64_t>(std::min<uint64_t>(m.end_us(), INT64_MAX / 1000) * 1000);
  }
  uint64_t params = 0;
  for (const KeyValue& p : m.parameters) params += p.in_data ? 0 : 1;
  uint64_t errors = 0, warnings = 0;
  for (const LoggedString& s : m.strings) errors += is_error_level(s.level), warnings += s.level == '4';
  uint64_t dropout_ms = 0, dropout_max = 0;
  for (const Dropout& d : m.dropouts) dropout_ms += d.duration_ms, dropout_max = std::max<uint64_t>(dropout_max, d.duration_ms);
  r.file.counts = {{"messages", m.data_messages}, {"topics", m.subscriptions.size()}, {"formats", m.formats.formats.size()},
                   {"parameters", params},        {"logged_strings", m.strings.size()}, {"dropouts", m.dropouts.size()},
                   {"records", m.messages}};

  Facts& f = r.facts;
  f.set("version", uint64_t{m.version}, Unit::Id);
  for (const char* key : {"sys_name", "ver_hw", "ver_sw", "ver_sw_branch", "sys_os_name", "sys_uuid"})
    if (std::optional<Json> v = m.info(key)) f.set(key, value_text(*v), Unit::Text);
  if (std::optional<std::string> v = version_text(m)) f.set("ver_sw_release", *v, Unit::Text);
  if (m.header_ok) f.set("flight_duration", static_cast<double>(m.end_us() - m.start_us()) / 1e6, Unit::Seconds);
  f.set("logged_errors", errors, Unit::Count);
  f.set("logged_warnings", warnings, Unit::Count);
  f.set("dropout_duration", static_cast<double>(dropout_ms) / 1e3, Unit::Seconds);
  f.set("syncs", m.syncs, Unit::Count);
  f.set("flag_bits", m.flags.present, Unit::Flag);
  if (m.flags.present) {
    f.set("data_appended", m.flags.data_appended(), Unit::Flag);
    f.set("default_parameters", (m.flags.compat[0] & kCompatDefaultParameters) != 0, Unit::Flag);
  }
  uint64_t appended = 0;
  for (const Section& s : m.sections) appended += s.appended;
  if (appended) f.set("appended_sections", appended, Unit::Count);
  f.set("default_parameter_values", uint64_t{m.defaults.size()}, Unit::Count);
  f.set("info_multiple_keys", uint64_t{m.multi_infos.size()}, Unit::Count);
  if (m.definitions_end) f.set("data_section_offset", m.definitions_end, Unit::Offset);

  Table topics{"topics", {"topic", "multi_id", "msg_id", "messages", "message_size", "bytes", "first_ns", "last_ns", "rate"}, {},
               {Unit::Text, Unit::Id, Unit::Id, Unit::Count, Unit::Bytes, Unit::Bytes, Unit::TimeNs, Unit::TimeNs, Unit::Hz}};
  for (const Subscription& s : m.subscriptions) {
    std::optional<double> rate = rate_hz(s);
    topics.rows.push_back({s.name, uint64_t{s.multi_id}, uint64_t{s.msg_id}, s.messages, uint64_t{message_size(m, s)}, s.bytes,
                           s.min_us ? Json(*s.min_us * 1000) : Json(), s.max_us ? Json(*s.max_us * 1000) : Json(), rate ? Json(*rate) : Json()});
  }
  Table info{"info", {"key", "type", "value", "in_data_section", "offset"}, {}, {Unit::Text, Unit::Text, Unit::Text, Unit::Flag, Unit::Offset}};
  for (const KeyValue& kv : m.infos) info.rows.push_back({kv.name, kv.type, value_text(kv.value), kv.in_data, kv.offset});
  Table dropouts{"dropouts", {"offset", "duration_ms", "after_ns"}, {}, {Unit::Offset, Unit::Count, Unit::TimeNs}};
  for (const Dropout& d : m.dropouts) dropouts.rows.push_back({d.offset, uint64_t{d.duration_ms}, Json(d.after_us * 1000)});
  r.tables.push_back(std::move(topics));
  r.tables.push_back(std::move(info));
  r.tables.push_back(std::move(dropouts));
  r.recovery = m.recovery;

  Json& d = r.details;
  d["header_timestamp_us"] = m.header_timestamp_us;
  Json flags = Json::object();
  std::string compat, incompat;
  for (int i = 0; i < 8; ++i) compat += printf_string("%02x", m.flags.compat[i]), incompat += printf_string("%02x", m.flags.incompat[i]);
  flags["present"] = m.flags.present;
  flags["compat"] = compat;
  flags["incompat"] = incompat;
  Json offsets = Json::array();
  for (uint64_t o : m.flags.appended) offsets.push_back(o);
  flags["appended_offsets"] = std::move(offsets);
  d["flag_bits"] = std::move(flags);
  Json sections = Json::array();
  for (const Section& s : m.sections) {
    Json j = Json::object();
    j["begin"] = s.begin;
    j["end"] = s.end;
    j["walked_to"] = s.walked_to;
    j["messages"] = s.messages;
    j["appended"] = s.appended;
    sections.push_back(std::move(j));
  }
  d["sections"] = std::move(sections);
  Json multi = Json::object();
  for (const MultiInfo& mi : m.multi_infos) multi[mi.name] = uint64_t{mi.values.size()};
  d["info_multiple"] = std::move(multi);
  Json types = Json::object();
  for (const auto& [type, n] : m.type_counts) types[std::string(1, known_message_type(type) ? static_cast<char>(type) : '?') + (known_message_type(type) ? "" : std::to_string(type))] = n;
  d["message_types"] = std::move(types);
  d["dropout_total_ms"] = dropout_ms;
  d["dropout_max_ms"] = dropout_max;
  return r;
}

std::string info_text(const FileModel& m, bool all) {
  std::string out;
  uint64_t start_s = m.start_us() / 1000000, duration_s = (m.end_us() - m.start_us()) / 1000000;
  out += "Logging start time: " + hms(start_s) + ", duration: " + hms(duration_s) + "\n";
  if (m.dropouts.empty()) {
    out += "No Dropouts\n";
  } else {
    uint64_t sum = 0, max = 0;
    for (const Dropout& d : m.dropouts) sum += d.duration_ms, max = std::max<uint64_t>(max, d.duration_ms);
    out += printf_string("Dropouts: count: %zu, total duration: %.1f s, max: %" PRIu64 " ms, mean: %" PRIu64 " ms\n", m.dropouts.size(),
                         static_cast<double>(sum) / 1000.0, max, sum / m.dropouts.size());
  }
  if (std::optional<std::string> v = version_text(m)) out += "SW Version: " + *v + "\n";
  out += "Info Messages:\n";
  std::vector<std::pair<std::string, std::string>> infos;
  for (const KeyValue& kv : m.infos) {
    auto it = std::find_if(infos.begin(), infos.end(), [&](const auto& p) { return p.first == kv.name; });
    if (it == infos.end()) infos.emplace_back(kv.name, value_text(kv.value));
    else it->second = value_text(kv.value);  // a later value of the same key wins, as in a dict
  }
  std::sort(infos.begin(), infos.end());
  for (const auto& [key, value] : infos)
    if (all || key.rfind("perf_", 0) != 0) out += " " + key + ": " + value + "\n";
  if (!m.multi_infos.empty()) {
    std::vector<const MultiInfo*> sorted;
    for (const MultiInfo& mi : m.multi_infos) sorted.push_back(&mi);
    std::sort(sorted.begin(), sorted.end(), [](const MultiInfo* a, const MultiInfo* b) { return a->name < b->name; });
    out += "Info Multiple Messages: ";
    for (size_t i = 0; i < sorted.size(); ++i) out += (i ? ", " : "") + printf_string("[%s: %zu]", sorted[i]->name.c_str(), sorted[i]->values.size());
    out += "\n";
  }
  out += "\n" + printf_string("%-41s %-7s, %-10s\n", "Name (multi id, message size in bytes)", "number of data points", "total bytes");
  std::vector<const Subscription*> subs;
  for (const Subscription& s : m.subscriptions) subs.push_back(&s);
  std::stable_sort(subs.begin(), subs.end(), [](const Subscription* a, const Subscription* b) {
    return a->name + std::to_string(a->multi_id) < b->name + std::to_string(b->multi_id);
  });
  for (const Subscription* s : subs) {
    uint32_t size = message_size(m, *s);
    std::string name_id = s->name + " (" + std::to_string(s->multi_id) + ", " + std::to_string(size) + ")";
    out += printf_string(" %-40s %7" PRIu64 " %10" PRIu64 "\n", name_id.c_str(), s->messages, static_cast<uint64_t>(size) * s->messages);
  }
  return out;
}

}  // namespace logscope::ulog
