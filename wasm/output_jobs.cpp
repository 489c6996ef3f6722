#include "output_jobs.h"

#include <cstring>
#include <memory>
#include <vector>

#include "core/export.h"
#include "core/extract.h"
#include "core/format_table.h"
#include "core/json.h"
#include "core/spill.h"

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

  // A writer that will patch asks first (a bag's header is written last): the page then keeps the
  // output where it can be patched, not in a download streamed in order (web/src/output-job.js).
  void will_patch() {
    if (sink_.hasOwnProperty("willPatch")) sink_.call<void>("willPatch");
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
  bool can_patch() const override {
    bytes_.will_patch();
    return true;
  }
  bool patch(uint64_t offset, const void* data, size_t size) override { return check(bytes_.patch(offset, data, size)); }
  bool close() { return check(bytes_.flush()); }

 private:
  bool check(bool ok) {
    if (!ok) error_ = bytes_.error();
    return ok;
  }
  JsBytes& bytes_;
};

// The page's scratch file for a writer (core/spill.h): sink.spill = {write(offset, pointer,
// length), read(offset, pointer, length), error}, a file in the origin's private storage.
class JsSpill : public SpillFile {
 public:
  explicit JsSpill(val spill) : spill_(std::move(spill)) {}
  bool write(uint64_t offset, const void* data, size_t size) override { return call("write", offset, data, size); }
  bool read(uint64_t offset, void* data, size_t size) override { return call("read", offset, data, size); }
  std::string error() const override {
    val reason = spill_["error"];
    return reason.isString() && !reason.as<std::string>().empty() ? reason.as<std::string>() : "the page's scratch file failed";
  }

 private:
  bool call(const char* name, uint64_t offset, const void* data, size_t size) {
    return spill_.call<val>(name, static_cast<double>(offset), static_cast<double>(reinterpret_cast<uintptr_t>(data)),
                            static_cast<double>(size)).isTrue();
  }
  val spill_;
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

// A source as text: a name, or a number given as a JSON number (a series, an actor id).
std::string source_text(const Json& value) {
  if (value.is_string()) return value.as_string();
  if (value.is_number_unsigned() || value.is_number_integer()) return std::to_string(value.as_uint());
  return value.dump();
}

// The sources named by `key` ("sources", or the format's noun: "topics", "actor"...).
const Json* find_source(const Json& options, const FormatEntry& entry, bool many) {
  if (const Json* generic = options.find(many ? "sources" : "source")) return generic;
  return options.find(many ? entry.source.many : entry.source.one);
}

}  // namespace

std::string run_extract(ByteSource& source, const Detection& detection, const std::string& options_json, val sink,
                        const ProgressFn& progress, const FormatInspector* open) {
  auto parsed = Json::parse(options_json);
  if (!parsed || !parsed->is_object()) return error_json("the options are not a JSON object");
  const Json& options = *parsed;
  bool repair = text_of(options, "mode") == "repair";
  const char* name = repair ? "repair" : "extract";
  const FormatEntry* entry = find_format(detection.family);
  if (!entry || !entry->supports(repair ? Operation::Repair : Operation::Extract) || !(repair ? entry->repair : entry->extract))
    return error_json(std::string(name) + " is not available for " + detection.label + " yet; nothing written");
  ExtractSelection selection;
  selection.open = open;
  std::unique_ptr<JsSpill> spill;
  if (sink.hasOwnProperty("spill") && sink["spill"].typeOf().as<std::string>() == "object" && !sink["spill"].isNull()) spill = std::make_unique<JsSpill>(sink["spill"]);
  selection.spill = spill.get();
  if (const Json* sources = find_source(options, *entry, true))
    for (const Json& item : sources->elements()) selection.sources.push_back(source_text(item));
  bool selects = !selection.sources.empty() || !text_of(options, "from").empty() || !text_of(options, "to").empty();
  if (repair && selects) return error_json("repair keeps everything complete; extract selects");
  std::string error;
  if (!read_bound(options, "from", &selection.from, &error) || !read_bound(options, "to", &selection.to, &error)) return error_json(error);
  // The format's own options: {"options": {"compression": "lz4"}}, or at the top level.
  const Json* extra = options.find("options");
  for (const ExtractOption& option : entry->extract_options) {
    const Json* value = extra ? extra->find(option.name) : nullptr;
    if (!value) value = options.find(option.name);
    if (value && value->is_string()) selection.options.emplace_back(option.name, value->as_string());
  }

  JsBytes bytes(sink);
  JsOutputSink out(bytes);
  ExtractResult result = (repair ? entry->repair : entry->extract)(source, detection, selection, out, progress);
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

std::string run_export(const Detection& detection, FormatInspector& inspector,
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

  const FormatEntry* entry = find_format(detection.family);
  if (!entry || !entry->supports(Operation::Export)) return error_json("export is not available for " + detection.label);
  const Json* source = find_source(options, *entry, false);
  if (!source) return error_json("export needs a " + entry->source.one);
  JsBytes bytes(sink);
  JsExportSink out(bytes);
  ExportResult result = inspector.export_rows(source_text(*source), request, out, progress);
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
