// The CLI's common behaviour: detection output, diagnoses, exit statuses, error messages.
#include <dirent.h>

#include <string>
#include <vector>

#include "core/json.h"
#include "test_support.h"

using namespace test_support;

namespace {

// By value: std::quoted (from <iomanip>, which <nlohmann/json.hpp> includes) is also found by
// argument-dependent lookup, and would win over a `const std::string&` parameter.
std::string quoted(std::string path) { return "'" + path + "'"; }

logscope::Json info_json(const std::string& path, int* status) {
  std::string out = run_cli("info --json " + quoted(path), status);
  auto json = logscope::Json::parse(out);
  REQUIRE_MESSAGE(json, "info --json printed JSON for " << path << ": " << out.substr(0, 400));
  return *json;
}

std::vector<std::string> list_samples() {
  std::vector<std::string> files;
  for (const char* group : {"bddf", "rosbag", "carla"}) {
    std::string dir = samples_dir() + "/" + group;
    DIR* d = ::opendir(dir.c_str());
    if (!d) continue;
    while (dirent* entry = ::readdir(d)) {
      std::string name = entry->d_name;
      if (name == "." || name == ".." || name.size() < 6 || entry->d_type == DT_DIR) continue;  // rosbag/real: a folder
      if (name.substr(name.size() - 3) == ".md" || name.substr(name.size() - 5) == ".json") continue;
      files.push_back(dir + "/" + name);
    }
    ::closedir(d);
  }
  return files;
}

}  // namespace

TEST_CASE("info diagnoses files that are not logs, and exits 2") {
  std::string dir = scratch_dir("cli-odd");
  struct Case {
    const char* name;
    std::string bytes;
    const char* kind;
    const char* advice;  // part of the sentence a user acts on
  };
  std::vector<Case> cases = {
      {"empty.bag", "", "empty", "empty"},
      {"page.bag", "<!DOCTYPE html><html><body>Sign in to continue</body></html>", "html", "HTML page"},
      {"pointer.bddf", "version https://git-lfs.github.com/spec/v1\noid sha256:abcd\nsize 99\n", "lfs-pointer", "git lfs pull"},
      {"log.bag.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10), "gzip", "gunzip"},
      {"cut.log", std::string("\x01\x00\x0e\x00" "CARLA_REC", 13), "truncated-header", "CARLA"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string path = dir + "/" + c.name;
    write_file(path, std::vector<uint8_t>(c.bytes.begin(), c.bytes.end()));
    int status = -1;
    logscope::Json json = info_json(path, &status);
    CHECK(status == 2);
    CHECK(json.find("detection")->find("kind")->as_string() == c.kind);
    std::string text = run_cli("info " + quoted(path), &status);
    CHECK(status == 2);
    CHECK(text.find("unknown") != std::string::npos);
    CHECK(text.find(c.advice) != std::string::npos);
  }
}

TEST_CASE("errors name the file and the cause, usage errors exit 2") {
  int status = -1;
  std::string out = run_cli("info /nonexistent/file.bag", &status);
  CHECK(status == 2);
  CHECK(out.find("/nonexistent/file.bag") != std::string::npos);
  CHECK(out.find("No such file") != std::string::npos);
  out = run_cli("info", &status);
  CHECK(status == 2);
  out = run_cli("frobnicate x", &status);
  CHECK(status == 2);
  CHECK(out.find("unknown command") != std::string::npos);
  out = run_cli("--help", &status);
  CHECK(status == 0);
  for (const char* command : {"info", "check", "hex"}) CHECK(out.find(command) != std::string::npos);
  out = run_cli("check --help", &status);
  CHECK(status == 0);
  CHECK(out.find("Exit status") != std::string::npos);
  out = run_cli("hex /dev/null --offset zz", &status);
  CHECK(status == 2);
  CHECK(out.find("--offset") != std::string::npos);
}

TEST_CASE("formats --json prints the format table, a folder format with its folder rule (the page's, scripts/write-folder-rules.mjs)") {
  int status = -1;
  std::string out = run_cli("formats --json", &status);
  CHECK(status == 0);
  std::string error;
  std::optional<logscope::Json> table = logscope::Json::parse(out, &error);
  REQUIRE_MESSAGE(table, error);
  bool bag_rule = false;
  for (const logscope::Json& entry : table->elements()) {
    const logscope::Json* shape = entry.find("shape");
    const logscope::Json* rule = entry.find("folder_rule");
    REQUIRE(shape);
    CHECK((rule != nullptr) == (shape->as_string() == "folder"));
    if (rule && rule->find("names") && rule->find("names")->dump() == R"(["metadata.yaml"])" &&
        rule->find("split_endings")->dump() == R"([".mcap"])")
      bag_rule = true;
  }
  CHECK(bag_rule);
  out = run_cli("formats", &status);
  CHECK(status == 0);
  CHECK(out.find("folder; .db3") != std::string::npos);
  out = run_cli("formats extra", &status);
  CHECK(status == 2);
}

TEST_CASE("hex dumps a range with offsets, bytes and text") {
  std::string dir = scratch_dir("cli-hex");
  std::string path = dir + "/text.txt";
  std::string content = "0123456789abcdefHELLO, hex view!";
  write_file(path, std::vector<uint8_t>(content.begin(), content.end()));
  int status = -1;
  std::string out = run_cli("hex " + quoted(path) + " --offset 0x10 --length 16", &status);
  CHECK(status == 0);
  CHECK(out.find("00000010  48 45 4c 4c 4f 2c 20 68  65 78 20 76 69 65 77 21  |HELLO, hex view!|") != std::string::npos);
}

TEST_CASE("info recognises every sample by content") {
  if (!have_samples()) return;
  std::vector<std::string> files = list_samples();
  REQUIRE(files.size() >= 15);
  for (const std::string& path : files) {
    CAPTURE(path);
    int status = -1;
    logscope::Json json = info_json(path, &status);
    std::string family = json.find("detection")->find("family")->as_string();
    std::string expected = path.find("/bddf/") != std::string::npos ? "bddf" : path.find("/carla/") != std::string::npos ? "carla" : "rosbag";
    if (path.find("empty-file.bag") != std::string::npos) {
      // rosbag.js's 0-byte fixture: nothing to recognise, and we say so.
      CHECK(family == "unknown");
      CHECK(json.find("detection")->find("kind")->as_string() == "empty");
      CHECK(status == 2);
      continue;
    }
    CHECK(family == expected);
    CHECK(status == 0);
    CHECK(json.find("summary")->find("format")->as_string() == expected);
  }
}

// A BDDF file's new index follows all of its blocks: extract and repair set it aside in an
// unnamed temporary file (cli/temp_spill.cpp). Without one they hold it in memory, and say so.
TEST_CASE("repair of a BDDF: the new index waits in a temporary file in $TMPDIR, or in memory when none can be made") {
  std::string dir = scratch_dir("cli-bddf-spill");
  std::string input = dir + "/spot30.bddf", spilled = dir + "/spilled.bddf", held = dir + "/held.bddf";
  int status = -1;
  run_cli("make-demo-bddf " + quoted(input) + " --size-mb 30", &status);  // 4141 RobotState blocks
  REQUIRE(status == 0);
  std::string out = run_cli("repair " + quoted(input) + " " + quoted(spilled), &status);
  CHECK(status == 0);
  CHECK(out.find("kept: the new block index waited in a scratch file while the blocks were written: 65536 bytes") != std::string::npos);
  std::string command = "TMPDIR=" + quoted(dir + "/no-such-dir") + " " + LOGSCOPE_CLI + " repair " + quoted(input) + " " + quoted(held) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string said;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) said.append(buffer, n);
  CHECK(WEXITSTATUS(::pclose(pipe)) == 0);
  CHECK(said.find("cannot create a temporary file in " + dir + "/no-such-dir/logscope-spill-") != std::string::npos);
  CHECK(said.find("a BDDF output then holds its new index in memory") != std::string::npos);
  CHECK(said.find("scratch file") == std::string::npos);
  CHECK(said.find("verdict: the written file is valid") != std::string::npos);
  CHECK(read_file(held) == read_file(spilled));
}
