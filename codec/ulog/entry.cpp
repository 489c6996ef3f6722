// ULog's entry in the format table (core/format_table.h): reading, the doctor, the tree, the
// queries, the export (by topic) and the plots; repair and the demo writers are in outputs.cpp.
#include "ulog/entry.h"

#include <iterator>

#include "ulog/format.h"
#include "ulog/inspector.h"

namespace logscope::ulog {
namespace {

// A few hundredths of a second of the demo flight with every message type but a dropout (outputs.cpp's make_small_demo).
const uint8_t kSmallDemo[] = {
#include "ulog/small_demo.inc"
};

}  // namespace

FormatEntry format_entry() {
  FormatEntry e;
  e.name = "ulog";
  e.label = "ULog";
  e.summary = "PX4 ULog flight logs (.ulg; versions 0 and 1, appended data, tagged strings, default parameters)";
  e.match = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::Match> {
    if (!looks_like_ulog(head) || size < kHeaderSize) return std::nullopt;
    std::string version = std::to_string(static_cast<uint8_t>(head[kMagicSize]));
    return FormatEntry::Match{version, "ULog v" + version};
  };
  e.near_miss = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::NearMiss> {
    std::string diagnosis = diagnose_ulog_head(head, size);
    if (diagnosis.empty()) return std::nullopt;
    bool version = head.size() > kMagicSize && static_cast<uint8_t>(head[kMagicSize]) > 1;
    return FormatEntry::NearMiss{version ? "unsupported-version" : "truncated-header", diagnosis};
  };
  e.file_endings = {".ulg"};
  e.recovery_codes = {"ulog.file.truncated", "ulog.header.truncated", "ulog.appended.past_offset", "ulog.appended.offset_past_end",
                      "ulog.flags.unknown_incompatible", "ulog.subscription.used_before_declared", "ulog.data.unknown_subscription"};
  e.open = [](ByteSource& source, const Detection&) { return open_inspector(source); };
  e.small_demo = [] { return std::vector<uint8_t>(std::begin(kSmallDemo), std::end(kSmallDemo)); };
  e.source = {"topic", "topics"};
  e.operations = {Operation::Export, Operation::Repair, Operation::Plot};
  e.repair_summary =
      "A valid ULog of every complete message in file order: fresh flag bits (no incompatible flag), appended crash dumps inline after the "
      "data section; the cut message, unknown message types and data of undeclared subscriptions are left out; the input is untouched.";
  e.helpers = {};
  return e;
}

}  // namespace logscope::ulog
