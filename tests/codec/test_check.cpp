// `logscope check`: its text, its --json and its exit status (0 clean, 1 problems, 2 unreadable or
// unknown) on clean, damaged and non-log files made by our writers.
#include <cstdio>
#include <string>
#include <vector>

#include "../fuzz/tiny_files.h"
#include "core/json.h"
#include "core/sha1.h"
#include "test_support.h"

namespace {

using Bytes = std::vector<uint8_t>;
using logscope::Json;

struct Run {
  int status = -1;
  std::string out;  // stdout only
};

Run check(const std::string& path, bool json) {
  std::string command = std::string(LOGSCOPE_CLI) + " check '" + path + "'" + (json ? " --json" : "") + " 2>/dev/null";
  Run run;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  run.status = WEXITSTATUS(::pclose(pipe));
  return run;
}

Json check_json(const std::string& path, int expected_status) {
  Run run = check(path, true);
  CAPTURE(run.out.substr(0, 600));
  CHECK(run.status == expected_status);
  auto parsed = Json::parse(run.out);
  REQUIRE(parsed);
  return *parsed;
}

const Json& at(const Json& j, std::initializer_list<const char*> path) {
  const Json* node = &j;
  for (const char* key : path) {
    node = node->find(key);
    REQUIRE_MESSAGE(node, "missing key " << key);
  }
  return *node;
}

bool has_problem(const Json& report, const std::string& code_prefix) {
  for (const Json& p : at(report, {"report", "problems"}).elements())
    if (p.find("code")->as_string().rfind(code_prefix, 0) == 0) return true;
  return false;
}

std::string sha1_hex(const Bytes& bytes, size_t length) {
  logscope::Sha1 sha;
  sha.update(bytes.data(), length);
  return logscope::Sha1::hex(sha.finish());
}

}  // namespace

TEST_CASE("check: a clean BDDF file exits 0 and prints the valid SHA1 digest") {
  std::string dir = test_support::scratch_dir("check_clean");
  Bytes file = logscope_fuzz::tiny_bddf(true);
  std::string path = dir + "/clean.bddf";
  test_support::write_file(path, file);
  std::string digest = sha1_hex(file, file.size() - 24);

  Run text = check(path, false);
  CAPTURE(text.out);
  CHECK(text.status == 0);
  CHECK(text.out.find("checksum: valid") != std::string::npos);
  CHECK(text.out.find("SHA1: " + digest + "\n") != std::string::npos);
  CHECK(text.out.find("problems: 0 errors, 0 warnings") != std::string::npos);

  Json json = check_json(path, 0);
  CHECK(at(json, {"report", "details", "checksum", "status"}).as_string() == "valid");
  CHECK(at(json, {"report", "details", "checksum", "computed"}).as_string() == digest);
  CHECK(at(json, {"report", "problems"}).size() == 0);
}

TEST_CASE("check: a clean bag and a clean CARLA log exit 0") {
  std::string dir = test_support::scratch_dir("check_clean");
  for (auto entry : {std::pair<const char*, Bytes>{"clean.bag", logscope_fuzz::tiny_bag(200, "lz4")},
                             {"clean_v12.bag", logscope_fuzz::tiny_bag(102)},
                             {"clean.log", logscope_fuzz::tiny_carla()}}) {
    std::string name = entry.first;  // not structured bindings: CAPTURE takes them by reference
    const Bytes& bytes = entry.second;
    CAPTURE(name);
    std::string path = dir + "/" + name;
    test_support::write_file(path, bytes);
    Run text = check(path, false);
    CAPTURE(text.out);
    CHECK(text.status == 0);
    CHECK(text.out.find("problems: 0 errors, 0 warnings") != std::string::npos);
    Json json = check_json(path, 0);
    for (const Json& p : at(json, {"report", "problems"}).elements()) CHECK(p.find("severity")->as_string() == "info");
  }
}

TEST_CASE("check: a BDDF file changed after writing exits 1 with the mismatch and both digests") {
  std::string dir = test_support::scratch_dir("check_damaged");
  Bytes file = logscope_fuzz::tiny_bddf(true);
  std::string stored = sha1_hex(file, file.size() - 24);
  file[file.size() / 2] ^= 0x01;  // inside the data, not the framing
  std::string computed = sha1_hex(file, file.size() - 24);
  std::string path = dir + "/flipped.bddf";
  test_support::write_file(path, file);

  Run text = check(path, false);
  CAPTURE(text.out);
  CHECK(text.status == 1);
  CHECK(text.out.find("checksum: mismatch") != std::string::npos);
  CHECK(text.out.find("stored " + stored + ", computed " + computed) != std::string::npos);
  CHECK(text.out.find("SHA1: " + computed + "\n") != std::string::npos);

  Json json = check_json(path, 1);
  CHECK(at(json, {"report", "details", "checksum", "status"}).as_string() == "mismatch");
  CHECK(at(json, {"report", "details", "checksum", "stored"}).as_string() == stored);
  CHECK(has_problem(json, "bddf."));
}

TEST_CASE("check: a bag cut inside a chunk exits 1 and says what was recovered and where it stopped") {
  std::string dir = test_support::scratch_dir("check_damaged");
  Bytes bag = logscope_fuzz::tiny_bag(200, "none");
  bag.resize(bag.size() * 2 / 3);
  std::string path = dir + "/cut.bag";
  test_support::write_file(path, bag);

  Run text = check(path, false);
  CAPTURE(text.out);
  CHECK(text.status == 1);
  CHECK(text.out.find("recovery: ") != std::string::npos);
  CHECK(text.out.find("problems: 0 errors, 0 warnings") == std::string::npos);

  Json json = check_json(path, 1);
  CHECK(at(json, {"report", "problems"}).size() > 0);
  CHECK(has_problem(json, "rosbag."));
  for (const Json& p : at(json, {"report", "problems"}).elements()) CHECK(p.find("offset")->as_uint() <= bag.size());
}

TEST_CASE("check: a cut CARLA log exits 1") {
  std::string dir = test_support::scratch_dir("check_damaged");
  Bytes log = logscope_fuzz::tiny_carla();
  log.resize(log.size() - 7);
  std::string path = dir + "/cut.log";
  test_support::write_file(path, log);
  CHECK(check(path, false).status == 1);
  Json json = check_json(path, 1);
  CHECK(has_problem(json, "carla."));
}

TEST_CASE("check: a non-log, an empty file and a missing file exit 2 with a diagnosis") {
  std::string dir = test_support::scratch_dir("check_unknown");
  std::string html = dir + "/page.html";
  test_support::write_file(html, Bytes{'<', '!', 'D', 'O', 'C', 'T', 'Y', 'P', 'E', ' ', 'h', 't', 'm', 'l', '>', '\n'});
  std::string empty = dir + "/empty.bag";
  test_support::write_file(empty, Bytes{});

  Run text = check(html, false);
  CAPTURE(text.out);
  CHECK(text.status == 2);
  CHECK(text.out.find("HTML") != std::string::npos);
  Json json = check_json(html, 2);
  CHECK(at(json, {"detection", "family"}).as_string() == "unknown");

  CHECK(check(empty, false).status == 2);
  CHECK(at(check_json(empty, 2), {"detection", "kind"}).as_string() == "empty");

  Run missing = check(dir + "/no-such-file.bag", false);
  CHECK(missing.status == 2);
}
