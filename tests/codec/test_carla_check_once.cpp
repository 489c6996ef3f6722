// A CARLA check with no scan kept reads the log once: the actor references ride along the scan
// (carla/doctor.h run_check, scan_and_check_feed), under every layout variant still in the lead.
// Its report equals the two-pass check's (the scan, then the second pass) on logs of every variant,
// cut and damaged ones; where the second pass must read again, it does, and the report still equals.
#include <algorithm>
#include <random>
#include <string>

#include "carla/doctor.h"
#include "carla/inspector.h"
#include "carla/reader.h"
#include "carla/writer.h"
#include "test_carla_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

const bool kUtc = (test_support::use_utc(), true);

Variant variant(bool doubles, int wheel_bytes) {
  Variant v;
  v.doubles = doubles;
  v.wheel_bytes = wheel_bytes;
  return v;
}

// References to check (as test_carla_check_feed.cpp), and a physics control in frame 1 (UE4 only),
// whose wheels decide between the 36- and 48-byte candidates there.
std::vector<uint8_t> referencing_log(int frames, Variant v) {
  return carla_test::small_log(
      frames,
      [v](LogWriter& w, int f) {
        if (f == 1 && !v.doubles) {
          PhysicsControlRecord physics;
          physics.id = 5;
          physics.wheels.resize(4);
          w.write(packets::PhysicsControl, {physics});
        }
        if (f == 2) w.write(packets::Collision, {{1, 5, kNoActor, false, false}});
        if (f == 3) w.write(packets::EventDel, {77});
        if (f == 4) w.write(packets::EventParent, {{78, 5}});
        if (f == 5) w.write(packets::Position, {{81, {}, {}}});
        if (f == 6) w.write(packets::Collision, {{2, 80, 5, false, false}});
      },
      v);
}

// The check as two passes read it: the scan, then the second pass over the kept scan.
std::string two_pass_check(const std::vector<uint8_t>& bytes) {
  MemoryByteSource source(bytes.data(), bytes.size());
  return run_doctor(source, scan_log(source, nullptr), nullptr).to_json().dump();
}

// What one read costs: the header's read (read_header asks for the longest header there can be),
// then each byte once.
uint64_t one_read(const std::vector<uint8_t>& bytes) {
  return std::min<uint64_t>(bytes.size(), 2 + 2 + 0xFFFF + 8 + 2 + 0xFFFF) + bytes.size();
}

struct Pulled {
  std::string report;
  uint64_t bytes_read;
};
Pulled pulled_check(const std::vector<uint8_t>& bytes) {
  MemoryByteSource memory(bytes.data(), bytes.size());
  CountingByteSource source(memory);
  std::string report = open_inspector(source)->check(nullptr).to_json().dump();
  return {report, source.bytes_read()};
}

// The pushed check on a fresh inspector, in random pieces: its answer, and the report check()
// gives after it (from the kept scan: the second pass alone), with the bytes that reads.
struct Pushed {
  std::string answer, after;
  uint64_t bytes_read_after;
};
Pushed pushed_check(const std::vector<uint8_t>& bytes, uint32_t seed) {
  MemoryByteSource memory(bytes.data(), bytes.size());
  CountingByteSource source(memory);
  auto inspector = open_inspector(source);
  Pushed out;
  std::unique_ptr<ByteFeed> feed = inspector->check_feed();
  if (!feed) return out;
  std::mt19937 random(seed);
  for (uint64_t at = feed->begin(); at < feed->end();) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(1 + random() % 700, feed->end() - at));
    feed->update(bytes.data() + at, n);
    at += n;
  }
  out.answer = feed->finish("", false).dump();
  source.reset();
  out.after = inspector->check(nullptr).to_json().dump();
  out.bytes_read_after = source.bytes_read();
  return out;
}

bool asks_again(const std::string& answer) { return answer.find("\"status\":\"incomplete\"") != std::string::npos; }

}  // namespace

TEST_CASE("carla check once: every variant's log is read once, and reports as two passes do") {
  for (Variant v : {variant(false, 48), variant(false, 36), variant(true, 48)}) {
    CAPTURE(variant_label(v));
    std::vector<uint8_t> log = referencing_log(12, v);
    std::string expected = two_pass_check(log);
    CHECK(expected.find("carla.actor.destroy_unknown") != std::string::npos);  // there was something to find
    CHECK(expected.find(variant_label(v)) != std::string::npos);              // the scan decided the variant written
    Pulled pulled = pulled_check(log);
    CHECK(pulled.report == expected);
    CHECK(pulled.bytes_read <= one_read(log));
    Pushed pushed = pushed_check(log, 3);
    CHECK(pushed.answer == expected);
    CHECK(pushed.after == expected);
    CHECK(pushed.bytes_read_after < log.size());  // the scan was kept: the second pass alone
  }
}

TEST_CASE("carla check once: a log cut inside a frame reads its second pass again, with the same report") {
  std::vector<uint8_t> log = referencing_log(12, variant(false, 48));
  std::vector<uint8_t> cut(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(log.size() * 2 / 3));
  std::string expected = two_pass_check(cut);
  CHECK(expected.find("carla.file.truncated") != std::string::npos);
  Pulled pulled = pulled_check(cut);
  CHECK(pulled.report == expected);
  CHECK(pulled.bytes_read > one_read(cut) + cut.size() / 2);  // the scan, then the complete part again
  Pushed pushed = pushed_check(cut, 4);
  CHECK(asks_again(pushed.answer));
  CHECK(pushed.answer.find("ends inside a frame") != std::string::npos);
  CHECK(pushed.after == expected);
  CHECK(pushed.bytes_read_after > 0);
  CHECK(pushed.bytes_read_after < cut.size());  // the second pass alone
}

TEST_CASE("carla check once: cut and damaged logs report as two passes do") {
  std::vector<uint8_t> log = referencing_log(9, variant(false, 36));
  size_t once = 0, runs = 0;
  auto compare = [&](const std::vector<uint8_t>& bytes, uint32_t seed) {
    std::string expected = two_pass_check(bytes);
    CHECK(pulled_check(bytes).report == expected);
    Pushed pushed = pushed_check(bytes, seed);
    if (pushed.answer.empty()) return;  // no CARLA header: check() answers from it alone
    if (!asks_again(pushed.answer)) {
      CHECK(pushed.answer == expected);
      ++once;
    }
    CHECK(pushed.after == expected);
    ++runs;
  };
  for (size_t cut = 0; cut <= log.size(); cut += 11) {
    CAPTURE(cut);
    compare(std::vector<uint8_t>(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(cut)), static_cast<uint32_t>(cut));
  }
  std::mt19937 random(11);
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    std::vector<uint8_t> bytes = log;
    for (int k = 0; k < 2; ++k) bytes[random() % bytes.size()] = static_cast<uint8_t>(random());
    compare(bytes, static_cast<uint32_t>(trial));
  }
  MESSAGE(once << " of " << runs << " cut or damaged logs were checked in one read");
  CHECK(once > runs / 3);
}

TEST_CASE("carla check once: real logs are read once, and report as two passes do") {
  if (!test_support::have_samples()) return;
  for (const char* name : {"carla/scenario_runner_0.9.10_DistanceBetweenVehicles.log", "carla/scenario_runner_0.9.10_DistanceToLaneCenter.log",
                           "carla/scenario_runner_0.9.13_DistanceBetweenVehicles.log", "carla/scenario_runner_0.9.13_DistanceToLaneCenter.log"}) {
    CAPTURE(std::string(name));
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(name));
    REQUIRE(!bytes.empty());
    std::string expected = two_pass_check(bytes);
    Pulled pulled = pulled_check(bytes);
    CHECK(pulled.report == expected);
    CHECK(pulled.bytes_read <= one_read(bytes));
    Pushed pushed = pushed_check(bytes, 5);
    CHECK(pushed.answer == expected);
  }
}
