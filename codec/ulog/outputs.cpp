// ULog's outputs in the format table: repair (extract.h) and the demo writers (demo.h).
#include "ulog/demo.h"
#include "ulog/entry.h"
#include "ulog/extract.h"

namespace logscope::ulog {

void add_outputs(FormatEntry& e) {
  e.make_small_demo = [] { return tiny_file(); };
  e.write_demo = [](const std::string& path, uint64_t target_bytes, std::string* error) { return write_demo_file(path, target_bytes, error); };
  e.repair = [](ByteSource& source, const Detection&, const ExtractSelection&, OutputSink& out, const ProgressFn& progress) {
    return repair_ulog(source, out, progress);
  };
}

}  // namespace logscope::ulog
