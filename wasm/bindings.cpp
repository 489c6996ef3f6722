// The whole embind surface: one class that wraps the codec's inspector over a JS read callback.
// Everything structured crosses as JSON text, so the surface stays a handful of functions.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/detect.h"
#include "core/format_table.h"
#include "core/search.h"
#include "inspector.h"
#include "js_folder.h"
#ifndef LOGSCOPE_VIEW_ONLY
#include "message_schemas.h"
#include "output_jobs.h"
#include "views/image_query.h"
#endif
#include "warm_up.h"

using emscripten::val;

namespace logscope {
namespace {

// Wraps an optional JS progress function: (done, total) -> false cancels.
ProgressFn js_progress(val fn) {
  if (fn.isNull() || fn.isUndefined()) return nullptr;
  return [fn](uint64_t done, uint64_t total) {
    val result = fn(static_cast<double>(done), static_cast<double>(total));
    return !(result.isFalse());
  };
}

Json parse_or_empty(const std::string& text) {
  auto parsed = Json::parse(text);
  return parsed ? *parsed : Json::object();
}

// A pass the worker feeds from file.stream() (ByteFeed, core/inspector.h: the checksum, the CARLA
// scan): each chunk is copied into buffer() and worked on while the browser reads the next one.
class WasmByteFeed {
 public:
  explicit WasmByteFeed(std::unique_ptr<ByteFeed> feed) : feed_(std::move(feed)) {}
  double begin() const { return static_cast<double>(feed_->begin()); }
  double end() const { return static_cast<double>(feed_->end()); }
  // Room in the heap for the next `size` bytes, valid until the next call; 0 (no room) past
  // kMaxChunk: the caller splits bigger chunks.
  double buffer(double size) {
    if (!(size >= 0 && size <= kMaxChunk)) return 0;
    size_t wanted = static_cast<size_t>(size);
    if (wanted > capacity_) {
      chunk_.reset(new uint8_t[wanted]);
      capacity_ = wanted;
    }
    return static_cast<double>(reinterpret_cast<uintptr_t>(chunk_.get()));
  }
  void update(double size) { feed_->update(chunk_.get(), std::min(capacity_, static_cast<size_t>(std::max(size, 0.0)))); }
  // `error`: why the stream ended early ("" when every byte came).
  std::string finish(const std::string& error) { return feed_->finish(error, false).dump(); }

 private:
  static constexpr size_t kMaxChunk = 16u << 20;
  std::unique_ptr<ByteFeed> feed_;
  std::unique_ptr<uint8_t[]> chunk_;
  size_t capacity_ = 0;
};

class WasmInspector {
 public:
  // `read` is a JS function (offset, length, pointer). It either returns a Uint8Array of the bytes
  // (FileReaderSync on Blob.slice in a worker) or writes them itself into Module.HEAPU8 at
  // `pointer` and returns the count (fs.readSync under node: saves an allocation and a copy).
  // Fewer bytes than asked means the end of the file.
  WasmInspector(double size, val read)
      : read_(read),
        source_(static_cast<uint64_t>(size),
                [this](uint64_t offset, void* destination, size_t length) -> size_t {
                  val bytes = read_(static_cast<double>(offset), static_cast<double>(length),
                                    static_cast<double>(reinterpret_cast<uintptr_t>(destination)));
                  if (bytes.isNumber()) return std::min<size_t>(length, static_cast<size_t>(bytes.as<double>()));
                  if (bytes.isNull() || bytes.isUndefined()) return 0;
                  size_t n = std::min<size_t>(length, bytes["length"].as<size_t>());
                  val(emscripten::typed_memory_view(n, static_cast<uint8_t*>(destination)))
                      .call<void>("set", n < bytes["length"].as<size_t>() ? bytes.call<val>("subarray", 0, n) : bytes);
                  return n;
                }),
        counting_(source_),
        cached_(counting_, cache_options()) {
    detection_ = detect(cached_);
    inspector_ = open_inspector(cached_, detection_);
  }
#ifndef LOGSCOPE_VIEW_ONLY  // folders open in the full module (worker.js openFolder), which reads rosbag2
  // A log that is a folder (a rosbag2 bag): its files' names and sizes as JSON and one read
  // function over them (wasm/js_folder.h). The single-file source is then empty (search finds nothing).
  WasmInspector(const std::string& name, const std::string& files_json, val read)
      : read_(val::null()),
        source_(0, [](uint64_t, void*, size_t) -> size_t { return 0; }),
        counting_(source_),
        cached_(counting_, cache_options()),
        folder_(std::make_unique<JsFolder>(name, files_json, read)) {
    detection_ = detect_folder(*folder_);
    inspector_ = open_folder_inspector(*folder_, detection_);
  }
#endif

  std::string detection() const { return detection_.to_json().dump(); }
  bool known() const { return inspector_ != nullptr; }

  std::string summary() { return guarded([&] { return inspector_->summary().to_json(); }); }
  // The chunk headers and such that infoReport (and infoText) will read, as [[offset, length], ...]:
  // the worker reads them all at once and preloads them, then calls infoReport or infoText, which
  // drop them after.
  std::string info_report_reads() {
    Json out = Json::array();
    if (inspector_)
      for (const ByteRange& range : inspector_->info_report_reads()) {
        Json pair = Json::array();
        pair.push_back(range.offset);
        pair.push_back(range.length);
        out.push_back(std::move(pair));
      }
    return out.dump();
  }
  // False when the cache keeps no more (the rest are read by infoReport as before).
  bool preload(double offset, val bytes) {
    std::vector<uint8_t> data(bytes["length"].as<size_t>());
    val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", bytes);
    return cached_.preload(static_cast<uint64_t>(offset), data.data(), data.size());
  }
  // `fetch` (a JS function, or null to stop): given a pass's next planned ranges as
  // [offset, length, offset, length, ...], it answers [offset, bytes, offset, bytes, ...] with
  // what it got at once (a remote file's multi-range request), or null; those are preloaded and
  // the rest is read as before (CachedByteSource::set_range_fetcher).
  void set_range_fetcher(val fetch) {
    if (fetch.isNull() || fetch.isUndefined()) return cached_.set_range_fetcher(nullptr, 0);
    cached_.set_range_fetcher([this, fetch](const std::vector<ByteRange>& ranges) {
      val asked = val::array();
      for (const ByteRange& r : ranges) {
        asked.call<void>("push", static_cast<double>(r.offset));
        asked.call<void>("push", static_cast<double>(r.length));
      }
      val got = fetch(asked);
      if (!got.isArray()) return;
      size_t n = got["length"].as<size_t>();
      for (size_t i = 0; i + 1 < n; i += 2) preload(got[i].as<double>(), got[i + 1]);
    }, kPlanWindowBytes);
  }
  std::string info_report(val progress) {
    std::string report = guarded([&] { return inspector_->info_report(js_progress(progress)).to_json(); });
    cached_.release_preloaded();
    return report;
  }
  std::string check(val progress) { return guarded([&] { return inspector_->check(js_progress(progress)).to_json(); }); }
  std::string file_map(bool full_check, val progress) {
    return guarded([&] { return inspector_->file_map(full_check, js_progress(progress)).to_json(); });
  }
  std::string checksum(val progress) { return guarded([&] { return inspector_->checksum(js_progress(progress)); }); }
  // Null when there is nothing to feed: checksum() then answers without reading.
  std::unique_ptr<WasmByteFeed> checksum_feed() { return wrap(inspector_ ? inspector_->checksum_feed() : nullptr); }
  // Null when summary() needs no whole-file scan (or has it already).
  std::unique_ptr<WasmByteFeed> scan_feed() { return wrap(inspector_ ? inspector_->scan_feed() : nullptr); }
  // Null when the format's check is not fed (or reads nothing): check() then.
  std::unique_ptr<WasmByteFeed> check_feed() { return wrap(inspector_ ? inspector_->check_feed() : nullptr); }
  std::string info_text(const std::string& options_json) {
    if (!inspector_) return "";
    Json options = parse_or_empty(options_json);
    InfoOptions info;
    if (const Json* path = options.find("path")) info.path = path->as_string();
    if (const Json* all = options.find("all")) info.all = all->as_bool();
    if (const Json* freq = options.find("freq")) info.freq = freq->as_bool();
    std::string text = inspector_->info_text(info);
    cached_.release_preloaded();
    return text;
  }
  double child_count(const std::string& id) { return inspector_ ? static_cast<double>(inspector_->child_count(id)) : 0; }
  std::string children(const std::string& id, double first, double count) {
    return guarded([&] {
      Json out = Json::array();
      for (const TreeNode& node : inspector_->children(id, static_cast<uint64_t>(first), static_cast<uint64_t>(count)))
        out.push_back(tree_node_to_json(node));
      return out;
    });
  }
  std::string locate(double offset) {
    return guarded([&] {
      Json out = Json::array();
      for (const std::string& id : inspector_->locate(static_cast<uint64_t>(offset))) out.push_back(id);
      return out;
    });
  }
  std::string spans(double offset, double length) {
    return guarded([&] {
      Json out = Json::array();
      for (const Span& span : inspector_->spans(static_cast<uint64_t>(offset), static_cast<uint64_t>(length)))
        out.push_back(span_to_json(span));
      return out;
    });
  }
  std::string decode(const std::string& id) { return guarded([&] { return inspector_->decode(id); }); }
  std::string query(const std::string& name, const std::string& args_json, val progress) {
    return guarded([&] { return inspector_->query(name, parse_or_empty(args_json), js_progress(progress)); });
  }

#ifndef LOGSCOPE_VIEW_ONLY
  // A new file from this one (extract, repair; options and result in wasm/output_jobs.h), or its
  // rows as CSV / JSON Lines, written through `sink` ({write, patch}: the worker's output file).
  std::string extract(const std::string& options_json, val sink, val progress) {
    if (!inspector_) return guarded([] { return Json(); });
    return run_extract(cached_, detection_, options_json, sink, js_progress(progress), inspector_.get());
  }
  std::string export_rows(const std::string& options_json, val sink, val progress) {
    if (!inspector_) return guarded([] { return Json(); });
    return run_export(detection_, *inspector_, options_json, sink, js_progress(progress));
  }
  // The user's protobuf schemas (wasm/message_schemas.h) for payloads by name; none: by number.
  void set_message_schemas(const MessageSchemas& schemas) {
    if (!inspector_) return;
    inspector_->set_message_schemas(schemas.schemas());
    inspector_->set_message_definitions(schemas.definitions());
  }
#endif

  // Works for every file, known format or not.
  std::string search(const std::string& pattern_hex, double from, bool backward, val progress) {
    Json out = Json::object();
    auto pattern = parse_hex_pattern(pattern_hex);
    if (!pattern) {
      out["error"] = "the pattern must be pairs of hex digits";
      return out.dump();
    }
    SearchResult result = search_bytes(cached_, *pattern, static_cast<uint64_t>(from), backward, js_progress(progress));
    out["found"] = result.found;
    out["cancelled"] = result.cancelled;
    if (result.found) out["offset"] = result.offset;
    return out.dump();
  }

  // Bytes this inspector has asked the file for, so tests and the UI can show how little was read.
  std::string read_stats() const {
    Json out = Json::object();
    out["bytes_read"] = counting_.bytes_read();
    out["read_calls"] = counting_.read_calls();
    out["size"] = source_.size();
#ifndef LOGSCOPE_VIEW_ONLY
    if (folder_) {
      out["bytes_read"] = folder_->bytes_read();
      out["read_calls"] = folder_->read_calls();
      out["size"] = folder_->total_size();
    }
#endif
    out["preloaded_bytes"] = cached_.preloaded_bytes();
    out["plan_windows"] = cached_.plan_windows();
    out["plan_ranges_fetched"] = cached_.plan_ranges_fetched();
    return out.dump();
  }

 private:
  // A pass's planned chunks fetched ahead: one request's answer, within the preload capacity.
  static constexpr uint64_t kPlanWindowBytes = 16u << 20;
  static CachedByteSource::Options cache_options() {
    CachedByteSource::Options options;
    // FileReaderSync costs ~1 ms per call: scans grow to 8 MB reads; scattered small reads
    // (chunk headers, hex pages) fetch 16 KB so they do not drag in the file around them.
    options.block_size = 16 * 1024;
    options.max_fetch = 8 * 1024 * 1024;
    options.capacity = 64 * 1024 * 1024;
    return options;
  }

  static std::unique_ptr<WasmByteFeed> wrap(std::unique_ptr<ByteFeed> feed) {
    return feed ? std::make_unique<WasmByteFeed>(std::move(feed)) : nullptr;
  }

  template <typename Fn>
  std::string guarded(Fn fn) {
    if (!inspector_) {
      Json error = Json::object();
      error["error"] = "unknown format: " + detection_.diagnosis;
      return error.dump();
    }
    return fn().dump();
  }

  val read_;
  CallbackByteSource source_;
  CountingByteSource counting_;
  CachedByteSource cached_;
  std::unique_ptr<JsFolder> folder_;  // outlives inspector_, which reads through it
  Detection detection_;
  std::unique_ptr<FormatInspector> inspector_;
};

// Warm start: the first touch of fresh WebAssembly memory is slow (every page is mapped in by the
// OS; opening a 1 GB BDDF's index spent a third of its time so). A worker calls this while it waits
// for a file: the heap grows and is touched once, then freed, and opening reuses those pages.
// The format table (core/format_table.h): what the page knows of formats comes from here.
std::string formats_text() { return formats_json().dump(); }

#ifndef LOGSCOPE_VIEW_ONLY
// The pixels or stored bytes of the frame the last images query answered (codec/views/image_query.h)
// as a view of the heap, valid until the next call into the module: the worker copies them out at
// once. Pixels never go through JSON.
val last_frame_bytes() {
  const std::string& bytes = views::last_frame_bytes();
  return val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data())));
}
#endif

void prepare_heap(double megabytes) {
  size_t bytes = static_cast<size_t>(std::clamp(megabytes, 0.0, 256.0) * (1 << 20));
  auto* block = static_cast<volatile uint8_t*>(std::malloc(bytes));
  if (!block) return;
  for (size_t i = 0; i < bytes; i += 4096) block[i] = 0;
  std::free(const_cast<uint8_t*>(block));
}

}  // namespace
}  // namespace logscope

EMSCRIPTEN_BINDINGS(logscope) {
  emscripten::function("prepareHeap", &logscope::prepare_heap);
  emscripten::function("warmUpFormat", &logscope::warm_up_format);
  emscripten::function("formats", &logscope::formats_text);
#ifndef LOGSCOPE_VIEW_ONLY
  emscripten::function("lastFrameBytes", &logscope::last_frame_bytes);
  emscripten::class_<logscope::JsFolderReadPlan>("FolderReadPlan")
      .constructor<std::string, std::string, val>()
      .function("next", &logscope::JsFolderReadPlan::next);
#endif
  emscripten::class_<logscope::WasmInspector>("Inspector")
      .constructor<double, val>()
#ifndef LOGSCOPE_VIEW_ONLY
      .constructor<std::string, std::string, val>()
#endif
      .function("detection", &logscope::WasmInspector::detection)
      .function("known", &logscope::WasmInspector::known)
      .function("summary", &logscope::WasmInspector::summary)
      .function("infoReportReads", &logscope::WasmInspector::info_report_reads)
      .function("preload", &logscope::WasmInspector::preload)
      .function("setRangeFetcher", &logscope::WasmInspector::set_range_fetcher)
      .function("infoReport", &logscope::WasmInspector::info_report)
      .function("check", &logscope::WasmInspector::check)
      .function("checksum", &logscope::WasmInspector::checksum)
      .function("checksumFeed", &logscope::WasmInspector::checksum_feed)
      .function("scanFeed", &logscope::WasmInspector::scan_feed)
      .function("checkFeed", &logscope::WasmInspector::check_feed)
      .function("fileMap", &logscope::WasmInspector::file_map)
      .function("infoText", &logscope::WasmInspector::info_text)
      .function("childCount", &logscope::WasmInspector::child_count)
      .function("children", &logscope::WasmInspector::children)
      .function("locate", &logscope::WasmInspector::locate)
      .function("spans", &logscope::WasmInspector::spans)
      .function("decode", &logscope::WasmInspector::decode)
      .function("query", &logscope::WasmInspector::query)
      .function("search", &logscope::WasmInspector::search)
#ifndef LOGSCOPE_VIEW_ONLY  // the full module (CMakeLists.txt): the job worker's
      .function("extract", &logscope::WasmInspector::extract)
      .function("exportRows", &logscope::WasmInspector::export_rows)
      .function("setMessageSchemas", &logscope::WasmInspector::set_message_schemas)
#endif
      .function("readStats", &logscope::WasmInspector::read_stats);
  emscripten::class_<logscope::WasmByteFeed>("ByteFeed")
      .function("begin", &logscope::WasmByteFeed::begin)
      .function("end", &logscope::WasmByteFeed::end)
      .function("buffer", &logscope::WasmByteFeed::buffer)
      .function("update", &logscope::WasmByteFeed::update)
      .function("finish", &logscope::WasmByteFeed::finish);
}
