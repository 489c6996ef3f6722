// libFuzzer harness for rosbag2 (codec/rosbag2): an input that starts like an SQLite database is
// opened as a lone .db3 through the ByteSource VFS (sqlite_vfs.h) and the table readers, every
// FormatInspector entry point exercised with the message query, and the invariants of
// tests/fuzz/invariants.h checked, then its messages decoded by the definitions it holds (the
// decoded query, each topic's export). Any other input is metadata.yaml: parsed through yaml-cpp
// (metadata.h: every field checked, a cut yaml read up to its break), then opened as a bag folder beside the small demo database under the names it gives
// (the MCAP small demo when the yaml says storage mcap: mcap_folder.h). A database input is also
// repaired through memory (repair.h: SQLite's recovery, the tables made anew, rows read from the
// b-tree of a damaged schema entry) and the repaired database checked, and the plan of its first
// reads (first_reads.cpp) walked to its end.
// Build with -DLOGSCOPE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/export.h"
#include "core/folder.h"
#include "core/format_table.h"
#include "core/output_sink.h"
#include "exercise.h"
#include "invariants.h"
#include "rosbag2/inspector.h"
#include "rosbag2/metadata.h"
#include "rosbag2/repair.h"
#include "rosbag2/writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= 16 && std::memcmp(data, "SQLite format 3", 16) == 0) {
    logscope_fuzz::fuzz_one_input(data, size, "rosbag2");
    logscope::MemoryByteSource source(data, size);
    auto inspector = logscope::rosbag2::open_inspector(source);
    logscope::ProgressFn progress = [](uint64_t, uint64_t) { return true; };
    inspector->query("messages", logscope::Json::parse("{\"limit\": 50}").value_or(logscope::Json::object()), progress);
    // CDR by the database's own message_definitions (decode.h): the decoded page, the timeline,
    // and each topic's export and columns.
    inspector->query("decoded", logscope::Json::parse("{\"count\": 50}").value_or(logscope::Json::object()), progress);
    inspector->query("timeline", logscope::Json::object(), progress);
    inspector->query("definitions", logscope::Json::object(), progress);
    logscope::Report summary = inspector->summary();
    for (const logscope::Table& table : summary.tables)
      for (size_t i = 0; table.name == "topics" && i < table.rows.size() && i < 4; ++i) {
        std::string topic = table.rows[i][0].as_string();
        logscope::StringSink sink;
        logscope::ExportRequest request;
        request.format = i % 2 ? logscope::ExportFormat::Jsonl : logscope::ExportFormat::Csv;
        inspector->export_rows(topic, request, sink, progress);
        logscope::Json args = logscope::Json::object();
        args["topic"] = topic;
        inspector->query("columns", args, progress);
      }
    // The plan of the first reads (first_reads.cpp) walks the input's b-tree pages by their child
    // pointers: bounded waves, every range inside the file.
    logscope::SingleSourceFolder alone("fuzz.db3", source);
    auto plan = logscope::rosbag2::plan_first_reads(alone);
    for (int wave = 0;; ++wave) {
      std::vector<logscope::FolderRange> ranges = plan->next();
      if (ranges.empty()) break;
      if (wave > 10) std::abort();
      for (const logscope::FolderRange& r : ranges)
        if (r.file != "fuzz.db3" || r.offset > size || r.length > size - r.offset) std::abort();
    }
    logscope::MemoryOutputSink repaired;
    logscope::ExtractResult result = logscope::rosbag2::repair_single_database(source, repaired);
    if (result.ok) {
      logscope::MemoryByteSource back(reinterpret_cast<const uint8_t*>(repaired.bytes.data()), repaired.bytes.size());
      auto again = logscope::rosbag2::open_inspector(back);
      again->check(progress);
    }
    return 0;
  }
  std::string text(reinterpret_cast<const char*>(data), size);
  logscope::rosbag2::BagMetadata metadata;
  std::vector<std::string> problems;
  bool parsed = logscope::rosbag2::parse_metadata(text, &metadata, &problems);
  // Read or not, it says why when something is amiss, and a yaml read whole says nothing.
  if (!parsed && problems.empty()) std::abort();
  if (parsed && metadata.complete != problems.empty()) std::abort();
  static const std::vector<uint8_t> sqlite_demo = logscope::rosbag2::small_demo_database();
  static const std::vector<uint8_t> mcap_demo = logscope::find_format("mcap")->small_demo();
  const std::vector<uint8_t>& demo = parsed && metadata.storage_identifier == "mcap" ? mcap_demo : sqlite_demo;
  logscope::MemoryFolder folder("fuzz");
  folder.add("metadata.yaml", std::vector<uint8_t>(data, data + size));
  folder.add("bag_0.db3", demo);
  if (parsed)
    for (size_t i = 0; i < metadata.relative_file_paths.size() && i < 4; ++i)
      if (!metadata.relative_file_paths[i].empty()) folder.add(metadata.relative_file_paths[i], demo);
  logscope::Detection detection = logscope::detect_folder(folder);
  if (detection.family != "rosbag2") return 0;
  // Through the table's open_folder, as the CLI and the page open it: SQLite or MCAP storage.
  auto inspector = logscope::find_format("rosbag2")->open_folder(folder, detection);
  logscope_fuzz::exercise_inspector(inspector.get(), detection, 0);
  return 0;
}
