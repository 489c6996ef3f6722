// BDDF's output operations: a series as rows, extract and repair (export.cpp, extract.cpp).
#include <cstdlib>

#include "bddf/export.h"
#include "bddf/extract.h"
#include "bddf/inspector_impl.h"

namespace logscope::bddf {

ExportResult BddfInspector::export_rows(const std::string& source, const ExportRequest& request, ExportSink& sink,
                                        const ProgressFn& progress) {
  return export_series(source_, model_, source, request, sink, progress);
}

ExtractResult BddfInspector::extract(const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  BddfExtractOptions options;
  for (const std::string& item : selection.sources) {
    char* end = nullptr;
    unsigned long long position = std::strtoull(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || item[0] == '-' || position > UINT32_MAX) {
      ExtractResult refused;
      refused.error = "series are numbers as `logscope info` lists them: " + item;
      return refused;
    }
    options.series.push_back(static_cast<uint32_t>(position));
  }
  options.from = selection.from;
  options.to = selection.to;
  return extract_bddf(source_, out, options, progress);
}

// Repair is an extract that keeps every complete block.
ExtractResult BddfInspector::repair(const ExtractSelection&, OutputSink& out, const ProgressFn& progress) {
  return extract_bddf(source_, out, BddfExtractOptions(), progress);
}

}  // namespace logscope::bddf
