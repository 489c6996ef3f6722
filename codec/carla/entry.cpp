// The CARLA recorder log's entry in the format table (core/format_table.h).
#include "carla/entry.h"

#include <iterator>

#include "carla/inspector.h"

namespace logscope::carla {
namespace {

// After the u16 version: the info header's magic, a string with a u16 length of 14.
constexpr std::string_view kMagic = std::string_view("\x0e\x00" "CARLA_RECORDER", 16);

// A vehicle spawned in the first frame and moved over five frames, the last one left open as
// CARLA leaves it. Written by make_small_demo (outputs.cpp).
const uint8_t kSmallDemo[] = {
#include "carla/small_demo.inc"
};

}  // namespace

FormatEntry format_entry() {
  FormatEntry e;
  e.name = "carla";
  e.label = "CARLA recorder log";
  e.summary = "CARLA recorder logs (0.9.x and UE5)";
  e.match = [](std::string_view head, uint64_t) -> std::optional<FormatEntry::Match> {
    if (head.size() < 2 + kMagic.size() || head.substr(2, kMagic.size()) != kMagic) return std::nullopt;
    return FormatEntry::Match{"", "CARLA recorder log"};
  };
  e.near_miss = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::NearMiss> {
    if (head.size() <= 2 || !is_cut_magic(head.substr(2), kMagic)) return std::nullopt;
    return FormatEntry::NearMiss{"truncated-header", "This looks like a CARLA recorder log cut off inside its header (only " + std::to_string(size) + " bytes)."};
  };
  e.file_endings = {".log"};
  e.recovery_codes = {"carla.file.truncated", "carla.header.truncated", "carla.frame.missing_end"};
  e.open = [](ByteSource& source, const Detection&) { return open_inspector(source); };
  e.small_demo = [] { return std::vector<uint8_t>(std::begin(kSmallDemo), std::end(kSmallDemo)); };
  e.operations = {Operation::Export, Operation::Extract, Operation::Repair, Operation::Plot};
  e.source = {"actor", "actors"};
  e.extract_summary = "The frames in [from, to], renumbered from 1 at elapsed 0, the actors alive at the cut created again in its first frame; --actors keeps only those actors' records (and their parents').";
  e.repair_summary = "The info header and every complete frame, byte for byte; the duration becomes that of the last complete frame.";
  return e;
}

}  // namespace logscope::carla
