// MCAP's entry in the format table (core/format_table.h): reading, the doctor, the tree, the
// queries, extract and repair (extract.h), the demo writer (demo.h).
#include "mcap/entry.h"

#include "mcap/demo.h"
#include "mcap/extract.h"
#include "mcap/format.h"
#include "mcap/inspector.h"

namespace logscope::mcap {
namespace {

// Repair is an extract that keeps everything complete (both walk the file, extract.h).
ExtractResult extract(ByteSource& source, const Detection&, const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  McapExtractOptions options;
  options.channels = selection.sources;
  options.from = selection.from;
  options.to = selection.to;
  options.compression = selection.option("compression");
  return extract_mcap(source, out, options, progress);
}

ExtractResult repair(ByteSource& source, const Detection&, const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  McapExtractOptions options;
  options.compression = selection.option("compression");
  options.repair = true;
  return extract_mcap(source, out, options, progress);
}

}  // namespace

FormatEntry format_entry() {
  FormatEntry e;
  e.name = "mcap";
  e.label = "MCAP";
  e.summary = "MCAP (ROS 2 and Foxglove logs; chunks none, lz4, zstd)";
  e.match = [](std::string_view head, uint64_t) -> std::optional<FormatEntry::Match> {
    if (!looks_like_mcap(head)) return std::nullopt;
    return FormatEntry::Match{"0", "MCAP"};
  };
  e.near_miss = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::NearMiss> {
    std::string diagnosis = diagnose_mcap_head(head, size);
    if (diagnosis.empty()) return std::nullopt;
    return FormatEntry::NearMiss{"truncated-header", diagnosis};
  };
  e.file_endings = {".mcap"};
  e.recovery_codes = {"mcap.file.truncated", "mcap.file.no_footer", "mcap.file.line_endings",
                      "mcap.record.damaged", "mcap.summary.crc_mismatch", "mcap.summary.damaged"};
  e.open = [](ByteSource& source, const Detection&) { return open_inspector(source); };
  e.small_demo = [] { return tiny_file("zstd", true); };
  e.write_demo = [](const std::string& path, uint64_t target_bytes, std::string* error) {
    return write_demo_file(path, target_bytes, DemoOptions(), error);
  };
  e.source = {"channel", "channels"};
  e.extract = extract;
  e.repair = repair;
  e.operations.push_back(Operation::Extract);
  e.operations.push_back(Operation::Repair);
  e.extract_options = {{"compression", "chunk compression of the written MCAP (default: the input's)", {"", "none", "lz4", "zstd"}}};
  e.extract_summary =
      "An indexed MCAP with the messages of the chosen channels (topics or ids) in [from, to] in log_time order, the attachments in "
      "[from, to] and every metadata record, chunked with the input's compression (or --compression), only the channels used.";
  e.repair_summary =
      "An indexed, valid MCAP of every complete message, attachment and metadata record, read past damaged records and chunks; a "
      "chunk that fails its CRC or decompression is dropped whole; the input is untouched.";
  e.helpers = {};
  return e;
}

}  // namespace logscope::mcap
