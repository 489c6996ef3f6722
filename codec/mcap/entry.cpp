// MCAP's entry in the format table (core/format_table.h). Reading, the doctor, the tree and the
// queries, the export (by topic) and the plots are here; extract and repair are not yet (docs/mcap.md).
#include "mcap/entry.h"

#include "mcap/format.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"

namespace logscope::mcap {
namespace {

// Two schemas, three channels (one without a schema), zstd chunks, an attachment and metadata.
std::vector<uint8_t> small_demo() {
  WriterOptions options;
  options.compression = "zstd";
  options.chunk_size = 256;
  Writer w(options);
  uint16_t imu = w.add_schema("demo/Imu", "jsonschema", "{}");
  uint16_t pose = w.add_schema("demo/Pose", "ros2msg", "float64 x\n");
  uint16_t channels[] = {w.add_channel(imu, "/imu", "json", {{"k", "v"}}), w.add_channel(pose, "/pose", "cdr"),
                         w.add_channel(0, "/log", "json")};
  for (uint32_t i = 0; i < 24; ++i) {
    uint64_t t = 1700000000000000000ull + i * 1000000ull;
    w.write_message(channels[i % 3], i, t, t, "{\"i\":" + std::to_string(i) + "}");
    if (i == 12) {
      w.write_attachment("a.txt", "text/plain", t, t, "attached");
      w.write_metadata("m", {{"key", "value"}});
    }
  }
  std::string bytes = w.finish();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

}  // namespace

FormatEntry format_entry() {
  FormatEntry e;
  e.name = "mcap";
  e.label = "MCAP";
  e.summary = "MCAP (ROS 2 and Foxglove logs; chunks none, lz4, zstd)";
  e.match = [](std::string_view head, uint64_t) -> std::optional<FormatEntry::Match> {
    if (!looks_like_mcap(head)) return std::nullopt;
    return FormatEntry::Match{"0", "MCAP"};
  };
  e.near_miss = [](std::string_view head, uint64_t size) -> std::optional<FormatEntry::NearMiss> {
    std::string diagnosis = diagnose_mcap_head(head, size);
    if (diagnosis.empty()) return std::nullopt;
    return FormatEntry::NearMiss{"truncated-header", diagnosis};
  };
  e.file_endings = {".mcap"};
  e.recovery_codes = {"mcap.file.truncated", "mcap.file.no_footer", "mcap.file.line_endings",
                      "mcap.record.damaged", "mcap.summary.crc_mismatch", "mcap.summary.damaged"};
  e.open = [](ByteSource& source, const Detection&) { return open_inspector(source); };
  e.small_demo = small_demo;
  e.operations = {Operation::Export, Operation::Plot};
  e.source = {"topic", "topics"};
  e.helpers = {};
  return e;
}

}  // namespace logscope::mcap
