#include "warm_up.h"

#include <cstring>
#include <string>
#include <vector>

#include "bddf/writer.h"
#include "carla/writer.h"
#include "core/byte_source.h"
#include "inspector.h"
#include "rosbag/writer.h"

namespace logscope {
namespace {

std::vector<uint8_t> small_bddf() {
  std::vector<uint8_t> bytes;
  bddf::Writer writer([&](const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    bytes.insert(bytes.end(), p, p + size);
    return true;
  }, bddf::Writer::Options());
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  int imu = writer.add_pod_channel("imu/linear_acceleration", 9, {3}, {{"units", "m/s2"}}, 64);
  bddf::SeriesOptions camera;
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

std::vector<uint8_t> small_bag(const char* compression) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = compression;
  options.chunk_threshold = 256;  // several chunks
  rosbag::BagWriter writer(sink, options);
  uint32_t count = writer.add_connection("/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n", "/counter");
  uint32_t text = writer.add_connection("/text", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n", "/talker", true);
  for (uint32_t i = 0; i < 60; ++i) {
    rosbag::Time stamp = rosbag::Time::from_ns(1700000000000000000ull + i * 10000000ull);
    std::string data(4, '\0');
    std::memcpy(data.data(), &i, 4);
    writer.write(count, stamp, data);
    if (i % 10 == 0) writer.write(text, stamp, std::string("\x05\0\0\0hello", 9));
  }
  writer.close();
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

std::vector<uint8_t> small_carla_log() {
  using namespace carla;
  LogWriter w;
  w.header(1700000000, "Town03");
  for (uint32_t frame = 1; frame <= 5; ++frame) {
    w.frame_start(frame, frame < 5 ? 0.05 : -1, frame * 0.05);  // -1: the last frame, as CARLA leaves it
    if (frame == 1) {
      EventAddRecord add;
      add.id = 100;
      add.type = 1;
      add.blueprint = "vehicle.tesla.model3";
      w.write(packets::EventAdd, {add});
    }
    w.write(packets::Position, {PositionRecord{100, Vec3{frame * 100.0, 0, 0}, Vec3{0, 0, 90}}});
    w.frame_end();
  }
  return w.take();
}

// Opens and summarises one file through the same source stack the page uses (a cache in front).
bool open_and_summarise(const std::vector<uint8_t>& bytes) {
  MemoryByteSource memory(bytes.data(), bytes.size());
  CachedByteSource cached(memory);
  Detection detection = detect(cached);
  auto inspector = open_inspector(cached, detection);
  if (!inspector) return false;
  Report summary = inspector->summary();
  return !summary.to_json().empty() && summary.count(Severity::Error) == 0 && summary.count(Severity::Warning) == 0 && !summary.recovery.performed;
}

}  // namespace

int warm_up_opening() {
  return open_and_summarise(small_bddf()) + open_and_summarise(small_bag("lz4")) + open_and_summarise(small_bag("none")) +
         open_and_summarise(small_carla_log());
}

}  // namespace logscope
