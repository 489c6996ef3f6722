// The pushed walks of a V2.0 bag (FormatInspector::check_feed and checksum_feed: doctor_feed and
// checksum_feed of rosbag/doctor.h, in rosbag/chunk_feeds.cpp) against the pulled check() and
// checksum(): pieces of every size, every cut, random damage and the real bags give the same JSON,
// or an "incomplete" answer after which the page runs the pulled pass itself. Pulled and pushed
// each run on an inspector of their own, as the page's job worker would.
#include <dirent.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/detect.h"
#include "core/inspector.h"
#include "inspector.h"
#include "rosbag/inspector.h"
#include "rosbag/model.h"
#include "rosbag/reader.h"
#include "rosbag/writer.h"
#include "test_support.h"

namespace {

using namespace logscope;
using namespace logscope::rosbag;

struct Opened {
  std::unique_ptr<MemoryByteSource> source;
  std::unique_ptr<FormatInspector> inspector;
};

Opened open_bytes(const std::vector<uint8_t>& bytes) {
  Opened o;
  o.source = std::make_unique<MemoryByteSource>(bytes);
  o.inspector = open_inspector(*o.source, detect(*o.source));
  return o;
}

// Many small chunks with IndexData after each, two connections, varied sizes.
std::vector<uint8_t> make_bag(const std::string& compression = "none", size_t chunk_threshold = 700) {
  MemorySink sink;
  WriterOptions options;
  options.compression = compression;
  options.chunk_threshold = chunk_threshold;
  BagWriter writer(sink, options);
  uint32_t text = writer.add_connection("/text", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  uint32_t count = writer.add_connection("/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
  for (uint32_t i = 0; i < 120; ++i) {
    Time t{1700000000u + i / 10, (i % 10) * 100000000u};
    if (i % 3) {
      std::string s(1 + (i * 37) % 150, static_cast<char>('a' + i % 26));
      uint32_t n = static_cast<uint32_t>(s.size());
      std::string m(reinterpret_cast<const char*>(&n), 4);
      REQUIRE(writer.write(text, t, m + s));
    } else {
      int32_t v = static_cast<int32_t>(i);
      REQUIRE(writer.write(count, t, std::string_view(reinterpret_cast<const char*>(&v), 4)));
    }
  }
  REQUIRE(writer.close());
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

// Pushes the file's bytes [begin, end) into `feed` in pieces (0: random sizes) and finishes;
// nullopt when there is no feed. `stop_at` ends the push early.
std::optional<std::string> push_all(std::unique_ptr<ByteFeed> feed, const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed,
                                    uint64_t stop_at = UINT64_MAX) {
  if (!feed) return std::nullopt;
  std::mt19937 random(seed);
  uint64_t end = std::min<uint64_t>({feed->end(), bytes.size(), stop_at});
  for (uint64_t at = feed->begin(); at < end;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(piece ? piece : 1 + random() % 3000, end - at));
    feed->update(bytes.data() + at, n);
    at += n;
  }
  return feed->finish("", false).dump();
}

std::optional<std::string> fed_check(FormatInspector& inspector, const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed,
                                     uint64_t stop_at = UINT64_MAX) {
  return push_all(inspector.check_feed(), bytes, piece, seed, stop_at);
}

std::optional<std::string> fed_checksum(FormatInspector& inspector, const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed) {
  return push_all(inspector.checksum_feed(), bytes, piece, seed);
}

bool incomplete(const std::string& answer) { return answer.find("\"status\":\"incomplete\"") != std::string::npos; }

enum class Pass { Check, Checksum };

// The fed pass equals the pulled one, or is incomplete (the page then pulls). Returns whether
// the feed answered.
bool fed_equals_pulled(Pass pass, const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed, bool info_first = false) {
  Opened pulled_side = open_bytes(bytes), fed_side = open_bytes(bytes);
  if (!pulled_side.inspector) return false;
  if (info_first) {  // the job worker may have filled in the compression facts (every chunk header) before
    pulled_side.inspector->info_report(nullptr);
    fed_side.inspector->info_report(nullptr);
  }
  std::string pulled = pass == Pass::Check ? pulled_side.inspector->check(nullptr).to_json().dump() : pulled_side.inspector->checksum(nullptr).dump();
  std::optional<std::string> fed = pass == Pass::Check ? fed_check(*fed_side.inspector, bytes, piece, seed)
                                                       : fed_checksum(*fed_side.inspector, bytes, piece, seed);
  if (!fed || incomplete(*fed)) return false;
  CHECK(*fed == pulled);
  return true;
}

bool check_fed_equals_pulled(const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed, bool info_first = false) {
  return fed_equals_pulled(Pass::Check, bytes, piece, seed, info_first);
}

bool checksum_fed_equals_pulled(const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed, bool info_first = false) {
  return fed_equals_pulled(Pass::Checksum, bytes, piece, seed, info_first);
}

// The pass on every cut of `bag` and on 300 copies with random damage: each fed one equals the
// pulled one. Returns how many were fed, of `*runs`.
size_t fed_on_cuts_and_damage(Pass pass, const std::vector<uint8_t>& bag, uint32_t seed, size_t* runs) {
  size_t fed = 0;
  for (size_t cut = 0; cut <= bag.size(); cut += cut < 4200 ? 97 : 13) {
    CAPTURE(cut);
    ++*runs;
    fed += fed_equals_pulled(pass, std::vector<uint8_t>(bag.begin(), bag.begin() + static_cast<std::ptrdiff_t>(cut)), 0,
                             static_cast<uint32_t>(cut));
  }
  std::mt19937 random(seed);
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    std::vector<uint8_t> bytes = bag;
    for (int k = 0; k < 3; ++k) bytes[random() % bytes.size()] = static_cast<uint8_t>(random());
    ++*runs;
    fed += fed_equals_pulled(pass, bytes, 0, static_cast<uint32_t>(trial));
  }
  return fed;
}

// An lz4 bag with the stored frame checksum of its `nth` chunk changed.
std::vector<uint8_t> lz4_bag_with_bad_checksum(size_t nth) {
  std::vector<uint8_t> bag = make_bag("lz4");
  Opened o = open_bytes(bag);
  Bag* opened = opened_bag(*o.inspector);
  REQUIRE(opened);
  Bag& model = *opened;
  MemoryByteSource probe(bag);
  read_chunk_headers(probe, &model);
  REQUIRE(model.chunks.size() > nth);
  bag[model.chunks[nth].record_end() - 2] ^= 0x5a;  // inside the frame's content checksum
  return bag;
}

}  // namespace

TEST_CASE("rosbag checksum feed: pieces of any size give the pulled checksum, valid or not") {
  std::vector<uint8_t> lz4 = make_bag("lz4"), bad = lz4_bag_with_bad_checksum(2);
  for (size_t piece : {1, 7, 100, 4096, 1 << 20}) {
    CAPTURE(piece);
    CHECK(checksum_fed_equals_pulled(lz4, piece, 1));
    CHECK(checksum_fed_equals_pulled(bad, piece, 1));
  }
  for (uint32_t seed = 1; seed <= 3; ++seed) CHECK(checksum_fed_equals_pulled(bad, 0, seed, /*info_first=*/seed == 3));
  Opened o = open_bytes(bad);
  std::optional<std::string> answer = fed_checksum(*o.inspector, bad, 500, 1);
  REQUIRE(answer);
  CHECK(answer->find("\"status\":\"mismatch\"") != std::string::npos);
  // Chunks that are not lz4 have no frame checksum: fed too (the page learns it from the bytes
  // going by, without decompressing bz2), unless every chunk header is already known.
  for (const char* compression : {"none", "bz2"}) {
    CAPTURE(compression);
    std::vector<uint8_t> bag = make_bag(compression);
    CHECK(checksum_fed_equals_pulled(bag, 1000, 1));
    Opened known = open_bytes(bag);
    known.inspector->info_report(nullptr);
    CHECK(known.inspector->checksum_feed() == nullptr);
  }
}

TEST_CASE("rosbag checksum: once every chunk header is known, a bag without lz4 chunks is answered without reading") {
  for (const char* compression : {"none", "bz2"}) {
    CAPTURE(compression);
    std::vector<uint8_t> bytes = make_bag(compression);
    MemoryByteSource memory(bytes);
    CountingByteSource counting(memory);
    auto inspector = open_inspector(counting, detect(counting));
    REQUIRE(inspector);
    inspector->info_report(nullptr);
    counting.reset();
    Json answer = inspector->checksum(nullptr);
    CHECK(answer.find("status")->as_string() == "not_applicable");
    CHECK(counting.bytes_read() == 0);
  }
}

TEST_CASE("rosbag checksum feed: every cut and random damage give the pulled checksum or ask for it") {
  size_t runs = 0;
  size_t fed = fed_on_cuts_and_damage(Pass::Checksum, make_bag("lz4"), 11, &runs);
  MESSAGE(fed << " of " << runs << " damaged or cut lz4 bags had their checksums fed");
  CHECK(fed > runs / 2);
}

TEST_CASE("rosbag check feed: pieces of any size give the pulled check") {
  std::vector<uint8_t> bag = make_bag();
  for (size_t piece : {1, 2, 7, 13, 100, 1000, 4096, 1 << 20}) {
    CAPTURE(piece);
    CHECK(check_fed_equals_pulled(bag, piece, 1));
  }
  for (uint32_t seed = 1; seed <= 5; ++seed) CHECK(check_fed_equals_pulled(bag, 0, seed));
  CHECK(check_fed_equals_pulled(bag, 0, 9, /*info_first=*/true));
  // One chunk holding everything.
  CHECK(check_fed_equals_pulled(make_bag("none", 1 << 20), 333, 1));
  // lz4 chunks are decompressed by the feed itself.
  std::vector<uint8_t> lz4 = make_bag("lz4");
  for (size_t piece : {1, 100, 4096}) CHECK(check_fed_equals_pulled(lz4, piece, 1));
  CHECK(check_fed_equals_pulled(lz4, 0, 3, /*info_first=*/true));
}

TEST_CASE("rosbag check feed: every cut and random damage give the pulled check or ask for it") {
  for (const char* compression : {"none", "lz4"}) {
    CAPTURE(compression);
    size_t runs = 0;
    size_t fed = fed_on_cuts_and_damage(Pass::Check, make_bag(compression), 7, &runs);
    MESSAGE(fed << " of " << runs << " damaged or cut " << std::string(compression) << " bags were checked from the feed");
    CHECK(fed > runs / 2);  // most of them: cut bags are scanned, and damage mostly hits message bytes
  }
}

TEST_CASE("rosbag check feed: none for bz2 or V1.x bags, an early end keeps nothing") {
  {
    std::vector<uint8_t> bag = make_bag("bz2");
    Opened o = open_bytes(bag);
    CHECK(o.inspector->check_feed() == nullptr);
  }
  {
    MemorySink sink;
    WriterOptions options;
    options.version = 102;
    BagWriter writer(sink, options);
    uint32_t c = writer.add_connection("/x", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
    int32_t v = 1;
    REQUIRE(writer.write(c, Time{1, 0}, std::string_view(reinterpret_cast<const char*>(&v), 4)));
    REQUIRE(writer.close());
    std::vector<uint8_t> bytes(sink.bytes.begin(), sink.bytes.end());
    Opened o = open_bytes(bytes);
    CHECK(o.inspector->check_feed() == nullptr);
  }
  std::vector<uint8_t> bag = make_bag();
  Opened o = open_bytes(bag);
  std::optional<std::string> fed = fed_check(*o.inspector, bag, 500, 1, bag.size() / 2);
  REQUIRE(fed);
  CHECK(incomplete(*fed));
  std::unique_ptr<ByteFeed> failed = o.inspector->check_feed();
  REQUIRE(failed);
  failed->update(bag.data() + failed->begin(), static_cast<size_t>(failed->end() - failed->begin()));
  Json answer = failed->finish("the browser could not read the file", false);
  CHECK(answer.find("error")->as_string() == "the browser could not read the file");
}

TEST_CASE("rosbag check feed: the real bags give the pulled check") {
  if (!test_support::have_samples()) return;
  std::vector<std::string> names;
  std::string dir = test_support::sample("rosbag/real");
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* entry = readdir(d)) {
      std::string name = entry->d_name;
      if (name.find(".bag") != std::string::npos && name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") != 0) names.push_back(name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  REQUIRE(!names.empty());
  size_t fed = 0;
  for (const std::string& name : names) {
    CAPTURE(name);
    std::vector<uint8_t> bytes = test_support::read_file(dir + "/" + name);
    REQUIRE(!bytes.empty());
    fed += check_fed_equals_pulled(bytes, 1 << 20, 1);
    check_fed_equals_pulled(bytes, 0, 2);
    checksum_fed_equals_pulled(bytes, 1 << 20, 1);
    checksum_fed_equals_pulled(bytes, 0, 3, /*info_first=*/true);
  }
  MESSAGE(fed << " of " << names.size() << " real bags were checked from the feed");
  CHECK(fed > 0);
}
