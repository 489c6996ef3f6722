// The inspector's export (core/export.h): a topic by name, "topic" or "topic:multi_id", through export.h.
#include "ulog/export.h"
#include "ulog/inspector_impl.h"

namespace logscope::ulog {

ExportResult UlogInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink, const ProgressFn& progress) {
  ExportResult result;
  std::string topic;
  uint8_t multi_id = 0;
  if (!parse_source(source, &topic, &multi_id, &result.error)) return result;
  return export_topic(source_, model_, topic, multi_id, request, sink, progress);
}

}  // namespace logscope::ulog
