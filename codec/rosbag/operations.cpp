// The bag's output operations: a topic as rows, extract and repair (export.cpp, extract.cpp).
#include "rosbag/export.h"
#include "rosbag/extract.h"
#include "rosbag/inspector_impl.h"

namespace logscope::rosbag {

ExportResult BagInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                       const ProgressFn& progress) {
  return export_topic(source_, bag_, source, request, sink, progress);
}

ExtractResult BagInspector::extract(const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  BagExtractOptions options;
  options.topics = selection.sources;
  options.from = selection.from;
  options.to = selection.to;
  options.compression = selection.option("compression");
  return extract_bag(source_, bag_.format, out, options, progress);
}

// Repair is an extract that keeps every complete message.
ExtractResult BagInspector::repair(const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  BagExtractOptions options;
  options.compression = selection.option("compression");
  return extract_bag(source_, bag_.format, out, options, progress);
}

}  // namespace logscope::rosbag
