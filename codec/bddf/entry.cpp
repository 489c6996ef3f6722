// BDDF's entry in the format table (core/format_table.h).
#include "bddf/entry.h"

#include <iterator>

#include "bddf/format.h"
#include "bddf/inspector.h"

namespace logscope::bddf {
namespace {

constexpr std::string_view kMagicText(kMagic, sizeof kMagic);

// Every kind of series the reader knows: a protobuf channel, a POD series, a series with an
// additional index. Written by make_small_demo (outputs.cpp).
const uint8_t kSmallDemo[] = {
#include "bddf/small_demo.inc"
};

}  // namespace

FormatEntry format_entry() {
  FormatEntry e;
  e.name = "bddf";
  e.label = "BDDF";
  e.summary = "Boston Dynamics Data Format (Spot data logs)";
  e.match = [](std::string_view head, uint64_t) -> std::optional<FormatEntry::Match> {
    if (!starts_with_magic(head, kMagicText)) return std::nullopt;
    return FormatEntry::Match{"", "Boston Dynamics Data Format (BDDF)"};
  };
  e.near_miss = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::NearMiss> {
    if (!is_cut_magic(head, kMagicText)) return std::nullopt;
    return FormatEntry::NearMiss{"truncated-header", "This looks like a BDDF file cut off inside its 4-byte magic (only " + std::to_string(size) + " bytes)."};
  };
  e.file_endings = {".bddf"};
  e.recovery_codes = {"bddf.trailer.missing", "bddf.index.unindexed_block", "bddf.block.unknown_type",
                      "bddf.file.truncated_block", "bddf.file.truncated_header"};
  e.open = [](ByteSource& source, const Detection&) { return open_inspector(source); };
  e.small_demo = [] { return std::vector<uint8_t>(std::begin(kSmallDemo), std::end(kSmallDemo)); };
  e.operations = {Operation::Export, Operation::Extract, Operation::Repair, Operation::Plot};
  e.source = {"series", "series"};
  e.extract_summary = "The data blocks of the chosen series (numbers as `logscope info` lists them) in [from, to], payloads unchanged, with fresh descriptors, index and SHA1.";
  e.repair_summary = "Every complete data block, with fresh descriptors, a rebuilt index and a new SHA1; a block cut short is dropped.";
  e.helpers = {Helper::Hash};
  return e;
}

}  // namespace logscope::bddf
