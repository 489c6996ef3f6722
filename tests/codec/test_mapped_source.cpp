// MappedByteSource: reads what pread reads, refuses what cannot be mapped, survives a file that
// shrinks under it (and says so), and every pass gives the same results mapped or read.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "carla/demo.h"
#include "carla/reader.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "core/mapped_source.h"
#include "rosbag/demo.h"
#include "rosbag/iterate.h"
#include "rosbag/reader.h"
#include "test_support.h"

using namespace logscope;
using test_support::scratch_dir;
using test_support::write_file;

namespace {
std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 13 + (i >> 9));
  return bytes;
}

// Every fact a CARLA scan yields that a pass could differ in.
std::string scan_fingerprint(ByteSource& source) {
  carla::ScanResult r = carla::scan_log(source, nullptr);
  std::string out = std::to_string(r.frames.size()) + " " + std::to_string(r.data_end) + " " + r.recovery.reason + " " +
                    std::to_string(r.recovery.ends_at) + " " + std::to_string(r.recovery.incomplete_offset) + " " +
                    r.variant.json.dump() + "\n";
  for (const auto& f : r.frames)
    out += std::to_string(f.id) + "," + std::to_string(f.offset) + "," + std::to_string(f.end) + "," + std::to_string(f.packets) + "," +
           std::to_string(f.has_events) + ";";
  for (int id = 0; id < 256; ++id) out += std::to_string(r.packet_counts[id]) + "/" + std::to_string(r.packet_bytes[id]) + " ";
  for (const auto& p : r.problems) out += "\n" + p.code + "@" + std::to_string(p.offset) + ": " + p.message;
  return out;
}

// Every message of a bag in delivery order: connection, time, offsets and a hash of its bytes.
std::string iterate_fingerprint(ByteSource& source, unsigned threads) {
  rosbag::Bag bag;
  rosbag::open_bag(source, rosbag::format_of(detect(source)), &bag);
  std::vector<Problem> problems = bag.problems;
  rosbag::IterateOptions options;
  options.threads = threads;
  std::string out;
  uint64_t hash = 1469598103934665603ull;
  rosbag::for_each_message(source, bag, options, [&](const rosbag::MessageView& m) {
    for (char c : m.data) hash = (hash ^ static_cast<uint8_t>(c)) * 1099511628211ull;
    out += std::to_string(m.conn) + " " + std::to_string(m.time.ns()) + " " + std::to_string(m.chunk_pos) + " " +
           std::to_string(m.record_offset) + " " + std::to_string(m.data.size()) + "\n";
    return true;
  }, &problems);
  for (const auto& p : problems) out += p.code + "@" + std::to_string(p.offset) + "\n";
  return out + std::to_string(hash);
}
}  // namespace

TEST_CASE("mapped source: reads what pread reads, in place") {
  std::string path = scratch_dir("mapped_source") + "/bytes.bin";
  std::vector<uint8_t> bytes = pattern(3 * 4096 + 123);
  write_file(path, bytes);
  std::string error;
  auto mapped = MappedByteSource::open(path, &error);
  REQUIRE(mapped);
  CHECK(mapped->size() == bytes.size());
  REQUIRE(mapped->mapped_data() != nullptr);
  CHECK(std::memcmp(mapped->mapped_data(), bytes.data(), bytes.size()) == 0);
  std::vector<uint8_t> out(500);
  CHECK(mapped->read(4000, out.data(), out.size()) == 500);
  CHECK(std::memcmp(out.data(), bytes.data() + 4000, 500) == 0);
  CHECK(mapped->read(bytes.size() - 10, out.data(), out.size()) == 10);  // short at the end, like pread
  CHECK(mapped->read(bytes.size(), out.data(), out.size()) == 0);
  CHECK_FALSE(mapped->shrank());
}

TEST_CASE("mapped source: what cannot be mapped is refused with a reason, for the pread fallback") {
  std::string dir = scratch_dir("mapped_source");
  std::string error;
  CHECK_FALSE(MappedByteSource::open(dir + "/does-not-exist", &error));
  CHECK(error == "No such file or directory");
  write_file(dir + "/empty.bin", {});
  CHECK_FALSE(MappedByteSource::open(dir + "/empty.bin", &error));
  CHECK(FileByteSource::open(dir + "/empty.bin", &error));  // the fallback reads it (0 bytes)
  CHECK_FALSE(MappedByteSource::open(dir, &error));
  CHECK(error == "is a directory");
}

TEST_CASE("mapped source: a file that shrinks while mapped reads as zeros and is flagged, no SIGBUS") {
  std::string path = scratch_dir("mapped_source") + "/shrinks.bin";
  std::vector<uint8_t> bytes = pattern(4 * 4096);
  write_file(path, bytes);
  std::string error;
  auto mapped = MappedByteSource::open(path, &error);
  REQUIRE(mapped);
  const uint8_t* data = mapped->mapped_data();
  CHECK(data[100] == bytes[100]);
  REQUIRE(::truncate(path.c_str(), 4096) == 0);  // another program cuts the file
  CHECK(data[100] == bytes[100]);                // the page that is still there
  volatile uint8_t past_end = data[2 * 4096 + 5];  // faults: zeros instead of a dead process
  CHECK(past_end == 0);
  CHECK(mapped->shrank());
  CHECK(MappedByteSource::any_unreadable());
  std::vector<uint8_t> out(16);
  CHECK(mapped->read(0, out.data(), out.size()) == 0);  // reads report nothing from then on
}

TEST_CASE("mapped source: a SIGBUS outside any mapping still ends the process as before") {
  std::string path = scratch_dir("mapped_source") + "/foreign.bin";
  write_file(path, pattern(3 * 4096));
  std::string error;
  auto mapped = MappedByteSource::open(path, &error);  // installs the handler
  REQUIRE(mapped);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // A mapping of the child's own, not a MappedByteSource: the handler must not swallow it.
    int fd = ::open(path.c_str(), O_RDWR);
    void* raw = mmap(nullptr, 3 * 4096, PROT_READ, MAP_SHARED, fd, 0);
    if (raw == MAP_FAILED || ::ftruncate(fd, 0) != 0) _exit(3);
    volatile uint8_t byte = static_cast<const uint8_t*>(raw)[4096];
    (void)byte;
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGBUS);
}

TEST_CASE("mapped source: CARLA scans and bag iteration give the same results mapped as read, whole and cut") {
  std::string dir = scratch_dir("mapped_source");
  std::string error;
  std::string log = dir + "/town.log", bag_path = dir + "/robot.bag";
  REQUIRE(carla::write_demo_file(log, 3u << 20, &error));
  rosbag::DemoOptions options;
  options.compression = "none";
  REQUIRE(rosbag::write_demo_file(bag_path, 6u << 20, options, &error));
  for (const std::string& path : {log, bag_path}) {
    std::vector<uint8_t> whole = test_support::read_file(path);
    // Whole, then cut inside the data (a packet or chunk torn in half).
    for (size_t size : {whole.size(), whole.size() * 2 / 3 + 3}) {
      std::string copy = dir + "/copy" + std::to_string(size);
      write_file(copy, std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(size)));
      auto file = FileByteSource::open(copy, &error);
      auto mapped = MappedByteSource::open(copy, &error);
      REQUIRE(file);
      REQUIRE(mapped);
      CachedByteSource cached(*file);
      if (path == log) {
        std::string expected = scan_fingerprint(cached);
        CHECK(scan_fingerprint(*mapped) == expected);
        CHECK(scan_fingerprint(*file) == expected);
      } else {  // a cut bag is opened by scanning: same recovery either way
        std::string expected = iterate_fingerprint(cached, 1);
        CHECK(iterate_fingerprint(*mapped, 1) == expected);
        CHECK(iterate_fingerprint(*mapped, 2) == expected);
      }
    }
  }
}
