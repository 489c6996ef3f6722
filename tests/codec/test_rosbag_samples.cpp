// Conformance with Debian's python3-rosbag (the reference reader) on every sample bag and on V1.2
// bags from our writer. Skips, saying so, when the samples or python3-rosbag are absent.
#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <cstdlib>
#include <map>
#include <string>

#include "core/byte_source.h"
#include "core/detect.h"
#include "rosbag/decode.h"
#include "rosbag/demo.h"
#include "rosbag/inspector.h"
#include "rosbag/inspector.h"
#include "rosbag/iterate.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::rosbag;

namespace {

const char* kPython = "/usr/bin/python3";

std::string run(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

bool have_rosbag() {
  static int present = -1;
  if (present < 0) present = std::system((std::string(kPython) + " -c 'import rosbag' 2>/dev/null").c_str()) == 0;
  if (!present) test_support::skip("python3-rosbag is not installed: reference comparisons did not run");
  return present == 1;
}

Json reference(const std::string& args) {
  std::string script = std::string(LOGSCOPE_SOURCE_DIR) + "/tests/reference/rosbag_reference.py";
  std::string out = run(std::string(kPython) + " " + script + " " + args + " 2>/dev/null");
  std::string error;
  auto parsed = Json::parse(out, &error);
  INFO("reference output: " << out.substr(0, 300));
  REQUIRE(parsed);
  return *parsed;
}

const char* kIndexed[] = {"rosbagjs__example.bag", "rosbagjs__example-bz2.bag", "rosbagjs__example-lz4.bag",
                          "rosbagjs__example-unsorted-chunks.bag", "rosbagjs__no-messages.bag",
                          "ros_comm__rosbag_storage_test.bag", "embag__test_2.bag"};
const char* kUnindexed[] = {"derived__unindexed_index_pos0.bag", "derived__unindexed_truncated_in_chunk2.bag"};

struct Opened {
  std::unique_ptr<FileByteSource> file;
  std::unique_ptr<FormatInspector> inspector;
  Bag& bag() {
    Bag* bag = opened_bag(*inspector);
    REQUIRE(bag);
    return *bag;
  }
};

Opened open_sample(const std::string& path) {
  Opened o;
  std::string error;
  o.file = FileByteSource::open(path, &error);
  REQUIRE(o.file);
  Detection d = detect(*o.file);
  REQUIRE(rosbag::format_of(d) == Format::RosbagV20);
  o.inspector = open_inspector(*o.file, rosbag::format_of(d));
  return o;
}

// Every bag of a folder (names ending in .bag or .bag.active), sorted.
std::vector<std::string> bag_names(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      bool bag = name.size() > 4 && name.compare(name.size() - 4, 4, ".bag") == 0;
      bool active = name.size() > 11 && name.compare(name.size() - 11, 11, ".bag.active") == 0;
      if (bag || active) names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("indexed samples: counts, topics, types, md5s, start, end, compression agree with python3-rosbag") {
  if (!test_support::have_samples() || !have_rosbag()) return;
  for (const char* name : kIndexed) {
    CAPTURE(name);
    std::string path = test_support::sample(std::string("rosbag/") + name);
    Json ref = reference("summary " + path);
    Opened o = open_sample(path);
    Report summary = o.inspector->info_report(nullptr);  // with the compression facts
    const Json& d = summary.details;
    CHECK(summary.count(Severity::Error) == 0);
    CHECK(d.find("messages")->as_uint() == ref.find("messages")->as_uint());
    const Json& topics = *ref.find("topics");
    REQUIRE(d.find("topics")->size() == topics.size());
    for (const Json& t : d.find("topics")->elements()) {
      const Json* r = topics.find(t.find("topic")->as_string());
      REQUIRE(r);
      CHECK(t.find("messages")->as_uint() == r->find("messages")->as_uint());
      CHECK(t.find("type")->as_string() == r->find("type")->as_string());
      CHECK(t.find("connections")->as_uint() == r->find("connections")->as_uint());
    }
    REQUIRE(d.find("types")->size() == ref.find("types")->size());
    for (const Json& t : d.find("types")->elements())
      CHECK(t.find("md5")->as_string() == ref.find("types")->find(t.find("type")->as_string())->as_string());
    if (!ref.find("start_ns")->is_null()) {
      CHECK(d.find("start_ns")->as_uint() == ref.find("start_ns")->as_uint());
      CHECK(d.find("end_ns")->as_uint() == ref.find("end_ns")->as_uint());
    }
    for (const Json& c : d.find("compression_by_codec")->elements()) {
      const Json* r = ref.find("compression")->find(c.find("compression")->as_string());
      REQUIRE(r);
      CHECK(c.find("chunks")->as_uint() == r->find("chunks")->as_uint());
      CHECK(c.find("uncompressed")->as_uint() == r->find("uncompressed")->as_uint());
      CHECK(c.find("compressed")->as_uint() == r->find("compressed")->as_uint());
    }
    CHECK(d.find("compression_by_codec")->size() == ref.find("compression")->size());
  }
}

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t from = 0;
  while (from < text.size()) {
    size_t nl = text.find('\n', from);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(from, nl - from));
    from = nl + 1;
  }
  return lines;
}

// The true first and last message times, from every message.
std::pair<uint64_t, uint64_t> message_time_range(const std::string& path) {
  Opened o = open_sample(path);
  uint64_t first = UINT64_MAX, last = 0;
  for_each_message(*o.file, o.bag(), IterateOptions(), [&](const MessageView& view) {
    first = std::min(first, view.time.ns());
    last = std::max(last, view.time.ns());
    return true;
  }, nullptr);
  return {first, last};
}

// A topic row without its " @ rate" and with single spaces.
std::string without_rate(const std::string& row) {
  std::string text = row;
  size_t at = text.find(" @ ");
  if (at != std::string::npos) text.erase(at, text.find(" : ", at) - at);
  std::string out;
  for (char c : text)
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  return out;
}

std::string seconds_2dp(uint64_t ns) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "(%.2f)", static_cast<double>(ns) / 1e9);
  return buffer;
}

// `logscope info` against rosbag's text for one bag, line for line apart from `path:`. Where
// chunks are out of time order rosbag prints the first chunk's start and the last chunk's end (no
// message has them); there ours must be the true first and last message times (docs/rosbag.md).
void compare_info(const std::string& dir, const std::string& name, const std::string& theirs, const std::string& flag) {
  CAPTURE(name);
  CAPTURE(flag);
  std::string ours = run("cd '" + dir + "' && TZ=UTC " + LOGSCOPE_CLI + " info " + flag + " '" + name + "' 2>/dev/null");
  std::vector<std::string> a = split_lines(theirs), b = split_lines(ours);
  REQUIRE(a.size() == b.size());
  bool out_of_order = false, in_topics = false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].rfind("path:", 0) == 0 && b[i].rfind("path:", 0) == 0) continue;
    bool time_row = a[i].rfind("duration:", 0) == 0 || a[i].rfind("start:", 0) == 0 || a[i].rfind("end:", 0) == 0;
    if (time_row && a[i] != b[i]) {
      out_of_order = true;
      continue;
    }
    in_topics = in_topics || a[i].rfind("topics:", 0) == 0;
    // With --freq rosbag takes periods between chunks in file order: out of time order they are
    // negative and it prints no rate (or a wrong one); ours are from sorted times.
    if (out_of_order && in_topics && !flag.empty()) CHECK(without_rate(b[i]) == without_rate(a[i]));
    else CHECK(b[i] == a[i]);
  }
  if (out_of_order) {
    auto [first, last] = message_time_range(dir + "/" + name);
    MESSAGE(name << ": rosbag's start/end come from out-of-order chunks; ours are the message times");
    CHECK(ours.find(seconds_2dp(first) + "\n") != std::string::npos);
    CHECK(ours.find(seconds_2dp(last) + "\n") != std::string::npos);
    CHECK(first >= 1);
  }
}

}  // namespace

TEST_CASE("`logscope info` matches `rosbag info` line by line on every bag rosbag can read, with and without --freq") {
  if (!test_support::have_samples() || !have_rosbag()) return;
  std::string dir = test_support::samples_dir() + "/rosbag";
  int compared = 0;
  for (const std::string& name : bag_names(dir)) {
    for (const char* flag : {"", "--freq"}) {
      std::string theirs = run("cd '" + dir + "' && TZ=UTC /usr/bin/rosbag info " + flag + " '" + name + "' 2>&1");
      if (theirs.rfind("path:", 0) != 0) continue;  // "ERROR bag unindexed", "empty file": nothing to compare
      compare_info(dir, name, theirs, flag);
      ++compared;
    }
  }
  CHECK(compared >= 24);
}

TEST_CASE("`logscope info` matches the recorded `rosbag info` of every real bag (rosbag/real), V1.2 rates included") {
  if (!test_support::have_samples()) return;
  std::string dir = test_support::samples_dir() + "/rosbag/real";
  int compared = 0, v12 = 0;
  for (const std::string& name : bag_names(dir)) {
    std::string theirs = test_support::read_text(dir + "/" + name + ".info.txt");
    if (theirs.rfind("path:", 0) != 0) continue;  // the unindexed .bag.active: rosbag info refuses it
    compare_info(dir, name, theirs, "");
    ++compared;
    if (theirs.find("version:     1.2") != std::string::npos) {
      ++v12;
      CHECK(theirs.find(" Hz : ") != std::string::npos);
    }
  }
  CHECK(compared >= 14);
  CHECK(v12 == 3);
}

TEST_CASE("every sample message decodes, and decoded values equal python3-rosbag's") {
  if (!test_support::have_samples() || !have_rosbag()) return;
  for (const char* name : kIndexed) {
    CAPTURE(name);
    std::string path = test_support::sample(std::string("rosbag/") + name);
    Json ref = reference("messages " + path + " 3");
    Opened o = open_sample(path);
    Bag& bag = o.bag();
    MessageDecoder decoder;
    // (topic, time) -> the first message decoded there, as JSON text. Keyed by time because
    // python3-rosbag plays unsorted chunks in file order while we play them in time order.
    std::map<std::pair<std::string, uint64_t>, std::string> ours;
    uint64_t count = 0, errors = 0;
    for_each_message(*o.file, bag, IterateOptions(), [&](const MessageView& view) {
      ++count;
      std::string error;
      Json message = decoder.decode(view.connection, view.data, &error);
      if (!error.empty()) {
        ++errors;
        INFO(error);
        CHECK(error.empty());
      }
      ours.emplace(std::make_pair(view.connection->topic, view.time.ns()), message.dump());
      return true;
    }, nullptr);
    CHECK(errors == 0);
    CHECK(count == ref.find("count")->as_uint());
    for (const Json& sample : ref.find("samples")->elements()) {
      const std::string& topic = sample.find("topic")->as_string();
      auto it = ours.find({topic, sample.find("time_ns")->as_uint()});
      REQUIRE(it != ours.end());
      auto parsed = Json::parse(it->second);
      REQUIRE(parsed);
      CAPTURE(topic);
      CHECK(parsed->dump() == sample.find("message")->dump());
    }
  }
}

TEST_CASE("unindexed and truncated samples recover exactly what `rosbag reindex` keeps") {
  if (!test_support::have_samples() || !have_rosbag()) return;
  std::string scratch = test_support::scratch_dir("rosbag_reindex");
  for (const char* name : kUnindexed) {
    CAPTURE(name);
    std::string path = test_support::sample(std::string("rosbag/") + name);
    Json ref = reference("reindex " + path + " " + scratch);
    Opened o = open_sample(path);
    Report summary = o.inspector->summary();
    REQUIRE(summary.details.find("recovery"));
    std::vector<std::pair<std::string, uint64_t>> ours, theirs;
    for_each_message(*o.file, o.bag(), IterateOptions(), [&](const MessageView& view) {
      ours.emplace_back(view.connection->topic, view.time.ns());
      return true;
    }, nullptr);
    for (const Json& m : ref.find("messages")->elements()) theirs.emplace_back(m[0].as_string(), m[1].as_uint());
    // rosbag's reindexed bag plays chunks in file order; ours is in time order. Same messages.
    std::sort(theirs.begin(), theirs.end());
    std::sort(ours.begin(), ours.end());
    CHECK(ours == theirs);
    CHECK(summary.details.find("recovery")->find("recovered_messages")->as_uint() == theirs.size());
    // rosbag reindex truncates the copy where the recovered data ends: we report the same offset.
    uint64_t ends_at = summary.details.find("recovery")->find("ends_at")->as_uint();
    if (std::string(name).find("truncated") != std::string::npos) CHECK(ends_at < o.file->size());
  }
}

TEST_CASE("V1.2 bags from our writer are read by python3-rosbag with identical counts") {
  if (!have_rosbag()) return;
  std::string dir = test_support::scratch_dir("rosbag_v12");
  std::string path = dir + "/demo_v12.bag";
  DemoOptions options;
  options.version = 102;
  std::string error;
  REQUIRE(write_demo_file(path, 2 * 1024 * 1024, options, &error));
  Json ref = reference("v12 " + path);
  CHECK(ref.find("version")->as_uint() == 102);
  std::unique_ptr<FileByteSource> file = FileByteSource::open(path, &error);
  REQUIRE(file);
  auto inspector = open_inspector(*file, rosbag::format_of(detect(*file)));
  Report summary = inspector->summary();
  CHECK(summary.count(Severity::Error) == 0);
  CHECK(summary.details.find("indexed")->as_bool());
  CHECK(summary.details.find("messages")->as_uint() == ref.find("messages")->as_uint());
  for (const Json& t : summary.details.find("topics")->elements()) {
    const Json* r = ref.find("topics")->find(t.find("topic")->as_string());
    REQUIRE(r);
    CHECK(t.find("messages")->as_uint() == r->as_uint());
  }
}

TEST_CASE("the demo bag is read by python3-rosbag with identical counts and decodes") {
  if (!have_rosbag()) return;
  std::string dir = test_support::scratch_dir("rosbag_demo");
  std::string path = dir + "/demo.bag";
  std::string error;
  REQUIRE(write_demo_file(path, 3 * 1024 * 1024, &error));
  Json ref = reference("messages " + path + " 2");
  std::unique_ptr<FileByteSource> file = FileByteSource::open(path, &error);
  auto inspector = open_inspector(*file, Format::RosbagV20);
  CHECK(inspector->summary().details.find("messages")->as_uint() == ref.find("count")->as_uint());
  CHECK(inspector->check(nullptr).count(Severity::Error) == 0);
}
