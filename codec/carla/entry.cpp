// The CARLA recorder log's entry in the format table (core/format_table.h).
#include "carla/entry.h"

#include "carla/demo.h"
#include "carla/extract.h"
#include "carla/inspector.h"
#include "carla/writer.h"
#include "core/node_id.h"

namespace logscope::carla {
namespace {

// After the u16 version: the info header's magic, a string with a u16 length of 14.
constexpr std::string_view kMagic = std::string_view("\x0e\x00" "CARLA_RECORDER", 16);

// A vehicle spawned in the first frame and moved over five frames, the last one left open as
// CARLA leaves it.
std::vector<uint8_t> small_demo() {
  LogWriter w;
  w.header(1700000000, "Town03");
  for (uint32_t frame = 1; frame <= 5; ++frame) {
    w.frame_start(frame, frame < 5 ? 0.05 : -1, frame * 0.05);
    if (frame == 1) {
      EventAddRecord add;
      add.id = 100;
      add.type = 1;
      add.blueprint = "vehicle.tesla.model3";
      w.write(packets::EventAdd, {add});
    }
    w.write(packets::Position, {PositionRecord{100, Vec3{frame * 100.0, 0, 0}, Vec3{0, 0, 90}}});
    w.frame_end();
  }
  return w.take();
}

// Actors are their ids.
ExtractResult extract(ByteSource& source, const Detection&, const ExtractSelection& selection, OutputSink& out,
                      const ProgressFn& progress) {
  CarlaExtractOptions options;
  for (const std::string& item : selection.sources) {
    std::optional<uint64_t> id = parse_decimal(item);
    if (!id || *id > UINT32_MAX) {
      ExtractResult refused;
      refused.error = "actors are their ids (see `logscope actors`): " + item;
      return refused;
    }
    options.actors.push_back(static_cast<uint32_t>(*id));
  }
  options.from = selection.from;
  options.to = selection.to;
  return extract_carla(source, out, options, progress);
}

ExtractResult repair(ByteSource& source, const Detection&, const ExtractSelection&, OutputSink& out, const ProgressFn& progress) {
  return repair_carla(source, out, progress);
}

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
  e.small_demo = small_demo;
  e.write_demo = write_demo_file;
  e.extract = extract;
  e.repair = repair;
  e.operations = {Operation::Export, Operation::Extract, Operation::Repair, Operation::Plot};
  e.source = {"actor", "actors"};
  e.extract_summary = "The frames in [from, to], renumbered from 1 at elapsed 0, the actors alive at the cut created again in its first frame; --actors keeps only those actors' records (and their parents').";
  e.repair_summary = "The info header and every complete frame, byte for byte; the duration becomes that of the last complete frame.";
  return e;
}

}  // namespace logscope::carla
