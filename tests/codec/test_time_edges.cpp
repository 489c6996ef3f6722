// Time stamps at the edges of what each format can store, in files written by our own writers:
// every stamp INT64_MIN, -1, 0 or INT64_MAX in turn (ROS 1: u32 extremes; CARLA: double extremes,
// NaN and infinities; MCAP: u64 extremes), and all of them in one file, whose span overflows.
// Each file goes through what `info`, `check`, `export` and the page's timeline and plot run. The
// answers hold no NaN or infinity, the report's times are in time_math's range with a duration
// of end - start, and a stamp beyond the range is the warning `<format>.time.out_of_range`.
// The sanitizer build (scripts/sanitize.sh: -fno-sanitize-recover=all) runs the same cases, so a
// signed overflow anywhere on the way fails them.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "../fuzz/edge_stamps.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "core/export.h"
#include "core/extract.h"
#include "core/folder.h"
#include "core/format_table.h"
#include "core/time_math.h"
#include "inspector.h"
#include "test_support.h"

using namespace logscope;

namespace {

constexpr int64_t kMin = logscope_fuzz::kStampMin;
constexpr int64_t kMax = logscope_fuzz::kStampMax;
const std::vector<int64_t> kEdges = {kMin, -1, 0, kMax};
const double kNaN = std::numeric_limits<double>::quiet_NaN(), kInf = std::numeric_limits<double>::infinity();

// Every number of an answer is finite (the page draws them).
void all_finite(const Json& j, const std::string& where) {
  if (j.type() == Json::Type::Double) CHECK_MESSAGE(std::isfinite(j.as_double()), where << ": a non-finite number");
  if (j.is_array())
    for (const Json& e : j.elements()) all_finite(e, where);
  if (j.is_object())
    for (const auto& [key, value] : j.items()) all_finite(value, where + "." + key);
}

// The format's own code, or a part's (a rosbag2 bag's MCAP splits say mcap.time.out_of_range).
bool has_out_of_range(const Report& r) {
  const std::string what = ".time.out_of_range";
  for (const Problem& p : r.problems)
    if (p.code.size() > what.size() && p.code.compare(p.code.size() - what.size(), what.size(), what) == 0) {
      CHECK(p.severity == Severity::Warning);
      return true;
    }
  return false;
}

// A report's common times: in range, both or neither, the duration end - start.
void check_report(const Report& r, bool beyond, const std::string& what) {
  INFO(what);
  // `details` repeats the file's own values for scripts (a CARLA frame's NaN elapsed time, which
  // JSON writes as null); every other value is computed and must be finite.
  Json j = r.to_json();
  for (const auto& [key, value] : j.items())
    if (key != "details") all_finite(value, what + "." + key);
  CHECK(r.file.start_ns.has_value() == r.file.end_ns.has_value());
  if (r.file.start_ns) {
    CHECK(time_math::in_range(*r.file.start_ns));
    CHECK(time_math::in_range(*r.file.end_ns));
    Json facts = file_facts_to_json(r.file);
    CHECK(facts["duration_ns"].as_string() == std::to_string(*r.file.end_ns - *r.file.start_ns));
  }
  CHECK(has_out_of_range(r) == beyond);
}

Json query(FormatInspector& inspector, const std::string& name, const Json& args) {
  Json answer = inspector.query(name, args, nullptr);
  all_finite(answer, name);
  return answer;
}

// What the CLI and the page run on an opened file. `source`: what export selects; `plot_args`: the
// plot's selection (its source argument).
void exercise(FormatInspector& inspector, const std::string& source, Json plot_args, bool beyond, const std::string& what) {
  INFO(what);
  check_report(inspector.summary(), beyond, what + ": summary");
  check_report(inspector.info_report(nullptr), beyond, what + ": info_report");
  check_report(inspector.check(nullptr), beyond, what + ": check");
  CHECK(!inspector.info_text(InfoOptions{}).empty());  // CARLA's layout prints the file's own values, NaN too
  all_finite(inspector.checksum(nullptr), "checksum");
  for (const TreeNode& node : inspector.children("", 0, 50)) (void)inspector.children(node.id, 0, 20);
  (void)inspector.file_map(false, nullptr);

  // The page's timeline: the default range, and the widest one.
  Json timeline = query(inspector, "timeline", Json::object());
  CHECK_MESSAGE(!timeline.find("error"), timeline.dump(0));
  Json wide = Json::object();
  wide["t0_ns"] = "0";
  wide["t1_ns"] = std::to_string(UINT64_MAX);
  CHECK(!query(inspector, "timeline", wide).find("error"));

  // The plot of the source's first column, over its own range and the widest one (CARLA's
  // columns are every actor's: no argument).
  Json columns = query(inspector, "columns", plot_args.find("actor") ? Json::object() : plot_args);
  const Json* list = columns.find("columns");
  REQUIRE_MESSAGE(list, columns.dump(0));
  REQUIRE(list->size() > 0);
  plot_args["fields"] = (*list)[0].find("name")->as_string();
  Json plot = query(inspector, "plot", plot_args);
  CHECK_MESSAGE(!plot.find("error"), plot.dump(0));
  plot_args["t0_ns"] = "0";
  plot_args["t1_ns"] = std::to_string(UINT64_MAX);
  plot_args["max_points"] = 1;  // buckets over the whole u64 range
  CHECK(!query(inspector, "plot", plot_args).find("error"));

  // Exports, whole and in ranges at the ends of the u64 range.
  for (ExportFormat format : {ExportFormat::Csv, ExportFormat::Jsonl}) {
    StringSink sink;
    ExportRequest request;
    request.format = format;
    ExportResult result = inspector.export_rows(source, request, sink, nullptr);
    CHECK_MESSAGE(result.error.empty(), result.error);
    for (auto [from, to] : {std::pair<uint64_t, uint64_t>{UINT64_MAX, UINT64_MAX}, {0, 0}, {uint64_t{1} << 63, UINT64_MAX}}) {
      StringSink part;
      request.from_ns = from, request.to_ns = to;
      CHECK(inspector.export_rows(source, request, part, nullptr).error.empty());
    }
  }
}

void exercise_bytes(const std::vector<uint8_t>& bytes, const std::string& source, const Json& plot_args, bool beyond,
                    const std::string& what) {
  MemoryByteSource memory(bytes.data(), bytes.size());
  Detection detection = detect(memory);
  auto inspector = open_inspector(memory, detection);
  REQUIRE_MESSAGE(inspector, what);
  exercise(*inspector, source, plot_args, beyond, what);
}

Json args_of(const std::string& key, Json value) {
  Json j = Json::object();
  j[key] = std::move(value);
  return j;
}

// --- the writers' files (tests/fuzz/edge_stamps.h) ------------------------------------------------

std::vector<uint8_t> bddf_file(const std::vector<int64_t>& stamps) {
  std::vector<uint8_t> bytes = logscope_fuzz::stamped_bddf(stamps);
  REQUIRE(!bytes.empty());
  return bytes;
}

std::vector<uint8_t> ros1_bag(int version, const std::vector<rosbag::Time>& stamps) {
  std::vector<uint8_t> bytes = logscope_fuzz::stamped_bag(version, stamps);
  REQUIRE(!bytes.empty());
  return bytes;
}

std::vector<uint8_t> carla_log(int64_t date, const std::vector<double>& elapsed) { return logscope_fuzz::stamped_carla(date, elapsed); }

std::vector<uint8_t> mcap_file(const std::vector<uint64_t>& stamps, const std::string& compression, bool chunked) {
  return logscope_fuzz::stamped_mcap(stamps, compression, chunked);
}

// A bag folder of one database of demo messages stamped `stamps`, with our writer's yaml.
std::string rosbag2_folder(const std::string& name, const std::vector<int64_t>& stamps) {
  std::string dir = test_support::scratch_dir("time_edges") + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string file = name + "_0.db3", yaml, error;
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir + "/" + file).c_str(), &db) == SQLITE_OK);
  bool ok = logscope_fuzz::stamped_rosbag2(db, file, stamps, &yaml, &error);
  sqlite3_close(db);
  REQUIRE_MESSAGE(ok, error);
  std::ofstream(dir + "/metadata.yaml") << yaml;
  return dir;
}

std::unique_ptr<FormatInspector> open_folder(const std::string& dir, std::unique_ptr<Folder>* folder) {
  std::string error;
  *folder = DirectoryFolder::open_directory(dir, {}, &error);
  REQUIRE_MESSAGE(*folder, error);
  Detection detection = detect_folder(**folder);
  REQUIRE(detection.family == "rosbag2");
  auto inspector = open_folder_inspector(**folder, detection);
  REQUIRE(inspector);
  return inspector;
}

bool beyond(int64_t ns) { return !time_math::in_range(ns); }

}  // namespace

TEST_CASE("time_math: spans, offsets, rates and conversions give a value or none, never an overflow") {
  CHECK(time_math::span(kMin, kMax) == std::nullopt);
  CHECK(time_math::span(kMax, kMin) == std::nullopt);
  CHECK(time_math::span(-1, kMax) == std::nullopt);
  CHECK(time_math::span(0, kMax) == kMax);
  CHECK(time_math::span(kMin, -1) == kMax);
  CHECK(time_math::span(5, 3) == -2);
  CHECK(time_math::add(kMax, 1) == std::nullopt);
  CHECK(time_math::add(kMin, -1) == std::nullopt);
  CHECK(time_math::add(kMax, kMin) == -1);
  CHECK(time_math::add_u(UINT64_MAX, 1) == std::nullopt);
  CHECK(time_math::saturating_add_u(UINT64_MAX - 2, 5) == UINT64_MAX);
  CHECK(time_math::from_sec_nsec(kMax / 1000000000, 999999999) == std::nullopt);
  CHECK(time_math::from_sec_nsec(kMax / 1000000000, 0) == kMax / 1000000000 * 1000000000);
  CHECK(time_math::from_sec_nsec(kMin, 0) == std::nullopt);
  CHECK(time_math::from_sec_nsec(-1, 0) == -1000000000);
  CHECK(time_math::from_seconds(kNaN) == std::nullopt);
  CHECK(time_math::from_seconds(kInf) == std::nullopt);
  CHECK(time_math::from_seconds(-kInf) == std::nullopt);
  CHECK(time_math::from_seconds(9.3e9) == std::nullopt);  // 9.3e18 ns > INT64_MAX
  CHECK(time_math::from_seconds(-9.3e9) == std::nullopt);
  CHECK(time_math::from_seconds(std::numeric_limits<double>::max()) == std::nullopt);
  CHECK(time_math::from_seconds(1.5) == 1500000000);
  CHECK(time_math::rate_hz(10, 0) == std::nullopt);
  CHECK(time_math::rate_hz(10, -5) == std::nullopt);
  CHECK(time_math::rate_hz(10, kMin, kMax) == std::nullopt);
  CHECK(*time_math::rate_hz(11, 0, 1000000000) == doctest::Approx(11.0));
  CHECK(time_math::span_seconds(kMin, kMax) == std::nullopt);
  time_math::SecondsAndNanos a = time_math::split_seconds(kMin), b = time_math::split_seconds(-1);
  CHECK(a.seconds == -9223372037);
  CHECK(a.nanos == 145224192);
  CHECK(b.seconds == -1);
  CHECK(b.nanos == 999999999);
  CHECK(time_math::in_range(int64_t{4294967295} * 1000000000 + 4294967295));  // every ROS 1 time
  CHECK(!time_math::in_range(kMax));
  CHECK(!time_math::in_range(kMin));
  CHECK(!time_math::in_range(time_math::kLimitNs));
  CHECK(!time_math::in_range(-time_math::kLimitNs));
  CHECK(time_math::in_range(time_math::kLimitNs - 1));
}

TEST_CASE("--from and --to at the ends of the u64 range resolve without overflow") {
  TimeBound late{true, false, 1.7e10};  // 1.7e19 ns: beyond int64, within u64
  CHECK(late.resolve(0, 0) == 17000000000000000000ull);
  TimeBound after{true, true, 1e10};
  CHECK(after.resolve(UINT64_MAX - 5, 0) == UINT64_MAX);
  CHECK(TimeBound{true, false, 1e300}.resolve(0, 0) == UINT64_MAX);
  uint64_t ns = 0;
  REQUIRE(parse_export_time("+1844674406.999999999", UINT64_MAX - 1, &ns));
  CHECK(ns == UINT64_MAX);
  REQUIRE(parse_export_time("1844674406.999999999", 0, &ns));
  CHECK(ns == 1844674406999999999ull);
  CHECK(!parse_export_time("18446744073", 0, &ns));  // seconds past what u64 ns hold: refused, not wrapped
}

TEST_CASE("time edges: BDDF blocks stamped INT64_MIN, -1, 0, INT64_MAX, and all four in one file") {
  for (int64_t t : kEdges) exercise_bytes(bddf_file({t, t, t}), "0", args_of("series", 0), beyond(t), "bddf all " + std::to_string(t));
  exercise_bytes(bddf_file(kEdges), "0", args_of("series", 0), true, "bddf mixed");
  // One edge among ordinary times: the span is the ordinary times'.
  std::vector<uint8_t> bytes = bddf_file({1700000000000000000, kMax, 1700000001000000000});
  MemoryByteSource memory(bytes.data(), bytes.size());
  auto inspector = open_inspector(memory, detect(memory));
  Report r = inspector->summary();
  REQUIRE(r.file.start_ns);
  CHECK(*r.file.start_ns == 1700000000000000000);
  CHECK(*r.file.end_ns == 1700000001000000000);
  CHECK(has_out_of_range(r));
}

TEST_CASE("time edges: ROS 1 bags (V2.0 and V1.2) stamped at the u32 extremes") {
  const std::vector<rosbag::Time> edges = {{0, 0}, {0, UINT32_MAX}, {UINT32_MAX, 999999999}, {UINT32_MAX, UINT32_MAX}};
  for (int version : {200, 102}) {
    for (const rosbag::Time& t : edges)
      exercise_bytes(ros1_bag(version, {t, t, t}), "/value", args_of("topic", "/value"), false,
                     "bag " + std::to_string(version) + " " + std::to_string(t.sec) + "." + std::to_string(t.nsec));
    exercise_bytes(ros1_bag(version, edges), "/value", args_of("topic", "/value"), false, "bag mixed " + std::to_string(version));
  }
}

TEST_CASE("time edges: CARLA logs dated INT64_MIN, -1, 0, INT64_MAX with elapsed times of NaN, infinities and extremes") {
  const double big = std::numeric_limits<double>::max();
  for (int64_t date : kEdges) {
    bool date_beyond = !time_math::from_sec_nsec(date, 0) || beyond(*time_math::from_sec_nsec(date, 0));
    exercise_bytes(carla_log(date, {0, 0.5, 1}), "10", args_of("actor", 10), date_beyond, "carla date " + std::to_string(date));
    for (double e : {kNaN, kInf, -kInf, big, -big, -1.0})
      exercise_bytes(carla_log(date, {0, e, e}), "10", args_of("actor", 10), true,
                     "carla date " + std::to_string(date) + " elapsed " + std::to_string(e));
  }
  exercise_bytes(carla_log(0, {kNaN, kInf, -kInf, big, 0}), "10", args_of("actor", 10), false, "carla mixed, ending at 0");
}

TEST_CASE("time edges: MCAP log_time and publish_time at the u64 extremes, chunked and not") {
  const std::vector<uint64_t> edges = {0, 1, uint64_t{kMax}, uint64_t{1} << 63, UINT64_MAX};
  for (auto [compression, chunked] : {std::pair<std::string, bool>{"", false}, {"", true}, {"zstd", true}, {"lz4", true}}) {
    std::string layout = (chunked ? "chunked " : "unchunked ") + compression;
    for (uint64_t t : edges)
      exercise_bytes(mcap_file({t, t, t}, compression, chunked), "/value", args_of("topic", "/value"), !time_math::in_range_u(t),
                     "mcap " + layout + " all " + std::to_string(t));
    exercise_bytes(mcap_file(edges, compression, chunked), "/value", args_of("topic", "/value"), true, "mcap " + layout + " mixed");
  }
}

TEST_CASE("time edges: rosbag2 messages stamped INT64_MIN, -1, 0, INT64_MAX, all four in one bag, and an empty bag") {
  std::string topic = rosbag2::demo_topics()[0].name;
  for (int64_t t : kEdges) {
    std::string dir = rosbag2_folder("all_" + std::to_string(t < 0 ? -(t + 1) : t), {t, t, t, t});
    std::unique_ptr<Folder> folder;
    auto inspector = open_folder(dir, &folder);
    exercise(*inspector, topic, args_of("topic", topic), beyond(t), "rosbag2 all " + std::to_string(t));
  }
  std::unique_ptr<Folder> folder;
  auto mixed = open_folder(rosbag2_folder("mixed", kEdges), &folder);
  exercise(*mixed, topic, args_of("topic", topic), true, "rosbag2 mixed");

  // A bag that stores MCAP: the splits' stamps at the u64 edges.
  for (const std::vector<uint64_t>& stamps : {std::vector<uint64_t>{UINT64_MAX, UINT64_MAX}, {0, uint64_t{kMax}, uint64_t{1} << 63}}) {
    std::string dir = test_support::scratch_dir("time_edges") + "/mcap_storage";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    test_support::write_file(dir + "/bag_0.mcap", mcap_file(stamps, "zstd", true));
    std::ofstream(dir + "/metadata.yaml") << "rosbag2_bagfile_information:\n  version: 8\n  storage_identifier: mcap\n"
                                              "  relative_file_paths:\n    - bag_0.mcap\n";
    std::unique_ptr<Folder> mcap_folder;
    auto inspector = open_folder(dir, &mcap_folder);
    exercise(*inspector, "/value", args_of("topic", "/value"), true, "rosbag2 (MCAP) " + std::to_string(stamps[0]));
  }

  // rosbag2 writes INT64_MAX as an empty bag's starting_time: no time, no warning, no INT64_MAX shown.
  std::unique_ptr<Folder> empty_folder;
  auto empty = open_folder(rosbag2_folder("empty", {}), &empty_folder);
  for (const Report& r : {empty->summary(), empty->info_report(nullptr), empty->check(nullptr)}) {
    CHECK(!r.file.start_ns);
    CHECK(!has_out_of_range(r));
    CHECK(r.to_json().dump(0).find(std::to_string(kMax)) == std::string::npos);
  }
  std::string text = empty->info_text(InfoOptions{});
  CHECK(text.find(std::to_string(kMax)) == std::string::npos);
  CHECK(text.find("2262") == std::string::npos);  // INT64_MAX ns as a date
  Json timeline = empty->query("timeline", Json::object(), nullptr);
  CHECK(timeline.dump(0).find(std::to_string(kMax)) == std::string::npos);
}

TEST_CASE("time edges: the CLI's info, check and export on every format's edge files") {
  std::string dir = test_support::scratch_dir("time_edges") + "/cli";
  struct File {
    std::string name, select;
    std::vector<uint8_t> bytes;
  };
  std::vector<File> files = {{"min.bddf", "--series 0", bddf_file({kMin, kMin})},
                             {"mixed.bddf", "--series 0", bddf_file(kEdges)},
                             {"max.bag", "--topic /value", ros1_bag(200, {{UINT32_MAX, UINT32_MAX}})},
                             {"nan.log", "--actor 10", carla_log(kMax, {0, kNaN})},
                             {"mixed.mcap", "--topic /value", mcap_file({0, uint64_t{kMax}, UINT64_MAX}, "zstd", true)}};
  for (const File& f : files) {
    INFO(f.name);
    std::string path = dir + "/" + f.name;
    test_support::write_file(path, f.bytes);
    for (std::string command : {"info ", "info --json ", "check ", "check --json "}) {
      std::string out = test_support::run_cli(command + "'" + path + "'");
      CHECK(out.find("runtime error") == std::string::npos);  // UBSan's report, where it recovers
      CHECK(out.find("AddressSanitizer") == std::string::npos);
    }
    int status = 0;
    std::string out = test_support::run_cli("export '" + path + "' " + f.select + " --from 0 --to 1844674406.999999999", &status);
    CHECK(status != 134);  // not aborted
    CHECK(out.find("runtime error") == std::string::npos);
  }
  std::string bag = rosbag2_folder("cli", kEdges);
  for (std::string command : {"info ", "info --json ", "check "}) {
    std::string out = test_support::run_cli(command + "'" + bag + "'");
    CHECK(out.find("runtime error") == std::string::npos);
    if (command == "info --json ") CHECK(out.find("rosbag2.time.out_of_range") != std::string::npos);
  }
}
