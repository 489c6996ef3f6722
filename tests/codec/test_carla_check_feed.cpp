// The CARLA check's second pass pushed in (FormatInspector::check_feed, carla/doctor.h
// doctor_feed) gives the pulled check()'s report, whatever the piece sizes, on whole,
// cut and damaged logs with actor references to check. Here the pushed check comes after the
// scan is kept (the summary's); the pulled check runs on an inspector of its own. With no scan
// kept, the feed is the scan with the check along: test_carla_check_once.cpp.
#include <random>
#include <string>

#include "carla/inspector.h"
#include "carla/writer.h"
#include "test_carla_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

const bool kUtc = (test_support::use_utc(), true);

// Frames with actors added, parented, moved, collided and destroyed, some never created, so the
// second pass has references to find.
std::vector<uint8_t> referencing_log(int frames) {
  return carla_test::small_log(frames, [](LogWriter& w, int f) {
    if (f == 2) w.write(packets::Collision, {{1, 5, kNoActor, false, false}});
    if (f == 3) w.write(packets::EventDel, {77});
    if (f == 4) w.write(packets::EventParent, {{78, 5}});
    if (f == 5) w.write(packets::Position, {{81, {}, {}}});
    if (f == 6) w.write(packets::Collision, {{2, 80, 5, false, false}});
    if (f == 7) w.raw_packet(120, std::vector<uint8_t>(3000, 0x11));
  });
}

// The report JSON of the pushed check, or "" when there is no feed or it asks for the pull.
std::string pushed_check(const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed) {
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  inspector->summary();  // keeps the scan, as the page's summary does
  std::unique_ptr<ByteFeed> feed = inspector->check_feed();
  if (!feed) return "";
  std::mt19937 random(seed);
  for (uint64_t at = feed->begin(); at < feed->end();) {
    size_t n = piece ? piece : 1 + random() % 500;
    n = static_cast<size_t>(std::min<uint64_t>(n, feed->end() - at));
    feed->update(bytes.data() + at, n);
    at += n;
  }
  std::string answer = feed->finish("", false).dump();
  return answer.find("\"status\":\"incomplete\"") != std::string::npos ? "" : answer;
}

std::string pulled_check(const std::vector<uint8_t>& bytes) {
  MemoryByteSource source(bytes.data(), bytes.size());
  return open_inspector(source)->check(nullptr).to_json().dump();
}

// True when the feed gave the report (then it equals the pulled one).
bool check_fed_equals_pulled(const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed) {
  std::string fed = pushed_check(bytes, piece, seed);
  if (fed.empty()) return false;
  CHECK(fed == pulled_check(bytes));
  return true;
}

}  // namespace

TEST_CASE("carla check feed: pieces of any size give the pulled check") {
  std::vector<uint8_t> log = referencing_log(9);
  for (size_t piece : {1, 2, 5, 6, 29, 100, 4096, 1 << 20}) {
    CAPTURE(piece);
    CHECK(check_fed_equals_pulled(log, piece, 1));
  }
  for (uint32_t seed = 1; seed <= 5; ++seed) CHECK(check_fed_equals_pulled(log, 0, seed));
  CHECK(pulled_check(log).find("carla.actor.destroy_unknown") != std::string::npos);  // there was something to find
}

TEST_CASE("carla check feed: cuts and damage give the pulled check") {
  std::vector<uint8_t> log = referencing_log(9);
  size_t fed = 0, runs = 0;
  for (size_t cut = 0; cut <= log.size(); cut += 7) {
    CAPTURE(cut);
    ++runs;
    fed += check_fed_equals_pulled(std::vector<uint8_t>(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(cut)), 0,
                                   static_cast<uint32_t>(cut));
  }
  std::mt19937 random(5);
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    std::vector<uint8_t> bytes = log;
    for (int k = 0; k < 2; ++k) bytes[random() % bytes.size()] = static_cast<uint8_t>(random());
    ++runs;
    fed += check_fed_equals_pulled(bytes, 0, static_cast<uint32_t>(trial));
  }
  MESSAGE(fed << " of " << runs << " cut or damaged logs were checked from the feed");
  CHECK(fed > runs / 2);
}

TEST_CASE("carla check feed: an early end keeps nothing") {
  std::vector<uint8_t> log = referencing_log(9);
  MemoryByteSource source(log.data(), log.size());
  auto inspector = open_inspector(source);
  inspector->summary();
  std::unique_ptr<ByteFeed> feed = inspector->check_feed();
  REQUIRE(feed);
  feed->update(log.data() + feed->begin(), static_cast<size_t>((feed->end() - feed->begin()) / 2));
  CHECK(feed->finish("", false).find("status")->as_string() == "incomplete");
}

TEST_CASE("carla check feed: real logs give the pulled check") {
  if (!test_support::have_samples()) return;
  for (const char* name : {"carla/scenario_runner_0.9.10_DistanceBetweenVehicles.log", "carla/scenario_runner_0.9.13_DistanceToLaneCenter.log"}) {
    CAPTURE(name);
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(name));
    REQUIRE(!bytes.empty());
    CHECK(check_fed_equals_pulled(bytes, 65536, 1));
    CHECK(check_fed_equals_pulled(bytes, 0, 2));
  }
}
