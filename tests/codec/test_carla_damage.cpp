// CARLA recorder logs that are cut or damaged: every complete frame is recovered, the cut is
// reported at the right offset, and nothing crashes, hangs or over-allocates.
#include <cstdlib>
#include <cstring>
#include <string>

#include "carla/decode.h"
#include "carla/inspector.h"
#include "carla/payload.h"
#include "carla/queries.h"
#include "carla/reader.h"
#include "carla/writer.h"
#include "test_carla_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::carla;

namespace {

using test_support::has_code;

const bool kUtc = (test_support::use_utc(), true);

using carla_test::small_log;

// Checks one cut copy against the frames of the whole file.
void check_cut(const std::vector<uint8_t>& whole, const ScanResult& full, size_t cut) {
  CAPTURE(cut);
  std::vector<uint8_t> bytes(whole.begin(), whole.begin() + cut);
  MemoryByteSource source(bytes.data(), bytes.size());
  ScanResult scan = scan_log(source, nullptr);
  size_t complete = 0;
  while (complete < full.frames.size() && full.frames[complete].end <= cut) ++complete;
  if (cut < full.header.size) {
    CHECK_FALSE(scan.header_ok);
    CHECK(scan.recovery.reason == "cut_in_header");
    return;
  }
  REQUIRE(scan.header_ok);
  CHECK(scan.frames.size() == complete);
  uint64_t recovered_end = complete ? full.frames[complete - 1].end : full.header.size;
  CHECK(scan.data_end == recovered_end);
  bool at_boundary = cut == recovered_end;
  CHECK(scan.recovery.damaged == !at_boundary);
  if (!at_boundary) {
    CHECK(scan.recovery.ends_at == cut);
    CHECK(has_code(scan.problems, "carla.file.truncated"));
    CHECK(scan.recovery.message.find("ends at byte " + std::to_string(cut)) != std::string::npos);
  } else if (complete && complete < full.frames.size()) {
    CHECK(has_code(scan.problems, "carla.frame.last_duration"));  // cut exactly after a FrameEnd
  }
  CHECK_FALSE(has_code(scan.problems, "carla.packet.size_mismatch"));
  std::string footer = footer_text(scan);
  std::string frames_line = "\nFrames: " + std::to_string(complete ? full.frames[complete - 1].id : 0) + "\n";
  CHECK(footer.rfind(frames_line, 0) == 0);
  if (!at_boundary) CHECK(footer.find("\nTruncated: the file ends at byte " + std::to_string(cut)) != std::string::npos);
}

}  // namespace

TEST_CASE("carla logs cut at every offset recover every complete frame") {
  std::vector<uint8_t> whole = small_log(6);
  MemoryByteSource source(whole.data(), whole.size());
  ScanResult full = scan_log(source, nullptr);
  REQUIRE(full.frames.size() == 6);
  for (size_t cut = 0; cut <= whole.size(); ++cut) check_cut(whole, full, cut);
}

TEST_CASE("carla samples cut inside the header, packet headers, payloads and at frame boundaries") {
  if (!test_support::have_samples()) return;
  for (const char* name : {"carla/scenario_runner_0.9.10_DistanceToLaneCenter.log", "carla/scenario_runner_0.9.13_DistanceToLaneCenter.log"}) {
    CAPTURE(name);
    std::vector<uint8_t> whole = test_support::read_file(test_support::sample(name));
    MemoryByteSource source(whole.data(), whole.size());
    ScanResult full = scan_log(source, nullptr);
    std::vector<size_t> cuts = {0, 1, 10, 20, full.header.size - 1, full.header.size, full.header.size + 3, full.header.size + 5};
    for (size_t i : {0, 1, 2, 100, 200, 300, 400})
      if (i < full.frames.size()) {
        const FrameEntry& f = full.frames[i];
        for (long delta : {-6, -5, -4, -1, 0, 1, 2, 5, 6, 29, 30})
          cuts.push_back(static_cast<size_t>(static_cast<long>(f.end) + delta));
        cuts.push_back(f.offset + 2);
      }
    for (size_t k = 1; k < 60; ++k) cuts.push_back(whole.size() * k / 60 + k * 7);
    cuts.push_back(whole.size() - 1);
    for (size_t cut : cuts)
      if (cut <= whole.size()) check_cut(whole, full, cut);
  }
}

TEST_CASE("carla info text of a cut log counts complete frames and says where the file was cut") {
  std::vector<uint8_t> whole = small_log(6);
  MemoryByteSource full_source(whole.data(), whole.size());
  ScanResult full = scan_log(full_source, nullptr);
  size_t cut = full.frames[3].offset + 12;  // inside frame 4's FrameStart payload
  std::vector<uint8_t> bytes(whole.begin(), whole.begin() + cut);
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = open_inspector(source);
  std::string text = inspector->info_text(InfoOptions{});
  std::string expected_tail = "\nFrames: 3\nDuration: 0.1 seconds\nTruncated: the file ends at byte " + std::to_string(cut) +
                              " inside the payload of a FrameStart packet (id 0) at byte " + std::to_string(full.frames[3].offset) +
                              " that declares 24 bytes (7 present); 3 complete frames recovered up to byte " + std::to_string(full.frames[2].end) + "\n";
  CHECK(text.substr(text.size() - std::min(text.size(), expected_tail.size())) == expected_tail);
  Report report = inspector->check(nullptr);
  const Json* recovery = report.details.find("recovery");
  REQUIRE(recovery);
  CHECK(recovery->find("complete_frames")->as_uint() == 3);
  CHECK(recovery->find("ends_at")->as_uint() == cut);
  CHECK(recovery->find("reason")->as_string() == "cut_in_payload");
  CHECK(report.count(Severity::Error) >= 1);
  // Cut after frame 5's FrameStart: frame 5 is partial and named.
  size_t cut2 = full.frames[4].offset + 29 + 5;
  std::vector<uint8_t> bytes2(whole.begin(), whole.begin() + cut2);
  MemoryByteSource source2(bytes2.data(), bytes2.size());
  ScanResult scan2 = scan_log(source2, nullptr);
  CHECK(scan2.frames.size() == 4);
  CHECK(scan2.recovery.incomplete_frame_id == 5);
  CHECK(scan2.recovery.message.find("frame 5 (from byte " + std::to_string(full.frames[4].offset) + ") is incomplete and not counted") != std::string::npos);
}

TEST_CASE("carla damaged packets: lying sizes and counts, unknown ids, packets outside frames") {
  std::vector<uint8_t> whole = small_log(4);
  MemoryByteSource full_source(whole.data(), whole.size());
  ScanResult full = scan_log(full_source, nullptr);

  SUBCASE("a size field claiming 4 GB stops reading there, with the frames before it") {
    std::vector<uint8_t> bytes = whole;
    uint64_t at = full.frames[2].offset + 29;  // the EventAdd packet of frame 3
    REQUIRE(bytes[at] == 2);
    std::memset(bytes.data() + at + 1, 0xFF, 4);
    MemoryByteSource source(bytes.data(), bytes.size());
    ScanResult scan = scan_log(source, nullptr);
    CHECK(scan.frames.size() == 2);
    CHECK(scan.recovery.reason == "cut_in_payload");
    CHECK(scan.recovery.message.find("declares 4294967295 bytes") != std::string::npos);
  }
  SUBCASE("a record count larger than the payload is a size mismatch, not a crash") {
    std::vector<uint8_t> bytes = whole;
    uint64_t position = full.frames[1].offset + 29 + 7 * 4;  // frame 2: EventAdd, Del, Parent, Collision, then Position
    REQUIRE(bytes[position] == 6);
    bytes[position + 5] = 0xFF, bytes[position + 6] = 0xFF;  // total = 65535
    MemoryByteSource source(bytes.data(), bytes.size());
    auto inspector = open_inspector(source);
    Report report = inspector->check(nullptr);
    CHECK(has_code(report.problems, "carla.packet.size_mismatch"));
    CHECK(inspector->summary().file.count("frames")->value == 4);
    Json decoded = inspector->decode("p" + std::to_string(position));
    CHECK_FALSE(decoded.find("layout_ok")->as_bool());
    CHECK(decoded.find("records")->size() == 1);  // the one whole record that is there
  }
  SUBCASE("unknown ids are skipped by size and counted; user packets are fine; outside-frame packets are flagged") {
    LogWriter w;
    w.header(1637671165, "Town02");
    w.raw_packet(kPlatformTime, std::vector<uint8_t>(8, 0));  // before any frame
    w.frame_start(1, 0.05, 0);
    w.raw_packet(50, {1, 2, 3});
    w.raw_packet(120, {9, 9});
    w.frame_end();
    w.frame_start(2, -1.0, 0.05);
    w.frame_end();
    std::vector<uint8_t> bytes = w.take();
    MemoryByteSource source(bytes.data(), bytes.size());
    ScanResult scan = scan_log(source, nullptr);
    CHECK(scan.frames.size() == 2);
    CHECK(scan.packet_counts[50] == 1);
    CHECK(scan.packet_counts[120] == 1);
    CHECK(has_code(scan.problems, "carla.packet.unknown_id"));
    CHECK(has_code(scan.problems, "carla.packet.outside_frame"));
    CHECK(scan.packets_outside_frames == 1);
  }
  SUBCASE("missing FrameEnd, time going backwards, a -1 duration that was never patched") {
    LogWriter w;
    w.header(1637671165, "Town02");
    w.frame_start(1, -1.0, 0);
    w.frame_end();
    w.frame_start(2, 0.05, 0.05);  // no FrameEnd
    w.frame_start(3, -1.0, 0.01);
    w.frame_end();
    std::vector<uint8_t> bytes = w.take();
    MemoryByteSource source(bytes.data(), bytes.size());
    ScanResult scan = scan_log(source, nullptr);
    CHECK(scan.frames.size() == 3);
    CHECK(has_code(scan.problems, "carla.frame.missing_end"));
    CHECK(has_code(scan.problems, "carla.frame.duration_missing"));
    CHECK(has_code(scan.problems, "carla.frame.time_backwards"));
  }
  SUBCASE("actors never created: destroy, parent, position, collision") {
    LogWriter w;
    w.header(1637671165, "Town02");
    w.frame_start(1, -1.0, 0);
    w.write(packets::EventDel, {77});
    w.write(packets::EventParent, {{78, 79}});
    w.write(packets::Collision, {{1, 80, kNoActor, false, false}});
    w.write(packets::Position, {{81, {}, {}}});
    w.frame_end();
    std::vector<uint8_t> bytes = w.take();
    MemoryByteSource source(bytes.data(), bytes.size());
    Report report = open_inspector(source)->check(nullptr);
    for (const char* code : {"carla.actor.destroy_unknown", "carla.actor.parent_unknown", "carla.actor.position_unknown",
                             "carla.collision.unknown_actor", "carla.collision.non_actor"})
      CHECK_MESSAGE(has_code(report.problems, code), code);
  }
  SUBCASE("not a CARLA log at all") {
    std::vector<uint8_t> bytes(100, 'x');
    MemoryByteSource source(bytes.data(), bytes.size());
    auto inspector = open_inspector(source);
    CHECK(inspector->info_text(InfoOptions{}) == "File is not a CARLA recorder\n");
    CHECK(has_code(inspector->check(nullptr).problems, "carla.header.bad_magic"));
    CHECK(inspector->child_count("") >= 1);
  }
}

// What the doctor's hooks asked, in order.
struct AskedActors : ActorCheck {
  std::vector<uint32_t> asked;
  void created(uint32_t, const std::string&) override {}
  void destroyed(uint32_t) override {}
  bool known(uint32_t id) const override {
    const_cast<AskedActors*>(this)->asked.push_back(id);
    return true;
  }
  void not_an_actor() override {}
  void warn(const char*, const std::string&) override {}
  std::string in_frame() const override { return ""; }
};

TEST_CASE("the doctor's hooks see exactly the records decode_packet keeps") {
  Variant ue4;  // 0.9.x float layout
  std::vector<uint8_t> payload;
  PayloadWriter w(payload, ue4);
  w.u16(3);  // three declared, two and a half present
  for (uint32_t id : {5u, 70000u, 9u}) {
    w.u32(id);
    w.vec({1, 2, 3});
    w.vec({4, 5, 6});
  }
  payload.resize(payload.size() - 10);
  DecodedPacket decoded;
  CHECK_FALSE(decode_packet(kPosition, payload.data(), payload.size(), ue4, &decoded));
  REQUIRE(record_count(decoded) == 2);
  AskedActors hooks;
  check_packet(kPosition, payload.data(), payload.size(), ue4, hooks);
  CHECK(hooks.asked == std::vector<uint32_t>{5, 70000});
  SUBCASE("a count without its bytes, and an id without hooks, ask nothing") {
    AskedActors none;
    check_packet(kPosition, payload.data(), 1, ue4, none);
    check_packet(kKinematics, payload.data(), payload.size(), ue4, none);
    CHECK(none.asked.empty());
  }
}

TEST_CASE("actor lives past the flat table's 64 Ki ids are kept too") {
  LogWriter w;
  w.header(1637671165, "Town02");
  w.frame_start(1, -1.0, 0);
  EventAddRecord far;
  far.id = 1u << 20;
  far.blueprint = "vehicle.far";
  EventAddRecord near = far;
  near.id = 3;
  w.write(packets::EventAdd, {far, near});
  w.write(packets::Position, {{far.id, {}, {}}, {near.id, {}, {}}});
  w.write(packets::EventDel, {far.id, near.id, far.id});
  w.frame_end();
  std::vector<uint8_t> bytes = w.take();
  MemoryByteSource source(bytes.data(), bytes.size());
  Report report = open_inspector(source)->check(nullptr);
  CHECK_FALSE(has_code(report.problems, "carla.actor.position_unknown"));
  CHECK_FALSE(has_code(report.problems, "carla.actor.destroy_unknown"));
  size_t twice = 0;
  for (const Problem& p : report.problems) twice += p.code == "carla.actor.destroyed_twice";
  CHECK(twice == 1);
}

TEST_CASE("carla scan can be cancelled through its progress callback") {
  std::vector<uint8_t> whole = small_log(100000);
  MemoryByteSource source(whole.data(), whole.size());
  int calls = 0;
  ProgressFn cancel = [&](uint64_t, uint64_t) { return ++calls < 2; };
  ScanResult scan = scan_log(source, cancel);
  CHECK(scan.cancelled);
  CHECK(scan.recovery.reason == "cancelled");
  CHECK(scan.frames.size() < 100000);
}
