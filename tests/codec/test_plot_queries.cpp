// The page's plot, timeline and map queries ("columns", "plot", "timeline"; CARLA "paths" and
// "positions"), on files from our writers: a plot's points are the export's rows (same count in any
// range, the same values read back from the same text), buckets keep the count exact, timelines
// count what the index holds, and every argument error names its argument.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "bddf/export.h"
#include "bddf/inspector.h"
#include "bddf/writer.h"
#include "carla/export.h"
#include "carla/inspector.h"
#include "carla/writer.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "core/export.h"
#include "core/plot.h"
#include "export_support.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "rosbag/export.h"
#include "rosbag/inspector.h"
#include "rosbag/writer.h"
#include "test_support.h"

using namespace logscope;
using export_support::parse_csv;
using export_support::Row;

namespace {

constexpr const char* kStateDefinition =
    "float64 x\nfloat32 y\nint64 big\nbool flag\nstring label\nfloat64[3] v\nuint8[] blob\n";

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string state_message(uint32_t i) {
  std::string m;
  put<double>(m, i * 0.1);
  put<float>(m, static_cast<float>(i) / 3);
  put<int64_t>(m, (int64_t{1} << 60) + i);
  put<uint8_t>(m, static_cast<uint8_t>(i % 2));
  std::string label = i % 2 ? "odd" : "even";
  put<uint32_t>(m, static_cast<uint32_t>(label.size()));
  m += label;
  for (int k = 0; k < 3; ++k) put<double>(m, i % 7 == 3 ? std::nan("") : -static_cast<double>(i) * k);
  put<uint32_t>(m, 1);
  put<uint8_t>(m, 9);
  return m;
}

constexpr uint64_t kBagStart = 1700000000123456789ULL;  // beyond 2^53 ns: exactness matters

// 500 /state messages every 10 ms and 250 /other ones, in chunks of about 4 KB.
std::vector<uint8_t> state_bag(int version, const std::string& compression) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.version = version;
  options.compression = compression;
  options.chunk_threshold = 4096;
  rosbag::BagWriter writer(sink, options);
  uint32_t state = writer.add_connection("/state", "test_msgs/State", "0123456789abcdef0123456789abcdef", kStateDefinition);
  uint32_t other = writer.add_connection("/other", "std_msgs/UInt32", "304a39449588c7f8ce2df6e8001c5fce", "uint32 data\n");
  for (uint32_t i = 0; i < 500; ++i) {
    uint64_t t = kBagStart + uint64_t{i} * 10000000ULL;
    REQUIRE(writer.write(state, rosbag::Time::from_ns(t), state_message(i)));
    if (i % 2 == 0) {
      std::string n;
      put<uint32_t>(n, i);
      REQUIRE(writer.write(other, rosbag::Time::from_ns(t + 5), n));
    }
  }
  REQUIRE(writer.close());
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

Json args(std::initializer_list<std::pair<const char*, Json>> members) {
  Json j = Json::object();
  for (const auto& [key, value] : members) j[key] = value;
  return j;
}

// An element of a JSON array as a value of its own (Json's operator[] by key is for non-const values).
Json item(const Json& list, size_t index) { return list[index]; }

std::string error_of(const Json& answer) {
  const Json* e = answer.find("error");
  return e ? e->as_string() : "";
}

// The export's rows of `fields` as (time_ns text, cells) for comparison.
std::vector<Row> exported(const std::function<ExportResult(const ExportRequest&, ExportSink&)>& run, const std::string& fields, uint64_t from = 0,
                          uint64_t to = UINT64_MAX) {
  ExportRequest request;
  size_t start = 0;
  while (start <= fields.size()) {
    size_t comma = std::min(fields.find(',', start), fields.size());
    request.fields.push_back(fields.substr(start, comma - start));
    start = comma + 1;
  }
  request.from_ns = from, request.to_ns = to;
  StringSink sink;
  ExportResult result = run(request, sink);
  REQUIRE(result.error.empty());
  std::vector<Row> rows;
  REQUIRE(parse_csv(sink.text(), &rows));
  REQUIRE(!rows.empty());
  rows.erase(rows.begin());  // the header
  return rows;
}

// The plot's value for one cell of the export: the number text read back, booleans as 0/1, gaps null.
void check_cell(const Json& ours, const std::string& cell) {
  CAPTURE(cell);
  if (cell == "true" || cell == "false") {
    CHECK(ours.as_double() == (cell == "true" ? 1.0 : 0.0));
    return;
  }
  char* end = nullptr;
  double value = std::strtod(cell.c_str(), &end);
  if (cell.empty() || *end || !std::isfinite(value)) {  // text, nan, inf: a gap
    CHECK(ours.is_null());
  } else {
    REQUIRE(ours.is_number());
    CHECK(ours.as_double() == value);
  }
}

// Every point of a "points" answer against the export's rows: times (relative to t0_ns) and values.
void check_points(Json plot, const std::vector<Row>& rows) {
  REQUIRE(error_of(plot) == "");
  REQUIRE(plot["mode"].as_string() == "points");
  REQUIRE(plot["count"].as_uint() == rows.size());
  uint64_t t0 = std::stoull(plot["t0_ns"].as_string());
  const Json& t = plot["t"];
  REQUIRE(t.size() == rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    CHECK(t[i].as_double() == static_cast<double>(std::stoull(rows[i][0]) - t0));
    for (size_t c = 0; c + 1 < rows[i].size(); ++c) check_cell(plot["values"][c][i], rows[i][c + 1]);
  }
}

}  // namespace

TEST_CASE("a bag topic's plot holds the export's rows and values, in any range, in every version") {
  for (auto variant : {std::pair{200, "lz4"}, {200, "none"}, {102, "none"}}) {
    const int version = variant.first;  // plain copies for CAPTURE (a lambda)
    const std::string compression = variant.second;
    CAPTURE(version);
    CAPTURE(compression);
    MemoryByteSource source(state_bag(version, compression));
    auto inspector = rosbag::open_inspector(source, rosbag::format_of(detect(source)));
    rosbag::Bag& bag = *rosbag::opened_bag(*inspector);
    auto run = [&](const ExportRequest& r, ExportSink& s) { return rosbag::export_topic(source, bag, "/state", r, s); };

    Json columns = inspector->query("columns", args({{"topic", "/state"}}), nullptr);
    REQUIRE(error_of(columns) == "");
    std::map<std::string, std::string> kinds;
    for (Json c : columns["columns"].elements()) kinds[c["name"].as_string()] = c["kind"].as_string();
    CHECK(kinds == std::map<std::string, std::string>{{"x", "number"}, {"y", "number"}, {"big", "number"}, {"flag", "bool"},
                                                      {"label", "text"}, {"v[0]", "number"}, {"v[1]", "number"},
                                                      {"v[2]", "number"}, {"blob", "json"}});

    const std::string fields = "x,y,big,flag,v[2],label";
    Json plot = inspector->query("plot", args({{"topic", "/state"}, {"fields", fields}}), nullptr);
    check_points(plot, exported(run, fields));
    CHECK(plot["count"].as_uint() == 500);
    CHECK(plot["columns"] == [] {
      Json c = Json::array();
      for (const char* name : {"x", "y", "big", "flag", "v[2]", "label"}) c.push_back(name);
      return c;
    }());
    CHECK(plot["values"][1][1].as_double() == std::strtod(format_f32(1.0f / 3).c_str(), nullptr));  // float32 as its export text

    // Inclusive bounds, exact to the nanosecond: 20 ms .. 1 s after the start holds messages 2..100.
    uint64_t from = kBagStart + 20000000ULL, to = kBagStart + 1000000000ULL;
    Json ranged = inspector->query("plot", args({{"topic", "/state"}, {"fields", "x"}, {"t0_ns", from}, {"t1_ns", to}}), nullptr);
    check_points(ranged, exported(run, "x", from, to));
    CHECK(ranged["count"].as_uint() == 99);
    CHECK(ranged["t0_ns"].as_string() == std::to_string(from));
    Json just_before = inspector->query("plot", args({{"topic", "/state"}, {"fields", "x"}, {"t0_ns", from + 1}, {"t1_ns", to - 1}}), nullptr);
    CHECK(just_before["count"].as_uint() == 97);
  }
}

TEST_CASE("beyond max_points a plot is first/last/min/max per bucket, and the count stays exact") {
  MemoryByteSource source(state_bag(200, "lz4"));
  auto inspector = rosbag::open_inspector(source, rosbag::format_of(detect(source)));
  Json all = inspector->query("plot", args({{"topic", "/state"}, {"fields", "x,v[1]"}}), nullptr);
  REQUIRE(all["mode"].as_string() == "points");
  Json bucketed = inspector->query("plot", args({{"topic", "/state"}, {"fields", "x,v[1]"}, {"max_points", 100}, {"buckets", 37}}), nullptr);
  REQUIRE(error_of(bucketed) == "");
  REQUIRE(bucketed["mode"].as_string() == "buckets");
  CHECK(bucketed["count"].as_uint() == 500);
  CHECK(bucketed.find("t") == nullptr);
  // Recompute the buckets from every point: the same counts, extremes, first and last values.
  double span = static_cast<double>(std::stoull(all["t1_ns"].as_string()) - std::stoull(all["t0_ns"].as_string())) + 1;
  std::map<uint64_t, std::vector<size_t>> members;
  for (size_t i = 0; i < all["t"].size(); ++i)
    members[std::min<uint64_t>(36, static_cast<uint64_t>(std::floor(all["t"][i].as_double() / span * 37)))].push_back(i);
  REQUIRE(bucketed["bucket"].size() == members.size());
  uint64_t total = 0;
  size_t k = 0;
  for (const auto& member : members) {
    const uint64_t bucket = member.first;  // plain copies for CAPTURE (a lambda)
    const std::vector<size_t>& points = member.second;
    CAPTURE(bucket);
    CHECK(bucketed["bucket"][k].as_uint() == bucket);
    CHECK(bucketed["bucket_count"][k].as_uint() == points.size());
    CHECK(bucketed["t_first"][k].as_double() == all["t"][points.front()].as_double());
    CHECK(bucketed["t_last"][k].as_double() == all["t"][points.back()].as_double());
    total += bucketed["bucket_count"][k].as_uint();
    for (size_t c = 0; c < 2; ++c) {
      double lo = INFINITY, hi = -INFINITY;
      std::vector<double> finite;
      for (size_t i : points)
        if (all["values"][c][i].is_number()) finite.push_back(all["values"][c][i].as_double());
      for (double v : finite) lo = std::min(lo, v), hi = std::max(hi, v);
      if (finite.empty()) {
        CHECK(bucketed["min"][c][k].is_null());
        continue;
      }
      CHECK(bucketed["min"][c][k].as_double() == lo);
      CHECK(bucketed["max"][c][k].as_double() == hi);
      CHECK(bucketed["first"][c][k].as_double() == finite.front());
      CHECK(bucketed["last"][c][k].as_double() == finite.back());
    }
    ++k;
  }
  CHECK(total == 500);
}

TEST_CASE("plot and columns arguments: each error names what is wrong") {
  MemoryByteSource source(state_bag(200, "none"));
  auto inspector = rosbag::open_inspector(source, rosbag::format_of(detect(source)));
  auto error = [&](const char* query, const Json& a) { return error_of(inspector->query(query, a, nullptr)); };
  CHECK(error("plot", args({{"fields", "x"}})).find("topic") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}})).find("\"fields\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", " , "}})).find("\"fields\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/nope"}, {"fields", "x"}})).find("/state") != std::string::npos);  // lists the topics
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", "nope"}})).find("no column is named \"nope\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", "x"}, {"t0_ns", "soon"}})).find("\"t0_ns\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", "x"}, {"t0_ns", 10}, {"t1_ns", 9}})).find("\"t1_ns\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", "x"}, {"t0_ns", -1}})).find("\"t0_ns\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", "x"}, {"max_points", 0}})).find("\"max_points\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", "x"}, {"buckets", 10001}})).find("\"buckets\"") != std::string::npos);
  CHECK(error("plot", args({{"topic", "/state"}, {"fields", "x"}, {"colour", "red"}})).find("colour") != std::string::npos);
  CHECK(error("columns", args({})).find("topic") != std::string::npos);
  CHECK(error("columns", args({{"topic", "/nope"}})).find("/other") != std::string::npos);
  CHECK(error("timeline", args({{"bins", 0}})).find("\"bins\"") != std::string::npos);
  CHECK(error("timeline", args({{"t0_ns", 5}, {"t1_ns", 4}})).find("\"t1_ns\"") != std::string::npos);
}

TEST_CASE("columns and plot of a self-referencing type answer at once (not fields^depth)") {
  for (const char* definition : {"a/B[] z\na/B x\na/B y\n", "a/B[2] z\na/B x\na/B y\n", "a/B[3] z\na/B[2] x\n"}) {
    CAPTURE(definition);
    rosbag::MemorySink sink;
    rosbag::BagWriter writer(sink, rosbag::WriterOptions());
    uint32_t c = writer.add_connection("/evil", "a/B", "0123456789abcdef0123456789abcdef", definition);
    REQUIRE(writer.write(c, rosbag::Time{1, 0}, std::string("\x01\x00\x00\x00", 4)));
    REQUIRE(writer.close());
    MemoryByteSource source(std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end()));
    auto inspector = rosbag::open_inspector(source, rosbag::format_of(detect(source)));
    auto start = std::chrono::steady_clock::now();
    Json columns = inspector->query("columns", args({{"topic", "/evil"}}), nullptr);
    Json plot = inspector->query("plot", args({{"topic", "/evil"}, {"fields", "z"}}), nullptr);
    // A bound for a hang, not a speed test (fields^depth calls took hours; this takes well under a second).
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 20);
    CHECK((error_of(columns).find("too many columns") != std::string::npos || columns["columns"].size() <= 100001));
    CHECK((error_of(plot) != "" || plot["count"].as_uint() == 0));  // the message does not fit its definition
  }
}

TEST_CASE("a plot of more than 16 columns is refused, not cut short") {
  PlotSink sink(PlotOptions{});
  std::string header = "time_ns";
  for (int i = 0; i < 17; ++i) header += ",c" + std::to_string(i);
  CHECK_FALSE(sink.write(header + "\r\n"));
  CHECK(sink.to_json(ExportResult())["error"].as_string().find("at most 16") != std::string::npos);
  PlotSink ok(PlotOptions{});
  CHECK(ok.write("time_ns,\"a,b\",c\r\n"));
  CHECK(ok.write("5,\"text, quoted\",2.5\r\n"));
  CHECK(ok.columns() == std::vector<std::string>{"a,b", "c"});
  Json j = ok.to_json(ExportResult());
  CHECK(item(item(j["values"], 0), 0).is_null());
  CHECK(item(item(j["values"], 1), 0).as_double() == 2.5);
  CHECK(item(j["t"], 0).as_double() == 5);
}

TEST_CASE("a bag's timeline counts every topic's messages from the index, per bin") {
  for (int version : {200, 102}) {
    CAPTURE(version);
    MemoryByteSource memory(state_bag(version, "lz4"));
    CountingByteSource source(memory);
    auto inspector = rosbag::open_inspector(source, rosbag::format_of(detect(source)));
    uint64_t reads = source.read_calls();
    Json timeline = inspector->query("timeline", args({{"bins", 50}}), nullptr);
    CHECK(source.read_calls() == reads);  // from the index in memory: not one read
    REQUIRE(error_of(timeline) == "");
    CHECK(timeline["resolution"].as_string() == (version == 200 ? "chunk" : "message"));
    CHECK(timeline["t0_ns"].as_string() == std::to_string(kBagStart));
    REQUIRE(timeline["rows"].size() == 2);
    Report summary = inspector->summary();
    const Table& topics = summary.tables[0];
    REQUIRE(topics.name == "topics");
    for (size_t r = 0; r < 2; ++r) {
      Json row = item(timeline["rows"], r);
      CHECK(row["name"].as_string() == topics.rows[r][0].as_string());  // in the table's order
      CHECK(row["total"].as_uint() == topics.rows[r][2].as_uint());
      double sum = 0;
      for (const Json& c : row["counts"].elements()) sum += c.as_double();
      CHECK(sum == doctest::Approx(static_cast<double>(row["total"].as_uint())).epsilon(1e-6));
      CHECK(row["in_range"].as_double() == doctest::Approx(static_cast<double>(row["total"].as_uint())));
    }
    // The second half of the range holds about half of the messages (exactly, from the message index).
    uint64_t middle = kBagStart + 2500000000ULL;
    Json later = inspector->query("timeline", args({{"t0_ns", middle}, {"bins", 10}}), nullptr);
    double state_later = item(later["rows"], 1)["in_range"].as_double();
    if (version == 102) CHECK(state_later == 250);
    else CHECK(state_later == doctest::Approx(250).epsilon(0.05));
  }
}

namespace {

constexpr int64_t kBddfStart = 1767225600123456789ll;

std::vector<uint8_t> pod_file() {
  std::vector<uint8_t> bytes;
  bddf::Writer writer([&](const void* data, size_t size) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    return true;
  }, bddf::Writer::Options());
  int voltage = writer.add_pod_channel("power/battery_voltage", 10, {}, {{"units", "V"}}, 800);  // 100 samples a block
  int grid = writer.add_pod_channel("grid", 9, {2, 3}, {}, 240);  // float32[2][3], 10 samples a block
  writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  for (int i = 0; i < 300; ++i) {
    int64_t ts = kBddfStart + int64_t{i} * 20000000;
    double v = 55.2 - i * 1e-4;
    REQUIRE(writer.write_pod_sample(voltage, ts, &v));
    float g[6];
    for (int k = 0; k < 6; ++k) g[k] = 0.1f * static_cast<float>(i * 6 + k);
    REQUIRE(writer.write_pod_sample(grid, ts, g));
  }
  REQUIRE(writer.finish());
  return bytes;
}

}  // namespace

// Timeline::add_ordered (a BDDF series in time order: binary searches per bin) gives add()'s
// counts to the message: times on bin edges, runs at one time, untimed messages (UINT64_MAX),
// ranges that cut the times or miss them, t1 at UINT64_MAX, one bin and many.
TEST_CASE("a timeline of times in order counted by binary search equals one counted message by message") {
  std::mt19937_64 random(36);
  for (int round = 0; round < 300; ++round) {
    std::vector<uint64_t> times;
    size_t n = random() % 400;
    uint64_t t = random() % 1000;
    for (size_t i = 0; i < n; ++i) {
      t += (random() % 4 == 0) ? 0 : random() % (round % 3 == 0 ? 7 : 100000);
      times.push_back(t);
    }
    size_t untimed = random() % 3;  // at the end, as UINT64_MAX sorts
    for (size_t i = 0; i < untimed; ++i) times.push_back(UINT64_MAX);
    uint64_t last = times.empty() ? 0 : (untimed ? (n ? times[n - 1] : 0) : times.back());
    uint64_t t0 = random() % 2 ? 0 : random() % (last + 2);
    uint64_t t1 = round % 17 == 0 ? UINT64_MAX : t0 + random() % (last + 10);
    size_t bins = round % 11 == 0 ? 1 : 1 + random() % 500;
    Timeline one_by_one(t0, t1, bins, 1), ordered(t0, t1, bins, 1);
    size_t a = one_by_one.row("s"), b = ordered.row("s");
    for (uint64_t time : times) one_by_one.add(a, time);
    ordered.add_ordered(b, times.size(), [&](uint64_t at) -> uint64_t {
      return static_cast<uint64_t>(std::lower_bound(times.begin(), times.begin() + n, at) - times.begin());
    });
    INFO("round " << round << ": " << n << " times, t0 " << t0 << ", t1 " << t1 << ", " << bins << " bins");
    CHECK(ordered.to_json("x").dump() == one_by_one.to_json("x").dump());
  }
}

TEST_CASE("a BDDF POD series plots the export's samples and the timeline counts blocks per series") {
  std::vector<uint8_t> bytes = pod_file();
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = bddf::open_inspector(source);
  const bddf::FileModel& model = *bddf::file_model(*inspector);
  auto run = [&](const ExportRequest& r, ExportSink& s) { return bddf::export_series(source, model, "grid", r, s); };
  Json columns = inspector->query("columns", args({{"series", 1}}), nullptr);
  REQUIRE(error_of(columns) == "");
  CHECK(columns["channel"].as_string() == "grid");
  CHECK(columns["columns"].size() == 7);  // sample, value[0][0] .. value[1][2]
  CHECK(item(columns["columns"], 6)["name"].as_string() == "value[1][2]");
  CHECK(item(columns["columns"], 6).find("unit") == nullptr);  // "grid" has no units annotation
  Json voltage = inspector->query("columns", args({{"series", 0}}), nullptr);
  CHECK(item(voltage["columns"], 1)["unit"].as_string() == "V");
  CHECK(item(voltage["columns"], 0).find("unit") == nullptr);  // sample: a place, no unit
  Json plot = inspector->query("plot", args({{"series", 1}, {"fields", "sample,value[0][1],value[1][2]"}}), nullptr);
  check_points(plot, exported(run, "sample,value[0][1],value[1][2]"));
  CHECK(plot["count"].as_uint() == 300);
  // A range: blocks (10 samples each, one time per block) from 1 s to 2 s after the start.
  uint64_t from = static_cast<uint64_t>(kBddfStart) + 1000000000ULL, to = from + 1000000000ULL;
  Json ranged = inspector->query("plot", args({{"series", 1}, {"fields", "value[1][0]"}, {"t0_ns", from}, {"t1_ns", to}}), nullptr);
  check_points(ranged, exported(run, "value[1][0]", from, to));
  // A protobuf series without messages has no numeric path, so no column "value" (test_protobuf.cpp plots them).
  CHECK(error_of(inspector->query("plot", args({{"series", 2}, {"fields", "value"}}), nullptr)).find("no column is named \"value\"") != std::string::npos);
  CHECK(error_of(inspector->query("plot", args({{"series", 9}, {"fields", "value"}}), nullptr)).find("\"series\"") != std::string::npos);
  CHECK(error_of(inspector->query("columns", args({}), nullptr)).find("series") != std::string::npos);

  Json timeline = inspector->query("timeline", args({{"bins", 30}}), nullptr);
  REQUIRE(timeline["rows"].size() == model.series.size());
  for (size_t s = 0; s < model.series.size(); ++s) {
    Json row = item(timeline["rows"], s);
    CHECK(row["name"].as_string() == model.series[s].channel());
    CHECK(row["total"].as_uint() == model.series[s].entries.size());
    CHECK(row["in_range"].as_double() == static_cast<double>(model.series[s].entries.size()));
  }
  CHECK(timeline["resolution"].as_string() == "block");
}

namespace {

// Frames every 0.5 s: vehicles 10 and 12, a walker 20 from frame 3, vehicle 12 destroyed at frame 5,
// then its id reused by a new vehicle at frame 7; a traffic light without positions.
std::vector<uint8_t> town_log(uint64_t frames) {
  carla::LogWriter w;
  w.header(1637671165, "Town03");
  for (uint64_t f = 1; f <= frames; ++f) {
    w.frame_start(f, f == frames ? -1.0 : 0.5, static_cast<double>(f - 1) * 0.5);
    auto add = [&](uint32_t id, uint8_t type, const char* blueprint) {
      carla::EventAddRecord a;
      a.id = id, a.type = type, a.blueprint = blueprint, a.location = {1.0 * id, 2.0 * id, 0};
      w.write(carla::packets::EventAdd, {a});
    };
    if (f == 1) add(10, 1, "vehicle.tesla.model3"), add(12, 1, "vehicle.audi.tt"), add(30, 3, "traffic.traffic_light");
    if (f == 3) add(20, 2, "walker.pedestrian.0001");
    if (f == 5) w.write(carla::packets::EventDel, {12u});
    if (f == 7) add(12, 1, "vehicle.mini.cooper");
    std::vector<carla::PositionRecord> positions{{10, {100.0 * static_cast<double>(f), 50, 0}, {0, 0, 90}}};
    if (f < 5 || f >= 7) positions.push_back({12, {-10.0 * static_cast<double>(f), 5, 0}, {0, 0, 180}});
    if (f >= 3) positions.push_back({20, {1, 1.5 * static_cast<double>(f), 0}, {0, 0, 0}});
    w.write(carla::packets::Position, positions);
    w.write(carla::packets::Kinematics, {{10, {3, 4, 0}, {0, 0, 1}}});
    w.frame_end();
  }
  return w.take();
}

}  // namespace

TEST_CASE("CARLA: an actor's plot is its export, paths hold every actor life, positions read one frame") {
  std::vector<uint8_t> bytes = town_log(10);
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = carla::open_inspector(source);
  auto run = [&](const ExportRequest& r, ExportSink& s) { return carla::export_actor(source, 10, r, s); };
  Json plot = inspector->query("plot", args({{"actor", 10}, {"fields", "x,speed,yaw"}}), nullptr);
  check_points(plot, exported(run, "x,speed,yaw"));
  CHECK(plot["count"].as_uint() == 10);
  Json columns = inspector->query("columns", args({}), nullptr);
  CHECK(columns["columns"].size() == carla::actor_columns().size());
  std::map<std::string, std::string> units;
  for (Json c : columns["columns"].elements()) units[c["name"].as_string()] = c.find("unit") ? c["unit"].as_string() : "";
  CHECK(units["speed"] == "cm/s");
  CHECK(units["yaw"] == "deg");
  CHECK(units["frame"] == "");
  CHECK(error_of(inspector->query("plot", args({{"fields", "x"}}), nullptr)).find("actor") != std::string::npos);
  CHECK(error_of(inspector->query("plot", args({{"actor", 10}, {"fields", "height"}}), nullptr)).find("height") != std::string::npos);

  Json timeline = inspector->query("timeline", args({{"bins", 5}}), nullptr);
  REQUIRE(error_of(timeline) == "");
  CHECK(item(timeline["rows"], 0)["total"].as_uint() == 10);
  CHECK(item(timeline["rows"], 0)["counts"] == [] {
    Json c = Json::array();
    for (int i = 0; i < 5; ++i) c.push_back(2.0);
    return c;
  }());
  CHECK(item(timeline["rows"], 1)["total"].as_uint() == 4);  // frames 1, 3 and 7 add actors, 5 destroys one

  Json paths = inspector->query("paths", args({}), nullptr);
  REQUIRE(error_of(paths) == "");
  Json actors = inspector->query("actors", args({}), nullptr);
  REQUIRE(paths["actors"].size() == actors["actors"].size());
  std::multiset<std::pair<uint64_t, std::string>> from_paths, from_actors;
  for (Json a : paths["actors"].elements()) from_paths.insert({a["id"].as_uint(), a["type"].as_string()});
  for (Json a : actors["actors"].elements()) from_actors.insert({a["id"].as_uint(), a["type"].as_string()});
  CHECK(from_paths == from_actors);
  for (Json a : paths["actors"].elements()) {
    uint64_t id = a["id"].as_uint();
    CAPTURE(id);
    CAPTURE(a["blueprint"].as_string());
    if (a["blueprint"].as_string() == "vehicle.audi.tt") {
      CHECK(a["f"].size() == 4);  // frames 0..3, then destroyed at index 4
      CHECK(a["destroy_index"].as_uint() == 4);
      CHECK(a["x"][3].as_double() == -40);
    } else if (a["blueprint"].as_string() == "vehicle.mini.cooper") {
      CHECK(a["spawn_index"].as_uint() == 6);
      CHECK(item(a["f"], 0).as_uint() == 6);
    } else if (id == 20) {
      CHECK(a["f"].size() == 8);
      CHECK(item(a["y"], 0).as_double() == 4.5);
    } else if (id == 30) {
      CHECK(a["f"].size() == 0);
      CHECK(a["spawn"][1].as_double() == 60);
    }
  }
  Json frame = inspector->query("positions", args({{"frame", 4}}), nullptr);
  REQUIRE(error_of(frame) == "");
  CHECK(frame["id"].as_uint() == 5);
  CHECK(frame["elapsed"].as_double() == 2.0);
  CHECK(frame["time_ns"].as_string() == "1637671167000000000");
  REQUIRE(frame["positions"].size() == 2);  // 10 and the walker: 12 is gone
  CHECK(item(frame["positions"], 0)["x"].as_double() == 500);
  CHECK(item(frame["positions"], 0)["yaw"].as_double() == 90);
  CHECK(error_of(inspector->query("positions", args({{"frame", 10}}), nullptr)).find("\"frame\"") != std::string::npos);
  CHECK(error_of(inspector->query("positions", args({}), nullptr)).find("frame") != std::string::npos);
  CHECK(error_of(inspector->query("paths", args({{"max_points", 5}}), nullptr)).find("\"max_points\"") != std::string::npos);
}

TEST_CASE("CARLA paths are thinned to their budget, keeping each life's first and last position") {
  std::vector<uint8_t> bytes = town_log(3000);
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = carla::open_inspector(source);
  Json paths = inspector->query("paths", args({{"max_points", 1000}}), nullptr);
  REQUIRE(error_of(paths) == "");
  CHECK(paths["points"].as_uint() <= 1000 + 2 * paths["actors"].size());
  CHECK(paths["stride"].as_uint() >= 8);
  for (Json a : paths["actors"].elements()) {
    if (a["id"].as_uint() != 10) continue;
    CHECK(item(a["f"], 0).as_uint() == 0);
    CHECK(a["f"][a["f"].size() - 1].as_uint() == 2999);
    CHECK(a["x"][a["x"].size() - 1].as_double() == 300000);
    for (size_t i = 1; i < a["f"].size(); ++i) CHECK(a["f"][i].as_uint() > a["f"][i - 1].as_uint());
  }
}

// A plot over a big range reads a sample of the chunks (max_chunks, the page's one per pixel
// column): `sampled` says how many of how many, each point read is the export's, and the reads
// shrink with the sample. Bags and MCAP; a range that holds fewer chunks reads them all.
TEST_CASE("a plot with max_chunks reads that many chunks spread over the range, and says so") {
  SUBCASE("bag") {
    std::vector<uint8_t> bytes = state_bag(200, "lz4");
    MemoryByteSource memory(bytes);
    CountingByteSource source(memory);
    auto inspector = rosbag::open_inspector(source, rosbag::format_of(detect(source)));
    rosbag::Bag& bag = *rosbag::opened_bag(*inspector);
    auto run = [&](const ExportRequest& r, ExportSink& s) { return rosbag::export_topic(source, bag, "/state", r, s); };
    const std::vector<Row> all = exported(run, "x");
    source.reset();
    Json whole = inspector->query("plot", args({{"topic", "/state"}, {"fields", "x"}}), nullptr);
    const uint64_t whole_bytes = source.bytes_read();
    CHECK(whole.find("sampled") == nullptr);
    CHECK(whole["count"].as_uint() == 500);
    const uint64_t chunks = bag.chunks.size();
    REQUIRE(chunks >= 12);
    source.reset();
    Json sample = inspector->query("plot", args({{"topic", "/state"}, {"fields", "x"}, {"max_chunks", uint64_t{4}}}), nullptr);
    REQUIRE(error_of(sample) == "");
    REQUIRE(sample.find("sampled"));
    CHECK(sample["sampled"]["chunks_read"].as_uint() == 4);
    CHECK(sample["sampled"]["chunks"].as_uint() == chunks);
    // Every answer says its chunks, sampled or not (the page adds up its spans').
    CHECK(sample["chunks"]["read"].as_uint() == 4);
    CHECK(sample["chunks"]["in_range"].as_uint() == chunks);
    CHECK(whole["chunks"]["read"].as_uint() == chunks);
    CHECK(whole["chunks"]["in_range"].as_uint() == chunks);
    const uint64_t count = sample["count"].as_uint();
    CHECK(count > 0);
    CHECK(count * 3 < 500);
    CHECK(source.bytes_read() * 3 < whole_bytes);
    // Every point read is the export's row at that time, and the points come from across the range.
    std::map<uint64_t, std::string> by_time;
    for (const Row& row : all) by_time[std::stoull(row[0])] = row[1];
    uint64_t t0 = std::stoull(sample["t0_ns"].as_string());
    const Json& t = sample["t"];
    for (size_t i = 0; i < t.size(); ++i) {
      uint64_t at = t0 + static_cast<uint64_t>(t[i].as_double());
      REQUIRE(by_time.count(at));
      check_cell(item(item(sample["values"], 0), i), by_time[at]);
    }
    CHECK(t[t.size() - 1].as_double() > 0.5 * (std::stoull(whole["t1_ns"].as_string()) - t0));
    // More chunks asked than the range holds: every chunk, no sample.
    Json enough = inspector->query("plot", args({{"topic", "/state"}, {"fields", "x"}, {"max_chunks", chunks}}), nullptr);
    CHECK(enough.find("sampled") == nullptr);
    CHECK(enough["count"].as_uint() == 500);
  }
  SUBCASE("mcap") {
    mcap::WriterOptions options;
    options.chunk_size = 512;
    mcap::Writer writer(options);
    uint16_t schema = writer.add_schema("demo/Value", "ros2msg", "float64 x\n");
    uint16_t channel = writer.add_channel(schema, "/value", "cdr");
    const uint64_t start = 1700000000000000000ull;
    for (uint32_t i = 0; i < 400; ++i) {
      std::string data("\x00\x01\x00\x00", 4);
      put<double>(data, i);
      writer.write_message(channel, i, start + i * 1000000ull, start + i * 1000000ull, data);
    }
    std::string bytes = writer.finish();
    MemoryByteSource memory(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    CountingByteSource source(memory);
    auto inspector = mcap::open_inspector(source);
    Json whole = inspector->query("plot", args({{"topic", "/value"}, {"fields", "x"}}), nullptr);
    REQUIRE(error_of(whole) == "");
    CHECK(whole["count"].as_uint() == 400);
    CHECK(whole.find("sampled") == nullptr);
    source.reset();
    Json sample = inspector->query("plot", args({{"topic", "/value"}, {"fields", "x"}, {"max_chunks", uint64_t{4}}}), nullptr);
    REQUIRE(error_of(sample) == "");
    REQUIRE(sample.find("sampled"));
    CHECK(sample["sampled"]["chunks_read"].as_uint() == 4);
    const uint64_t chunks = sample["sampled"]["chunks"].as_uint();
    CHECK(chunks >= 20);
    CHECK(sample["chunks"]["read"].as_uint() == 4);
    CHECK(whole["chunks"]["read"].as_uint() == chunks);
    CHECK(whole["chunks"]["in_range"].as_uint() == chunks);
    const uint64_t count = sample["count"].as_uint();
    CHECK(count > 0);
    CHECK(count * 4 < 400);
    CHECK(source.bytes_read() * 4 < bytes.size());
    // Each point is its message: x is the message's index, its time start + x ms.
    const Json& t = sample["t"];
    for (size_t i = 0; i < t.size(); ++i) CHECK(t[i].as_double() == item(item(sample["values"], 0), i).as_double() * 1e6);
  }
}
