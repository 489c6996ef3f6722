// The CARLA log's export: an actor per frame as rows (export.cpp).
#include "carla/export.h"
#include "carla/inspector_impl.h"
#include "core/node_id.h"

namespace logscope::carla {

ExportResult CarlaInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                         const ProgressFn& progress) {
  std::optional<uint64_t> actor = parse_decimal(source);
  if (!actor || *actor > UINT32_MAX) {
    ExportResult refused;
    refused.error = "an actor is its id (see `logscope actors`): " + source;
    return refused;
  }
  // The kept scan, not a second one: two frame indexes held at once took 2 x 120 MB at 100 GB.
  const ScanResult& kept = scan(progress);
  if (kept.cancelled) {
    ExportResult cancelled;
    cancelled.cancelled = true;
    return cancelled;
  }
  return export_actor(source_, kept, static_cast<uint32_t>(*actor), request, sink, progress);
}

}  // namespace logscope::carla
