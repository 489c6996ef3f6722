// BDDF's export: a series as rows (export.cpp), through the opened index.
#include "bddf/export.h"
#include "bddf/inspector_impl.h"

namespace logscope::bddf {

ExportResult BddfInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                        const ProgressFn& progress) {
  return export_series(source_, model_, source, request, sink, progress, schemas_.get());
}

}  // namespace logscope::bddf
