// MCAP's entry in the format table (core/format_table.h). Reading, the doctor, the tree and the
// queries are here; export, extract, repair and plots are not yet (docs/mcap.md).
#include "mcap/entry.h"

#include <iterator>

#include "mcap/format.h"
#include "mcap/inspector.h"

namespace logscope::mcap {
namespace {

// Two schemas, three channels (one without a schema), zstd chunks, an attachment and metadata. Written by make_small_demo (outputs.cpp).
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
  e.source = {"channel", "channels"};
  e.helpers = {};
  return e;
}

}  // namespace logscope::mcap
