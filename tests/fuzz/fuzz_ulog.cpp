// libFuzzer harness: an arbitrary file opened as ULog (ulog::looks_like_ulog, then
// ulog::open_inspector directly), every FormatInspector entry point exercised
// (tests/fuzz/exercise.h) with the ULog queries (params, messages, info_multiple, decoded,
// gps_track, columns, plot, timeline), an export of every subscription, and the invariants of
// tests/fuzz/invariants.h checked; the input is repaired (ulog/extract.h) and the repaired copy
// must check without an error and keep every data message the reader counted in the input.
// Other inputs stop at the magic. Build with -DLOGSCOPE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "exercise.h"
#include "invariants.h"
#include "core/output_sink.h"
#include "core/report.h"
#include "ulog/extract.h"
#include "ulog/format.h"
#include "ulog/inspector.h"
#include "ulog/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view head(reinterpret_cast<const char*>(data), std::min<size_t>(size, 16));
  if (!logscope::ulog::looks_like_ulog(head)) {
    logscope::ulog::diagnose_ulog_head(head, size);
    return 0;
  }
  logscope::MemoryByteSource source(data, size);
  std::unique_ptr<logscope::FormatInspector> inspector = logscope::ulog::open_inspector(source);
  logscope::Detection detection;
  detection.family = "ulog";
  logscope_fuzz::exercise_inspector(inspector.get(), detection, size);
  logscope::ProgressFn progress = [](uint64_t, uint64_t) { return true; };
  for (const char* q : {"params", "messages", "info_multiple", "timeline", "gps_track"}) inspector->query(q, logscope::Json::object(), progress);
  const logscope::ulog::FileModel& model = *logscope::ulog::file_model(*inspector);
  size_t exported = 0;
  for (const logscope::ulog::Subscription& s : model.subscriptions) {
    if (exported++ == 4) break;
    logscope::Json args = logscope::Json::object();
    args["topic"] = s.name;
    args["multi_id"] = uint64_t{s.multi_id};
    inspector->query("columns", args, progress);
    args["count"] = uint64_t{5};
    inspector->query("decoded", args, progress);
    args.erase("count");
    args["fields"] = "timestamp";
    inspector->query("plot", args, progress);
    logscope::StringSink sink;
    inspector->export_rows(s.name + ":" + std::to_string(s.multi_id), logscope::ExportRequest(), sink, progress);
  }
  // Repair: whatever the input, the copy is a valid ULog with every placeable data message.
  logscope::MemoryOutputSink out;
  logscope::ExtractResult repaired = logscope::ulog::repair_ulog(source, out);
  if (repaired.ok) {
    logscope::MemoryByteSource copy(reinterpret_cast<const uint8_t*>(out.bytes.data()), out.bytes.size());
    std::unique_ptr<logscope::FormatInspector> again = logscope::ulog::open_inspector(copy);
    const logscope::ulog::FileModel& fixed = *logscope::ulog::file_model(*again);
    bool cut = false;
    for (const logscope::Problem& p : fixed.problems)
      cut |= p.code == "ulog.file.truncated" || p.code == "ulog.data.unknown_subscription" || p.code == "ulog.flags.unknown_incompatible";
    if (cut || fixed.data_messages != model.data_messages) {
      for (const logscope::Problem& p : fixed.problems)
        std::fprintf(stderr, "repaired copy: %s @%llu %s\n", p.code.c_str(), static_cast<unsigned long long>(p.offset), p.message.c_str());
      std::fprintf(stderr, "data messages: %llu in the input, %llu in the copy\n", static_cast<unsigned long long>(model.data_messages),
                   static_cast<unsigned long long>(fixed.data_messages));
      std::abort();
    }
  }
  logscope_fuzz::abort_on_violations(logscope_fuzz::check_inspector_invariants(inspector.get(), "ulog", size));
  return 0;
}
