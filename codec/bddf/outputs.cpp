// BDDF's outputs in the format table: extract, repair and the demo writers (entry.h).
#include "bddf/demo.h"
#include "bddf/entry.h"
#include "bddf/extract.h"
#include "bddf/inspector_impl.h"
#include "bddf/writer.h"
#include "core/node_id.h"

namespace logscope::bddf {
namespace {

// The small demo (entry.cpp keeps its bytes): every kind of series the reader knows, a protobuf
// channel, a POD series, a series with an additional index.
std::vector<uint8_t> make_small_demo() {
  std::vector<uint8_t> bytes;
  Writer writer([&](const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    bytes.insert(bytes.end(), p, p + size);
    return true;
  }, Writer::Options());
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  int imu = writer.add_pod_channel("imu/linear_acceleration", 9, {3}, {{"units", "m/s2"}}, 64);
  SeriesOptions camera;
  camera.spec["bosdyn:channel"] = "camera/image";
  camera.type_name = "bosdyn.api.ImageResponse";
  camera.additional_index_names = {"frame_number"};
  int images = writer.add_series(camera);
  const int64_t start = 1773842400000000000ll;
  const std::string payload(40, 'x');
  for (int64_t i = 0; i < 40; ++i) {
    int64_t ns = start + i * 5000000;
    float sample[3] = {0.1f, 0.2f, 9.8f};
    writer.write_pod_sample(imu, ns, sample);
    if (i % 4 == 0) writer.write_block(state, ns, payload.data(), payload.size());
    if (i % 10 == 0) writer.write_block(images, ns, payload.data(), payload.size(), {i / 10});
  }
  writer.finish();
  return bytes;
}

// The index as the caller's open inspector read it, if it is a BDDF one.
const FileModel* open_model(const ExtractSelection& selection) {
  const auto* inspector = dynamic_cast<const BddfInspector*>(selection.open);
  return inspector ? &inspector->model() : nullptr;
}

ExtractResult refused(std::string why) {
  ExtractResult result;
  result.error = std::move(why);
  return result;
}

// Series are positions as `logscope info` lists them.
ExtractResult extract(ByteSource& source, const Detection&, const ExtractSelection& selection, OutputSink& out,
                      const ProgressFn& progress) {
  BddfExtractOptions options;
  for (const std::string& item : selection.sources) {
    std::optional<uint64_t> position = parse_decimal(item);
    if (!position || *position > UINT32_MAX) return refused("series are numbers as `logscope info` lists them: " + item);
    options.series.push_back(static_cast<uint32_t>(*position));
  }
  options.from = selection.from;
  options.to = selection.to;
  options.spill = selection.spill;
  return extract_bddf(source, out, options, progress, open_model(selection));
}

// Repair is an extract that keeps every complete block.
ExtractResult repair(ByteSource& source, const Detection&, const ExtractSelection& selection, OutputSink& out, const ProgressFn& progress) {
  BddfExtractOptions options;
  options.spill = selection.spill;
  return extract_bddf(source, out, options, progress, open_model(selection));
}

}  // namespace

void add_outputs(FormatEntry& e) {
  e.make_small_demo = make_small_demo;
  e.write_demo = write_demo_file;
  e.extract = extract;
  e.repair = repair;
}

}  // namespace logscope::bddf
