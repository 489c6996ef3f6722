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
  return export_actor(source_, static_cast<uint32_t>(*actor), request, sink, progress);
}

}  // namespace logscope::carla
