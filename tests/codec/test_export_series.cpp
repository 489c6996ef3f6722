// Export of BDDF POD series (our writer; the official sample against its truth file) and of CARLA
// actors (our writer; the real logs against `logscope actors --json` and the trajectory query).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "bddf/export.h"
#include "bddf/inspector.h"
#include "bddf/writer.h"
#include "carla/export.h"
#include "carla/inspector.h"
#include "carla/writer.h"
#include "core/byte_source.h"
#include "core/export.h"
#include "export_support.h"
#include "test_support.h"

using namespace logscope;
using export_support::parse_csv;
using export_support::Row;

namespace {

std::vector<Row> csv_rows(const std::string& text) {
  std::vector<Row> rows;
  REQUIRE(parse_csv(text, &rows));
  return rows;
}

constexpr int64_t kStart = 1767225600123456789ll;

std::vector<uint8_t> pod_file() {
  std::vector<uint8_t> bytes;
  bddf::Writer writer([&](const void* data, size_t size) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    return true;
  }, bddf::Writer::Options());
  int voltage = writer.add_pod_channel("power/battery_voltage", 10, {}, {{"units", "V"}}, 800);  // 100 samples a block
  int grid = writer.add_pod_channel("grid", 9, {2, 3}, {}, 240);  // 10 samples a block
  int wide = writer.add_pod_channel("wide", 8, {65}, {}, 4);
  writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  for (int i = 0; i < 300; ++i) {
    int64_t ts = kStart + int64_t{i} * 20000000;
    double v = 55.2 - i * 1e-4;
    REQUIRE(writer.write_pod_sample(voltage, ts, &v));
    float g[6];
    for (int k = 0; k < 6; ++k) g[k] = 0.1f * static_cast<float>(i * 6 + k);
    REQUIRE(writer.write_pod_sample(grid, ts, g));
    if (i < 8) {
      uint64_t w[65];
      for (uint64_t k = 0; k < 65; ++k) w[k] = UINT64_MAX - k;
      REQUIRE(writer.write_pod_sample(wide, ts, w));
    }
  }
  REQUIRE(writer.finish());
  return bytes;
}

}  // namespace

TEST_CASE("a BDDF POD series exports one row per sample with exact values, dimensions as columns") {
  MemoryByteSource source(pod_file());
  auto inspector = bddf::open_inspector(source);
  REQUIRE(inspector);
  const bddf::FileModel& model = *bddf::file_model(*inspector);
  StringSink sink;
  ExportResult result = bddf::export_series(source, model, "power/battery_voltage", ExportRequest(), sink);
  CHECK(result.error.empty());
  CHECK(result.rows == 300);
  std::vector<Row> rows = csv_rows(sink.text());
  REQUIRE(rows.size() == 301);
  CHECK(rows[0] == Row{"time_ns", "sample", "value"});
  for (int i = 0; i < 300; ++i) CHECK(std::strtod(rows[i + 1][2].c_str(), nullptr) == 55.2 - i * 1e-4);
  CHECK(rows[1][0] == std::to_string(kStart));
  CHECK(rows[101][0] == std::to_string(kStart + 100 * 20000000ll));  // the second block's time, sample 0
  CHECK(rows[101][1] == "0");

  StringSink grid;
  ExportRequest range;
  range.from_ns = kStart + 20 * 20000000ll;  // blocks of 10 samples: the 3rd and 4th
  range.to_ns = kStart + 30 * 20000000ll;
  result = bddf::export_series(source, model, "1", range, grid);
  rows = csv_rows(grid.text());
  CHECK(rows[0] == Row{"time_ns", "sample", "value[0][0]", "value[0][1]", "value[0][2]", "value[1][0]", "value[1][1]", "value[1][2]"});
  REQUIRE(rows.size() == 21);
  CHECK(rows[1][2] == "12");  // 0.1f * 120 as a float32
  CHECK(std::strtof(rows[1][3].c_str(), nullptr) == 0.1f * 121);
  CHECK(rows[20][1] == "9");

  StringSink wide;
  result = bddf::export_series(source, model, "wide", ExportRequest(), wide);
  CHECK(result.json_columns == std::vector<std::string>{"value"});
  rows = csv_rows(wide.text());
  REQUIRE(rows.size() == 9);
  CHECK(rows[1][2].rfind("[18446744073709551615,18446744073709551614,", 0) == 0);

  StringSink none;
  // A protobuf series without blocks: its columns are the paths its messages have, none here.
  ExportResult empty = bddf::export_series(source, model, "bosdyn.api.RobotState", ExportRequest(), none);
  CHECK(empty.error.empty());
  CHECK(empty.rows == 0);
  CHECK(none.text() == "time_ns\r\n");
  CHECK(bddf::export_series(source, model, "nope", ExportRequest(), none).error.find("power/battery_voltage") != std::string::npos);
}

TEST_CASE("a progress function that returns false cancels an export, with the rows so far written") {
  MemoryByteSource source(pod_file());
  auto inspector = bddf::open_inspector(source);
  REQUIRE(inspector);
  StringSink sink;
  uint64_t calls = 0;
  ExportResult result = bddf::export_series(source, *bddf::file_model(*inspector), "power/battery_voltage", ExportRequest(), sink,
                                            [&](uint64_t, uint64_t) { return ++calls < 2; });
  CHECK(result.cancelled);
  CHECK(result.rows == 100);  // the first block
  std::vector<Row> rows = csv_rows(sink.text());
  CHECK(rows.size() == 101);
  // Progress counts bytes of the file, as the other formats' exports do (the page shows a rate
  // and a time left from it), not blocks.
  std::vector<std::pair<uint64_t, uint64_t>> seen;
  StringSink whole;
  bddf::export_series(source, *bddf::file_model(*inspector), "power/battery_voltage", ExportRequest(), whole,
                      [&](uint64_t done, uint64_t total) { return seen.emplace_back(done, total), true; });
  REQUIRE(seen.size() == 3);
  for (size_t i = 0; i < seen.size(); ++i) {
    CHECK(seen[i].second == source.size());
    CHECK(seen[i].first < source.size());
    if (i) CHECK(seen[i].first > seen[i - 1].first);
  }
}

TEST_CASE("the official BDDF sample's POD series export what the SDK's PodSeriesReader read") {
  if (!test_support::have_samples()) return;
  std::string path = test_support::sample("bddf/robot_state_small.bddf");
  auto truth = Json::parse(test_support::read_text(test_support::sample("bddf/robot_state_small.truth.json")));
  REQUIRE(truth);
  std::string error;
  auto file = FileByteSource::open(path, &error);
  REQUIRE(file);
  ByteSource& source = *file;
  auto inspector = bddf::open_inspector(source);
  REQUIRE(inspector);
  const Json& readers = *truth->find("official_high_level_readers")->find("PodSeriesReader");
  int compared = 0;
  for (const auto& [spec, expected] : readers.items()) {
    auto parsed = Json::parse(spec);
    REQUIRE(parsed);
    std::string channel = parsed->find("bosdyn:channel")->as_string();
    CAPTURE(channel);
    StringSink sink;
    ExportResult result = bddf::export_series(source, *bddf::file_model(*inspector), channel, ExportRequest(), sink);
    CHECK(result.problems.empty());
    std::vector<Row> rows = csv_rows(sink.text());
    uint64_t samples = expected.find("num_samples")->as_uint();
    REQUIRE(rows.size() == samples + 1);
    const Json& first = *expected.find("first_block_ts_and_first_samples");
    const Json& last = *expected.find("last_block_ts_and_last_samples");
    CHECK(rows[1][0] == first[0].dump());
    CHECK(rows[samples][0] == last[0].dump());
    std::string why;
    for (size_t k = 0; k < first[1].size(); ++k)
      CHECK(export_support::same_value(export_support::cell_value(rows[1 + k][2]), first[1][k], &why));
    size_t tail = last[1].size();
    for (size_t k = 0; k < tail; ++k)
      CHECK(export_support::same_value(export_support::cell_value(rows[samples + 1 - tail + k][2]), last[1][k], &why));
    ++compared;
  }
  CHECK(compared == 2);
}

namespace {

std::vector<uint8_t> actor_log() {
  carla::LogWriter w;
  w.header(1637671165, "Town03");
  for (uint64_t f = 1; f <= 4; ++f) {
    w.frame_start(f, f == 4 ? -1.0 : 0.5, static_cast<double>(f - 1) * 0.5);
    if (f == 1) {
      carla::EventAddRecord a;
      a.id = 10, a.type = 1, a.blueprint = "vehicle.tesla.model3", a.location = {100, 200, 30};
      w.write(carla::packets::EventAdd, {a});
    }
    w.write(carla::packets::Position, {{10, {100.0 + static_cast<double>(f), 200.25, 30}, {1, 2, 90}}, {11, {0, 0, 0}, {0, 0, 0}}});
    if (f != 2) w.write(carla::packets::Kinematics, {{10, {3, 4, 0}, {0, 0, 1}}});
    w.frame_end();
  }
  return w.take();
}

}  // namespace

TEST_CASE("a CARLA actor exports one row per frame: time, transform and speed where recorded") {
  std::vector<uint8_t> bytes = actor_log();
  MemoryByteSource source(bytes.data(), bytes.size());
  StringSink sink;
  ExportResult result = carla::export_actor(source, 10, ExportRequest(), sink);
  CHECK(result.error.empty());
  CHECK(result.rows == 4);
  std::vector<Row> rows = csv_rows(sink.text());
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == Row{"time_ns", "frame", "elapsed", "x", "y", "z", "pitch", "yaw", "roll", "vx", "vy", "vz", "speed"});
  CHECK(rows[1] == Row{"1637671165000000000", "1", "0", "101", "200.25", "30", "2", "90", "1", "3", "4", "0", "5"});
  CHECK(rows[2] == Row{"1637671165500000000", "2", "0.5", "102", "200.25", "30", "2", "90", "1", "", "", "", ""});
  ExportRequest range;
  range.from_ns = 1637671166000000000ull;  // +1 s: frames 3 and 4
  StringSink later;
  CHECK(carla::export_actor(source, 10, range, later).rows == 2);
}

TEST_CASE("CARLA sample logs: every actor's rows match `logscope actors --json` and the trajectory query") {
  if (!test_support::have_samples()) return;
  int actors_compared = 0;
  for (const char* name : {"scenario_runner_0.9.10_DistanceToLaneCenter.log", "scenario_runner_0.9.13_DistanceToLaneCenter.log",
                           "scenario_runner_0.9.10_DistanceBetweenVehicles.log", "scenario_runner_0.9.13_DistanceBetweenVehicles.log"}) {
    CAPTURE(name);
    std::string path = test_support::sample(std::string("carla/") + name);
    std::string scratch = test_support::scratch_dir("export_carla") + "/actors.json";
    REQUIRE(std::system(("'" + std::string(LOGSCOPE_CLI) + "' actors --json '" + path + "' > '" + scratch + "'").c_str()) == 0);
    auto actors = Json::parse(test_support::read_text(scratch));
    REQUIRE(actors);
    std::string error;
    auto file = FileByteSource::open(path, &error);
    REQUIRE(file);
    ByteSource& source = *file;
    auto inspector = carla::open_inspector(source);
    for (const Json& actor : actors->find("actors")->elements()) {
      uint64_t positions = actor.find("positions")->as_uint();
      if (positions == 0) continue;
      uint64_t id = actor.find("id")->as_uint();
      CAPTURE(id);
      StringSink sink;
      ExportResult result = carla::export_actor(source, static_cast<uint32_t>(id), ExportRequest(), sink);
      std::vector<Row> rows = csv_rows(sink.text());
      REQUIRE(rows.size() == positions + 1);
      CHECK(rows[1][1] == actor.find("spawn_frame")->dump());
      if (!actor.find("destroy_frame")->is_null())
        CHECK(std::stoull(rows.back()[1]) <= actor.find("destroy_frame")->as_uint());
      Json args = Json::object();
      args["actor"] = id;
      Json trajectory = inspector->query("trajectory", args, nullptr);
      REQUIRE(trajectory.find("points")->as_uint() == positions);
      const Json& location = *trajectory.find("location");
      for (size_t r = 0; r < positions; ++r) {
        CHECK(rows[r + 1][1] == (*trajectory.find("frame"))[r].dump());
        std::string why;
        CHECK(export_support::same_value(export_support::cell_value(rows[r + 1][3]), (*location.find("x"))[r], &why));
        CHECK(export_support::same_value(export_support::cell_value(rows[r + 1][4]), (*location.find("y"))[r], &why));
        CHECK(export_support::same_value(export_support::cell_value(rows[r + 1][5]), (*location.find("z"))[r], &why));
      }
      ++actors_compared;
    }
    int status = -1;  // the last frame's duration -1 is a note (info), not a problem: exit 0
    test_support::run_cli("export '" + path + "' --actor 1 -o /dev/null", &status);
    CHECK(status == 0);
  }
  MESSAGE(actors_compared << " actors compared");
  CHECK(actors_compared > 10);
}
