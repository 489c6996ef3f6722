// The real ULog samples (../shared/samples/ulog, SOURCES.md): their subscriptions, data messages,
// logged strings, dropouts and parameters as @foxglove/ulog 2.3.2 counted them (SOURCES.md; the node
// test tests/node/ulog-agreement.test.mjs compares per subscription), the cut sample's truncation,
// the appended crash dumps, and every sample cut at every 4 KB boundary: every complete message
// before the cut is kept (counted by the test's own walk over the 3-byte message headers), and
// the repaired copy checks clean with the same data messages.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "test_support.h"
#include "test_ulog_support.h"
#include "ulog/extract.h"
#include "ulog/format.h"

using namespace logscope;
using namespace ulog_test;
using test_support::has_code;

namespace {

struct Expected {
  const char* file;
  uint64_t subscriptions, data, strings, dropouts, parameters;
};

const Expected kSamples[] = {
    {"PX4__pyulog__sample.ulg", 43, 64542, 4, 4, 493},
    {"PX4__pyulog__sample_b82c557.ulg", 48, 14317, 0, 0, 408},
    {"PX4__pyulog__sample_appended_multiple.ulg", 44, 6852, 1, 0, 750},
    {"PX4__pyulog__sample_log_small.ulg", 72, 14604, 3, 1, 0},
    {"PX4__pyulog__sample_logging_tagged_and_default_params.ulg", 170, 21229, 7, 0, 696},
    {"PX4__pyulog__sample_px4_events.ulg", 84, 29480, 18, 0, 875},
    {"PX4__pyulog__sample_unordered.ulg", 15, 64543, 4, 4, 493},
};

std::string load(const char* name) {
  std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(std::string("ulog/") + name));
  return std::string(bytes.begin(), bytes.end());
}

// The test's own count of complete 'D' messages in [16, end), from the message headers alone.
uint64_t data_messages_before(const std::string& bytes, uint64_t end) {
  uint64_t at = ulog::kHeaderSize, n = 0;
  while (at + 3 <= end) {
    uint64_t size = static_cast<uint8_t>(bytes[at]) | (static_cast<uint64_t>(static_cast<uint8_t>(bytes[at + 1])) << 8);
    if (at + 3 + size > end) break;
    n += bytes[at + 2] == 'D';
    at += 3 + size;
  }
  return n;
}

}  // namespace

TEST_CASE("ulog samples: counts equal @foxglove/ulog's") {
  if (!test_support::have_samples()) return;
  for (const Expected& e : kSamples) {
    CAPTURE(e.file);
    Opened o = open_bytes(load(e.file));
    const ulog::FileModel& m = o.model();
    CHECK(m.subscriptions.size() == e.subscriptions);
    CHECK(m.data_messages == e.data);
    CHECK(m.strings.size() == e.strings);
    CHECK(m.dropouts.size() == e.dropouts);
    uint64_t initial = 0;
    for (const ulog::KeyValue& p : m.parameters) initial += !p.in_data;
    if (e.parameters) CHECK(initial == e.parameters);
    CHECK(m.info_text("sys_name") == "PX4");
    Report r = o.inspector->summary();
    CHECK(r.format == "ulog");
    bool cut = std::string(e.file).find("b82c557") != std::string::npos;
    CHECK(has_code(r.problems, "ulog.file.truncated") == cut);
    if (!cut) CHECK(r.count(Severity::Error) == 0);
  }
}

TEST_CASE("ulog samples: the cut sample names where it ends, the appended sample's three crash dumps are read") {
  if (!test_support::have_samples()) return;
  Opened cut = open_bytes(load("PX4__pyulog__sample_b82c557.ulg"));
  REQUIRE(has_code(cut.model().problems, "ulog.file.truncated"));
  for (const Problem& p : cut.model().problems)
    if (p.code == "ulog.file.truncated") {
      CHECK(p.offset == 1081257);
      CHECK(p.message.find("134 bytes (84 present)") != std::string::npos);
    }
  CHECK(cut.model().recovery.ends_at == 1081257);

  Opened app = open_bytes(load("PX4__pyulog__sample_appended_multiple.ulg"));
  const ulog::FileModel& m = app.model();
  CHECK(m.flags.data_appended());
  REQUIRE(m.sections.size() == 4);
  CHECK(m.sections[1].begin == 434369);
  CHECK(m.sections[2].begin == 451825);
  CHECK(m.sections[3].begin == 469281);
  const ulog::MultiInfo* dumps = nullptr;
  for (const ulog::MultiInfo& mi : m.multi_infos)
    if (mi.name == "hardfault_plain") dumps = &mi;
  REQUIRE(dumps);
  CHECK(dumps->values.size() == 3);
  CHECK(dumps->type == "char[17424]");
}

TEST_CASE("ulog samples: a cut at every 4 KB keeps every complete message, the repair checks clean") {
  if (!test_support::have_samples()) return;
  for (const Expected& e : kSamples) {
    CAPTURE(e.file);
    std::string whole = load(e.file);
    uint64_t main_end = whole.size();
    {
      Opened o = open_bytes(whole);
      main_end = o.model().sections[0].end;
    }
    size_t step = 0;
    for (uint64_t cut = 4096; cut < whole.size(); cut += 4096, ++step) {
      CAPTURE(cut);
      Opened o = open_bytes(whole.substr(0, cut));
      uint64_t expected = data_messages_before(whole, std::min(cut, main_end));
      CHECK(o.model().data_messages == expected);
      if (step % 16 == 0) {
        MemoryOutputSink out;
        ExtractResult repaired = ulog::repair_ulog(*o.source, out);
        REQUIRE(repaired.ok);
        Opened fixed = open_bytes(out.bytes);
        CHECK(fixed.model().data_messages == expected);
        CHECK(fixed.inspector->check(nullptr).count(Severity::Error) == 0);
      }
    }
  }
}

TEST_CASE("ulog samples: the GPS track comes from the GPS topic that has messages, or is empty without one") {
  if (!test_support::have_samples()) return;
  for (const Expected& e : kSamples) {
    CAPTURE(e.file);
    Opened o = open_bytes(load(e.file));
    Json gps = o.inspector->query("gps_track", Json::object(), nullptr);
    REQUIRE(!gps.find("error"));
    uint64_t kept = gps.find("kept")->as_uint();
    CHECK(gps.find("points")->size() == kept);
    if (gps.find("topic")->is_null()) {
      CHECK(gps.find("count")->as_uint() == 0);
      continue;
    }
    // Every fix lies on the earth.
    for (const Json& p : gps.find("points")->elements()) {
      CHECK(std::abs(p[0].as_double()) <= 90);
      CHECK(std::abs(p[1].as_double()) <= 180);
    }
  }
  // The three samples that flew with GPS give a track.
  for (const char* file : {"PX4__pyulog__sample_b82c557.ulg", "PX4__pyulog__sample_log_small.ulg", "PX4__pyulog__sample_px4_events.ulg"}) {
    CAPTURE(file);
    Opened o = open_bytes(load(file));
    CHECK(o.inspector->query("gps_track", Json::object(), nullptr).find("kept")->as_uint() > 10);
  }
}
