// ROS bags: writer round trips (V2.0 none/bz2/lz4, V1.2, V1.1), time-ordered iteration, decoding,
// damaged and truncated files, index-first opening.
#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "core/byte_source.h"
#include "core/detect.h"
#include "rosbag/decode.h"
#include "rosbag/inspector.h"
#include "rosbag/inspector.h"
#include "rosbag/iterate.h"
#include "rosbag/reader.h"
#include "rosbag/summary.h"
#include "rosbag/iterate.h"
#include "rosbag/summary.h"
#include "rosbag/msgdef.h"
#include "rosbag/writer.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::rosbag;

namespace {

const char* kPoseDef =
    "Header header\nfloat64[3] position\nint16[] samples\nstring label\nuint8[] blob\nduration age\n"
    "int32 LIMIT=10 # a constant\nstring NAME=a#b\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";

struct Sample {
  std::string bytes;
  void u32(uint32_t v) { bytes.append(reinterpret_cast<const char*>(&v), 4); }
  void str(const std::string& s) { u32(static_cast<uint32_t>(s.size())), bytes += s; }
};

std::string pose_message(uint32_t seq, Time stamp, int samples) {
  Sample s;
  s.u32(seq);
  s.u32(stamp.sec), s.u32(stamp.nsec);
  s.str("map");
  for (double d : {1.5, -2.0, 3.25}) s.bytes.append(reinterpret_cast<const char*>(&d), 8);
  s.u32(static_cast<uint32_t>(samples));
  for (int i = 0; i < samples; ++i) {
    int16_t v = static_cast<int16_t>(i - 5);
    s.bytes.append(reinterpret_cast<const char*>(&v), 2);
  }
  s.str("pose #" + std::to_string(seq));
  s.u32(3);
  s.bytes += std::string("\x01\x02\xff", 3);
  int32_t age[2] = {-1, 500};
  s.bytes.append(reinterpret_cast<const char*>(age), 8);
  return s.bytes;
}

// Two topics (one with two connections), messages out of order across chunks.
std::string make_bag(int version, const std::string& compression, int messages = 300, size_t threshold = 2048) {
  MemorySink sink;
  WriterOptions options;
  options.version = version;
  options.compression = compression;
  options.chunk_threshold = threshold;
  BagWriter writer(sink, options);
  uint32_t a = writer.add_connection("/pose", "demo_msgs/Pose", "0123456789abcdef0123456789abcdef", kPoseDef, "/node_a");
  uint32_t b = writer.add_connection("/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n", "/node_b", true);
  uint32_t c = version == 200 ? writer.add_connection("/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n", "/node_c") : b;
  for (int i = 0; i < messages; ++i) {
    Time t{100 + static_cast<uint32_t>(i / 10), static_cast<uint32_t>((i % 10) * 100000000)};
    if (i % 3 == 0) REQUIRE(writer.write(a, t, pose_message(i, t, i % 40)));
    else {
      int32_t v = i;
      REQUIRE(writer.write(i % 3 == 1 ? b : c, t, std::string_view(reinterpret_cast<const char*>(&v), 4)));
    }
  }
  REQUIRE(writer.close());
  return sink.bytes;
}

MemoryByteSource source_of(const std::string& bytes) { return MemoryByteSource(std::vector<uint8_t>(bytes.begin(), bytes.end())); }

Bag open(const std::string& bytes) {
  MemoryByteSource source = source_of(bytes);
  Bag bag;
  open_bag(source, rosbag::format_of(detect(source)), &bag);
  return bag;
}

std::vector<uint64_t> times_of(const std::string& bytes, std::vector<Problem>* problems = nullptr) {
  MemoryByteSource source = source_of(bytes);
  Bag bag;
  open_bag(source, rosbag::format_of(detect(source)), &bag);
  std::vector<uint64_t> times;
  for_each_message(source, bag, IterateOptions(), [&](const MessageView& v) {
    times.push_back(v.time.ns());
    return true;
  }, problems);
  return times;
}

bool has_code(const std::vector<Problem>& problems, const std::string& code) {
  return std::any_of(problems.begin(), problems.end(), [&](const Problem& p) { return p.code == code; });
}

}  // namespace

TEST_CASE("V2.0 round trip for none, bz2 and lz4 chunks") {
  for (const char* compression : {"none", "bz2", "lz4"}) {
    CAPTURE(compression);
    std::string bytes = make_bag(200, compression);
    MemoryByteSource source = source_of(bytes);
    REQUIRE(rosbag::format_of(detect(source)) == Format::RosbagV20);
    auto inspector = open_inspector(source, Format::RosbagV20);
    Report summary = inspector->summary();
    CHECK(summary.problems.empty());
    CHECK(summary.file.count("messages")->value == 300);
    // summary() reads no chunk header: compression is left for info_report().
    CHECK(summary.facts.find("compression") == nullptr);
    CHECK(summary.details.find("compression_read")->as_bool() == false);
    Report info = inspector->info_report(nullptr);
    CHECK(info.facts.find("compression")->as_string() == compression);
    CHECK(info.details.find("compression_read")->as_bool());
    CHECK(info.details.find("compression_by_codec")->size() == 1);
    CHECK(summary.file.count("chunks")->value > 3);
    const Json* topics = summary.details.find("topics");
    REQUIRE(topics);
    REQUIRE(topics->size() == 2);
    CHECK((*topics)[0].find("topic")->as_string() == "/count");
    CHECK((*topics)[0].find("messages")->as_uint() == 200);
    CHECK((*topics)[0].find("connections")->as_uint() == 2);
    CHECK((*topics)[1].find("messages")->as_uint() == 100);
    CHECK(summary.details.find("start_ns")->as_uint() == 100000000000ull);
    CHECK(summary.details.find("end_ns")->as_uint() == 129900000000ull);
    Report check = inspector->check(nullptr);
    CHECK(check.problems.empty());
    CHECK(check.details.find("checksum")->find("status")->as_string() == (std::string(compression) == "lz4" ? "valid" : "not_applicable"));
    std::vector<uint64_t> times = times_of(bytes);
    CHECK(times.size() == 300);
    CHECK(std::is_sorted(times.begin(), times.end()));
  }
}

TEST_CASE("messages decode with nested types, arrays, constants, bytes and durations") {
  std::string bytes = make_bag(200, "lz4");
  MemoryByteSource source = source_of(bytes);
  auto inspector = open_inspector(source, Format::RosbagV20);
  Json args = Json::object();
  args["topic"] = "/pose";
  args["first"] = 13;
  args["count"] = 2;
  Json page = inspector->query("messages", args, nullptr);
  REQUIRE(page.find("messages")->size() == 2);
  const Json& m = (*page.find("messages"))[0];
  CHECK(m.find("error") == nullptr);
  const Json& msg = *m.find("message");
  CHECK(msg.find("header")->find("seq")->as_uint() == 39);
  CHECK(msg.find("header")->find("frame_id")->as_string() == "map");
  CHECK(msg.find("position")->dump() == "[1.5,-2.0,3.25]");  // float64[]: doubles print as doubles
  // 39 % 40 = 39 samples: more than the preview, so the first 16 and the length.
  CHECK(msg.find("samples")->find("length")->as_uint() == 39);
  CHECK(msg.find("samples")->find("first")->size() == 16);
  CHECK((*msg.find("samples")->find("first"))[0].as_int() == -5);
  CHECK(msg.find("label")->as_string() == "pose #39");
  CHECK(msg.find("blob")->dump() == "{\"length\":3,\"hex\":\"0102ff\"}");
  CHECK(msg.find("age")->dump() == "{\"secs\":-1,\"nsecs\":500}");
  CHECK(page.find("more")->as_bool());
  // Each message says where it lives: its chunk's record, and its place in the decompressed data.
  const auto& chunks = opened_bag(*inspector)->chunks;
  uint64_t chunk_pos = m.find("chunk_pos")->as_uint();
  CHECK(std::any_of(chunks.begin(), chunks.end(), [&](const Chunk& c) { return c.pos == chunk_pos; }));
  CHECK(m.find("offset_in_chunk")->as_uint() < 1024 * 1024);

  std::string error;
  auto schema = MessageSchema::parse("demo_msgs/Pose", kPoseDef, &error);
  REQUIRE(schema);
  REQUIRE(schema->root().constants.size() == 2);
  CHECK(schema->root().constants[0].value == "10");
  CHECK(schema->root().constants[1].value == "a#b");
}

TEST_CASE("bad definitions and lying array lengths give errors, not crashes") {
  std::string error;
  CHECK_FALSE(MessageSchema::parse("a/B", "Unknown thing\n", &error));
  CHECK(error.find("Unknown") != std::string::npos);
  CHECK_FALSE(MessageSchema::parse("a/B", "int32[x] bad\n", &error));
  CHECK_FALSE(MessageSchema::parse("a/B", "int32 a\n====\nnot a msg line\n", &error));
  auto self = MessageSchema::parse("a/B", "B child\n", &error);  // self-referencing
  REQUIRE(self);
  std::vector<uint8_t> nothing;
  self->decode(nothing.data(), 0, DecodeOptions(), &error);
  CHECK(error.find("deeper") != std::string::npos);
  auto arrays = MessageSchema::parse("a/B", "float64[] values\nstring[] names\n", &error);
  REQUIRE(arrays);
  uint8_t huge[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
  arrays->decode(huge, sizeof huge, DecodeOptions(), &error);
  CHECK(error.find("needs at least") != std::string::npos);
  uint8_t extra[12] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
  arrays->decode(extra, sizeof extra, DecodeOptions(), &error);
  CHECK(error.find("left after decoding") != std::string::npos);
}

TEST_CASE("opening reads the version line, the bag header and the index section, not chunk data") {
  std::string bytes = make_bag(200, "lz4", 3000, 64 * 1024);
  MemoryByteSource memory = source_of(bytes);
  CountingByteSource counting(memory);
  Bag bag;
  open_bag(counting, Format::RosbagV20, &bag);
  REQUIRE(bag.indexed);
  uint64_t index_size = bytes.size() - bag.index_pos;
  CHECK(counting.bytes_read() >= index_size);
  CHECK(counting.bytes_read() <= 4104 + index_size);  // the header's padding is not even read
  CHECK(counting.read_calls() <= 3);
  // The summary adds only a small read of each chunk's record header.
  counting.reset();
  compute_stats(counting, bag, false);
  CHECK(counting.read_calls() <= 2 * bag.chunks.size());
  CHECK(counting.bytes_read() < 300 * bag.chunks.size());
}

TEST_CASE("summary() reads only the version line, the bag header and the index section, info_report() adds compression") {
  for (const char* compression : {"lz4", "bz2", "none"}) {
    CAPTURE(compression);
    std::string bytes = make_bag(200, compression, 3000, 4 * 1024);
    MemoryByteSource memory = source_of(bytes);
    CountingByteSource counting(memory);
    auto inspector = open_inspector(counting, Format::RosbagV20);
    Report summary = inspector->summary();
    auto& bag = *opened_bag(*inspector);
    REQUIRE(bag.indexed);
    REQUIRE(bag.chunks.size() > 20);
    uint64_t budget = 13 + 4104 + (bytes.size() - bag.index_pos) + 64;
    CHECK(counting.bytes_read() <= budget);
    CHECK(counting.read_calls() <= 4);
    CHECK(summary.details.find("messages")->as_uint() == 3000);
    CHECK(summary.details.find("compression_read")->as_bool() == false);
    CHECK(summary.details.find("compression_by_codec") == nullptr);
    CHECK(summary.facts.find("compression") == nullptr);
    CHECK(summary.tables.size() == 2);
    // info_report reads each chunk header (with progress) and gives the compression facts.
    counting.reset();
    uint64_t progress_calls = 0;
    Report info = inspector->info_report([&](uint64_t, uint64_t) { return ++progress_calls > 0; });
    CHECK(progress_calls > 0);
    CHECK(counting.read_calls() >= bag.chunks.size());
    CHECK(counting.bytes_read() < 300 * bag.chunks.size());
    CHECK(info.facts.find("compression")->as_string() == compression);
    const Json* codecs = info.details.find("compression_by_codec");
    REQUIRE(codecs);
    REQUIRE(codecs->size() == 1);
    CHECK((*codecs)[0].find("chunks")->as_uint() == bag.chunks.size());
    uint64_t compressed = 0, uncompressed = 0;
    for (const Chunk& c : bag.chunks) compressed += c.compressed_size, uncompressed += c.uncompressed_size;
    CHECK((*codecs)[0].find("compressed")->as_uint() == compressed);
    CHECK((*codecs)[0].find("uncompressed")->as_uint() == uncompressed);
    CHECK(info.details.find("compression_ratio")->as_double() == doctest::Approx(double(compressed) / double(uncompressed)));
    if (std::string(compression) == "none") CHECK(compressed == uncompressed);
    else CHECK(compressed < uncompressed);
    // info_text still prints rosbag's compression row.
    std::string text = inspector->info_text(InfoOptions{"x.bag"});
    CHECK(text.find(std::string(" ") + compression + " [" + std::to_string(bag.chunks.size()) + "/" +
                    std::to_string(bag.chunks.size()) + " chunks") != std::string::npos);
  }
}

TEST_CASE("V1.2 (indexed and unindexed) and V1.1 read the same messages") {
  for (int version : {102, 101}) {
    CAPTURE(version);
    std::string bytes = make_bag(version, "none", 120);
    MemoryByteSource source = source_of(bytes);
    auto inspector = open_inspector(source, rosbag::format_of(detect(source)));
    Report summary = inspector->summary();
    CHECK(summary.details.find("messages")->as_uint() == 120);
    CHECK(summary.details.find("indexed")->as_bool() == (version == 102));
    std::vector<uint64_t> times = times_of(bytes);
    CHECK(times.size() == 120);
    CHECK(std::is_sorted(times.begin(), times.end()));
    Json args = Json::object();
    args["topic"] = "/pose";
    args["count"] = 1;
    Json page = inspector->query("messages", args, nullptr);
    REQUIRE(page.find("messages")->size() == 1);
    if (version == 102) CHECK((*page.find("messages"))[0].find("message")->find("label")->as_string() == "pose #0");
    else CHECK((*page.find("messages"))[0].find("error") != nullptr);  // V1.1 has no definitions
  }
  // A V1.2 recording that crashed: index_pos still 0, read by scanning.
  std::string bytes = make_bag(102, "none", 120);
  Bag bag = open(bytes);
  uint64_t index_pos = bag.index_pos;
  REQUIRE(index_pos > 0);
  std::string unindexed = bytes.substr(0, index_pos);
  size_t field = unindexed.find("index_pos=");
  REQUIRE(field != std::string::npos);
  std::memset(&unindexed[field + 10], 0, 8);
  Bag scanned = open(unindexed);
  CHECK_FALSE(scanned.indexed);
  CHECK(scanned.messages.size() == 120);
  CHECK(has_code(scanned.problems, "rosbag.index.missing"));
}

TEST_CASE("unsorted and overlapping chunks iterate in time order") {
  MemorySink sink;
  WriterOptions options;
  options.chunk_threshold = 1;  // a chunk per message
  BagWriter writer(sink, options);
  uint32_t c = writer.add_connection("/x", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
  for (uint32_t s : {5u, 3u, 9u, 1u, 7u, 2u}) {
    int32_t v = static_cast<int32_t>(s);
    REQUIRE(writer.write(c, Time{s, 0}, std::string_view(reinterpret_cast<const char*>(&v), 4)));
  }
  REQUIRE(writer.close());
  std::vector<uint64_t> times = times_of(sink.bytes);
  CHECK(times == std::vector<uint64_t>{1000000000, 2000000000, 3000000000, 5000000000, 7000000000, 9000000000});
  MemoryByteSource source = source_of(sink.bytes);
  auto inspector = open_inspector(source, Format::RosbagV20);
  Report check = inspector->check(nullptr);
  CHECK(has_code(check.problems, "rosbag.chunks.unsorted"));
  std::string text = inspector->info_text(InfoOptions{"x.bag"});
  CHECK(text.find("duration:    8.0s") != std::string::npos);
}

TEST_CASE("a bag cut at any byte opens, recovers whole chunks and says where it ends") {
  std::string bytes = make_bag(200, "lz4", 200, 1024);
  Bag full = open(bytes);
  size_t step = std::max<size_t>(1, bytes.size() / 97);
  for (size_t cut = 0; cut < bytes.size(); cut += step) {
    CAPTURE(cut);
    std::string part = bytes.substr(0, cut);
    MemoryByteSource source = source_of(part);
    Detection d = detect(source);
    if (rosbag::format_of(d) != Format::RosbagV20) continue;
    auto inspector = open_inspector(source, rosbag::format_of(d));
    Report summary = inspector->summary();
    inspector->check(nullptr);
    inspector->info_text(InfoOptions{"cut.bag"});
    inspector->children("", 0, 50);
    inspector->spans(0, 8192);
    std::vector<uint64_t> times = times_of(part);
    CHECK(times.size() <= 200);
    if (cut > 4117 && cut < full.index_pos) {
      const Json* recovery = summary.details.find("recovery");
      REQUIRE(recovery);
      CHECK(recovery->find("ends_at")->as_uint() <= cut);
      // Every chunk that ends (with its index records) before the cut is recovered.
      uint64_t whole = 0;
      for (size_t i = 0; i + 1 < full.chunks.size(); ++i)
        if (full.chunks[i + 1].pos <= cut) whole += full.chunks[i].message_count();
      CHECK(recovery->find("recovered_messages")->as_uint() >= whole);
      CHECK(recovery->find("recovered_messages")->as_uint() == times.size());
    }
  }
}

TEST_CASE("damaged chunks: lz4 checksum, bz2 corruption, lying sizes, encryption") {
  SUBCASE("lz4 content checksum mismatch") {
    std::string bytes = make_bag(200, "lz4", 60, 1 << 20);
    Bag bag = open(bytes);
    MemoryByteSource probe = source_of(bytes);
    read_chunk_headers(probe, &bag);
    REQUIRE(bag.chunks.size() == 1);
    // Flip a byte in the stored content checksum (the last 4 bytes of the frame).
    bytes[bag.chunks[0].record_end() - 2] ^= 0x5a;
    MemoryByteSource source = source_of(bytes);
    auto inspector = open_inspector(source, Format::RosbagV20);
    Report check = inspector->check(nullptr);
    CHECK(has_code(check.problems, "rosbag.chunk.lz4_checksum"));
    CHECK(check.details.find("checksum")->find("status")->as_string() == "mismatch");
    CHECK(inspector->checksum(nullptr).find("status")->as_string() == "mismatch");
  }
  SUBCASE("bz2 corruption and a lying uncompressed size") {
    std::string bytes = make_bag(200, "bz2", 60, 1 << 20);
    Bag bag = open(bytes);
    MemoryByteSource probe = source_of(bytes);
    read_chunk_headers(probe, &bag);
    bytes[bag.chunks[0].data_offset() + 40] ^= 0xff;
    size_t size_field = bytes.find("size=", bag.chunks[0].pos);
    std::string lying = bytes;
    uint32_t huge = 0xfffffff0u;
    std::memcpy(&lying[size_field + 5], &huge, 4);
    std::vector<Problem> problems;
    CHECK(times_of(bytes, &problems).empty());
    CHECK(has_code(problems, "rosbag.chunk.bz2_error"));
    problems.clear();
    CHECK(times_of(lying, &problems).empty());
    CHECK(has_code(problems, "rosbag.chunk.size_implausible"));
  }
  SUBCASE("an encrypted bag is reported, not decrypted") {
    std::string bytes = make_bag(200, "none", 30);
    // Rewrite the bag header with an encryptor field (the padding absorbs it).
    std::string header;
    append_field(header, "op", std::string(1, '\x03'));
    uint64_t index_pos = open(bytes).index_pos;
    append_field_u64(header, "index_pos", index_pos);
    append_field_u32(header, "conn_count", 3);
    append_field_u32(header, "chunk_count", static_cast<uint32_t>(open(bytes).chunks.size()));
    append_field(header, "encryptor", "rosbag/AesCbcEncryptor");
    std::string record;
    append_record(record, header, std::string(4096 - header.size(), ' '));
    bytes.replace(13, record.size(), record);
    MemoryByteSource source = source_of(bytes);
    auto inspector = open_inspector(source, Format::RosbagV20);
    Report check = inspector->check(nullptr);
    CHECK(has_code(check.problems, "rosbag.encrypted"));
    CHECK(inspector->info_text(InfoOptions{"e.bag"}).find("encryptor:") != std::string::npos);
  }
  SUBCASE("chunk info counts that disagree with the chunk") {
    std::string bytes = make_bag(200, "none", 30, 1 << 20);
    Bag bag = open(bytes);
    REQUIRE(bag.chunks.size() == 1);
    size_t info = static_cast<size_t>(bag.chunks[0].info_offset);
    size_t data = info + 4 + load_u32(&bytes[info]) + 4;
    uint32_t wrong = 99;
    std::memcpy(&bytes[data + 4], &wrong, 4);
    MemoryByteSource source = source_of(bytes);
    auto inspector = open_inspector(source, Format::RosbagV20);
    CHECK(has_code(inspector->check(nullptr).problems, "rosbag.chunk_info.count_mismatch"));
  }
}

TEST_CASE("tree, spans and decode cover chunks, inner records and the index section") {
  std::string bytes = make_bag(200, "none", 50, 1024);
  MemoryByteSource source = source_of(bytes);
  auto inspector = open_inspector(source, Format::RosbagV20);
  uint64_t top = inspector->child_count("");
  auto nodes = inspector->children("", 0, top);
  REQUIRE(nodes.size() == top);
  CHECK(nodes[0].id == "h");
  CHECK(nodes[1].kind == "chunk");
  CHECK(nodes.back().kind == "index");
  auto inner = inspector->children(nodes[1].id, 0, 100);
  REQUIRE(!inner.empty());
  CHECK(inner[0].kind == "connection");
  Json decoded = inspector->decode(inner[1].id);
  CHECK(decoded.find("header")->find("op")->as_uint() == 2);
  CHECK(decoded.find("message") != nullptr);
  auto path = inspector->locate(inner[1].offset + 3);
  REQUIRE(path.size() == 2);
  CHECK(path[1] == inner[1].id);
  auto spans = inspector->spans(nodes[1].offset, 64);
  REQUIRE(!spans.empty());
  CHECK(spans[0].kind == "chunk");
  CHECK(inspector->query("connections", Json::object(), nullptr).find("connections")->size() == 3);
}

TEST_CASE("message pages skip whole chunks by their ChunkInfo counts and equal a slice of the full iteration") {
  std::string bytes = make_bag(200, "lz4", 600, 2048);
  MemoryByteSource memory = source_of(bytes);
  // The whole bag, decoded, as the reference.
  auto reference = open_inspector(memory, Format::RosbagV20);
  Json all_args = Json::object();
  all_args["count"] = 10000;
  Json all = reference->query("messages", all_args, nullptr);
  REQUIRE(all.find("messages")->size() == 600);
  for (const char* topic : {"", "/pose", "/count"}) {
    CAPTURE(topic);
    Json topic_args = Json::object();
    topic_args["count"] = 10000;
    if (*topic) topic_args["topic"] = topic;
    const Json full = reference->query("messages", topic_args, nullptr);
    uint64_t total = full.find("messages")->size();
    for (uint64_t first : {uint64_t{0}, uint64_t{1}, uint64_t{37}, total / 2, total - 3, total + 5}) {
      CAPTURE(first);
      CountingByteSource counting(memory);
      auto inspector = open_inspector(counting, Format::RosbagV20);
      counting.reset();
      Json args = Json::object();
      args["first"] = first;
      args["count"] = 7;
      if (*topic) args["topic"] = topic;
      Json page = inspector->query("messages", args, nullptr);
      const Json& got = *page.find("messages");
      CHECK(got.size() == std::min<uint64_t>(7, total > first ? total - first : 0));
      for (size_t k = 0; k < got.size(); ++k) {
        const Json& want = (*full.find("messages"))[first + k];
        CHECK(got[k].find("index")->as_uint() == first + k);
        CHECK(got[k].find("time_ns")->as_string() == want.find("time_ns")->as_string());
        CHECK(got[k].find("message")->dump() == want.find("message")->dump());
      }
      CHECK(page.find("more")->as_bool() == (first + 7 < total));
      if (first >= total / 2 && total > 100) {
        CHECK(page.find("chunks_skipped")->as_uint() > 0);
        CHECK(counting.bytes_read() < bytes.size() / 2);  // the skipped chunks were never read
      }
    }
  }
}

TEST_CASE("pages over unsorted, overlapping chunks still equal the time-ordered iteration") {
  MemorySink sink;
  WriterOptions options;
  options.chunk_threshold = 256;
  BagWriter writer(sink, options);
  uint32_t a = writer.add_connection("/a", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
  for (int i = 0; i < 400; ++i) {
    // Bursts that go back in time: chunk ranges overlap and are out of order.
    uint32_t sec = 100 + static_cast<uint32_t>((i * 37) % 50);
    int32_t v = i;
    REQUIRE(writer.write(a, Time{sec, static_cast<uint32_t>(i)}, std::string_view(reinterpret_cast<const char*>(&v), 4)));
  }
  REQUIRE(writer.close());
  std::vector<uint64_t> times = times_of(sink.bytes);
  REQUIRE(times.size() == 400);
  MemoryByteSource source = source_of(sink.bytes);
  auto inspector = open_inspector(source, Format::RosbagV20);
  for (uint64_t first : {0, 5, 150, 399}) {
    Json args = Json::object();
    args["first"] = first;
    args["count"] = 20;
    Json page = inspector->query("messages", args, nullptr);
    const Json& got = *page.find("messages");
    REQUIRE(got.size() == std::min<uint64_t>(20, 400 - first));
    for (size_t k = 0; k < got.size(); ++k) CHECK(got[k].find("time_ns")->as_string() == std::to_string(times[first + k]));
  }
}

TEST_CASE("the doctor validates every message against its definition and names the first failures") {
  MemorySink sink;
  WriterOptions options;
  options.compression = "lz4";
  options.chunk_threshold = 2048;
  BagWriter writer(sink, options);
  uint32_t pose = writer.add_connection("/pose", "demo_msgs/Pose", "0123456789abcdef0123456789abcdef", kPoseDef);
  uint32_t count = writer.add_connection("/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
  std::vector<int> bad = {150, 230, 231, 232, 233, 290};  // late messages: the first message of each topic is fine
  for (int i = 0; i < 300; ++i) {
    Time t{100 + static_cast<uint32_t>(i / 10), static_cast<uint32_t>((i % 10) * 100000000)};
    bool broken = std::find(bad.begin(), bad.end(), i) != bad.end();
    if (i % 2 == 0) {
      std::string m = pose_message(i, t, i % 40);
      if (broken) m.resize(m.size() - 5);  // ends inside the last field
      REQUIRE(writer.write(pose, t, m));
    } else {
      int32_t v = i;
      std::string m(reinterpret_cast<const char*>(&v), 4);
      if (broken) m += "xx";  // bytes left over
      REQUIRE(writer.write(count, t, m));
    }
  }
  REQUIRE(writer.close());
  MemoryByteSource source = source_of(sink.bytes);
  auto inspector = open_inspector(source, Format::RosbagV20);
  uint64_t progress_calls = 0;
  Report check = inspector->check([&](uint64_t, uint64_t) { return ++progress_calls > 0; });
  CHECK(check.details.find("messages_validated")->as_uint() == 300);
  CHECK(check.details.find("messages_undecodable")->as_uint() == 6);
  std::vector<const Problem*> undecodable;
  for (const Problem& p : check.problems)
    if (p.code == "rosbag.message.undecodable") undecodable.push_back(&p);
  // /pose: 150, 230, 232, 290 (three listed, then a count); /count: 231, 233 (both listed).
  REQUIRE(undecodable.size() == 3 + 1 + 2);
  size_t on_pose = 0, summary_lines = 0;
  for (const Problem* p : undecodable) {
    CAPTURE(p->message);
    if (p->message.find("/pose") != std::string::npos) ++on_pose;
    if (p->message.find("4 of 150 messages on /pose") != std::string::npos) ++summary_lines;
    CHECK(p->offset > 4117);
    CHECK(p->offset < sink.bytes.size());
  }
  CHECK(on_pose == 4);
  CHECK(summary_lines == 1);
  CHECK(check.facts.find("compression")->as_string() == "lz4");  // the walk read every chunk header
  // Cancelling stops the walk and says so.
  auto again = open_inspector(source, Format::RosbagV20);
  Report cancelled = again->check([](uint64_t done, uint64_t) { return done == 0; });
  CHECK(has_code(cancelled.problems, "rosbag.check.cancelled"));
}

TEST_CASE("the tree, hex spans and locate read only the chunks they show") {
  std::string bytes = make_bag(200, "lz4", 3000, 4 * 1024);
  MemoryByteSource memory = source_of(bytes);
  CountingByteSource counting(memory);
  auto inspector = open_inspector(counting, Format::RosbagV20);
  inspector->summary();
  auto& bag = *opened_bag(*inspector);
  REQUIRE(bag.chunks.size() > 40);  // reading every chunk header would cost more than 40 reads
  // A browser pays ~1 ms per read: a page of the tree must not read every chunk header.
  counting.reset();
  std::vector<TreeNode> page = inspector->children("", 0, 5);
  REQUIRE(page.size() == 5);
  CHECK(page[1].kind == "chunk");
  CHECK(page[1].label.find("lz4") != std::string::npos);
  CHECK_MESSAGE(counting.read_calls() <= 16, counting.read_calls());  // two reads per record shown; never one per chunk
  counting.reset();
  uint64_t middle = bag.chunks[bag.chunks.size() / 2].pos;
  std::vector<Span> spans = inspector->spans(middle, 64);
  REQUIRE(!spans.empty());
  CHECK_MESSAGE(counting.read_calls() <= 16, counting.read_calls());  // two reads per record shown; never one per chunk
  counting.reset();
  std::vector<std::string> path = inspector->locate(middle + 2);
  REQUIRE(!path.empty());
  CHECK(path[0] == "c" + std::to_string(bag.chunks.size() / 2));
  CHECK_MESSAGE(counting.read_calls() <= 16, counting.read_calls());  // two reads per record shown; never one per chunk
}

namespace {
// What the V1.x structure views say about `bytes`, with the calls made in the order `order` gives
// (0 child_count, 1 children, 2 locate, 3 spans, 4 decode), each answer as JSON text.
std::vector<std::string> views_in_order(const std::string& bytes, const std::vector<int>& order) {
  MemoryByteSource source = source_of(bytes);
  auto inspector = open_inspector(source, rosbag::format_of(detect(source)));
  uint64_t middle = bytes.size() / 2;
  std::vector<std::string> out(5);
  for (int call : order) {
    switch (call) {
      case 0: out[0] = std::to_string(inspector->child_count("")); break;
      case 1: {
        Json nodes = Json::array();
        for (const TreeNode& n : inspector->children("", 0, 1000)) nodes.push_back(tree_node_to_json(n));
        out[1] = nodes.dump();
        break;
      }
      case 2: {
        Json path = Json::array();
        for (const std::string& id : inspector->locate(middle)) path.push_back(id);
        out[2] = path.dump();
        break;
      }
      case 3: {
        Json spans = Json::array();
        for (const Span& s : inspector->spans(middle, 256)) spans.push_back(span_to_json(s));
        out[3] = spans.dump();
        break;
      }
      case 4: out[4] = inspector->decode("r3").dump(); break;
    }
  }
  return out;
}
}  // namespace

TEST_CASE("V1.x tree, locate, spans and decode give the same answers whatever is called first") {
  for (int version : {102, 101}) {
    CAPTURE(version);
    std::string bytes = make_bag(version, "none", 60);
    std::vector<int> order = {0, 1, 2, 3, 4};
    std::vector<std::string> first = views_in_order(bytes, order);
    CHECK(first[0] != "0");
    CHECK(first[2] != "[]");  // the middle of the file lies in a record
    if (version == 102) {  // V1.1 records carry no spans, and its messages no definitions to decode with
      CHECK(first[3] != "[]");
      CHECK(first[4].find("error") == std::string::npos);
    }
    int permutations = 0;
    while (std::next_permutation(order.begin(), order.end())) {
      CAPTURE(order);
      CHECK(views_in_order(bytes, order) == first);
      ++permutations;
    }
    CHECK(permutations == 119);
  }
}

// The page shows a pass's progress as bytes, with a rate and the time left: a bag's iteration
// reports bytes of the file, as MCAP's and BDDF's passes do, never messages.
TEST_CASE("rosbag iteration reports its progress in bytes of the file, moving with the chunks it reads") {
  for (int version : {200, 102}) {
    CAPTURE(version);
    std::string bytes = make_bag(version, version == 200 ? "lz4" : "none", 3000, 4096);
    MemoryByteSource source = source_of(bytes);
    Bag bag;
    open_bag(source, rosbag::format_of(detect(source)), &bag);
    std::vector<std::pair<uint64_t, uint64_t>> calls;
    IterateOptions options;
    IterateResult all = for_each_message(source, bag, options, [](const MessageView&) { return true; }, nullptr,
                                         [&](uint64_t done, uint64_t total) { calls.emplace_back(done, total); return true; });
    REQUIRE(all.messages == 3000);
    REQUIRE(calls.size() >= 3);
    const uint64_t total = calls.front().second;
    CHECK(total <= bytes.size());
    CHECK(total * 10 >= bytes.size() * 9);  // the chunks are nearly all of the file
    for (size_t i = 1; i < calls.size(); ++i) {
      CHECK(calls[i].second == total);
      CHECK(calls[i].first >= calls[i - 1].first);
    }
    CHECK(calls.back().first <= total);
    CHECK(calls.back().first * 10 >= total * 8);  // (the last chunk may end between two reports)
    if (version != 200) continue;
    // One topic of three connections: its chunks only (every chunk holds /pose here), the same total.
    calls.clear();
    options.connections = {0};
    for_each_message(source, bag, options, [](const MessageView&) { return true; }, nullptr,
                     [&](uint64_t done, uint64_t t) { calls.emplace_back(done, t); return true; });
    REQUIRE(!calls.empty());
    CHECK(calls.front().second == total);
    // Cancelled from progress: it stops.
    IterateResult cancelled = for_each_message(source, bag, IterateOptions(), [](const MessageView&) { return true; }, nullptr,
                                               [](uint64_t done, uint64_t) { return done == 0; });
    CHECK(cancelled.cancelled);
    CHECK(cancelled.messages < 3000);
  }
}
