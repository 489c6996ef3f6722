// Our writer: round trip through our reader, and the SDK writer's layout (checked against the
// official sample's structure).
#include <cstring>

#include "bddf/blocks.h"
#include "bddf/format.h"
#include "bddf.pb.h"
#include "bddf/writer.h"
#include "test_bddf_support.h"

using namespace logscope;
using namespace logscope::bddf;

namespace {

struct MemoryFile {
  std::vector<uint8_t> bytes;
  Writer::Sink sink() {
    return [this](const void* data, size_t size) {
      bytes.insert(bytes.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
      return true;
    };
  }
};

const Json& field(const Json& object, const std::string& key) {
  const Json* value = object.find(key);
  REQUIRE_MESSAGE(value, "missing key " << key << " in " << object.dump().substr(0, 300));
  return *value;
}

std::vector<std::string> collapsed_kinds(FormatInspector& inspector) {
  std::vector<std::string> kinds;
  for (const TreeNode& node : inspector.children("", 0, inspector.child_count(""))) {
    std::string kind = field(inspector.decode(node.id), "kind").as_string();
    if (kinds.empty() || kinds.back() != kind) kinds.push_back(kind);
  }
  return kinds;
}

constexpr int64_t kStart = 1767225600123456789ll;  // the official sample's first timestamp

// The official sample's recipe: four series registered up front, 20 s at 50 Hz.
std::vector<uint8_t> write_like_official_sample() {
  MemoryFile file;
  Writer::Options options;
  options.annotations = {{"bosdyn:release", "5.1.4"}, {"bosdyn:robot-nickname", "bddf-test-robot"},
                         {"bosdyn:robot-serial-number", "test-0001"}};
  Writer writer(file.sink(), options);
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  int comment = writer.add_message_channel("bosdyn.api.OperatorComment", "bosdyn.api.OperatorComment");
  int voltage = writer.add_pod_channel("power/battery_voltage", 10, {}, {{"units", "V"}});
  int estop = writer.add_pod_channel("estop/state", 5, {}, {{"units", "enum"}}, 512);
  std::string payload(950, 'x');
  for (int i = 0; i < 1000; ++i) {
    int64_t ts = kStart + int64_t{i} * 20000000;
    writer.write_block(state, ts, payload.data(), payload.size());
    double v = 55.2 - i * 1e-4;
    writer.write_pod_sample(voltage, ts, &v);
    uint8_t stop = i < 500 ? 1 : 2;
    writer.write_pod_sample(estop, ts, &stop);
    if (i % 200 == 100) writer.write_block(comment, ts + 5000000, "note", 4);
  }
  REQUIRE(writer.finish());
  return file.bytes;
}

}  // namespace

TEST_CASE("bddf writer: same block layout as the SDK writer's sample") {
  auto ours = bddf_test::open_bytes(write_like_official_sample());
  Report report = ours.inspector->check(nullptr);
  CHECK(report.problems.empty());
  CHECK(field(field(report.details, "checksum"), "status").as_string() == "valid");
  CHECK(collapsed_kinds(*ours.inspector) ==
        std::vector<std::string>{"magic", "file_descriptor", "series_descriptor", "data", "series_block_index", "file_index", "end"});
  // Descriptors serialize to the same sizes as the SDK's, so blocks land at the same offsets.
  std::vector<TreeNode> nodes = ours.inspector->children("", 0, 7);
  std::vector<uint64_t> offsets;
  for (const TreeNode& n : nodes) offsets.push_back(n.offset);
  CHECK(offsets == std::vector<uint64_t>{0, 4, 130, 257, 397, 495, 586});
  // POD packing: 256 float64 per 2048-byte block, timestamps of each block's first sample.
  const Json& series = field(report.details, "series");
  CHECK(field(series[size_t{2}], "num_blocks").as_uint() == 4);
  CHECK(field(series[size_t{2}], "total_bytes").as_uint() == 8000);
  CHECK(field(series[size_t{3}], "num_blocks").as_uint() == 2);
  Json args = Json::object();
  args["series"] = 2;
  Json entries = field(ours.inspector->query("blocks", args, nullptr), "entries");
  CHECK(field(entries[size_t{1}], "timestamp_ns").as_string() == "1767225605243456789");  // as in the sample
  CHECK(field(field(series[size_t{2}], "pod_type"), "pod_type").as_string() == "TYPE_FLOAT64");
  CHECK(field(series[size_t{0}], "identifier_hash").as_uint() == 10653806857852172530ull);  // the sample's hash

  // Trailer layout: END header 0x0200000000000018, index offset, SHA1, "FDDB".
  const Json& trailer = field(report.details, "trailer_raw");
  CHECK(field(trailer, "end_block_header_hex").as_string() == "0x0200000000000018");
  CHECK(field(trailer, "stored_index_offset").as_uint() == field(report.details, "index_offset").as_uint());
  CHECK(field(trailer, "end_magic").as_string() == "FDDB");
}

TEST_CASE("bddf writer: block kinds, offsets and lengths equal the SDK writer's robot_state_small.bddf") {
  if (!test_support::have_samples()) return;
  auto ours = bddf_test::open_bytes(write_like_official_sample());
  std::vector<TreeNode> nodes = ours.inspector->children("", 0, 7);
  REQUIRE(nodes.size() == 7);
  auto official = bddf_test::open_path(test_support::sample("bddf/robot_state_small.bddf"));
  CHECK(collapsed_kinds(*official.inspector) == collapsed_kinds(*ours.inspector));
  std::vector<TreeNode> theirs = official.inspector->children("", 0, 7);
  REQUIRE(theirs.size() == 7);
  for (size_t i = 0; i < 7; ++i) {
    CHECK(theirs[i].offset == nodes[i].offset);
    if (i < 6) CHECK(theirs[i].length == nodes[i].length);
  }
}

TEST_CASE("bddf writer: round trip of messages, all POD types and dimensions, additional indexes") {
  MemoryFile file;
  Writer writer(file.sink(), Writer::Options{});
  SeriesOptions blobs;
  blobs.spec = {{"bosdyn:channel", "blobs"}, {"extra", "key"}};
  blobs.series_type = "bosdyn:typed-message-channel";
  blobs.content_type = "application/octet-stream";
  blobs.type_name = "raw";
  blobs.additional_index_names = {"frame", "camera"};
  blobs.description = "random blobs";
  int blob_series = writer.add_series(blobs);
  REQUIRE(blob_series == 0);
  CHECK(writer.add_series(blobs) == -1);  // same spec twice
  std::vector<int> pods;
  for (int type = 1; type <= 10; ++type)
    pods.push_back(writer.add_pod_channel("pod/" + std::string(pod_type_name(type)), type, {2, 3}));
  std::vector<std::string> payloads;
  for (int i = 0; i < 50; ++i) {
    std::string payload(static_cast<size_t>(i * 37 % 300), '\0');
    for (size_t k = 0; k < payload.size(); ++k) payload[k] = static_cast<char>(k * 31 + i);
    payloads.push_back(payload);
    REQUIRE(writer.write_block(blob_series, kStart + i * 1000, payload.data(), payload.size(), {i, -i}));
  }
  for (size_t p = 0; p < pods.size(); ++p) {
    size_t sample_size = writer.pod_sample_size(pods[p]);
    REQUIRE(sample_size == 6 * pod_type_size(static_cast<int>(p) + 1));
    for (int i = 0; i < 200; ++i) {
      std::vector<uint8_t> sample(sample_size);
      for (size_t k = 0; k < sample_size; ++k) sample[k] = static_cast<uint8_t>(i + k);
      // Readable values for float types.
      if (p == 8) for (int e = 0; e < 6; ++e) { float f = i + e * 0.5f; std::memcpy(&sample[e * 4], &f, 4); }
      if (p == 9) for (int e = 0; e < 6; ++e) { double d = i - e * 0.25; std::memcpy(&sample[e * 8], &d, 8); }
      REQUIRE(writer.write_pod_sample(pods[p], kStart + i * 5000000, sample.data()));
    }
  }
  REQUIRE(writer.finish());
  auto opened = bddf_test::open_bytes(file.bytes);
  Report report = opened.inspector->check(nullptr);
  CHECK_MESSAGE(report.problems.empty(), (report.problems.empty() ? "" : report.problems[0].message));
  const Json& series = field(report.details, "series");
  REQUIRE(series.size() == 11);
  const Json& s0 = series[size_t{0}];
  CHECK(field(s0, "series_type").as_string() == "bosdyn:typed-message-channel");
  CHECK(field(s0, "identifier_hash_matches").as_bool());
  CHECK(field(s0, "description").as_string() == "random blobs");
  CHECK(field(s0, "additional_index_names").size() == 2);
  CHECK(field(s0, "num_blocks").as_uint() == 50);
  // Every payload byte comes back.
  Json args = Json::object();
  args["series"] = 0;
  args["count"] = 100;
  Json entries = field(opened.inspector->query("blocks", args, nullptr), "entries");
  for (size_t i = 0; i < 50; ++i) {
    CHECK(field(entries[i], "timestamp_ns").as_string() == std::to_string(kStart + int64_t(i) * 1000));
    CHECK(field(entries[i], "additional_indexes").dump() == "[" + std::to_string(i) + "," + (i ? "-" : "") + std::to_string(i) + "]");
    BlockFrame frame;
    std::string why;
    REQUIRE(read_frame(*opened.source, field(entries[i], "file_offset").as_uint(), opened.source->size(), &frame, &why) == FrameStatus::Ok);
    std::vector<uint8_t> back = opened.source->read_vector(frame.payload_offset(), static_cast<size_t>(frame.payload_size()));
    CHECK(std::string(back.begin(), back.end()) == payloads[i]);
  }
  // POD: 200 samples per series, shaped [2][3].
  for (size_t p = 0; p < pods.size(); ++p) {
    const Json& s = series[p + 1];
    CHECK(field(s, "num_samples").as_uint() == 200);
    Json a = Json::object();
    a["series"] = p + 1;
    Json first = field(opened.inspector->query("blocks", a, nullptr), "entries")[size_t{0}];
    Json request = Json::object();
    request["offset"] = field(first, "file_offset").as_uint();
    Json block = opened.inspector->query("block", request, nullptr);
    const Json& samples = field(field(block, "payload"), "samples");
    REQUIRE(samples.size() > 2);
    REQUIRE(samples[size_t{1}].size() == 2);
    REQUIRE(samples[size_t{1}][size_t{0}].size() == 3);
    if (p == 0) CHECK(samples[size_t{1}][size_t{1}][size_t{2}].as_int() == 1 + 5);   // int8 sample 1, element 5
    if (p == 4) CHECK(samples[size_t{1}][size_t{1}][size_t{2}].as_uint() == 6);      // uint8
    if (p == 8) CHECK(samples[size_t{2}][size_t{1}][size_t{0}].as_double() == 3.5);  // float32: 2 + 3*0.5
    if (p == 9) CHECK(samples[size_t{2}][size_t{0}][size_t{1}].as_double() == 1.75); // float64: 2 - 0.25
  }
}

TEST_CASE("bddf writer: an empty file is 70 bytes and checksum NONE is reported as none") {
  MemoryFile empty;
  Writer::Options none;
  none.sha1 = false;
  {
    Writer writer(empty.sink(), none);
    REQUIRE(writer.finish());
  }
  auto opened = bddf_test::open_bytes(empty.bytes);
  CHECK(field(opened.inspector->checksum(nullptr), "status").as_string() == "none");
  CHECK_FALSE(opened.inspector->checksum_feed());  // nothing to hash, so nothing to feed
  Report report = opened.inspector->summary();
  CHECK(field(report.details, "opened_from").as_string() == "index");
  CHECK(field(report.details, "series").size() == 0);

  MemoryFile with_sha;
  {
    Writer writer(with_sha.sink(), Writer::Options{});
    REQUIRE(writer.finish());
  }
  CHECK(with_sha.bytes.size() == 70);  // as the SDK's empty.bddf: magic, descriptor, empty index, trailer
  auto again = bddf_test::open_bytes(with_sha.bytes);
  CHECK(field(again.inspector->checksum(nullptr), "status").as_string() == "valid");
  CHECK(again.inspector->check(nullptr).problems.empty());
}

TEST_CASE("bddf writer: an empty file has the blocks of the SDK's empty.bddf") {
  if (!test_support::have_samples()) return;
  MemoryFile with_sha;
  {
    Writer writer(with_sha.sink(), Writer::Options{});
    REQUIRE(writer.finish());
  }
  auto again = bddf_test::open_bytes(with_sha.bytes);
  // The SDK's empty.bddf: the same blocks, and its FileIndex body is empty like ours.
  auto official = bddf_test::open_path(test_support::sample("bddf/empty.bddf"));
  CHECK(collapsed_kinds(*official.inspector) == collapsed_kinds(*again.inspector));
}

TEST_CASE("bddf writer: the same input gives the same bytes (annotations in key order)") {
  auto write = [] {
    MemoryFile file;
    Writer::Options options;
    options.annotations = {{"b", "2"}, {"a", "1"}, {"d", "4"}, {"c", "3"}, {"bosdyn:release", "5.1.4"}};
    Writer writer(file.sink(), options);
    int voltage = writer.add_pod_channel("power/battery_voltage", 10, {}, {{"units", "V"}, {"kind", "sensor"}, {"rate", "50"}});
    double v = 1.5;
    writer.write_pod_sample(voltage, kStart, &v);
    REQUIRE(writer.finish());
    return file.bytes;
  };
  std::vector<uint8_t> first = write();
  for (int i = 0; i < 4; ++i) CHECK(write() == first);
  // Each map entry is {1: key, 2: value}: they follow each other in key order.
  std::string text(first.begin(), first.end());
  auto entry = [&text](const std::string& key, const std::string& value) {
    return text.find(std::string("\x0a") + char(key.size()) + key + "\x12" + char(value.size()) + value);
  };
  std::vector<size_t> at = {entry("a", "1"), entry("b", "2"), entry("bosdyn:release", "5.1.4"), entry("c", "3"), entry("d", "4")};
  for (size_t i = 0; i < at.size(); ++i) CHECK(at[i] != std::string::npos);
  for (size_t i = 1; i < at.size(); ++i) CHECK(at[i - 1] < at[i]);
}

// What the page does for "Verify checksum" on a local file: it streams the bytes into the feed.
Json fed_checksum(FormatInspector& inspector, const std::vector<uint8_t>& bytes, size_t piece, size_t stop_at = SIZE_MAX) {
  std::unique_ptr<ByteFeed> feed = inspector.checksum_feed();
  REQUIRE(feed);
  uint64_t end = std::min<uint64_t>({feed->end(), bytes.size(), stop_at});
  for (uint64_t at = 0; at < end; at += piece) feed->update(bytes.data() + at, std::min<uint64_t>(piece, end - at));
  return feed->finish(end < feed->end() ? "the browser could not read the file" : "", false);
}

TEST_CASE("bddf checksum: bytes fed by the caller give what the pulled checksum gives") {
  std::vector<uint8_t> bytes = write_like_official_sample();
  auto opened = bddf_test::open_bytes(bytes);
  Json pulled = opened.inspector->checksum(nullptr);
  CHECK(field(pulled, "status").as_string() == "valid");
  for (size_t piece : {size_t{1}, size_t{7}, size_t{65536}, bytes.size()})
    CHECK(fed_checksum(*opened.inspector, bytes, piece).dump() == pulled.dump());
  // Bytes past end() (the digest and the magic) are ignored.
  std::unique_ptr<ByteFeed> feed = opened.inspector->checksum_feed();
  feed->update(bytes.data(), bytes.size());
  CHECK(feed->finish("", false).dump() == pulled.dump());

  std::vector<uint8_t> flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  auto damaged = bddf_test::open_bytes(flipped);
  Json pulled_mismatch = damaged.inspector->checksum(nullptr);
  CHECK(field(pulled_mismatch, "status").as_string() == "mismatch");
  CHECK(fed_checksum(*damaged.inspector, flipped, 4096).dump() == pulled_mismatch.dump());

  // A read that fails part way: a mismatch that says why, nothing computed.
  Json cut = fed_checksum(*opened.inspector, bytes, 4096, 10000);
  CHECK(field(cut, "status").as_string() == "mismatch");
  CHECK(field(cut, "message").as_string() == "the browser could not read the file");
  CHECK(field(cut, "computed").is_null());
}

// Scratch storage in memory, as the CLI's temporary file and the page's private file behave:
// it counts what it holds, and can be told to fail from a given write on.
struct ScratchFile : SpillFile {
  std::string bytes;
  size_t writes = 0, fail_from = SIZE_MAX;
  bool write(uint64_t offset, const void* data, size_t size) override {
    if (writes++ >= fail_from) return false;
    if (bytes.size() < offset + size) bytes.resize(offset + size);
    std::memcpy(&bytes[offset], data, size);
    return true;
  }
  bool read(uint64_t offset, void* data, size_t size) override {
    if (offset + size > bytes.size()) return false;
    std::memcpy(data, bytes.data() + offset, size);
    return true;
  }
  std::string error() const override { return "the disk is full"; }
};

// 30,000 blocks in three series (one with two additional indexes, one of POD samples), in turn.
struct ManyBlocks {
  std::vector<uint8_t> bytes;
  uint64_t held_before_finish = 0, spilled = 0;
  bool finished = false;
  std::string error;
};
ManyBlocks write_many_blocks(SpillFile* spill) {
  ManyBlocks out;
  MemoryFile file;
  Writer::Options options;
  options.spill = spill;
  Writer writer(file.sink(), options);
  SeriesOptions images;
  images.spec["bosdyn:channel"] = "camera/image";
  images.type_name = "bosdyn.api.ImageResponse";
  images.additional_index_names = {"frame", "camera"};
  int image = writer.add_series(images);
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  int voltage = writer.add_pod_channel("power/battery_voltage", 10, {}, {}, 8);  // a block a sample
  std::string payload(24, 'p');
  for (int64_t i = 0; i < 10000; ++i) {
    int64_t ts = kStart + i * 1000003;
    double v = 55.2 - i * 1e-4;
    if (!writer.write_block(image, ts, payload.data(), payload.size(), {i, -i}) ||
        !writer.write_block(state, ts, payload.data(), payload.size()) || !writer.write_pod_sample(voltage, ts, &v))
      break;
  }
  out.held_before_finish = writer.index_bytes_held();
  out.spilled = writer.index_bytes_spilled();
  out.finished = writer.finish();
  out.error = writer.error();
  out.bytes = file.bytes;
  return out;
}

// Every SeriesBlockIndex in the file, as its descriptor block's bytes.
std::vector<std::string> block_index_bodies(const std::vector<uint8_t>& bytes) {
  std::vector<std::string> bodies;
  uint64_t at = kFirstBlockOffset;
  while (at + kHeaderSize <= bytes.size()) {
    uint64_t raw;
    std::memcpy(&raw, &bytes[at], 8);
    uint8_t type = header_type(raw);
    if (type == kEndBlock) break;
    uint64_t body = at + kHeaderSize + (type == kDataBlock ? kDescriptorLengthSize : 0);
    REQUIRE(body + header_size(raw) <= bytes.size());
    std::string text(bytes.begin() + static_cast<ptrdiff_t>(body), bytes.begin() + static_cast<ptrdiff_t>(body + header_size(raw)));
    bosdyn::api::DescriptorBlock block;
    if (type == kDescriptorBlock && block.ParseFromString(text) && block.has_series_block_index()) bodies.push_back(text);
    at = body + header_size(raw);
  }
  return bodies;
}

TEST_CASE("bddf writer: the block index waits in the spill file, a segment a series in memory, the same bytes as protobuf writes") {
  ManyBlocks in_memory = write_many_blocks(nullptr);
  REQUIRE(in_memory.finished);
  CHECK(in_memory.spilled == 0);
  CHECK(in_memory.held_before_finish > 500000);  // about 20 bytes an entry, 30,000 entries

  ScratchFile scratch;
  ManyBlocks spilled = write_many_blocks(&scratch);
  REQUIRE(spilled.finished);
  CHECK(spilled.bytes == in_memory.bytes);
  CHECK(spilled.spilled > 400000);
  CHECK(spilled.held_before_finish <= 3 * 65536);
  CHECK(scratch.bytes.size() == spilled.spilled);

  // The index blocks are what protobuf's own serializer writes for what it parses from them.
  std::vector<std::string> bodies = block_index_bodies(spilled.bytes);
  REQUIRE(bodies.size() == 3);
  size_t entries = 0;
  for (const std::string& body : bodies) {
    bosdyn::api::DescriptorBlock block;
    REQUIRE(block.ParseFromString(body));
    entries += static_cast<size_t>(block.series_block_index().block_entries_size());
    CHECK(block.SerializeAsString() == body);
  }
  CHECK(entries == 30000);
  auto opened = bddf_test::open_bytes(spilled.bytes);
  Report report = opened.inspector->check(nullptr);
  CHECK_MESSAGE(report.problems.empty(), (report.problems.empty() ? "" : report.problems[0].message));
  CHECK(field(opened.inspector->checksum(nullptr), "status").as_string() == "valid");
}

TEST_CASE("bddf writer: a spill file that fails stops the writer with the reason, nothing after it") {
  for (size_t fail_from : {size_t{0}, size_t{3}}) {
    CAPTURE(fail_from);
    ScratchFile scratch;
    scratch.fail_from = fail_from;
    ManyBlocks out = write_many_blocks(&scratch);
    CHECK_FALSE(out.finished);
    CHECK(out.error.find("the block index could not be set aside") != std::string::npos);
    CHECK(out.error.find("the disk is full") != std::string::npos);
    CHECK(out.bytes.size() < 30000 * 24);  // it stopped at the failed write, with no index or trailer
  }
}
