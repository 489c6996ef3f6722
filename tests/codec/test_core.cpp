// Core: JSON, byte sources and the cache, the cursor, detection, search, the warm-up.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/byte_source.h"
#include "core/cursor.h"
#include "core/detect.h"
#include "core/format_table.h"
#include "core/json.h"
#include "core/report.h"
#include "core/node_id.h"
#include "core/query.h"
#include "core/search.h"
#include "core/sha1.h"
#include "core/spill.h"
#include "test_support.h"
#include "warm_up.h"

using namespace logscope;

namespace {
MemoryByteSource text_source(const std::string& text) { return MemoryByteSource(std::vector<uint8_t>(text.begin(), text.end())); }
std::string detect_kind(const std::string& text) {
  MemoryByteSource source = text_source(text);
  return detect(source).kind;
}
}  // namespace

TEST_CASE("json keeps order, 64-bit integers and escapes") {
  Json j = Json::object();
  j["b"] = 1;
  j["a"] = uint64_t{18446744073709551615ull};
  j["n"] = int64_t{-5};
  j["s"] = "quote \" and \n newline";
  j["bad_utf8"] = std::string("\xff" "ok");
  std::string text = j.dump();
  CHECK(text.find("\"a\":18446744073709551615") != std::string::npos);
  CHECK(text.find("\xEF\xBF\xBDok") != std::string::npos);
  auto parsed = Json::parse(text);
  REQUIRE(parsed);
  CHECK(parsed->find("a")->as_uint() == 18446744073709551615ull);
  CHECK(parsed->find("n")->as_int() == -5);
  CHECK(parsed->find("s")->as_string() == "quote \" and \n newline");
  CHECK(parsed->items().front().first == "b");
  std::string error;
  CHECK_FALSE(Json::parse("{\"a\": [1, 2", &error));
  CHECK(!error.empty());
  CHECK(Json::parse("[1.5, true, null, \"\\u00e9\"]")->dump() == "[1.5,true,null,\"\xC3\xA9\"]");
}

TEST_CASE("cursor fails sticky instead of reading past the end") {
  const uint8_t bytes[] = {1, 0, 0, 0, 2};
  Cursor c(bytes, sizeof bytes);
  CHECK(c.u32() == 1);
  CHECK(c.ok());
  CHECK(c.u32() == 0);
  CHECK_FALSE(c.ok());
  CHECK(c.u8() == 0);
  CHECK(c.remaining() == 0);
  Cursor huge(bytes, sizeof bytes);
  CHECK(huge.bytes(SIZE_MAX).empty());
  CHECK_FALSE(huge.ok());
}

TEST_CASE("cached source serves small reads from few large ones and stays correct") {
  std::vector<uint8_t> data(3 * 1024 * 1024);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + (i >> 8));
  MemoryByteSource memory(data.data(), data.size());
  CountingByteSource counting(memory);
  CachedByteSource cached(counting);
  std::vector<uint8_t> out(100);
  // A sequential scan in 100-byte steps.
  for (uint64_t at = 0; at + 100 <= data.size(); at += 100) {
    REQUIRE(cached.read(at, out.data(), 100) == 100);
    REQUIRE(std::memcmp(out.data(), data.data() + at, 100) == 0);
  }
  CHECK(counting.read_calls() < 20);  // read-ahead grows to large fetches
  CHECK(counting.bytes_read() <= data.size() + 8 * 1024 * 1024);
  // Random reads across block edges, and reads past the end.
  CHECK(cached.read(65536 - 3, out.data(), 10) == 10);
  CHECK(std::memcmp(out.data(), data.data() + 65536 - 3, 10) == 0);
  CHECK(cached.read(data.size() - 4, out.data(), 10) == 4);
  CHECK(cached.read(data.size() + 10, out.data(), 10) == 0);
}

TEST_CASE("cached source: a large read is one call, scattered small reads stay small") {
  std::vector<uint8_t> data(64 * 1024 * 1024);
  for (size_t i = 0; i < data.size(); i += 4096) data[i] = static_cast<uint8_t>(i >> 12);
  MemoryByteSource memory(data.data(), data.size());
  CountingByteSource counting(memory);
  CachedByteSource::Options options;
  options.block_size = 16 * 1024;
  CachedByteSource cached(counting, options);
  // An index section of 3 MB read at once: one call to the slow source, not a doubling series.
  std::vector<uint8_t> out(3 * 1024 * 1024);
  REQUIRE(cached.read(40 * 1024 * 1024 + 123, out.data(), out.size()) == out.size());
  CHECK(std::memcmp(out.data(), data.data() + 40 * 1024 * 1024 + 123, out.size()) == 0);
  CHECK(counting.read_calls() == 1);
  // 500 chunk headers 100 KB apart: each costs one block, not a large read-ahead.
  cached.clear();
  counting.reset();
  uint8_t header[64];
  for (uint64_t i = 0; i < 500; ++i) REQUIRE(cached.read(i * 100 * 1024 + 7, header, sizeof header) == sizeof header);
  CHECK(counting.read_calls() == 500);
  CHECK(counting.bytes_read() <= 500 * 2 * options.block_size);
}

TEST_CASE("cached source: a will_read hint fetches the range in one call, within half the cache") {
  std::vector<uint8_t> data(64 * 1024 * 1024);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7);
  MemoryByteSource memory(data.data(), data.size());
  CountingByteSource counting(memory);
  CachedByteSource::Options options;
  options.block_size = 16 * 1024;
  CachedByteSource cached(counting, options);
  cached.will_read(1000 * 1000, 3 * 1000 * 1000);
  CHECK(counting.read_calls() == 1);
  // Later reads anywhere in the range, in any order, cost nothing.
  uint8_t piece[5000];
  for (uint64_t at : {3'900'000ull, 1'000'000ull, 2'222'222ull}) {
    REQUIRE(cached.read(at, piece, sizeof piece) == sizeof piece);
    CHECK(std::memcmp(piece, data.data() + at, sizeof piece) == 0);
  }
  CHECK(counting.read_calls() == 1);
  cached.will_read(1000 * 1000, 1000);  // already cached: no read
  CHECK(counting.read_calls() == 1);
  // More than half the cache (a hostile index offset) is ignored, as is a range past the end.
  cached.will_read(0, 40 * 1024 * 1024);
  cached.will_read(data.size() + 10, 100);
  CHECK(counting.read_calls() == 1);
}

// SQLite reads a blob's overflow pages one page at a time, wherever they lie: told the run's
// length first (expect_run), the cache fetches it in one read at the run's first miss.
TEST_CASE("cached source: an announced run is fetched at once from its first miss, and the hint is used once") {
  std::vector<uint8_t> data(16 * 1024 * 1024);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + (i >> 12));
  MemoryByteSource memory(data.data(), data.size());
  CountingByteSource counting(memory);
  CachedByteSource::Options options;  // wasm/js_folder.cpp's
  options.block_size = 4096;
  options.capacity = 16 * 1024 * 1024;
  CachedByteSource cached(counting, options);
  auto pages = [&](uint64_t first, size_t count) {
    uint8_t page[4096];
    for (size_t k = 0; k < count; ++k) {
      REQUIRE(cached.read((first + k) * 4096, page, sizeof page) == sizeof page);
      REQUIRE(std::memcmp(page, data.data() + (first + k) * 4096, sizeof page) == 0);
    }
  };
  // Unannounced: 250 pages read in a run that doubles from one page.
  pages(100, 250);
  const uint64_t doubling = counting.read_calls();
  CHECK(doubling >= 7);
  // Announced: one read at the run's first page.
  counting.reset();
  cached.expect_run(250 * 4096);
  pages(1000, 250);
  CHECK(counting.read_calls() == 1);
  CHECK(counting.bytes_read() == 250 * 4096);
  // Used once: the next run doubles again.
  counting.reset();
  pages(1500, 250);
  CHECK(counting.read_calls() == doubling);
  // Dropped before use: no effect.
  counting.reset();
  cached.expect_run(250 * 4096);
  cached.expect_run(0);
  pages(1800, 250);
  CHECK(counting.read_calls() == doubling);
}

// Camera frames read one after another must not push out the small blocks (chunk headers, index
// records, b-tree pages) that every next frame reads again.
TEST_CASE("cached source: large fetches evict large blocks first, and small blocks only past a quarter of the cache") {
  std::vector<uint8_t> data(128 * 1024 * 1024);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 5 + (i >> 14));
  MemoryByteSource memory(data.data(), data.size());
  CountingByteSource counting(memory);
  CachedByteSource::Options options;
  options.block_size = 16 * 1024;
  options.max_fetch = 2 * 1024 * 1024;  // (the capacity is at least twice this)
  options.capacity = 8 * 1024 * 1024;
  CachedByteSource cached(counting, options);
  const uint64_t MB = 1024 * 1024;
  uint8_t small[100];
  std::vector<uint8_t> frame(900 * 1024);
  // 40 small blocks 1 MB apart, then 30 frames of 900 KB after them (3.4 times the cache).
  for (uint64_t i = 0; i < 40; ++i) REQUIRE(cached.read(i * MB + 100, small, sizeof small) == sizeof small);
  for (uint64_t i = 0; i < 30; ++i) REQUIRE(cached.read(48 * MB + i * MB, frame.data(), frame.size()) == frame.size());
  counting.reset();
  for (uint64_t i = 0; i < 40; ++i) {
    REQUIRE(cached.read(i * MB + 100, small, sizeof small) == sizeof small);
    CHECK(std::memcmp(small, data.data() + i * MB + 100, sizeof small) == 0);
  }
  CHECK(counting.read_calls() == 0);
  // Small blocks beyond a quarter of the cache (2 MB: 128 blocks) go, oldest first.
  for (uint64_t i = 0; i < 300; ++i) REQUIRE(cached.read(80 * MB + i * 100 * 1024, small, sizeof small) == sizeof small);
  for (uint64_t i = 0; i < 10; ++i) REQUIRE(cached.read(48 * MB + i * MB, frame.data(), frame.size()) == frame.size());
  counting.reset();
  REQUIRE(cached.read(100, small, sizeof small) == sizeof small);
  CHECK(counting.read_calls() == 1);
}

TEST_CASE("cached source: preloaded ranges are served first, within a quarter of the cache, until released") {
  std::vector<uint8_t> data(4 * 1024 * 1024);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 13 + (i >> 9));
  MemoryByteSource memory(data.data(), data.size());
  CountingByteSource counting(memory);
  CachedByteSource::Options options;
  options.block_size = 16 * 1024;
  options.capacity = 16 * 1024 * 1024;  // preloads up to 4 MB
  CachedByteSource cached(counting, options);
  for (uint64_t at : {100'000ull, 2'000'000ull, 3'000'000ull}) REQUIRE(cached.preload(at, data.data() + at, 512));
  CHECK(cached.preloaded_bytes() == 3 * 512);
  uint8_t piece[600];
  REQUIRE(cached.read(2'000'100, piece, 300) == 300);
  CHECK(std::memcmp(piece, data.data() + 2'000'100, 300) == 0);
  CHECK(counting.read_calls() == 0);
  // A read running past a preloaded range takes the rest from the file.
  REQUIRE(cached.read(3'000'400, piece, 600) == 600);
  CHECK(std::memcmp(piece, data.data() + 3'000'400, 600) == 0);
  CHECK(counting.read_calls() == 1);
  // Refused: overlapping a preload, past the end, empty, beyond the quarter of the capacity.
  CHECK_FALSE(cached.preload(100'200, data.data() + 100'200, 512));
  CHECK_FALSE(cached.preload(99'800, data.data() + 99'800, 300));
  CHECK_FALSE(cached.preload(data.size() - 10, data.data(), 20));
  CHECK_FALSE(cached.preload(5, data.data(), 0));
  CHECK_FALSE(cached.preload(0, data.data(), 4 * 1024 * 1024));
  CHECK(cached.preload(99'488, data.data() + 99'488, 512));  // ends where the first one starts
  CHECK(cached.preloaded_bytes() == 4 * 512);
  // Released: the file is read again.
  cached.release_preloaded();
  CHECK(cached.preloaded_bytes() == 0);
  counting.reset();
  REQUIRE(cached.read(100'000, piece, 100) == 100);
  CHECK(std::memcmp(piece, data.data() + 100'000, 100) == 0);
  CHECK(counting.read_calls() == 1);
}

TEST_CASE("detection by content, with a diagnosis for everything else") {
  CHECK(detect_kind("") == "empty");
  CHECK(detect_kind("BDDF\x01\x02") == "bddf");
  CHECK(detect_kind("#ROSBAG V2.0\nxxxx") == "rosbag");
  CHECK(detect_kind("#ROSRECORD V1.2\nxx") == "rosbag");
  CHECK(detect_kind("#ROSRECORD V1.1\nxx") == "rosbag");
  CHECK(detect_kind(std::string("\x01\x00\x0e\x00" "CARLA_RECORDER" "12345678", 26)) == "carla");
  CHECK(detect_kind("#ROSBA") == "truncated-header");
  CHECK(detect_kind("BD") == "truncated-header");
  CHECK(detect_kind(std::string("\x01\x00\x0e\x00" "CARLA", 9)) == "truncated-header");
  CHECK(detect_kind("#ROSBAG V3.0\n") == "unsupported-version");
  CHECK(detect_kind("\x1f\x8b\x08\x00") == "gzip");
  CHECK(detect_kind("BZh91AY&SY") == "bzip2");
  CHECK(detect_kind("\x28\xb5\x2f\xfd\x00") == "zstd");
  CHECK(detect_kind("PK\x03\x04....") == "zip");
  CHECK(detect_kind("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n") == "lfs-pointer");
  CHECK(detect_kind("\n  <!DOCTYPE html><html><body>Sign in</body></html>") == "html");
  CHECK(detect_kind("hello, world\n") == "text");
  MemoryByteSource binary = text_source(std::string("\x00\x01\x02\x03\xfe", 5));
  Detection d = detect(binary);
  CHECK(d.kind == "unknown");
  CHECK(d.first_bytes_hex == "00010203fe");
  CHECK(d.diagnosis.find("00010203fe") != std::string::npos);
  MemoryByteSource gz = text_source("\x1f\x8b\x08\x00");
  CHECK(detect(gz).diagnosis.find("gunzip") != std::string::npos);
}

TEST_CASE("byte search forward and backward, across window edges") {
  std::vector<uint8_t> data(9 * 1024 * 1024, 0xAA);
  const uint8_t needle[] = {0xde, 0xad, 0xbe, 0xef};
  uint64_t spots[] = {10, 4 * 1024 * 1024 - 2, 8 * 1024 * 1024 + 5};
  for (uint64_t at : spots) std::memcpy(data.data() + at, needle, 4);
  MemoryByteSource source(data.data(), data.size());
  auto pattern = parse_hex_pattern("de ad BE ef");
  REQUIRE(pattern);
  uint64_t from = 0;
  for (uint64_t expected : spots) {
    SearchResult r = search_bytes(source, *pattern, from, false, nullptr);
    REQUIRE(r.found);
    CHECK(r.offset == expected);
    from = r.offset + 1;
  }
  CHECK_FALSE(search_bytes(source, *pattern, from, false, nullptr).found);
  SearchResult back = search_bytes(source, *pattern, data.size(), true, nullptr);
  REQUIRE(back.found);
  CHECK(back.offset == spots[2]);
  back = search_bytes(source, *pattern, spots[2], true, nullptr);
  REQUIRE(back.found);
  CHECK(back.offset == spots[1]);
  CHECK_FALSE(parse_hex_pattern("abc"));
  CHECK_FALSE(parse_hex_pattern("zz"));
  int calls = 0;
  SearchResult cancelled = search_bytes(source, {0x01, 0x02}, 0, false, [&](uint64_t, uint64_t) { return ++calls < 2; });
  CHECK(cancelled.cancelled);
}

TEST_CASE("sha1 matches the known digest of 'abc'") {
  CHECK(Sha1::hex(Sha1::of("abc", 3)) == "a9993e364706816aba3e25717850c26c9cd0d89d");
}

TEST_CASE("report contract: common facts, units, exact ns as strings, one recovery, problem categories") {
  logscope::Report report;
  report.format = "bddf";
  report.file.size_bytes = 123;
  report.file.start_ns = 1767225600123456789LL;  // beyond 2^53: a double would end in ...456768
  report.file.end_ns = 1767225620103456789LL;
  report.file.counts = {{"data_blocks", 7}};
  report.facts.set("version", "1.0.0", logscope::Unit::Text);
  report.facts.set("first_block_ns", 1767225600123456789LL, logscope::Unit::TimeNs);
  report.tables.push_back({"series", {"index", "first"}, {{Json(0), Json(1767225600123456789LL)}}, {logscope::Unit::Id, logscope::Unit::TimeNs}});
  report.add_problem(logscope::Severity::Error, 9, "bddf.trailer.missing", "no trailer");
  report.add_problem(logscope::Severity::Warning, 5, "rosbag.chunk_info.count_mismatch", "off by one");
  report.recovery.performed = true;
  report.recovery.recovered = {{"data_blocks", 7}};
  std::string text = report.to_json().dump();
  CHECK(text.find(R"("file":{"size_bytes":123,"start_ns":"1767225600123456789","end_ns":"1767225620103456789","duration_ns":"19980000000","counts":{"data_blocks":7}})") != std::string::npos);
  CHECK(text.find(R"({"key":"first_block_ns","value":"1767225600123456789","unit":"time_ns"})") != std::string::npos);
  CHECK(text.find(R"("units":["id","time_ns"],"rows":[[0,"1767225600123456789"]])") != std::string::npos);
  CHECK(text.find(R"("category":"recovery","offset":9)") != std::string::npos);
  CHECK(text.find(R"("category":"index","offset":5)") != std::string::npos);
  CHECK(text.find(R"("recovered":{"data_blocks":7})") != std::string::npos);
  CHECK(report.facts.find("version")->as_string() == "1.0.0");
  CHECK(report.file.count("data_blocks")->value == 7);
  CHECK(std::string(logscope::problem_category("carla.check")) == "content");  // no area: no crash
  CHECK(std::string(logscope::problem_category("")) == "content");
}

TEST_CASE("Json::as_uint and as_int clamp instead of wrapping (no undefined behaviour)") {
  CHECK(Json(-1.5).as_uint() == 0);
  CHECK(Json(-3).as_uint() == 0);
  CHECK(Json(1e30).as_uint() == ~0ULL);
  CHECK(Json(std::nan("")).as_uint() == 0);
  CHECK(Json(42.9).as_uint() == 42);
  CHECK(Json(1e30).as_int() == INT64_MAX);
  CHECK(Json(-1e30).as_int() == INT64_MIN);
  CHECK(Json(~0ULL).as_int() == INT64_MAX);
}

TEST_CASE("Json prints numbers so that they read back as the same value and type") {
  // Integers exact; a double keeps a '.' or an exponent, in its shortest round-trip digits.
  CHECK(Json(uint64_t{18446744073709551615ull}).dump() == "18446744073709551615");
  CHECK(Json(int64_t{INT64_MIN}).dump() == "-9223372036854775808");
  CHECK(Json(7041.0).dump() == "7041.0");
  CHECK(Json(1.7e9).dump() == "1700000000.0");
  CHECK(Json(0.1).dump() == "0.1");
  CHECK(Json(1e-5).dump() == "1e-05");
  CHECK(Json(1e300).dump() == "1e+300");
  CHECK(Json(static_cast<double>(1.1f)).dump() == "1.100000023841858");
  CHECK(Json(std::nan("")).dump() == "null");
  for (double value : {7041.0, 1.7e9, 0.1, -89.999786376953125, 1e-300, 5e-324, 1.7976931348623157e308, -0.0}) {
    std::string text = Json(value).dump();
    auto back = Json::parse(text);
    REQUIRE(back);
    CHECK(back->type() == Json::Type::Double);
    CHECK(back->as_double() == value);
    CHECK(std::signbit(back->as_double()) == std::signbit(value));
    CHECK(back->dump() == text);
  }
  // Integers past 64 bits read as doubles (not clamped to the largest integer).
  CHECK(Json::parse("18446744073709551616")->type() == Json::Type::Double);
  CHECK(Json::parse("-9223372036854775809")->as_double() == -9223372036854775809.0);
  // A non-negative integer is UInt however it was made; Int is only negative.
  CHECK(Json(5).type() == Json::Type::UInt);
  CHECK(Json::parse("5")->type() == Json::Type::UInt);
  CHECK(Json::parse("-5")->type() == Json::Type::Int);
  CHECK(Json::parse("-0")->type() == Json::Type::UInt);
  CHECK(Json(5) == Json(5u));
  CHECK(Json(5) == Json(5.0));
  CHECK(Json(-1) != Json(~0ULL));  // the library alone would cast 2^64-1 to -1
}

TEST_CASE("Json::parse is strict and never throws") {
  for (const char* bad : {"0-0", "-0-0", "01", "-", "1.", ".5", "1e", "+1", "[1,]", "{\"a\":1,}", "1e999", "NaN",
                          "\"\\ud800\"", "\"a\x01\"", "\"\xff\"", "", " ", "1 2", "[1] x", "// c\n1", "{\"a\"}", "\"abc"}) {
    CAPTURE(bad);
    std::string error;
    CHECK_FALSE(Json::parse(bad, &error));
    CHECK(!error.empty());
    CHECK(error[0] != '[');  // no exception id: nothing was thrown
  }
  CHECK(Json::parse(" [1, -0.5e+2, \"\\ud83d\\ude00\"] ")->dump() == "[1,-50.0,\"\xF0\x9F\x98\x80\"]");
  // A repeated key keeps its first place and its last value.
  CHECK(Json::parse(R"({"a": 1, "b": 2, "a": 3})")->dump() == R"({"a":3,"b":2})");
  // Nesting is bounded, so printing, copying and comparing (recursive) stay shallow.
  std::string error;
  CHECK(Json::parse(std::string(200, '[') + std::string(200, ']')));
  CHECK_FALSE(Json::parse(std::string(201, '[') + std::string(201, ']'), &error));
  CHECK(error.find("nesting") != std::string::npos);
  CHECK_FALSE(Json::parse(std::string(100000, '['), &error));
}

TEST_CASE("Json prints invalid UTF-8 as U+FFFD and escapes control characters") {
  Json j = Json::object();
  j["\xff"] = std::string("a\xe2\x82" "b\xc0\x80" "c\xed\xa0\x80" "d\xf0\x9f\x98");
  // Each maximal invalid sequence is one U+FFFD; overlong forms and surrogates are invalid too.
  std::string text = j.dump();
  CHECK(text == "{\"\xEF\xBF\xBD\":\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD" "c\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "d\xEF\xBF\xBD\"}");
  CHECK(Json::parse(text));
  CHECK(Json(std::string("\t\n\r\b\f\x01\x1f\"\\/")).dump() == "\"\\t\\n\\r\\b\\f\\u0001\\u001f\\\"\\\\/\"");
  CHECK(Json(std::string("\x7f")).dump() == "\"\x7f\"");  // valid JSON unescaped (json_escape escapes it for text)
  CHECK(json_escape("\x7f\x01") == "\\u007f\\u0001");
}

TEST_CASE("Json accessors give a neutral value for another type, and build what they are asked to") {
  Json s("text");
  CHECK(s.size() == 0);
  CHECK(s.find("x") == nullptr);
  CHECK(s.items().empty());
  CHECK(s.elements().empty());
  CHECK_FALSE(s.as_bool());
  CHECK(s.as_uint() == 0);
  CHECK(Json(3).as_string().empty());
  Json becomes_object = Json(1);
  becomes_object["k"] = true;
  CHECK(becomes_object.dump() == R"({"k":true})");
  Json becomes_array = Json("x");
  becomes_array.push_back(nullptr);
  CHECK(becomes_array.dump() == "[null]");
  // Children are Json: their accessors work, and they can be changed in place.
  Json tree = *Json::parse(R"({"a": {"b": [1, {"c": "d"}]}})");
  CHECK(tree.find("a")->find("b")->elements()[1].find("c")->as_string() == "d");
  tree["a"]["b"].elements()[0] = "one";
  tree["a"]["e"] = Json::array();
  tree["a"]["e"].push_back(2);
  CHECK(tree.dump() == R"({"a":{"b":["one",{"c":"d"}],"e":[2]}})");
  CHECK(tree.dump(2) == "{\n  \"a\": {\n    \"b\": [\n      \"one\",\n      {\n        \"c\": \"d\"\n      }\n    ],\n    \"e\": [\n      2\n    ]\n  }\n}");
  Json copy = tree;
  CHECK(copy == tree);
  copy["a"]["b"].elements()[1]["c"] = "changed";
  CHECK(copy != tree);
  CHECK(tree.find("a")->find("b")->elements()[1].find("c")->as_string() == "d");
  CHECK(Json::object().dump(2) == "{}");
  CHECK(Json::array().dump(2) == "[]");
}

TEST_CASE("node ids parse strictly and print back") {
  auto id = NodeId::parse("c2/r17.3");
  REQUIRE(id);
  CHECK(id->segments.size() == 2);
  CHECK(id->segments[1].tag == 'r');
  CHECK(id->segments[1].numbers == std::vector<uint64_t>{17, 3});
  CHECK(id->str() == "c2/r17.3");
  CHECK(NodeId::parse("")->segments.empty());
  CHECK(NodeId::one('f', {12}) == "f12");
  CHECK(parse_node_number("f12", 'f') == 12u);
  for (const char* bad : {"fx", "f", "f-1", "f 1", "f+1", "12", "f1/", "f1.", "f1..2", "f18446744073709551616", "f1x", "/f1"}) {
    CAPTURE(bad);
    CHECK(!NodeId::parse(bad));
  }
  CHECK(!parse_node_number("p12", 'f'));
  CHECK(!parse_node_number("f1.2", 'f'));
  CHECK(parse_node_number("f18446744073709551615", 'f') == UINT64_MAX);
}

TEST_CASE("query table: arguments checked against the schema, errors name the argument") {
  std::vector<QuerySpec> table = {{"page", "a page of things", {{"first", ArgType::U64, ""}, {"t0_ns", ArgType::I64, ""}, {"rate", ArgType::Double, ""}, {"series", ArgType::U64List, ""}},
                                   {{"first", Unit::Id}, {"t0_ns", Unit::TimeNs}, {"series", Unit::Count}},
                                   [](QueryArgs& a, const ProgressFn&) {
                                     Json out = Json::object();
                                     out["first"] = a.u64("first", 0, 0, 1000);
                                     out["t0_ns"] = a.i64("t0_ns", -1);
                                     out["series"] = a.u64_list("series").size();
                                     return out;
                                   }}};
  auto run = [&](const std::string& args) { return run_query(table, "page", *Json::parse(args), nullptr); };
  const std::string units = R"("units":{"first":"id","t0_ns":"time_ns","series":"count"})";
  CHECK(run(R"({"first": 5, "t0_ns": 1767225600123456789})").dump() == R"({"first":5,"t0_ns":"1767225600123456789","series":0,)" + units + "}");
  CHECK(run(R"({"first": 5.0, "series": [1, 2]})").dump() == R"({"first":5,"t0_ns":"-1","series":2,)" + units + "}");
  CHECK(run(R"({"t0_ns": -5})").find("t0_ns")->as_string() == "-5");
  // 64-bit integers as decimal strings, as the page sends them (JavaScript numbers lose digits past 2^53).
  CHECK(run(R"({"first": "3", "t0_ns": "-1767225600123456789", "series": ["1", 2]})").dump() ==
        R"({"first":3,"t0_ns":"-1767225600123456789","series":2,)" + units + "}");
  CHECK(run(R"({"t0_ns": "9223372036854775807"})").find("t0_ns")->as_string() == "9223372036854775807");
  auto error = [&](const std::string& args) {
    Json out = run(args);
    const Json* e = out.find("error");
    return e ? e->as_string() : std::string("no error: ") + out.dump();
  };
  CHECK(error(R"({"first": -1})") == R"(page: argument "first" must be a whole number from 0 to 2^64-1, got -1)");
  CHECK(error(R"({"first": 1.5})") == R"(page: argument "first" must be a whole number, got 1.5)");
  for (const char* text : {R"("3x")", R"("")", R"("+3")", R"(" 3")", R"("1.5")", R"("-")", R"("0x10")"})
    CHECK(error(std::string(R"({"first": )") + text + "}") == std::string(R"(page: argument "first" must be a whole number, got )") + text);
  CHECK(error(R"({"first": "-1"})") == R"(page: argument "first" must be a whole number from 0 to 2^64-1, got "-1")");
  CHECK(error(R"({"first": "18446744073709551616"})") == R"(page: argument "first" must be a whole number from 0 to 2^64-1, got "18446744073709551616")");
  CHECK(error(R"({"t0_ns": "9223372036854775808"})") == R"(page: argument "t0_ns" must be a whole number from -2^63 to 2^63-1, got "9223372036854775808")");
  CHECK(error(R"({"first": "5000"})") == R"(page: argument "first" must be from 0 to 1000, got 5000)");
  CHECK(error(R"({"first": 5000})") == R"(page: argument "first" must be from 0 to 1000, got 5000)");
  CHECK(error(R"({"t0_ns": 9223372036854775808})") == R"(page: argument "t0_ns" must be a whole number from -2^63 to 2^63-1, got 9223372036854775808)");
  CHECK(error(R"({"series": [1, -2]})") == R"(page: argument "series" must be a whole number >= 0 or a list of them, got [1,-2])");
  CHECK(error(R"({"frist": 1})") == R"(page: unknown argument "frist" (this query takes: first, t0_ns, rate, series))");
  CHECK(run_query(table, "nope", Json::object(), nullptr).find("error")->as_string() == "unknown query: nope (this format answers: page)");
  CHECK(query_table_json(table).dump().find(R"({"name":"t0_ns","type":"i64","help":""})") != std::string::npos);
  CHECK(query_table_json(table).dump().find(units) != std::string::npos);
}

TEST_CASE("query results: every value's unit by path, ns as exact decimal strings, the file's content as one value") {
  Json result = *Json::parse(R"({"t0_ns": 1767225600123456789, "total": 2, "blocks": [{"ts": 1767225600123456789, "at": [1, 2]},
    {"ts": -5, "at": []}], "span": {"ns": [9007199254740993, 7]}, "message": {"offset": 1, "deep": {"x": 2.5}}, "empty": [],
    "units": "ignored", "bad": {"seen": true}})");
  ResultUnits units = {{"t0_ns", Unit::TimeNs}, {"total", Unit::Count}, {"blocks.ts", Unit::TimeNs}, {"blocks.at", Unit::Offset},
                       {"span.ns", Unit::DurationNs}, {"message", Unit::Data}, {"missing", Unit::Flag}, {"empty", Unit::Count}};
  Json typed = with_units(result, units);
  CHECK(typed.dump() == R"({"t0_ns":"1767225600123456789","total":2,"blocks":[{"ts":"1767225600123456789","at":[1,2]},)"
                        R"({"ts":"-5","at":[]}],"span":{"ns":["9007199254740993","7"]},"message":{"offset":1,"deep":{"x":2.5}},"empty":[],)"
                        R"("units":{"t0_ns":"time_ns","total":"count","blocks.ts":"time_ns","blocks.at":"offset","span.ns":"duration_ns",)"
                        R"("message":"data","empty":"count"},"bad":{"seen":true}})");
  // Only the paths present are listed; a value without a unit is found, inside content is not looked at.
  CHECK(untyped_paths(typed) == std::vector<std::string>{"bad.seen"});
  CHECK(untyped_paths(*Json::parse(R"({"a": 1, "b": [{"c": null}], "units": {"a": "count"}})")) == std::vector<std::string>{"b.c"});
  // An error stays as it is.
  CHECK(with_units(QueryArgs::error_json("no"), units).dump() == R"({"error":"no"})");
}

TEST_CASE("the warm-up opens a clean file of every format (a file our writers and readers disagree on would warm nothing)") {
  CHECK(formats().size() >= 3);
  // One format at a time, as the page warms up: each opens, and past the table's end nothing does.
  for (size_t i = 0; i < formats().size(); i++) CHECK(warm_up_format(i));
  CHECK_FALSE(warm_up_format(formats().size()));
}

TEST_CASE("parse_decimal: digits only, no sign, space, 0x or overflow") {
  CHECK(parse_decimal("0") == std::optional<uint64_t>(0));
  CHECK(parse_decimal("4294967296") == std::optional<uint64_t>(4294967296ull));
  CHECK(parse_decimal("18446744073709551615") == std::optional<uint64_t>(UINT64_MAX));
  for (const char* bad : {"", "+1", "-1", " 1", "1 ", "0x1", "1.5", "18446744073709551616", "99999999999999999999999"})
    CHECK_FALSE(parse_decimal(bad));
}

namespace {
struct SpillInMemory : SpillFile {
  std::string bytes;
  bool broken = false;
  bool write(uint64_t offset, const void* data, size_t size) override {
    if (bytes.size() < offset + size) bytes.resize(offset + size);
    std::memcpy(&bytes[offset], data, size);
    return true;
  }
  bool read(uint64_t offset, void* data, size_t size) override {
    if (broken || offset + size > bytes.size()) return false;
    std::memcpy(data, bytes.data() + offset, size);
    return true;
  }
  std::string error() const override { return "unreadable"; }
};
}  // namespace

TEST_CASE("spilled streams: each stream drains in order, with or without a spill file, holding a segment a stream") {
  for (bool with_file : {false, true}) {
    CAPTURE(with_file);
    SpillInMemory file;
    SpilledStreams streams(with_file ? &file : nullptr, 100);
    std::vector<std::string> expected(5);
    uint32_t seed = 7;
    for (int i = 0; i < 2000; ++i) {
      seed = seed * 1103515245u + 12345u;
      size_t stream = (seed >> 8) % 5, size = (seed >> 16) % 250;
      std::string piece(size, static_cast<char>('a' + i % 26));
      REQUIRE(streams.append(stream, piece.data(), piece.size()));
      expected[stream] += piece;
      if (with_file) CHECK(streams.held_bytes() < 5 * 100);
    }
    uint64_t total = 0;
    for (const std::string& e : expected) total += e.size();
    CHECK(streams.held_bytes() + streams.spilled_bytes() == total);
    for (size_t stream : {size_t{3}, size_t{0}, size_t{4}, size_t{1}, size_t{2}, size_t{9}}) {
      CHECK(streams.size(stream) == (stream < 5 ? expected[stream].size() : 0));
      std::string back;
      CHECK(streams.drain(stream, [&back](const void* data, size_t size) {
        back.append(static_cast<const char*>(data), size);
        return true;
      }));
      CHECK(back == (stream < 5 ? expected[stream] : ""));
      CHECK(streams.size(stream) == 0);
    }
    CHECK(streams.held_bytes() == 0);
  }
  SpillInMemory broken;
  SpilledStreams streams(&broken, 16);
  std::string piece(100, 'x');
  REQUIRE(streams.append(0, piece.data(), piece.size()));
  broken.broken = true;
  CHECK_FALSE(streams.drain(0, [](const void*, size_t) { return true; }));
  CHECK(streams.error() == "the scratch file could not be read at 0: unreadable");
  CHECK_FALSE(streams.append(0, piece.data(), 1));  // a failure is final
}
