// The CARLA scan pushed in pieces (the page's stream, carla/scanner.h) gives exactly what the
// scan that pulls through a ByteSource gives: same frames, counts, variant, problems and
// recovery, whatever the piece sizes, on whole, cut and damaged logs.
#include <cstring>
#include <random>
#include <string>

#include "carla/inspector.h"
#include "carla/queries.h"
#include "carla/reader.h"
#include "carla/scanner.h"
#include "carla/writer.h"
#include "test_carla_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

const bool kUtc = (test_support::use_utc(), true);

// Everything a scan produces, as text, so two scans compare in one CHECK with a readable diff.
std::string describe(const ScanResult& r) {
  std::string out = "header " + std::to_string(r.header_ok) + " " + std::to_string(r.header.size) + " data_end " + std::to_string(r.data_end) +
                    " outside " + std::to_string(r.packets_outside_frames) + " non_actor " + std::to_string(r.non_actor_collisions) +
                    " cancelled " + std::to_string(r.cancelled) + "\n";
  for (const FrameEntry& f : r.frames)
    out += "frame " + std::to_string(f.id) + " " + std::to_string(f.elapsed) + " " + std::to_string(f.duration) + " " + std::to_string(f.offset) + "-" +
           std::to_string(f.end) + " " + std::to_string(f.packets) + " " + std::to_string(f.has_events) + "\n";
  for (int id = 0; id < 256; ++id)
    if (r.packet_counts[id]) out += "id " + std::to_string(id) + " " + std::to_string(r.packet_counts[id]) + " " + std::to_string(r.packet_bytes[id]) + "\n";
  const carla::Recovery& rec = r.recovery;
  out += "recovery " + std::to_string(rec.damaged) + " " + rec.reason + " " + std::to_string(rec.ends_at) + " " + std::to_string(rec.incomplete_offset) + " " +
         std::to_string(rec.incomplete_frame_id) + " " + rec.message + "\n";
  out += "variant " + r.variant.json.dump() + "\n";
  out += "events " + std::to_string(r.events.complete) + " " + std::to_string(r.events.packets.size()) + " " +
         std::string(r.events.bytes.begin(), r.events.bytes.end()) + "\n";
  for (const Problem& p : r.problems) out += "problem " + std::to_string(p.offset) + " " + p.code + " " + p.message + "\n";
  return out;
}

std::string pulled(const std::vector<uint8_t>& bytes) {
  MemoryByteSource source(bytes.data(), bytes.size());
  return describe(scan_log(source, nullptr));
}

// Pushes [feed.begin(), end) in pieces of `piece` bytes (0: random sizes from 1 to 300).
std::string pushed(const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed = 1) {
  MemoryByteSource source(bytes.data(), bytes.size());
  ScanResult kept;
  bool got = false;
  std::unique_ptr<ByteFeed> feed = scan_feed(source, [&](ScanResult&& r) { kept = std::move(r), got = true; });
  if (!feed) return pulled(bytes);  // not a whole header: there is nothing to push
  REQUIRE(feed->end() == bytes.size());
  std::mt19937 random(seed);
  for (uint64_t at = feed->begin(); at < feed->end();) {
    size_t n = piece ? piece : 1 + random() % 300;
    n = static_cast<size_t>(std::min<uint64_t>(n, feed->end() - at));
    feed->update(bytes.data() + at, n);
    at += n;
  }
  Json answer = feed->finish("", false);
  CHECK(answer["status"].as_string() == "scanned");
  REQUIRE(got);
  return describe(kept);
}

// The small log with a collision, an unknown id and a user packet larger than small pieces.
std::vector<uint8_t> busy_log(int frames) {
  return carla_test::small_log(frames, [](LogWriter& w, int f) {
    if (f == 2) w.write(packets::Collision, {{1, 5, kNoActor, false, false}});
    if (f == 3) w.raw_packet(42, std::vector<uint8_t>(700, 0xab));
    if (f == 4) w.raw_packet(120, std::vector<uint8_t>(5000, 0x11));
  });
}

}  // namespace

TEST_CASE("carla scan feed: pieces of any size give the pulled scan") {
  std::vector<uint8_t> log = busy_log(6);
  std::string expected = pulled(log);
  for (size_t piece : {1, 2, 3, 4, 5, 6, 7, 13, 64, 4096, 1 << 20}) {
    CAPTURE(piece);
    CHECK(pushed(log, piece) == expected);
  }
  for (uint32_t seed = 1; seed <= 5; ++seed) CHECK(pushed(log, 0, seed) == expected);
}

TEST_CASE("carla scan feed: every cut of a log gives the pulled scan, recovery included") {
  std::vector<uint8_t> log = busy_log(4);
  for (size_t cut = 0; cut <= log.size(); cut += (cut < 200 ? 1 : 7)) {
    CAPTURE(cut);
    std::vector<uint8_t> bytes(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(cut));
    std::string expected = pulled(bytes);
    CHECK(pushed(bytes, 5) == expected);
    CHECK(pushed(bytes, 0, static_cast<uint32_t>(cut)) == expected);
  }
}

TEST_CASE("carla scan feed: damaged packets and framing give the pulled scan") {
  std::vector<uint8_t> log = busy_log(5);
  std::mt19937 random(7);
  MemoryByteSource source(log.data(), log.size());
  uint64_t header = scan_log(source, nullptr).header.size;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<uint8_t> bytes = log;
    for (int k = 0; k < 3; ++k) bytes[header + random() % (bytes.size() - header)] = static_cast<uint8_t>(random());
    CAPTURE(trial);
    std::string expected = pulled(bytes);
    CHECK(pushed(bytes, 0, static_cast<uint32_t>(trial)) == expected);
  }
}

TEST_CASE("carla scan feed: an early end, an error or a second finish keeps nothing") {
  std::vector<uint8_t> log = busy_log(3);
  MemoryByteSource source(log.data(), log.size());
  bool kept = false;
  auto keep = [&](ScanResult&&) { kept = true; };
  std::unique_ptr<ByteFeed> short_feed = scan_feed(source, keep);
  short_feed->update(log.data() + short_feed->begin(), 10);
  CHECK(short_feed->finish("", false)["status"].as_string() == "incomplete");
  std::unique_ptr<ByteFeed> failed = scan_feed(source, keep);
  failed->update(log.data() + failed->begin(), log.size() - failed->begin());
  CHECK(failed->finish("the browser could not read the file", false)["error"].as_string() == "the browser could not read the file");
  std::unique_ptr<ByteFeed> twice = scan_feed(source, keep);
  twice->update(log.data() + twice->begin(), log.size() - twice->begin());
  CHECK(twice->finish("", true)["status"].as_string() == "incomplete");
  CHECK_FALSE(kept);
  // Not a CARLA header: nothing to feed (the pulled scan answers from the header alone).
  std::vector<uint8_t> junk(100, 0x55);
  MemoryByteSource junk_source(junk.data(), junk.size());
  CHECK_FALSE(scan_feed(junk_source, keep));
}

TEST_CASE("carla scan feed: a payload larger than the pass holds is reported, not gathered") {
  // PacketFeed with a small max_view: the 5000-byte user packet is visited without its payload.
  std::vector<uint8_t> log = busy_log(4);
  MemoryByteSource source(log.data(), log.size());
  uint64_t begin = scan_log(source, nullptr).header.size;
  std::vector<std::pair<uint64_t, bool>> seen;
  PacketFeed feed(begin, log.size(), 1024, [](const PacketRef& p) -> size_t { return p.size; },
                  [&](const PacketRef& p, const uint8_t* payload) { seen.emplace_back(p.offset, payload != nullptr); });
  for (uint64_t at = begin; at < log.size(); at += 100) feed.push(log.data() + at, static_cast<size_t>(std::min<uint64_t>(100, log.size() - at)));
  PacketWalker::Step step;
  PacketRef last;
  REQUIRE(feed.ended(&step, &last));
  CHECK(step == PacketWalker::Step::End);
  size_t refused = 0;
  for (auto& [offset, had] : seen) refused += !had;
  CHECK(refused == 1);
}

TEST_CASE("carla scan feed: the inspector keeps a fed scan and answers from it") {
  std::vector<uint8_t> log = busy_log(6);
  MemoryByteSource memory(log.data(), log.size());
  CountingByteSource counting(memory);
  std::unique_ptr<FormatInspector> inspector = open_inspector(counting);
  std::unique_ptr<ByteFeed> feed = inspector->scan_feed();
  REQUIRE(feed);
  feed->update(log.data() + feed->begin(), log.size() - feed->begin());
  CHECK(feed->finish("", false)["status"].as_string() == "scanned");
  uint64_t read_before = counting.bytes_read();
  uint64_t packet_bytes = log.size() - feed->begin();
  Report fed = inspector->summary();
  // The summary reads a few packets for the file's facts, never the whole log again.
  CHECK(counting.bytes_read() - read_before < packet_bytes / 2);
  CHECK_FALSE(inspector->scan_feed());  // the scan is kept: nothing more to feed
  CountingByteSource pulled_counting(memory);
  std::unique_ptr<FormatInspector> pulling = open_inspector(pulled_counting);
  CHECK(fed.to_json().dump() == pulling->summary().to_json().dump());
  CHECK(pulled_counting.bytes_read() >= packet_bytes);  // (the pulled summary scanned)
}

TEST_CASE("carla scan feed: real logs pushed in stream-sized pieces give the pulled scan") {
  if (!test_support::have_samples()) return;
  for (const char* name : {"carla/scenario_runner_0.9.10_DistanceBetweenVehicles.log", "carla/scenario_runner_0.9.10_DistanceToLaneCenter.log",
                           "carla/scenario_runner_0.9.13_DistanceBetweenVehicles.log", "carla/scenario_runner_0.9.13_DistanceToLaneCenter.log"}) {
    CAPTURE(name);
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(name));
    REQUIRE(!bytes.empty());
    std::string expected = pulled(bytes);
    CHECK(pushed(bytes, 65536) == expected);  // Chromium's stream chunk size
    CHECK(pushed(bytes, 0, 3) == expected);
  }
}

namespace {

// file_info_json and the info text (without --all) from the event packets the scan kept, and
// from reading them again.
void check_kept_events_match_reading(const std::vector<uint8_t>& bytes) {
  MemoryByteSource memory(bytes.data(), bytes.size());
  ScanResult scan = scan_log(memory, nullptr);
  REQUIRE(scan.events.complete);
  CountingByteSource counting(memory);
  std::string from_kept = file_info_json(counting, scan).dump();
  std::string text_from_kept = file_info_text(counting, scan, false);
  CHECK(counting.bytes_read() == 0);  // the summary's event lists and the info text read nothing
  ScanResult dropped = scan;
  dropped.events = EventPackets();
  dropped.events.complete = false;
  CHECK(file_info_json(counting, dropped).dump() == from_kept);
  CHECK(file_info_text(counting, dropped, false) == text_from_kept);
  CHECK(counting.bytes_read() > 0);
  CHECK(from_kept.find("\"create\":[{") != std::string::npos);  // (there are events to list)
}

}  // namespace

TEST_CASE("carla scan keeps the event packets the summary lists, and the lists equal reading them") {
  check_kept_events_match_reading(busy_log(6));
  // Cut inside a frame with events: the incomplete frame's kept packets are not listed.
  std::vector<uint8_t> log = busy_log(6);
  MemoryByteSource source(log.data(), log.size());
  ScanResult whole = scan_log(source, nullptr);
  std::vector<uint8_t> cut(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(whole.frames[1].offset + 60));
  check_kept_events_match_reading(cut);
}

TEST_CASE("carla scan drops its kept events past the budget, and the summary reads them instead") {
  LogWriter w;
  w.header(1637671165, "Town02");
  const int frames = 300;
  for (int f = 1; f <= frames; ++f) {
    w.frame_start(f, f == frames ? -1.0 : 0.05, (f - 1) * 0.05);
    EventAddRecord car;
    car.id = 100 + f, car.type = 1, car.blueprint = "vehicle.audi.tt", car.attributes = {{3, "role_name", std::string(40000, 'x')}};
    w.write(packets::EventAdd, std::vector<EventAddRecord>{car});
    w.frame_end();
  }
  std::vector<uint8_t> log = w.take();
  MemoryByteSource memory(log.data(), log.size());
  ScanResult scan = scan_log(memory, nullptr);
  CHECK_FALSE(scan.events.complete);
  CHECK(scan.events.bytes.capacity() == 0);  // the memory goes back
  CountingByteSource counting(memory);
  Json info = file_info_json(counting, scan);
  CHECK(counting.bytes_read() > EventPackets::kBudget);
  CHECK(info["events"].size() == frames);
}

TEST_CASE("carla scan: kept events on real logs equal reading them") {
  if (!test_support::have_samples()) return;
  for (const char* name : {"carla/scenario_runner_0.9.10_DistanceBetweenVehicles.log", "carla/scenario_runner_0.9.13_DistanceToLaneCenter.log"}) {
    CAPTURE(name);
    check_kept_events_match_reading(test_support::read_file(test_support::sample(name)));
  }
}
