// MCAP's outputs in the format table: extract and repair (extract.h), the demo writers (demo.h).
#include "mcap/demo.h"
#include "mcap/entry.h"
#include "mcap/extract.h"

namespace logscope::mcap {
namespace {

// Repair is an extract that keeps everything complete (both walk the file, extract.h).
ExtractResult extract(ByteSource& source, const Detection&, const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  McapExtractOptions options;
  options.channels = selection.sources;
  options.from = selection.from;
  options.to = selection.to;
  options.compression = selection.option("compression");
  return extract_mcap(source, out, options, progress);
}

ExtractResult repair(ByteSource& source, const Detection&, const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  McapExtractOptions options;
  options.compression = selection.option("compression");
  options.repair = true;
  return extract_mcap(source, out, options, progress);
}

}  // namespace

void add_outputs(FormatEntry& e) {
  e.make_small_demo = [] { return tiny_file("zstd", true); };
  e.write_demo = [](const std::string& path, uint64_t target_bytes, std::string* error) {
    return write_demo_file(path, target_bytes, DemoOptions(), error);
  };
  e.extract = extract;
  e.repair = repair;
}

}  // namespace logscope::mcap
