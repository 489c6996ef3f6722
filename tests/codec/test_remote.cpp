// Remote files from the CLI: a local HTTP server (range_server.py) serves an indexed bag and a
// BDDF written by our writers; `info URL` must print what `info FILE` prints after reading under
// 1 % of the file. Size: LOGSCOPE_REMOTE_MB (default 1024 MB each; the files are kept in
// the build's test-scratch folder and rewritten only when the size changes).
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "bddf/writer.h"
#include "rosbag/writer.h"
#include "test_support.h"

using namespace test_support;

namespace {

uint64_t target_bytes() {
  const char* mb = std::getenv("LOGSCOPE_REMOTE_MB");
  return (mb && *mb ? std::strtoull(mb, nullptr, 10) : 1024) * 1024 * 1024;
}

uint64_t file_size(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
}

// The files are made once per size: a marker holds the size they were made for.
bool up_to_date(const std::string& path, uint64_t target) {
  return file_size(path) >= target && read_text(path + ".target") == std::to_string(target);
}

void make_big_bag(const std::string& path, uint64_t target) {
  if (up_to_date(path, target)) return;
  logscope::rosbag::FileSink sink;
  std::string error;
  REQUIRE(sink.open(path, &error));
  logscope::rosbag::BagWriter writer(sink, {});  // the recorder's 768 KB chunks
  uint32_t camera = writer.add_connection("/camera", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  uint32_t imu = writer.add_connection("/imu", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  std::string image = std::string("\x00\x00\x01\x00", 4) + std::string(65536, 'i');
  std::string sample = std::string("\x40\x00\x00\x00", 4) + std::string(64, 's');
  for (uint64_t i = 0; sink.position() < target; ++i) {
    logscope::rosbag::Time t{uint32_t(1700000000 + i / 30), uint32_t(i % 30) * 33333333u};
    REQUIRE(writer.write(camera, t, image));
    REQUIRE(writer.write(imu, t, sample));
  }
  REQUIRE(writer.close());
  REQUIRE(sink.close());
  std::string target_text = std::to_string(target);
  write_file(path + ".target", std::vector<uint8_t>(target_text.begin(), target_text.end()));
}

void make_big_bddf(const std::string& path, uint64_t target) {
  if (up_to_date(path, target)) return;
  logscope::bddf::FileSink sink(path);
  logscope::bddf::Writer writer(sink.sink(), {});
  int images = writer.add_message_channel("/camera", "bosdyn.api.ImageResponse");
  int state = writer.add_message_channel("/state", "bosdyn.api.RobotState");
  std::string image(65536, 'i'), robot(512, 'r');
  for (uint64_t i = 0; writer.bytes_written() < target; ++i) {
    int64_t t = 1700000000000000000LL + int64_t(i) * 33333333LL;
    REQUIRE(writer.write_block(images, t, image.data(), image.size()));
    REQUIRE(writer.write_block(state, t, robot.data(), robot.size()));
  }
  REQUIRE(writer.finish());
  REQUIRE(sink.close());
  std::string target_text = std::to_string(target);
  write_file(path + ".target", std::vector<uint8_t>(target_text.begin(), target_text.end()));
}

// range_server.py serving `dir`, stopped when the test ends.
struct Server {
  pid_t pid = -1;
  int port = 0;
  int output = -1;
  explicit Server(const std::string& dir) {
    int out[2];
    REQUIRE(::pipe(out) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(out[1], 1);
      ::close(out[0]);
      std::string script = std::string(LOGSCOPE_SOURCE_DIR) + "/tests/codec/range_server.py";
      ::execlp("python3", "python3", script.c_str(), dir.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(out[1]);
    // The first line is the port; the pipe stays open so the server never writes into a closed one.
    output = out[0];
    std::string line;
    char c;
    while (line.size() < 16 && ::read(output, &c, 1) == 1 && c != '\n') line += c;
    port = std::atoi(line.c_str());
    REQUIRE_MESSAGE(port > 0, "range_server.py did not start");
  }
  ~Server() {
    if (pid > 0) {
      ::kill(pid, SIGTERM);
      ::waitpid(pid, nullptr, 0);
    }
    if (output >= 0) ::close(output);
  }
  std::string url(const std::string& mode, const std::string& name) const {
    return "http://127.0.0.1:" + std::to_string(port) + "/" + mode + "/" + name;
  }
};

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

// "logscope: transferred N bytes ..." from --stats.
uint64_t transferred(const std::string& out) {
  size_t at = out.find("logscope: transferred ");
  REQUIRE(at != std::string::npos);
  return std::strtoull(out.c_str() + at + 22, nullptr, 10);
}

std::string dir_with_files() {
  std::string dir = scratch_dir("remote");
  uint64_t target = target_bytes();
  make_big_bag(dir + "/big.bag", target);
  make_big_bddf(dir + "/big.bddf", target);
  return dir;
}

}  // namespace

TEST_CASE("info URL prints the local summary after reading under 1 % of the file") {
  std::string dir = dir_with_files();
  Server server(dir);
  for (const char* name : {"big.bag", "big.bddf"}) {
    CAPTURE(name);
    std::string path = dir + "/" + name, url = server.url("range", name);
    uint64_t size = file_size(path);
    int status = -1;
    std::string local = run_cli("info '" + path + "' 2>/dev/null", &status);
    REQUIRE(status == 0);
    std::string remote = run_cli("info --stats '" + url + "'", &status);
    CHECK(status == 0);
    uint64_t bytes = transferred(remote);
    std::printf("%s: %llu bytes, info transferred %llu bytes (%.3f %%)\n", name, (unsigned long long)size,
                (unsigned long long)bytes, 100.0 * double(bytes) / double(size));
    CHECK(bytes * 100 < size);
    size_t stats_at = remote.find("logscope: transferred ");
    std::string text = remote.substr(0, stats_at) + remote.substr(remote.find('\n', stats_at) + 1);
    CHECK(replace_all(text, url, path) == local);
  }
}

// The server's /stats: how many requests it answered at once, at most.
int max_in_flight(const Server& server) {
  std::string command = "python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' http://127.0.0.1:" +
                        std::to_string(server.port) + "/stats";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buffer[256];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  ::pclose(pipe);
  size_t at = out.find("\"max_in_flight\": ");
  REQUIRE_MESSAGE(at != std::string::npos, out);
  return std::atoi(out.c_str() + at + 17);
}

TEST_CASE("info URL of a bag from a server 50 ms away reads its chunk headers a hundred a request, many at a time") {
  std::string dir = dir_with_files();
  Server server(dir);
  std::string path = dir + "/big.bag", url = server.url("slow", "big.bag");
  int status = -1;
  std::string local = run_cli("info '" + path + "' 2>/dev/null", &status);
  REQUIRE(status == 0);
  std::string remote = run_cli("info --stats '" + url + "'", &status);
  CHECK(status == 0);
  size_t stats_at = remote.find("logscope: transferred ");
  REQUIRE(stats_at != std::string::npos);
  std::printf("big.bag from 50 ms away: %s", remote.substr(stats_at).c_str());
  CHECK(replace_all(remote.substr(0, stats_at) + remote.substr(remote.find('\n', stats_at) + 1), url, path) == local);
  // One by one, a 1 GB bag's ~1,400 headers took 70 s from this server; now a hundred go in one
  // request (multipart/byteranges), several requests at a time, so their round trips overlap.
  size_t of = local.find(" chunks");
  size_t slash = local.rfind('/', of);
  REQUIRE(slash != std::string::npos);
  long chunks = std::atol(local.c_str() + slash + 1);
  long requests = std::atol(remote.c_str() + remote.find(" in ", stats_at) + 4);
  CHECK(chunks > 1000);
  CHECK(requests > 0);
  CHECK(requests <= 4 + (chunks + 99) / 100);
  CHECK(max_in_flight(server) >= 4);
}

TEST_CASE("a server without Range, or a file that changes mid-read: a clear message and exit 2") {
  std::string dir = dir_with_files();
  Server server(dir);
  int status = -1;
  std::string out = run_cli("info '" + server.url("norange", "big.bag") + "'", &status);
  CHECK(status == 2);
  CHECK(out.find("does not support Range requests") != std::string::npos);
  CHECK(out.find("--download") != std::string::npos);
  out = run_cli("check '" + server.url("changing", "big.bddf") + "'", &status);
  CHECK(status == 2);
  CHECK(out.find("the file changed while it was read") != std::string::npos);
  out = run_cli("hex '" + server.url("range", "missing.bag") + "'", &status);
  CHECK(status == 2);
  CHECK(out.find("HTTP 404") != std::string::npos);
}

TEST_CASE("--download reads a file from a server without Range") {
  std::string dir = scratch_dir("remote-small");
  logscope::rosbag::MemorySink sink;
  logscope::rosbag::BagWriter writer(sink, {});
  uint32_t c = writer.add_connection("/chatter", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  for (uint32_t i = 0; i < 50; ++i) REQUIRE(writer.write(c, {1700000000 + i, 0}, std::string("\x02\x00\x00\x00hi", 6)));
  REQUIRE(writer.close());
  write_file(dir + "/small.bag", std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end()));
  Server server(dir);
  int status = -1;
  std::string url = server.url("norange", "small.bag");
  std::string out = run_cli("check --download '" + url + "'", &status);
  CHECK(status == 0);
  CHECK(out.find("problems: 0 errors, 0 warnings") != std::string::npos);
  std::string local = run_cli("info '" + dir + "/small.bag'");
  CHECK(replace_all(run_cli("info --download '" + url + "'"), url, dir + "/small.bag") == local);
}
