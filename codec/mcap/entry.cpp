// MCAP's entry in the format table (core/format_table.h): reading, the doctor, the tree, the
// queries, the export (by topic) and the plots; extract, repair and the demo writers are in outputs.cpp.
#include "mcap/entry.h"

#include <iterator>

#include "mcap/format.h"
#include "mcap/inspector.h"

namespace logscope::mcap {
namespace {

// Two schemas, three channels (one without a schema), zstd chunks, an attachment and metadata.
// Written by make_small_demo (outputs.cpp).
const uint8_t kSmallDemo[] = {
#include "mcap/small_demo.inc"
};

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
  e.small_demo = [] { return std::vector<uint8_t>(std::begin(kSmallDemo), std::end(kSmallDemo)); };
  e.source = {"topic", "topics"};
  e.operations = {Operation::Export, Operation::Extract, Operation::Repair, Operation::Plot};
  e.extract_options = {{"compression", "chunk compression of the written MCAP (default: the input's)", {"", "none", "lz4", "zstd"}}};
  e.extract_summary =
      "An indexed MCAP with the messages of the chosen topics (or channel ids) in [from, to] in log_time order, the attachments in "
      "[from, to] and every metadata record, chunked with the input's compression (or --compression), only the channels used.";
  e.repair_summary =
      "An indexed, valid MCAP of every complete message, attachment and metadata record, read past damaged records and chunks; a "
      "chunk that fails its CRC or decompression is dropped whole; the input is untouched.";
  e.helpers = {};
  return e;
}

}  // namespace logscope::mcap
