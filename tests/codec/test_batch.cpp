// Many files from the CLI (check/info PATH... --recursive --jobs --json) and `logscope map`,
// on fixtures written by our own writers.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "bddf/writer.h"
#include "core/json.h"
#include "rosbag/writer.h"
#include "test_support.h"

using namespace test_support;
using logscope::Json;

namespace {

// By value: std::quoted (from <iomanip>, which <nlohmann/json.hpp> includes) is also found by
// argument-dependent lookup, and would win over a `const std::string&` parameter.
std::string quoted(std::string path) { return "'" + path + "'"; }

// An indexed V2.0 bag of `messages` 1 KB messages in chunks of ~16 KB.
std::string make_bag(int messages) {
  logscope::rosbag::MemorySink sink;
  logscope::rosbag::WriterOptions options;
  options.chunk_threshold = 16 * 1024;
  logscope::rosbag::BagWriter writer(sink, options);
  uint32_t conn = writer.add_connection("/chatter", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  std::string payload(1000, 'x');
  for (int i = 0; i < messages; ++i) {
    std::string data = std::string("\xe8\x03\x00\x00", 4) + payload;
    REQUIRE(writer.write(conn, logscope::rosbag::Time{uint32_t(1700000000 + i), 0}, data));
  }
  REQUIRE(writer.close());
  return sink.bytes;
}

std::vector<uint8_t> make_bddf() {
  std::vector<uint8_t> bytes;
  logscope::bddf::Writer writer([&](const void* d, size_t n) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(d), static_cast<const uint8_t*>(d) + n);
    return true;
  }, {});
  int series = writer.add_message_channel("/notes", "bosdyn.api.OperatorComment");
  for (int i = 0; i < 20; ++i) REQUIRE(writer.write_block(series, 1700000000000000000LL + i * 1000000LL, "note", 4));
  REQUIRE(writer.finish());
  return bytes;
}

void write_text(const std::string& path, const std::string& text) { write_file(path, std::vector<uint8_t>(text.begin(), text.end())); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// tree/: a/clean.bag, a/notes.bddf, b/cut.bag (cut inside a chunk), b/README.md; returns tree/.
std::string make_tree() {
  std::string dir = scratch_dir("batch-tree");
  REQUIRE(std::system(("rm -rf '" + dir + "/tree' && mkdir -p '" + dir + "/tree/a' '" + dir + "/tree/b'").c_str()) == 0);
  std::string bag = make_bag(100);
  write_text(dir + "/tree/a/clean.bag", bag);
  write_file(dir + "/tree/a/notes.bddf", make_bddf());
  write_text(dir + "/tree/b/cut.bag", bag.substr(0, bag.size() / 2));
  write_text(dir + "/tree/b/README.md", "# field logs of the day\n");
  return dir + "/tree";
}

}  // namespace

TEST_CASE("check of a directory without --recursive says so and exits 2") {
  std::string tree = make_tree();
  int status = -1;
  std::string out = run_cli("check " + quoted(tree), &status);
  CHECK(status == 2);
  CHECK(out.find("is a directory") != std::string::npos);
  CHECK(out.find("--recursive") != std::string::npos);
}

TEST_CASE("check --recursive --json: one object per file in sorted order, totals, the worst exit status") {
  std::string tree = make_tree();
  for (const char* jobs : {"1", "3"}) {
    CAPTURE(jobs);
    int status = -1;
    std::string out = run_cli("check --recursive --json --jobs " + std::string(jobs) + " " + quoted(tree), &status);
    std::vector<std::string> lines = lines_of(out);
    REQUIRE(lines.size() == 5);
    std::vector<std::string> expected = {tree + "/a/clean.bag", tree + "/a/notes.bddf", tree + "/b/README.md", tree + "/b/cut.bag"};
    std::sort(expected.begin(), expected.end());
    for (size_t i = 0; i < 4; ++i) {
      auto json = Json::parse(lines[i]);
      REQUIRE_MESSAGE(json, lines[i]);
      CHECK(json->find("path")->as_string() == expected[i]);
    }
    auto clean = *Json::parse(lines[0]);
    CHECK(clean.find("report")->find("problems")->size() == 0);
    // The same object the one-file check --json prints.
    auto single = Json::parse(run_cli("check --json " + quoted(expected[0])));
    REQUIRE(single);
    CHECK(clean.dump() == single->dump());
    CHECK(!Json::parse(lines[2])->find("report"));  // README.md: what it looks like, no report
    auto cut = *Json::parse(lines[3]);
    CHECK(cut.find("path")->as_string() == tree + "/b/cut.bag");
    CHECK(cut.find("report")->find("problems")->size() > 0);
    auto totals = Json::parse(lines[4]);
    REQUIRE(totals);
    const Json* t = totals->find("totals");
    REQUIRE(t);
    CHECK(t->find("files")->as_uint() == 4);
    CHECK(t->find("clean")->as_uint() == 2);
    CHECK(t->find("problems")->as_uint() == 1);
    CHECK(t->find("not_logs")->as_uint() == 1);
    CHECK(status == 1);  // the README does not count; the cut bag does
  }
}

TEST_CASE("check of several paths: one line each in the order given, unreadable named files exit 2") {
  std::string tree = make_tree();
  int status = -1;
  std::string out = run_cli("check " + quoted(tree + "/b/cut.bag") + " " + quoted(tree + "/a/clean.bag"), &status);
  std::vector<std::string> lines = lines_of(out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].find(tree + "/b/cut.bag: ROS bag V2.0") == 0);
  CHECK(lines[0].find("problems") != std::string::npos);
  CHECK(lines[1].find("clean.bag: ROS bag V2.0") != std::string::npos);
  CHECK(lines[1].find(", 0 errors, 0 warnings, clean") != std::string::npos);
  CHECK(lines[2].find("total: 2 files") == 0);
  CHECK(status == 1);
  out = run_cli("check " + quoted(tree + "/a/clean.bag") + " " + quoted(tree + "/nope.bag") + " " + quoted(tree + "/b/README.md"), &status);
  CHECK(status == 2);
  CHECK(out.find("nope.bag: unreadable") != std::string::npos);
  CHECK(out.find("No such file") != std::string::npos);
}

TEST_CASE("info takes several paths") {
  std::string tree = make_tree();
  int status = -1;
  std::string out = run_cli("info " + quoted(tree + "/a/clean.bag") + " " + quoted(tree + "/a/notes.bddf"), &status);
  CHECK(status == 0);
  size_t first = out.find("==> " + tree + "/a/clean.bag <==");
  size_t second = out.find("==> " + tree + "/a/notes.bddf <==");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
  CHECK(out.find("messages:    100") != std::string::npos);
  std::vector<std::string> lines = lines_of(run_cli("info --json " + quoted(tree + "/a/clean.bag") + " " + quoted(tree + "/a/notes.bddf"), &status));
  REQUIRE(lines.size() == 2);
  for (const auto& line : lines) CHECK(Json::parse(line)->find("summary"));
}

TEST_CASE("check ../shared/samples --recursive --json: one valid object per file and the worst status") {
  if (!have_samples()) return;
  int status = -1;
  std::string out = run_cli("check --recursive --json --jobs 2 " + quoted(samples_dir()), &status);
  std::vector<std::string> lines = lines_of(out);
  REQUIRE(lines.size() > 10);
  int worst = 0;
  size_t objects = 0;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    auto json = Json::parse(lines[i]);
    REQUIRE_MESSAGE(json, lines[i].substr(0, 300));
    ++objects;
    std::string path = json->find("path")->as_string();
    bool log_name = path.size() > 4 && (path.rfind(".bag") == path.size() - 4 || path.rfind(".bddf") == path.size() - 5 ||
                                        path.rfind(".log") == path.size() - 4 || path.find(".bag.active") != std::string::npos);
    const Json* report = json->find("report");
    if (!report) {
      if (log_name) worst = std::max(worst, 2);
      continue;
    }
    size_t serious = 0;
    for (size_t p = 0; p < report->find("problems")->size(); ++p)
      serious += (*report->find("problems"))[p].find("severity")->as_string() != "info";
    if (serious) worst = std::max(worst, 1);
  }
  auto totals = Json::parse(lines.back());
  REQUIRE(totals);
  CHECK(totals->find("totals")->find("files")->as_uint() == objects);
  CHECK(status == worst);
  CHECK(totals->find("totals")->find("exit_status")->as_int() == worst);
}

TEST_CASE("map of a bag cut inside a chunk: intact chunks, the cut chunk damaged, the rest missing") {
  std::string dir = scratch_dir("batch-map");
  std::string bag = make_bag(200);
  write_text(dir + "/whole.bag", bag);
  int status = -1;
  auto whole = Json::parse(run_cli("map --json " + quoted(dir + "/whole.bag"), &status));
  REQUIRE(whole);
  CHECK(status == 0);
  const Json& regions = *whole->find("map")->find("regions");
  std::vector<std::string> kinds;
  for (size_t i = 0; i < regions.size(); ++i) kinds.push_back(regions[i].find("kind")->as_string());
  CHECK(kinds == std::vector<std::string>{"header", "padding", "chunk", "index"});
  const Json& chunks = regions[2];
  uint64_t chunk_count = chunks.find("count")->as_uint();
  CHECK(chunk_count > 6);
  CHECK(regions[3].find("offset")->as_uint() + regions[3].find("length")->as_uint() == bag.size());

  // Cut in the middle of the chunks.
  uint64_t index_pos = regions[3].find("offset")->as_uint();
  uint64_t cut = chunks.find("offset")->as_uint() + (index_pos - chunks.find("offset")->as_uint()) / 2;
  write_text(dir + "/cut.bag", bag.substr(0, cut));
  auto check = Json::parse(run_cli("check --json " + quoted(dir + "/cut.bag"), &status));
  REQUIRE(check);
  CHECK(status == 1);
  uint64_t stopped = UINT64_MAX;
  const Json& problems = *check->find("report")->find("problems");
  for (size_t i = 0; i < problems.size(); ++i)
    if (problems[i].find("code")->as_string() == "rosbag.recovery.stopped") stopped = problems[i].find("offset")->as_uint();
  REQUIRE(stopped != UINT64_MAX);

  for (const char* flags : {"", "--check "}) {
    CAPTURE(flags);
    auto map = Json::parse(run_cli(std::string("map --json ") + flags + quoted(dir + "/cut.bag"), &status));
    REQUIRE(map);
    CHECK(status == 1);
    const Json& r = *map->find("map")->find("regions");
    REQUIRE(r.size() == 5);
    CHECK(r[2].find("kind")->as_string() == "chunk");
    CHECK(r[2].find("offset")->as_uint() == chunks.find("offset")->as_uint());
    CHECK(r[2].find("offset")->as_uint() + r[2].find("length")->as_uint() == stopped);
    CHECK(r[2].find("count")->as_uint() < chunk_count);
    CHECK(r[3].find("kind")->as_string() == "damaged");
    CHECK(r[3].find("offset")->as_uint() == stopped);
    CHECK(r[3].find("offset")->as_uint() + r[3].find("length")->as_uint() == cut);
    CHECK(r[3].find("problems")->size() >= 1);  // rosbag.recovery.stopped is placed on it
    CHECK(r[4].find("kind")->as_string() == "missing");
    CHECK(r[4].find("offset")->as_uint() == cut);
    CHECK(r[4].find("offset")->as_uint() + r[4].find("length")->as_uint() == index_pos);
  }
  std::string text = run_cli("map " + quoted(dir + "/cut.bag"));
  CHECK(text.find("damaged") != std::string::npos);
  CHECK(text.find("missing") != std::string::npos);
  CHECK(text.find("rosbag.recovery.stopped") != std::string::npos);
}

TEST_CASE("map of a BDDF file and of a non-log") {
  std::string dir = scratch_dir("batch-map-bddf");
  write_file(dir + "/notes.bddf", make_bddf());
  int status = -1;
  auto map = Json::parse(run_cli("map --json " + quoted(dir + "/notes.bddf"), &status));
  REQUIRE(map);
  CHECK(status == 0);
  const Json& r = *map->find("map")->find("regions");
  std::vector<std::string> kinds;
  for (size_t i = 0; i < r.size(); ++i) kinds.push_back(r[i].find("kind")->as_string());
  CHECK(kinds == std::vector<std::string>{"header", "descriptor", "block", "index", "trailer"});
  CHECK(r[2].find("count")->as_uint() == 20);
  write_text(dir + "/notes.txt", "hello\n");
  std::string out = run_cli("map " + quoted(dir + "/notes.txt"), &status);
  CHECK(status == 2);
  CHECK(out.find("unknown format") != std::string::npos);
}
