// The CARLA log's export: an actor per frame as rows (export.cpp).
#include <cstdlib>

#include "carla/export.h"
#include "carla/inspector_impl.h"

namespace logscope::carla {

ExportResult CarlaInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                         const ProgressFn& progress) {
  char* end = nullptr;
  unsigned long long actor = std::strtoull(source.c_str(), &end, 10);
  if (source.empty() || *end != '\0' || source[0] < '0' || source[0] > '9' || actor > UINT32_MAX) {
    ExportResult refused;
    refused.error = "an actor is its id (see `logscope actors`): " + source;
    return refused;
  }
  return export_actor(source_, static_cast<uint32_t>(actor), request, sink, progress);
}

}  // namespace logscope::carla
