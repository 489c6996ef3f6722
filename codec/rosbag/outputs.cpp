// The ROS bag's outputs in the format table: extract, repair and the demo writers (entry.h).
#include <cstring>

#include "rosbag/demo.h"
#include "rosbag/entry.h"
#include "rosbag/extract.h"
#include "rosbag/model.h"
#include "rosbag/writer.h"

namespace logscope::rosbag {
namespace {

// The small demo (entry.cpp keeps its bytes): several lz4 chunks, two connections, a latched one.
std::vector<uint8_t> make_small_demo() {
  MemorySink sink;
  WriterOptions options;
  options.compression = "lz4";
  options.chunk_threshold = 256;
  BagWriter writer(sink, options);
  uint32_t count = writer.add_connection("/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n", "/counter");
  uint32_t text = writer.add_connection("/text", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n", "/talker", true);
  for (uint32_t i = 0; i < 60; ++i) {
    Time stamp = Time::from_ns(1700000000000000000ull + i * 10000000ull);
    std::string data(4, '\0');
    std::memcpy(data.data(), &i, 4);
    writer.write(count, stamp, data);
    if (i % 10 == 0) writer.write(text, stamp, std::string("\x05\0\0\0hello", 9));
  }
  writer.close();
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

// Repair is an extract that keeps every complete message; both stream the bag (any version,
// indexed or not) into a new V2.0 bag.
ExtractResult extract(ByteSource& source, const Detection& detection, const ExtractSelection& selection, OutputSink& out,
                      const ProgressFn& progress) {
  BagExtractOptions options;
  options.topics = selection.sources;
  options.from = selection.from;
  options.to = selection.to;
  options.compression = selection.option("compression");
  return extract_bag(source, format_of(detection), out, options, progress);
}

ExtractResult repair(ByteSource& source, const Detection& detection, const ExtractSelection& selection, OutputSink& out,
                     const ProgressFn& progress) {
  BagExtractOptions options;
  options.compression = selection.option("compression");
  return extract_bag(source, format_of(detection), out, options, progress);
}

}  // namespace

void add_outputs(FormatEntry& e) {
  e.make_small_demo = make_small_demo;
  e.write_demo = [](const std::string& path, uint64_t target_bytes, std::string* error) {
    return write_demo_file(path, target_bytes, error);
  };
  e.extract = extract;
  e.repair = repair;
}

}  // namespace logscope::rosbag
