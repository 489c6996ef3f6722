// The CARLA log's output operations: an actor per frame as rows, extract and repair (export.cpp,
// extract.cpp).
#include <cstdlib>

#include "carla/export.h"
#include "carla/extract.h"
#include "carla/inspector_impl.h"

namespace logscope::carla {

ExportResult CarlaInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                         const ProgressFn& progress) {
  char* end = nullptr;
  unsigned long long actor = std::strtoull(source.c_str(), &end, 10);
  if (source.empty() || *end != '\0' || source[0] == '-' || actor > UINT32_MAX) {
    ExportResult refused;
    refused.error = "an actor is its id (see `logscope actors`): " + source;
    return refused;
  }
  return export_actor(source_, static_cast<uint32_t>(actor), request, sink, progress);
}

ExtractResult CarlaInspector::extract(const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  CarlaExtractOptions options;
  for (const std::string& item : selection.sources) {
    char* end = nullptr;
    unsigned long long id = std::strtoull(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || item[0] == '-' || id > UINT32_MAX) {
      ExtractResult refused;
      refused.error = "actors are their ids (see `logscope actors`): " + item;
      return refused;
    }
    options.actors.push_back(static_cast<uint32_t>(id));
  }
  options.from = selection.from;
  options.to = selection.to;
  return extract_carla(source_, out, options, progress);
}

ExtractResult CarlaInspector::repair(const ExtractSelection&, OutputSink& out, const ProgressFn& progress) {
  return repair_carla(source_, out, progress);
}

}  // namespace logscope::carla
