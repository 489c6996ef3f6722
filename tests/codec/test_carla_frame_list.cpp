// The packed frame index (carla/frame_list.h) reads back bit for bit whatever was pushed, by
// index, by iteration and through its search, and holds a scanned demo log in a few bytes a frame.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "carla/demo.h"
#include "carla/frame_list.h"
#include "carla/reader.h"
#include "test_carla_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same(const FrameEntry& a, const FrameEntry& b) {
  return a.id == b.id && same_bits(a.elapsed, b.elapsed) && same_bits(a.duration, b.duration) && a.offset == b.offset && a.end == b.end &&
         a.packets == b.packets && a.has_events == b.has_events;
}

std::string text(const FrameEntry& f) {
  uint64_t e, d;
  std::memcpy(&e, &f.elapsed, 8), std::memcpy(&d, &f.duration, 8);
  return "{id " + std::to_string(f.id) + ", elapsed bits " + std::to_string(e) + ", duration bits " + std::to_string(d) + ", " +
         std::to_string(f.offset) + "-" + std::to_string(f.end) + ", packets " + std::to_string(f.packets) + ", events " +
         std::to_string(f.has_events) + "}";
}

// Pushes `frames`, checking back() after each push, then reads them back every way there is.
void check_round_trip(const std::vector<FrameEntry>& frames) {
  CAPTURE(frames.size());
  FrameList list;
  for (const FrameEntry& f : frames) {
    list.push_back(f);
    REQUIRE(same(list.back(), f));
  }
  REQUIRE(list.size() == frames.size());
  CHECK(list.empty() == frames.empty());
  size_t i = 0;
  for (const FrameEntry& f : list) {  // sequential
    REQUIRE(i < frames.size());
    INFO("iteration at " << i << ": " << text(f) << " pushed " << text(frames[i]));
    REQUIRE(same(f, frames[i]));
    ++i;
  }
  CHECK(i == frames.size());
  for (i = 0; i < frames.size(); ++i) {  // by index, each decoding its block
    INFO("index " << i << ": " << text(list[i]) << " pushed " << text(frames[i]));
    REQUIRE(same(list[i], frames[i]));
  }
  for (size_t k = frames.size(); k-- > 0;) {  // backwards through one iterator
    auto it = list.begin() + static_cast<std::ptrdiff_t>(k);
    REQUIRE(same(*it, frames[k]));
    REQUIRE(same(it[0], frames[k]));
  }
  if (!frames.empty()) {
    CHECK(same(list.front(), frames.front()));
    CHECK(same(list.at(frames.size() - 1), frames.back()));
  }
  CHECK_THROWS_AS(list.at(frames.size()), std::out_of_range);
  list.clear();
  CHECK(list.empty());
  CHECK(list.begin() == list.end());
}

// Frames as a recorder writes them: back to back, ids counting up, a fixed step.
std::vector<FrameEntry> ordinary(size_t n, double step = 0.05) {
  std::vector<FrameEntry> out;
  FrameEntry f;
  f.id = 1, f.offset = 1000, f.duration = step;
  for (size_t i = 0; i < n; ++i) {
    f.end = f.offset + 3000 + (i * 7919) % 900;
    f.packets = 20 + static_cast<uint32_t>(i % 3);
    f.has_events = i % 17 == 0;
    if (i + 1 == n) f.duration = -1.0;
    out.push_back(f);
    f.elapsed += f.duration;
    f.offset = f.end;
    ++f.id;
  }
  return out;
}

double from_bits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// Every field anywhere: ids that jump and wrap, offsets back and forth, ends before offsets,
// NaNs with payloads, infinities, -0, -1 durations, the largest packet counts.
std::vector<FrameEntry> hostile(size_t n, uint32_t seed) {
  std::mt19937_64 random(seed);
  const double specials[] = {0.0, -0.0, -1.0, 0.05, 1e308, -1e-310, std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), from_bits(0x7ff8000000000001), from_bits(0xfff0000000dead01),
                             std::numeric_limits<double>::quiet_NaN()};
  auto any_double = [&]() {
    switch (random() % 4) {
      case 0: return specials[random() % (sizeof specials / sizeof specials[0])];
      case 1: return from_bits(random());
      default: return static_cast<double>(random() % 100000) * 0.001;
    }
  };
  std::vector<FrameEntry> out;
  FrameEntry f;
  for (size_t i = 0; i < n; ++i) {
    FrameEntry next;
    next.id = random() % 3 ? f.id + 1 : random() % 2 ? ~uint64_t{0} - random() % 3 : random();
    next.offset = random() % 3 ? f.end : random() % 2 ? random() : f.offset - random() % 100;
    next.end = random() % 4 ? next.offset + random() % 70000 : random();
    next.elapsed = random() % 3 ? f.elapsed + f.duration : random() % 2 ? std::nextafter(f.elapsed + f.duration, 1e300) : any_double();
    next.duration = random() % 3 ? f.duration : any_double();
    next.packets = random() % 3 ? f.packets : random() % 2 ? UINT32_MAX - static_cast<uint32_t>(random() % 2) : static_cast<uint32_t>(random());
    next.has_events = random() % 2;
    out.push_back(next);
    f = next;
  }
  return out;
}

}  // namespace

TEST_CASE("carla frame list: ordinary sequences round trip at every size") {
  for (size_t n : {0, 1, 2, 63, 64, 65, 127, 128, 129, 10000}) check_round_trip(ordinary(n));
  // A step with no exact binary value: elapsed drifts from the running sum in the last bits.
  std::vector<FrameEntry> drift = ordinary(500, 0.1);
  for (size_t i = 0; i < drift.size(); ++i) drift[i].elapsed = static_cast<double>(i) * 0.1;
  check_round_trip(drift);
}

TEST_CASE("carla frame list: what the prediction misses is stored") {
  std::vector<FrameEntry> base = ordinary(200);
  auto variant = [&](const char* what, auto change) {
    std::vector<FrameEntry> frames = base;
    for (size_t i : {1, 5, 63, 64, 65, 100, 199}) change(frames[i], i);
    INFO(what);
    check_round_trip(frames);
  };
  variant("id gap", [](FrameEntry& f, size_t) { f.id += 5; });
  variant("id back", [](FrameEntry& f, size_t) { f.id -= 3; });
  variant("id wraps", [](FrameEntry& f, size_t) { f.id = UINT64_MAX; });
  variant("offset gap", [](FrameEntry& f, size_t) { f.offset += 11, f.end += 11; });
  variant("offset backwards", [](FrameEntry& f, size_t) { f.offset -= 500; });
  variant("end before offset", [](FrameEntry& f, size_t) { f.end = f.offset - 1; });
  variant("end anywhere", [](FrameEntry& f, size_t i) { f.end = UINT64_MAX - i; });
  variant("elapsed off by an ulp", [](FrameEntry& f, size_t) { f.elapsed = std::nextafter(f.elapsed, 1e9); });
  variant("elapsed jumps", [](FrameEntry& f, size_t) { f.elapsed = -12345.678; });
  variant("elapsed NaN payload", [](FrameEntry& f, size_t) { f.elapsed = from_bits(0x7ff00000000beef1); });
  variant("elapsed -0", [](FrameEntry& f, size_t) { f.elapsed = -0.0; });
  variant("duration -1", [](FrameEntry& f, size_t) { f.duration = -1.0; });
  variant("duration NaN", [](FrameEntry& f, size_t) { f.duration = from_bits(0xfff8000000000123); });
  variant("duration infinite", [](FrameEntry& f, size_t) { f.duration = std::numeric_limits<double>::infinity(); });
  variant("packets largest", [](FrameEntry& f, size_t) { f.packets = UINT32_MAX; });
  variant("packets 0", [](FrameEntry& f, size_t) { f.packets = 0; });
  variant("events flip", [](FrameEntry& f, size_t) { f.has_events = !f.has_events; });
}

TEST_CASE("carla frame list: random hostile sequences round trip") {
  for (size_t n : {0, 1, 63, 64, 65, 10000}) check_round_trip(hostile(n, 7));
  for (uint32_t seed = 1; seed <= 20; ++seed) check_round_trip(hostile(1 + seed * 37, seed));
}

TEST_CASE("carla frame list: partition_point equals std::partition_point over a vector") {
  for (size_t n : {0, 1, 63, 64, 65, 1000}) {
    std::vector<FrameEntry> frames = ordinary(n);
    FrameList list;
    for (const FrameEntry& f : frames) list.push_back(f);
    std::vector<uint64_t> offsets{0, 999, 1000, 1001, UINT64_MAX};
    for (const FrameEntry& f : frames) offsets.insert(offsets.end(), {f.offset - 1, f.offset, f.offset + 1, f.end});
    for (uint64_t offset : offsets) {
      auto before = [offset](const FrameEntry& f) { return f.offset <= offset; };
      size_t expected = static_cast<size_t>(std::partition_point(frames.begin(), frames.end(), before) - frames.begin());
      REQUIRE(list.partition_point(before) == expected);
      // The iterator serves the standard algorithms too.
      auto it = std::upper_bound(list.begin(), list.end(), offset, [](uint64_t o, const FrameEntry& f) { return o < f.offset; });
      REQUIRE(static_cast<size_t>(it - list.begin()) == expected);
    }
    for (size_t i = 0; i <= n; ++i) {  // by id and by elapsed time
      uint64_t id = i + 1;
      auto by_id = [id](const FrameEntry& f) { return f.id < id; };
      REQUIRE(list.partition_point(by_id) == static_cast<size_t>(std::partition_point(frames.begin(), frames.end(), by_id) - frames.begin()));
      double t = static_cast<double>(i) * 0.05 - 0.01;
      auto by_time = [t](const FrameEntry& f) { return f.elapsed < t; };
      REQUIRE(list.partition_point(by_time) == static_cast<size_t>(std::partition_point(frames.begin(), frames.end(), by_time) - frames.begin()));
    }
  }
}

TEST_CASE("carla frame list: a scanned demo log takes at most 8 bytes a frame") {
  std::string path = test_support::scratch_dir("carla_frame_list") + "/demo.log";
  std::string error;
  REQUIRE(write_demo_file(path, 8 << 20, &error));
  std::vector<uint8_t> bytes = test_support::read_file(path);
  MemoryByteSource source(bytes.data(), bytes.size());
  ScanResult scan = scan_log(source, nullptr);
  REQUIRE(scan.frames.size() >= 2000);
  double per_frame = static_cast<double>(scan.frames.memory_bytes()) / static_cast<double>(scan.frames.size());
  MESSAGE("packed frame index: " << scan.frames.memory_bytes() << " bytes for " << scan.frames.size() << " frames, " << per_frame
                                 << " bytes a frame (a FrameEntry is " << sizeof(FrameEntry) << ")");
  CHECK(per_frame <= 8.0);

  // The writer's small log, whose elapsed times are i * 0.05 rather than a running sum.
  std::vector<uint8_t> small = carla_test::small_log(3000);
  MemoryByteSource small_source(small.data(), small.size());
  ScanResult small_scan = scan_log(small_source, nullptr);
  REQUIRE(small_scan.frames.size() == 3000);
  double small_per_frame = static_cast<double>(small_scan.frames.memory_bytes()) / 3000.0;
  MESSAGE("small_log: " << small_per_frame << " bytes a frame");
  CHECK(small_per_frame <= 8.0);
}
