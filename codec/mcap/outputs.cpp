// MCAP's outputs in the format table: the small demo's writer (entry.h).
#include "mcap/entry.h"
#include "mcap/writer.h"

namespace logscope::mcap {
namespace {

// The small demo (entry.cpp keeps its bytes): two schemas, three channels (one without a schema), zstd chunks, an attachment and metadata.
std::vector<uint8_t> make_small_demo() {
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

void add_outputs(FormatEntry& e) { e.make_small_demo = make_small_demo; }

}  // namespace logscope::mcap
