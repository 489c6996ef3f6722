// FormatInspector: what every format offers to the CLI, the wasm module and the web UI.
// One instance per opened file; it reads through the ByteSource it was given and keeps
// only indexes in memory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/export.h"
#include "core/file_map.h"
#include "core/json.h"
#include "core/query.h"
#include "core/report.h"

namespace logscope::protobuf {
class Schemas;  // codec/protobuf/schemas.h
}
namespace logscope::cdr {
class TypeLibrary;  // codec/cdr/type_library.h
}

namespace logscope {

// A node of the structure tree (blocks, chunks, records, frames, packets...).
// Ids are opaque strings the format understands; "" is the root.
struct TreeNode {
  std::string id;
  std::string label;
  std::string kind;  // same vocabulary as Span::kind, for colouring
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t child_count = 0;  // 0 = leaf
};
Json tree_node_to_json(const TreeNode& node);

struct InfoOptions {
  std::string path;   // as the user typed it (rosbag info prints it)
  bool all = false;   // CARLA show_all
  bool freq = false;  // rosbag --freq
};

// A whole-file pass whose bytes its caller pushes in, in order: the page streams the file into
// it from the browser's own reader, which a pull through ByteSource cannot overlap with the work.
// The checksums, the full checks and the CARLA scan are fed this way.
class ByteFeed {
 public:
  virtual ~ByteFeed() = default;
  // Feed bytes [begin(), end()) of the file.
  virtual uint64_t begin() const { return 0; }
  virtual uint64_t end() const = 0;
  virtual void update(const uint8_t* data, size_t size) = 0;
  // The pass's JSON answer. `error` says why fewer bytes came, if they did.
  virtual Json finish(const std::string& error, bool cancelled) = 0;

 protected:
  // finish()'s start: nothing when the pass is `complete`, else the answer of a pass that keeps
  // nothing, {"status": "incomplete", "error": why}, the why from a second finish(), a cancel,
  // the caller's `error`, or else an early end. The feed is finished from then on.
  std::optional<Json> unless_complete(bool complete, bool cancelled, const std::string& error) {
    bool again = finished_;
    finished_ = true;
    if (!again && !cancelled && error.empty() && complete) return std::nullopt;
    Json answer = Json::object();
    answer["status"] = "incomplete";
    answer["error"] = again ? "already finished" : cancelled ? "cancelled" : !error.empty() ? error : "the stream ended early";
    return answer;
  }

 private:
  bool finished_ = false;
};

class FormatInspector {
 public:
  virtual ~FormatInspector() = default;

  // Message schemas the user supplied (`--descriptors`, `--proto-path`, the page's dropped set):
  // names for protobuf payloads in decode, export and plots (codec/protobuf). Null: none, field
  // numbers only. Formats without such payloads, or that carry their own schemas, ignore it.
  virtual void set_message_schemas(std::shared_ptr<const protobuf::Schemas> schemas) { (void)schemas; }
  // ROS 2 message definitions the user supplied (`--msg-path`, `--definitions-from`): CDR payloads
  // of types the log stores no definition for are decoded by name. Others ignore it.
  virtual void set_message_definitions(std::shared_ptr<const cdr::TypeLibrary> definitions) { (void)definitions; }

  // Index-first summary: reads as little as the format allows. Problems found on the way
  // (and any recovery performed because the index is missing) are in the report.
  virtual Report summary() = 0;
  // What `logscope info` reports: the summary plus facts that cost many small reads across the
  // file (a bag's compression row reads every chunk header: cheap natively, ~1 ms per read in a
  // browser). The web shows summary() at once and fills these in afterwards.
  virtual Report info_report(const ProgressFn& progress) {
    (void)progress;
    return summary();
  }
  // The scattered ranges info_report() will read, where the index names them (a bag's chunk
  // headers; info_text() without `freq` needs the same): a caller that pays per read (the
  // browser) fetches them at once, concurrently, and preloads them (CachedByteSource::preload).
  // A range may be longer than what is read; a read beyond it goes to the file as before. Empty
  // when info_report() reads nothing more.
  virtual std::vector<ByteRange> info_report_reads() { return {}; }
  // The doctor: a full validation that may read the whole file. Includes the summary.
  virtual Report check(const ProgressFn& progress) = 0;
  // The same check fed by the caller, where the format has it (BDDF, CARLA, V2.0 bags but bz2):
  // finish() gives check()'s report JSON, or {"status": "incomplete"} after an early end (then
  // call check()).
  virtual std::unique_ptr<ByteFeed> check_feed() { return nullptr; }
  // The `info` text in the layout users know from the format's own tools.
  virtual std::string info_text(const InfoOptions& options) = 0;
  // Checksum status: {"status": "valid"|"mismatch"|"none"|"absent"|"not_applicable"|"cancelled", ...}.
  virtual Json checksum(const ProgressFn& progress) = 0;
  // The same checksum fed by the caller; null when there is nothing to verify (checksum() answers
  // without reading), the format has no checksum, or the file is one the feed cannot cut (a bag
  // whose chunks share a position: checksum() then reads). finish() gives checksum()'s JSON.
  virtual std::unique_ptr<ByteFeed> checksum_feed() { return nullptr; }
  // The whole-file scan a summary needs where the format has no index (CARLA), fed by the caller;
  // null when the summary reads an index or the scan is already done. Once a complete feed is
  // finished, summary() and the views use its result; after an error they scan as before.
  virtual std::unique_ptr<ByteFeed> scan_feed() { return nullptr; }

  // Structure tree, expanded lazily and paged.
  virtual uint64_t child_count(const std::string& node_id) = 0;
  virtual std::vector<TreeNode> children(const std::string& node_id, uint64_t first, uint64_t count) = 0;
  // The path of node ids (root's children first) down to the deepest node containing `offset`.
  virtual std::vector<std::string> locate(uint64_t offset) = 0;
  // Nested byte spans overlapping [offset, offset+length), for colouring the hex view.
  virtual std::vector<Span> spans(uint64_t offset, uint64_t length) = 0;
  // Decoded content of one node for the record view.
  virtual Json decode(const std::string& node_id) = 0;

  // What each byte range is (core/file_map.h): from the index alone where the format has one
  // (a scan where it has none); `full_check` runs check() first and places its problems and
  // damage on the map.
  virtual FileMap file_map(bool full_check, const ProgressFn& progress) = 0;

  // Rows of one source (a topic, a series, an actor: FormatEntry::source) as CSV or JSON Lines,
  // where the format's table entry lists Operation::Export; the default refuses. (Extract and
  // repair need no opened index: they are the table entry's, FormatEntry::extract and repair.)
  virtual ExportResult export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                   const ProgressFn& progress);

  // Format-specific questions (CARLA collisions, BDDF extraction by time span, bag messages...):
  // one table per format, name -> argument schema + handler (core/query.h).
  virtual std::vector<QuerySpec> queries() { return {}; }
  // Runs a query of the table after checking its arguments: the one path for the CLI, the wasm
  // module and the page. Unknown names and bad arguments give {"error": ...}.
  Json query(const std::string& name, const Json& args, const ProgressFn& progress) {
    return run_query(queries(), name, args, progress);
  }
};

}  // namespace logscope
