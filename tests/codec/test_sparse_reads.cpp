// Sparse reads (WalkOptions::read_ahead false: a thumbnail, the frame at a clicked time; and
// times_only: the images view's list of frame times, from the index alone): a bag's
// and an MCAP's uncompressed chunks hand on the same messages, in the same order and at the same
// places, as the walk that reads each chunk whole, while reading only the messages and their
// index records. Compressed chunks are read whole; where an index disagrees with its chunk, the
// chunk's own records win (the doctor, not the walk, names the damage).
#include <algorithm>
#include <cstring>

#include "core/byte_source.h"
#include "core/message_source.h"
#include <doctest/doctest.h>
#include "mcap/inspector.h"
#include "mcap/inspector_impl.h"
#include "mcap/writer.h"
#include "rosbag/inspector.h"
#include "rosbag/reader.h"
#include "rosbag/records.h"
#include "rosbag/writer.h"

using namespace logscope;

namespace {

constexpr uint64_t kStart = 1767225600000000000ull;
constexpr const char* kStringDefinition = "string data\n";

// A std_msgs/String of `size` bytes that names its message.
std::string string_message(size_t i, size_t size) {
  std::string text = "message " + std::to_string(i) + " ";
  text.resize(size, static_cast<char>('a' + i % 26));
  std::string out(4, '\0');
  const uint32_t n = static_cast<uint32_t>(text.size());
  std::memcpy(&out[0], &n, 4);
  return out + text;
}

// Message i's time: 10 ms apart, /b's at /a's times (ties across topics); message 20 is written
// late, at message 5's time, so that its chunk's time range overlaps others (ties across chunks).
uint64_t time_of(size_t i) { return kStart + (i == 20 ? 5 : i) * 10000000ull; }

struct Seen {
  std::string topic;
  uint64_t time_ns, offset, in_chunk;
  std::string message;
  bool operator==(const Seen& o) const {
    return topic == o.topic && time_ns == o.time_ns && offset == o.offset && in_chunk == o.in_chunk && message == o.message;
  }
};

// The messages a walk hands on (at most `limit`; with their decoded text unless `listing`), and its
// error text. A walk with times_only may hand messages on undecoded, never with an error.
std::vector<Seen> walked(MessageSource& source, const std::set<std::string>& topics, const WalkOptions& options, bool listing,
                         std::string* error, size_t limit) {
  std::vector<Seen> seen;
  std::string stopped;
  REQUIRE(source.walk_with(topics, options, [&](const SourceMessage& m) {
    if (options.times_only) CHECK((m.message || m.error.empty()));
    seen.push_back({m.topic, m.time_ns, m.offset, m.in_chunk, listing ? "" : m.message ? m.message->dump() : "error: " + m.error});
    return seen.size() < limit;
  }, nullptr, &stopped));
  if (error) *error = stopped;
  return seen;
}

std::vector<Seen> walk(MessageSource& source, const std::set<std::string>& topics, uint64_t t0, uint64_t t1, bool read_ahead,
                       std::string* error = nullptr, size_t limit = SIZE_MAX) {
  WalkOptions options;
  options.t0_ns = t0;
  options.t1_ns = t1;
  options.read_ahead = read_ahead;
  return walked(source, topics, options, false, error, limit);
}

// The places and times a walk lists (WalkOptions::times_only: messages may come undecoded, from
// the index), against those of the walk that decodes them.
std::vector<Seen> listed(MessageSource& source, const std::set<std::string>& topics, uint64_t t0, uint64_t t1, bool times_only) {
  WalkOptions options;
  options.t0_ns = t0;
  options.t1_ns = t1;
  options.times_only = times_only;
  std::string stopped;
  std::vector<Seen> seen = walked(source, topics, options, true, &stopped, SIZE_MAX);
  CHECK(stopped.empty());
  return seen;
}

// Every span and topic set the views ask: each message's own time, spans across chunks, the whole.
void check_same_messages(MessageSource& source, size_t count) {
  const std::vector<std::set<std::string>> topic_sets = {{"/a"}, {"/b"}, {"/a", "/b"}};
  std::vector<std::pair<uint64_t, uint64_t>> spans = {{0, UINT64_MAX}, {time_of(3), time_of(17)}, {time_of(40), time_of(40)}, {kStart - 10, kStart - 1}};
  for (size_t i = 0; i < count; i += 7) spans.emplace_back(time_of(i), time_of(i));
  for (const auto& topics : topic_sets)
    for (const auto& span : spans) {
      // Plain copies: clang's C++17 lambdas (CAPTURE) cannot capture structured bindings.
      const uint64_t t0 = span.first, t1 = span.second;
      CAPTURE(*topics.begin());
      CAPTURE(t0);
      CAPTURE(t1);
      CHECK(walk(source, topics, t0, t1, false) == walk(source, topics, t0, t1, true));
      CHECK(walk(source, topics, t0, t1, false, nullptr, 1) == walk(source, topics, t0, t1, true, nullptr, 1));
      CHECK(listed(source, topics, t0, t1, true) == listed(source, topics, t0, t1, false));
    }
}

std::string write_bag(const std::string& compression, size_t count) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = compression;
  options.chunk_threshold = 16 * 1024;  // several messages of /a per chunk
  rosbag::BagWriter writer(sink, options);
  const uint32_t a = writer.add_connection("/a", "std_msgs/String", "*", kStringDefinition);
  const uint32_t b = writer.add_connection("/b", "std_msgs/String", "*", kStringDefinition);
  for (size_t i = 0; i < count; ++i) {
    REQUIRE(writer.write(a, rosbag::Time::from_ns(time_of(i)), string_message(i, 3000)));
    REQUIRE(writer.write(b, rosbag::Time::from_ns(time_of(i)), string_message(i, 20)));
  }
  REQUIRE(writer.close());
  return sink.bytes;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::string write_mcap(const std::string& compression, size_t count) {
  mcap::WriterOptions options;
  options.compression = compression;
  options.chunk_size = 16 * 1024;
  mcap::Writer writer(options);
  const uint16_t schema = writer.add_schema("std_msgs/String", "ros1msg", kStringDefinition);
  const uint16_t a = writer.add_channel(schema, "/a", "ros1");
  const uint16_t b = writer.add_channel(schema, "/b", "ros1");
  uint32_t sequence = 0;
  for (size_t i = 0; i < count; ++i) {
    writer.write_message(a, sequence++, time_of(i), time_of(i), string_message(i, 3000).substr(0));
    writer.write_message(b, sequence++, time_of(i), time_of(i), string_message(i, 20));
  }
  return writer.finish();
}

}  // namespace

TEST_CASE("sparse reads: a bag's uncompressed chunks give the walk's messages, reading only them and their IndexData") {
  const size_t count = 60;
  const std::string bytes = write_bag("none", count);
  MemoryByteSource memory(bytes_of(bytes));
  CountingByteSource counted(memory);
  auto inspector = rosbag::open_inspector(counted, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  MessageSource* source = message_source_of(*inspector);
  REQUIRE(source);
  check_same_messages(*source, count);

  // One message of /a at its time: its record and its chunk's index records, not the chunk.
  counted.reset();
  std::vector<Seen> one = walk(*source, {"/a"}, time_of(30), time_of(30), false);
  REQUIRE(one.size() == 1);
  CHECK(one[0].message.find("message 30 ") != std::string::npos);
  const uint64_t sparse = counted.bytes_read();
  counted.reset();
  walk(*source, {"/a"}, time_of(30), time_of(30), true);
  const uint64_t whole = counted.bytes_read();
  CAPTURE(sparse);
  CAPTURE(whole);
  CHECK(sparse < 3000 + 1024);
  CHECK(whole > 16 * 1024);

  // Every message's time: the index records, a small part of the file.
  counted.reset();
  CHECK(listed(*source, {"/a", "/b"}, 0, UINT64_MAX, true).size() == 2 * count);
  CAPTURE(counted.bytes_read());
  CHECK(counted.bytes_read() * 10 < bytes.size());
}

// In the page each read of a file costs 1-2 ms whatever its size, so a message read alone is one
// read once its chunk's header and IndexData are cached: its framing and data together (the next
// record the IndexData lists bounds it), not its header's block and then the rest (issue 35's
// thumbnails of 0.9 MB camera frames).
TEST_CASE("sparse reads: a bag's message read alone behind the page's cache is one read") {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = "none";
  options.chunk_threshold = 1 << 20;
  rosbag::BagWriter writer(sink, options);
  const uint32_t a = writer.add_connection("/a", "std_msgs/String", "*", kStringDefinition);
  const uint32_t b = writer.add_connection("/b", "std_msgs/String", "*", kStringDefinition);
  for (size_t i = 0; i < 20; ++i) {
    REQUIRE(writer.write(a, rosbag::Time::from_ns(time_of(i)), string_message(i, 200000)));
    REQUIRE(writer.write(b, rosbag::Time::from_ns(time_of(i)), string_message(i, 20)));
  }
  REQUIRE(writer.close());
  MemoryByteSource memory(bytes_of(sink.bytes));
  CountingByteSource counted(memory);
  CachedByteSource::Options page;  // wasm/bindings.cpp's blocks
  page.block_size = 16 * 1024;
  CachedByteSource cached(counted, page);
  auto inspector = rosbag::open_inspector(cached, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  MessageSource* source = message_source_of(*inspector);
  REQUIRE(source);
  // The first of a chunk reads its header and IndexData too; the others of that chunk, one read each.
  REQUIRE(walk(*source, {"/a"}, time_of(0), time_of(0), false).size() == 1);
  for (size_t i : {2u, 1u, 3u}) {
    CAPTURE(i);
    counted.reset();
    std::vector<Seen> one = walk(*source, {"/a"}, time_of(i), time_of(i), false);
    REQUIRE(one.size() == 1);
    CHECK(one[0].message.find("message " + std::to_string(i) + " ") != std::string::npos);
    CHECK(counted.read_calls() == 1);
    CHECK(counted.bytes_read() < 200000 + 2 * 16 * 1024);
  }
}

TEST_CASE("sparse reads: a bag's compressed chunks are read whole, with the same messages") {
  const size_t count = 30;
  const std::string bytes = write_bag("lz4", count);
  MemoryByteSource memory(bytes_of(bytes));
  auto inspector = rosbag::open_inspector(memory, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  check_same_messages(*message_source_of(*inspector), count);
}

TEST_CASE("sparse reads: where a bag's IndexData points elsewhere, the chunk's records win") {
  const size_t count = 30;
  std::string bytes = write_bag("none", count);
  const std::string intact = bytes;
  // The first IndexData record of the first chunk: its first entry's offset moved by one byte.
  {
    MemoryByteSource memory(bytes_of(bytes));
    rosbag::Bag bag;
    rosbag::open_bag(memory, rosbag::Format::RosbagV20, &bag);
    REQUIRE(!bag.chunks.empty());
    auto records = rosbag::chunk_index_records(memory, &bag, 0);
    REQUIRE(!records.empty());
    rosbag::RecordFrame frame;
    std::string header, why;
    REQUIRE(rosbag::read_record(memory, records[0].first, &frame, &header, &why) == rosbag::FrameStatus::Ok);
    const size_t entry_offset = static_cast<size_t>(frame.data_offset() + 8);
    uint32_t offset;
    std::memcpy(&offset, &bytes[entry_offset], 4);
    ++offset;
    std::memcpy(&bytes[entry_offset], &offset, 4);
  }
  MemoryByteSource damaged(bytes_of(bytes)), whole(bytes_of(intact));
  auto inspector = rosbag::open_inspector(damaged, rosbag::Format::RosbagV20);
  auto reference = rosbag::open_inspector(whole, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  REQUIRE(reference);
  std::string error;
  std::vector<Seen> seen = walk(*message_source_of(*inspector), {"/a", "/b"}, 0, time_of(3), false, &error);
  CHECK(seen == walk(*message_source_of(*reference), {"/a", "/b"}, 0, time_of(3), true));
  CHECK(error.empty());  // the doctor names the index's damage; the walk reads on
  CHECK(walk(*message_source_of(*inspector), {"/a"}, 0, UINT64_MAX, false) == walk(*message_source_of(*reference), {"/a"}, 0, UINT64_MAX, true));
}

TEST_CASE("sparse reads: an MCAP's uncompressed chunks give the walk's messages, reading only them and their MessageIndex") {
  const size_t count = 60;
  const std::string bytes = write_mcap("", count);
  MemoryByteSource memory(bytes_of(bytes));
  CountingByteSource counted(memory);
  auto inspector = mcap::open_inspector(counted);
  REQUIRE(inspector);
  MessageSource* source = message_source_of(*inspector);
  REQUIRE(source);
  check_same_messages(*source, count);

  walk(*source, {"/a"}, time_of(1), time_of(1), false);  // (the first walk lists the file's records)
  counted.reset();
  std::vector<Seen> one = walk(*source, {"/a"}, time_of(30), time_of(30), false);
  REQUIRE(one.size() == 1);
  CHECK(one[0].message.find("message 30 ") != std::string::npos);
  const uint64_t sparse = counted.bytes_read();
  counted.reset();
  walk(*source, {"/a"}, time_of(30), time_of(30), true);
  const uint64_t whole = counted.bytes_read();
  CAPTURE(sparse);
  CAPTURE(whole);
  CHECK(sparse < 3000 + 1024);
  CHECK(whole > 16 * 1024);

  counted.reset();
  CHECK(listed(*source, {"/a", "/b"}, 0, UINT64_MAX, true).size() == 2 * count);
  CAPTURE(counted.bytes_read());
  CHECK(counted.bytes_read() * 10 < bytes.size());
}

TEST_CASE("sparse reads: an MCAP's compressed chunks are read whole, and where a MessageIndex points elsewhere the records win") {
  const size_t count = 30;
  {
    const std::string bytes = write_mcap("zstd", count);
    MemoryByteSource memory(bytes_of(bytes));
    auto inspector = mcap::open_inspector(memory);
    REQUIRE(inspector);
    check_same_messages(*message_source_of(*inspector), count);
  }
  std::string bytes = write_mcap("", count);
  const std::string intact = bytes;
  {
    MemoryByteSource memory(bytes_of(bytes));
    auto inspector = mcap::open_inspector(memory);
    auto* mcap_inspector = dynamic_cast<mcap::McapInspector*>(inspector.get());
    REQUIRE(mcap_inspector);
    mcap_inspector->summary();
    const mcap::ChunkInfo& chunk = mcap_inspector->model().chunks.at(0);
    REQUIRE(!chunk.message_index_offsets.empty());
    // opcode, length, channel id, the entries' byte length, then (log_time, offset): the first offset.
    const size_t entry_offset = static_cast<size_t>(chunk.message_index_offsets.front().second + 1 + 8 + 2 + 4 + 8);
    bytes[entry_offset] = static_cast<char>(bytes[entry_offset] + 1);
  }
  MemoryByteSource damaged(bytes_of(bytes)), whole(bytes_of(intact));
  auto inspector = mcap::open_inspector(damaged);
  auto reference = mcap::open_inspector(whole);
  std::string error;
  std::vector<Seen> seen = walk(*message_source_of(*inspector), {"/a", "/b"}, 0, UINT64_MAX, false, &error);
  CHECK(seen == walk(*message_source_of(*reference), {"/a", "/b"}, 0, UINT64_MAX, true));
  CHECK(error.empty());  // the doctor names the index's damage; the walk reads on
}
