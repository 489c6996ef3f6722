#include "output_jobs.h"

#include <cstring>
#include <vector>

#include "bddf/export.h"
#include "bddf/extract.h"
#include "bddf/inspector.h"
#include "carla/export.h"
#include "carla/extract.h"
#include "core/export.h"
#include "core/extract.h"
#include "core/json.h"
#include "rosbag/export.h"
#include "rosbag/extract.h"
#include "rosbag/inspector.h"

using emscripten::val;

namespace logscope {
namespace {

// Collects the engine's small writes (a record header, a CSV row) into 1 MB pieces, so JS is
// called about once per megabyte; a patch inside the piece not yet handed over is done here.
class JsBytes {
 public:
  explicit JsBytes(val sink) : sink_(std::move(sink)) { buffer_.reserve(kPiece); }

  bool append(const void* data, size_t size) {
    if (buffer_.size() + size > kPiece && !flush()) return false;
    if (size >= kPiece) return hand_over(data, size);
    const auto* bytes = static_cast<const uint8_t*>(data);
    buffer_.insert(buffer_.end(), bytes, bytes + size);
    return true;
  }

  bool patch(uint64_t offset, const void* data, size_t size) {
    if (offset > written() || size > written() - offset) return fail("patch beyond the bytes written");
    if (offset >= flushed_) {
      std::memcpy(buffer_.data() + (offset - flushed_), data, size);
      return true;
    }
    if (!flush()) return false;
    val ok = sink_.call<val>("patch", static_cast<double>(offset), pointer(data), static_cast<double>(size));
    return ok.isTrue() || fail("patch failed");
  }

  bool flush() {
    if (buffer_.empty()) return true;
    bool ok = hand_over(buffer_.data(), buffer_.size());
    buffer_.clear();
    return ok;
  }

  uint64_t written() const { return flushed_ + buffer_.size(); }
  const std::string& error() const { return error_; }

 private:
  static constexpr size_t kPiece = 1 << 20;

  static double pointer(const void* data) { return static_cast<double>(reinterpret_cast<uintptr_t>(data)); }

  bool hand_over(const void* data, size_t size) {
    val ok = sink_.call<val>("write", pointer(data), static_cast<double>(size));
    if (!ok.isTrue()) return fail("write failed");
    flushed_ += size;
    return true;
  }

  // The sink says why (a full quota, the memory cap); the fallback names the call.
  bool fail(const char* what) {
    val reason = sink_["error"];
    error_ = reason.isString() && !reason.as<std::string>().empty() ? reason.as<std::string>() : std::string("the output: ") + what;
    return false;
  }

  val sink_;
  std::vector<uint8_t> buffer_;
  uint64_t flushed_ = 0;
  std::string error_;
};

class JsOutputSink : public OutputSink {
 public:
  explicit JsOutputSink(JsBytes& bytes) : bytes_(bytes) {}
  bool write(const void* data, size_t size) override { return check(bytes_.append(data, size)); }
  uint64_t written() const override { return bytes_.written(); }
  bool can_patch() const override { return true; }
  bool patch(uint64_t offset, const void* data, size_t size) override { return check(bytes_.patch(offset, data, size)); }
  bool close() { return check(bytes_.flush()); }

 private:
  bool check(bool ok) {
    if (!ok) error_ = bytes_.error();
    return ok;
  }
  JsBytes& bytes_;
};

class JsExportSink : public ExportSink {
 public:
  explicit JsExportSink(JsBytes& bytes) : bytes_(bytes) {}
  bool write(std::string_view text) override { return bytes_.append(text.data(), text.size()); }

 private:
  JsBytes& bytes_;
};

std::string text_of(const Json& options, const char* key) {
  const Json* value = options.find(key);
  return value && value->is_string() ? value->as_string() : "";
}

Json string_list(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const std::string& item : items) out.push_back(item);
  return out;
}

std::string error_json(const std::string& message) {
  Json out = Json::object();
  out["ok"] = false;
  out["error"] = message;
  return out.dump();
}

// Time bounds as the CLI takes them ("+12.5", "1700000000.25"); "" is no bound.
bool read_bound(const Json& options, const char* key, TimeBound* bound, std::string* error) {
  std::string text = text_of(options, key);
  if (text.empty()) return true;
  if (parse_time_bound(text, bound, error)) return true;
  *error = std::string(key) + ": " + *error;
  return false;
}

}  // namespace

std::string run_extract(ByteSource& source, const Detection& detection, const std::string& options_json, val sink,
                        const ProgressFn& progress) {
  auto parsed = Json::parse(options_json);
  if (!parsed || !parsed->is_object()) return error_json("the options are not a JSON object");
  const Json& options = *parsed;
  bool repair = text_of(options, "mode") == "repair";
  const std::string& family = detection.family;
  const Json* topics = options.find("topics");
  const Json* series = options.find("series");
  bool selects = (topics && topics->size()) || (series && series->size()) || !text_of(options, "from").empty() ||
                 !text_of(options, "to").empty();
  if (repair && selects) return error_json("repair keeps everything complete; extract selects");
  if (family == "carla" && !repair) return error_json("extract is not available for CARLA logs yet (repair is); nothing written");
  TimeBound from, to;
  std::string error;
  if (!read_bound(options, "from", &from, &error) || !read_bound(options, "to", &to, &error)) return error_json(error);

  JsBytes bytes(sink);
  JsOutputSink out(bytes);
  ExtractResult result;
  if (family == "rosbag") {
    rosbag::BagExtractOptions bag;
    if (topics)
      for (const Json& topic : topics->elements()) bag.topics.push_back(topic.as_string());
    bag.from = from;
    bag.to = to;
    bag.compression = text_of(options, "compression");
    result = rosbag::extract_bag(source, detection.format, out, bag, progress);
  } else if (family == "bddf") {
    bddf::BddfExtractOptions bddf;
    if (series)
      for (const Json& number : series->elements()) {
        if (!number.is_number() || number.as_double() < 0 || number.as_double() > UINT32_MAX)
          return error_json("series are numbers as the summary lists them");
        bddf.series.push_back(static_cast<uint32_t>(number.as_uint()));
      }
    bddf.from = from;
    bddf.to = to;
    result = bddf::extract_bddf(source, out, bddf, progress);
  } else if (family == "carla") {
    result = carla::repair_carla(source, out, progress);
  } else {
    return error_json(std::string(repair ? "repair" : "extract") + " is not available for " + detection.label);
  }
  bool closed = out.close();
  Json json = Json::object();
  json["ok"] = result.ok && closed;
  json["error"] = result.ok ? (closed ? "" : out.error()) : result.error;
  json["kept"] = string_list(result.kept);
  json["dropped"] = string_list(result.dropped);
  json["bytes_written"] = bytes.written();
  json["cancelled"] = result.cancelled;
  return json.dump();
}

std::string run_export(ByteSource& source, const Detection& detection, FormatInspector& inspector,
                       const std::string& options_json, val sink, const ProgressFn& progress) {
  auto parsed = Json::parse(options_json);
  if (!parsed || !parsed->is_object()) return error_json("the options are not a JSON object");
  const Json& options = *parsed;
  ExportRequest request;
  std::string format = text_of(options, "format");
  if (format == "jsonl") request.format = ExportFormat::Jsonl;
  else if (format != "csv" && !format.empty()) return error_json("the format is csv or jsonl");
  if (const Json* fields = options.find("fields"))
    for (const Json& field : fields->elements()) request.fields.push_back(field.as_string());
  // Times as `logscope export` reads them: "+S" counts from the summary's start.
  Report summary = inspector.summary();
  uint64_t start_ns = summary.file.start_ns && *summary.file.start_ns > 0 ? static_cast<uint64_t>(*summary.file.start_ns) : 0;
  for (auto [key, ns] : {std::pair<const char*, uint64_t*>{"from", &request.from_ns}, {"to", &request.to_ns}}) {
    std::string text = text_of(options, key);
    if (!text.empty() && !parse_export_time(text, start_ns, ns))
      return error_json(std::string(key) + " needs seconds: +12.5 after the start, or absolute like 1700000000.25");
  }
  if (request.from_ns > request.to_ns) return error_json("from is after to");

  JsBytes bytes(sink);
  JsExportSink out(bytes);
  ExportResult result;
  const std::string& family = detection.family;
  if (options.contains("topic")) {
    if (family != "rosbag") return error_json("topics are for ROS bags; this is " + detection.label);
    result = rosbag::export_topic(source, *rosbag::opened_bag(inspector), text_of(options, "topic"), request, out, progress);
  } else if (options.contains("series")) {
    if (family != "bddf") return error_json("series are for BDDF files; this is " + detection.label);
    result = bddf::export_series(source, *bddf::file_model(inspector), text_of(options, "series"), request, out, progress);
  } else if (const Json* actor = options.find("actor")) {
    if (family != "carla") return error_json("actors are for CARLA logs; this is " + detection.label);
    if (!actor->is_number() || actor->as_double() < 0 || actor->as_double() > UINT32_MAX) return error_json("the actor is an actor id");
    result = carla::export_actor(source, static_cast<uint32_t>(actor->as_uint()), request, out, progress);
  } else {
    return error_json("export needs a topic, a series or an actor");
  }
  bool flushed = bytes.flush();
  Json json = Json::object();
  std::string why = result.error;
  if (why.empty() && (result.sink_failed || !flushed)) why = bytes.error().empty() ? "the output could not be written" : bytes.error();
  json["ok"] = why.empty() && !result.cancelled;
  json["error"] = why;
  json["rows"] = result.rows;
  json["bytes_written"] = bytes.written();
  json["json_columns"] = string_list(result.json_columns);
  Json problems = Json::array();
  for (const Problem& problem : result.problems) problems.push_back(problem_to_json(problem));
  json["problems"] = problems;
  json["cancelled"] = result.cancelled;
  return json.dump();
}

}  // namespace logscope
