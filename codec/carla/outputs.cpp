// The CARLA recorder log's outputs in the format table: extract, repair and the demo writers (entry.h).
#include "carla/demo.h"
#include "carla/entry.h"
#include "carla/extract.h"
#include "carla/writer.h"
#include "core/node_id.h"

namespace logscope::carla {
namespace {

// The small demo (entry.cpp keeps its bytes): a vehicle spawned in the first frame and moved over five frames, the last one left open as
// CARLA leaves it.
std::vector<uint8_t> make_small_demo() {
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

void add_outputs(FormatEntry& e) {
  e.make_small_demo = make_small_demo;
  e.write_demo = write_demo_file;
  e.extract = extract;
  e.repair = repair;
}

}  // namespace logscope::carla
