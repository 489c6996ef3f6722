// The bag's export: a topic as rows (export.cpp), through the opened index.
#include "rosbag/export.h"
#include "rosbag/inspector_impl.h"

namespace logscope::rosbag {

ExportResult BagInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                       const ProgressFn& progress) {
  return export_topic(source_, bag_, source, request, sink, progress);
}

}  // namespace logscope::rosbag
