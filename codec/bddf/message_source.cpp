// A BDDF file's protobuf series for the views (core/message_source.h): each series is a topic
// named by its channel, its type the series' message type, and its messages decoded by name
// through the schemas the user gave (protobuf/schemas.h). BDDF stores no schema, so without
// them every topic carries a note saying how to give one, as the Data tab does. The page's view
// module (LOGSCOPE_VIEW_ONLY) loads no schemas, so there BDDF has no source: the full module,
// which the schemas load, answers the views (CMakeLists.txt compiles this file per module).
#include <algorithm>
#include <map>
#include <set>

#include "bddf/blocks.h"
#include "bddf/inspector_impl.h"
#include "bddf/message_export.h"
#include "protobuf/schemas.h"
#include "views/views.h"

namespace logscope::bddf {

#ifdef LOGSCOPE_VIEW_ONLY
std::vector<QuerySpec> BddfInspector::queries() { return query_table(source_, model_, schemas_.get()); }
MessageSource* BddfInspector::message_source() { return nullptr; }
#else
namespace {

constexpr uint64_t kMaxMessage = 64u << 20;  // a bigger message is not decoded, with why

// The topic of each protobuf series (by position in model.series; "" for the others): its
// channel, with the series index added where two series share one.
std::vector<std::string> series_topics(const FileModel& model) {
  std::vector<std::string> names(model.series.size());
  std::map<std::string, int> uses;
  for (size_t s = 0; s < model.series.size(); ++s)
    if (is_protobuf_series(model.series[s])) ++uses[model.series[s].channel()];
  for (size_t s = 0; s < model.series.size(); ++s) {
    if (!is_protobuf_series(model.series[s])) continue;
    names[s] = model.series[s].channel();
    if (uses[names[s]] > 1) names[s] += " [series " + std::to_string(model.series[s].index) + "]";
  }
  return names;
}

std::string schema_note(const Series& series, const protobuf::Schemas* schemas) {
  if (!schemas)
    return "BDDF stores no schema: give the .proto files or a descriptor set with " + series.type_name +
           " (the Data tab's \"Protobuf field names\" card; the CLI's --descriptors FILE or --proto-path DIR)";
  if (!schemas->has_type(series.type_name)) return "the schemas given (" + schemas->description() + ") have no type " + series.type_name;
  return "";
}

}  // namespace

std::vector<QuerySpec> BddfInspector::queries() {
  std::vector<QuerySpec> list = query_table(source_, model_, schemas_.get());
  views::add_view_queries(list, message_source());
  return list;
}

MessageSource* BddfInspector::message_source() {
  if (message_source_) return message_source_.get();
  auto topics = [this] {
    std::vector<SourceTopic> list;
    const std::vector<std::string> names = series_topics(model_);
    for (size_t s = 0; s < model_.series.size(); ++s)
      if (!names[s].empty()) list.push_back({names[s], model_.series[s].type_name, schema_note(model_.series[s], schemas_.get())});
    return list;
  };
  auto walk = [this](const std::set<std::string>& wanted, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit,
                     const ProgressFn& progress, std::string* error) {
    (void)error;  // a block that cannot be read is that message's error; the index lists the rest
    const std::vector<std::string> names = series_topics(model_);
    // The blocks of the wanted series in the range, from the index, merged by time (then place).
    struct Hit {
      uint64_t time_ns, offset;
      uint32_t series;
    };
    std::vector<Hit> hits;
    for (uint32_t s = 0; s < model_.series.size(); ++s) {
      if (names[s].empty() || !wanted.count(names[s]) || !schema_note(model_.series[s], schemas_.get()).empty()) continue;
      const BlockEntries& entries = model_.series[s].entries;
      if (entries.times_ascending() && (entries.empty() || entries.front().timestamp_ns >= 0)) {
        EntriesInSpan in_span(entries, options.t0_ns, options.t1_ns);
        in_span.each([&](size_t, const BlockEntry& e) {
          hits.push_back({static_cast<uint64_t>(e.timestamp_ns), e.file_offset, s});
          return true;
        });
        continue;
      }
      for (const BlockEntry& e : entries) {
        const uint64_t t = e.timestamp_ns < 0 ? 0 : static_cast<uint64_t>(e.timestamp_ns);  // before 1970: at 0
        if (t >= options.t0_ns && t <= options.t1_ns) hits.push_back({t, e.file_offset, s});
      }
    }
    std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.time_ns != b.time_ns ? a.time_ns < b.time_ns : a.offset < b.offset; });
    protobuf::JsonLimits limits;
    if (options.whole_bytes) {
      limits.max_values = SIZE_MAX;
      limits.max_bytes_shown = SIZE_MAX;
    }
    std::vector<uint8_t> payload;
    for (size_t i = 0; i < hits.size(); ++i) {
      if (progress && !progress(i, hits.size())) return false;
      const Hit& hit = hits[i];
      const Series& series = model_.series[hit.series];
      BlockFrame frame;
      std::string why;
      Json decoded;
      const Json* message = nullptr;
      if (read_frame(source_, hit.offset, model_.size, &frame, &why) != FrameStatus::Ok || frame.type != 0) {
        why = "the data block at byte " + std::to_string(hit.offset) + " cannot be read: " + (why.empty() ? "it is not a data block" : why);
      } else if (frame.payload_size() > kMaxMessage) {
        why = "the message at byte " + std::to_string(frame.payload_offset()) + " is " + std::to_string(frame.payload_size()) +
              " bytes: messages above 64 MiB are not decoded";
      } else {
        payload = source_.read_vector(frame.payload_offset(), static_cast<size_t>(frame.payload_size()));
        if (payload.size() != frame.payload_size()) {
          why = "the file ends inside the data block at byte " + std::to_string(hit.offset);
        } else {
          decoded = schemas_->message_json(series.type_name, payload.data(), payload.size(), limits);
          if (const Json* bad = decoded.find("error")) why = bad->is_string() ? bad->as_string() : "the message does not parse";
          else if (const Json* m = decoded.find("message")) message = m;
          else why = "the message does not parse";
        }
      }
      if (!visit(SourceMessage{names[hit.series], series.type_name, hit.time_ns, message, message ? std::string() : why, hit.offset}))
        return true;
    }
    if (progress) progress(hits.size(), hits.size());
    return true;
  };
  message_source_ = std::make_unique<FunctionSource>(topics, walk);
  return message_source_.get();
}
#endif

}  // namespace logscope::bddf
