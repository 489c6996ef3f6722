// Extract and repair on fixtures made by our own writers: bags (V2.0 and V1.2, indexed, unindexed,
// truncated), BDDF files cut mid-block, CARLA logs cut mid-frame. The outputs are re-read by the
// codec; reference readers are compared in test_extract_samples.cpp.
#include <map>
#include <string>

#include "bddf/blocks.h"
#include "bddf/extract.h"
#include "bddf/reader.h"
#include "bddf/writer.h"
#include "carla/writer.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "inspector.h"
#include "rosbag/extract.h"
#include "rosbag/iterate.h"
#include "rosbag/reader.h"
#include "rosbag/writer.h"
#include "test_support.h"

using namespace logscope;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// Three topics at 100, 50 and 10 Hz over 10 s, in chunks of ~4 KB; not closed when `close` is false.
std::string make_bag(int version, const std::string& compression, bool close) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.version = version;
  options.compression = compression;
  options.chunk_threshold = 4096;
  rosbag::BagWriter w(sink, options);
  uint32_t imu = w.add_connection("/imu", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  uint32_t odom = w.add_connection("/odom", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  uint32_t gps = w.add_connection("/gps", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n");
  for (int i = 0; i < 1000; ++i) {
    rosbag::Time t = rosbag::Time::from_ns(1700000000000000000ull + uint64_t(i) * 10000000ull);
    std::string text = "message " + std::to_string(i);
    std::string data(4, '\0');
    uint32_t n = static_cast<uint32_t>(text.size());
    std::memcpy(&data[0], &n, 4);
    data += text;
    REQUIRE(w.write(imu, t, data));
    if (i % 2 == 0) REQUIRE(w.write(odom, t, data));
    if (i % 10 == 0) REQUIRE(w.write(gps, t, data));
  }
  if (close) REQUIRE(w.close());
  return sink.bytes;
}

struct ReadBack {
  rosbag::Bag bag;
  std::map<std::string, uint64_t> per_topic;
  uint64_t first_ns = UINT64_MAX, last_ns = 0;
};

ReadBack read_bag(const std::string& bytes) {
  ReadBack r;
  MemoryByteSource source(bytes_of(bytes));
  Detection d = detect(source);
  rosbag::open_bag(source, rosbag::format_of(d), &r.bag);
  std::vector<Problem> problems;
  rosbag::for_each_message(source, r.bag, {}, [&](const rosbag::MessageView& m) {
    ++r.per_topic[m.connection ? m.connection->topic : "?"];
    r.first_ns = std::min(r.first_ns, m.time.ns());
    r.last_ns = std::max(r.last_ns, m.time.ns());
    return true;
  }, &problems);
  CHECK(problems.empty());
  return r;
}

rosbag::BagExtractOptions topics(std::vector<std::string> names) {
  rosbag::BagExtractOptions o;
  o.topics = std::move(names);
  return o;
}

ExtractResult extract(const std::string& input, MemoryOutputSink& out, const rosbag::BagExtractOptions& options) {
  MemoryByteSource source(bytes_of(input));
  return rosbag::extract_bag(source, rosbag::format_of(detect(source)), out, options);
}

}  // namespace

TEST_CASE("bag extract: one topic in a time span, indexed V2.0 with the input's compression") {
  for (const char* compression : {"none", "lz4", "bz2"}) {
    CAPTURE(compression);
    std::string input = make_bag(200, compression, true);
    rosbag::BagExtractOptions options = topics({"/odom"});
    REQUIRE(parse_time_bound("+2", &options.from, nullptr));
    REQUIRE(parse_time_bound("+4.5", &options.to, nullptr));
    MemoryOutputSink out;
    ExtractResult result = extract(input, out, options);
    REQUIRE_MESSAGE(result.ok, result.error);
    ReadBack r = read_bag(out.bytes);
    CHECK(r.bag.version == 200);
    CHECK(r.bag.indexed);
    CHECK_FALSE(r.bag.recovery.performed);
    CHECK(r.bag.problems.empty());
    REQUIRE(r.bag.connections.size() == 1);  // only the connection used
    CHECK(r.bag.connections[0].topic == "/odom");
    // /odom every 20 ms: i = 200, 202, ..., 450 -> 126 messages in [2 s, 4.5 s].
    CHECK(r.per_topic["/odom"] == 126);
    CHECK(r.first_ns == 1700000002000000000ull);
    CHECK(r.last_ns == 1700000004500000000ull);
    MemoryByteSource written(bytes_of(out.bytes));
    rosbag::Bag bag;
    rosbag::open_bag(written, rosbag::Format::RosbagV20, &bag);
    REQUIRE(rosbag::read_chunk_headers(written, &bag));
    for (const rosbag::Chunk& c : bag.chunks) CHECK(c.compression == compression);
  }
}

TEST_CASE("bag extract: --compression overrides, absolute times, unknown topics and streams are refused") {
  std::string input = make_bag(200, "lz4", true);
  rosbag::BagExtractOptions options = topics({"/gps", "/imu"});
  options.compression = "none";
  REQUIRE(parse_time_bound("1700000009.5", &options.from, nullptr));
  MemoryOutputSink out;
  REQUIRE(extract(input, out, options).ok);
  ReadBack r = read_bag(out.bytes);
  CHECK(r.per_topic["/imu"] == 50);
  CHECK(r.per_topic["/gps"] == 5);
  CHECK(r.per_topic.count("/odom") == 0);

  MemoryOutputSink unused;
  ExtractResult missing = extract(input, unused, topics({"/nope"}));
  CHECK_FALSE(missing.ok);
  CHECK(missing.error.find("/nope") != std::string::npos);
  CHECK(missing.error.find("/imu") != std::string::npos);

  struct StreamOnly : OutputSink {
    bool write(const void*, size_t size) override { return (n += size), true; }
    uint64_t written() const override { return n; }
    uint64_t n = 0;
  } stream;
  MemoryByteSource source(bytes_of(input));
  ExtractResult refused = rosbag::extract_bag(source, rosbag::Format::RosbagV20, stream, {});
  CHECK_FALSE(refused.ok);
  CHECK(refused.error.find("seekable") != std::string::npos);
  CHECK(stream.n == 0);

  TimeBound bound;
  std::string error;
  CHECK_FALSE(parse_time_bound("+", &bound, &error));
  CHECK_FALSE(parse_time_bound("12s", &bound, &error));
  CHECK_FALSE(parse_time_bound("-3", &bound, &error));
  CHECK(error.find("-3") != std::string::npos);
}

TEST_CASE("bag repair: unindexed and truncated V2.0 and V1.2 keep exactly the complete messages") {
  for (int version : {200, 102}) {
    CAPTURE(version);
    std::string whole = make_bag(version, version == 200 ? "lz4" : "none", false);  // never closed: no index
    ReadBack expected_whole = read_bag(whole);
    for (size_t cut : {whole.size(), whole.size() * 2 / 3, whole.size() / 3 + 17}) {
      CAPTURE(cut);
      std::string input = whole.substr(0, cut);
      ReadBack before = read_bag(input);  // what the reader recovers from the damaged input
      CHECK(before.bag.recovery.performed);
      MemoryOutputSink out;
      ExtractResult result = extract(input, out, {});
      REQUIRE_MESSAGE(result.ok, result.error);
      ReadBack after = read_bag(out.bytes);
      CHECK(after.bag.indexed);
      CHECK(after.bag.problems.empty());
      CHECK(after.per_topic == before.per_topic);
      if (cut == whole.size()) CHECK(after.per_topic == expected_whole.per_topic);
      else {
        CHECK(after.per_topic["/imu"] < 1000);
        bool says_where = false;
        for (const std::string& line : result.dropped)
          says_where |= line.find("bytes from byte " + std::to_string(before.bag.recovery.ends_at)) != std::string::npos;
        CHECK_MESSAGE(says_where, "dropped lines name the byte where reading stopped");
      }
    }
  }
}
