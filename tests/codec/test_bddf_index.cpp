// Index-first access: opening reads O(index) bytes, extraction and spans come from the index.
#include "bddf/block_index.h"
#include "bddf/demo.h"
#include "bddf/writer.h"
#include "test_bddf_support.h"

using namespace logscope;
using namespace logscope::bddf;

namespace {

constexpr int64_t kStart = 1767225600000000000ll;

const Json& field(const Json& object, const std::string& key) {
  const Json* value = object.find(key);
  REQUIRE_MESSAGE(value, "missing key " << key);
  return *value;
}

// ~107 MB: 3 series, 10,400 blocks of images and state messages, and a POD series.
constexpr int kSteps = 5200;
std::vector<uint8_t> big_file() {
  std::vector<uint8_t> bytes;
  Writer writer([&](const void* d, size_t n) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(d), static_cast<const uint8_t*>(d) + n);
    return true;
  }, Writer::Options{});
  int images = writer.add_message_channel("camera/front", "bosdyn.api.ImageResponse");
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  int voltage = writer.add_pod_channel("power/battery_voltage", 10);
  std::string image(20000, '\x5a'), small(600, '\x11');
  for (int i = 0; i < kSteps; ++i) {
    int64_t ts = kStart + i * 100000000ll;
    writer.write_block(images, ts, image.data(), image.size());
    writer.write_block(state, ts + 1, small.data(), small.size());
    double v = 50.0 + i;
    writer.write_pod_sample(voltage, ts, &v);
  }
  REQUIRE(writer.finish());
  return bytes;
}

}  // namespace

TEST_CASE("bddf index: behind the page's cache, opening reads all block indexes in one call") {
  std::vector<uint8_t> bytes = big_file();
  MemoryByteSource memory(bytes.data(), bytes.size());
  CountingByteSource counting(memory);
  CachedByteSource::Options options;
  options.block_size = 16 * 1024;  // as wasm/bindings.cpp
  CachedByteSource cached(counting, options);
  auto inspector = bddf::open_inspector(cached);
  inspector->summary();
  const FileModel& model = bddf_test::model_of(*inspector);
  REQUIRE(model.series.size() == 3);
  uint64_t index_bytes = bytes.size() - model.series[0].block_index_file_offset;
  REQUIRE(index_bytes > 3 * options.block_size);  // several blocks, so one read per series without the hint
  INFO(counting.read_calls() << " reads, " << counting.bytes_read() << " bytes; index " << index_bytes);
  // The trailer's block, the block indexes with the FileIndex, the start (descriptors), the last
  // POD block's header.
  CHECK(counting.read_calls() <= 4);
  CHECK(counting.bytes_read() < index_bytes + 4 * options.block_size);
}

TEST_CASE("bddf index: opening reads only the index, extraction reads nothing") {
  std::vector<uint8_t> bytes = big_file();
  MemoryByteSource memory(bytes.data(), bytes.size());
  CountingByteSource counting(memory);
  auto inspector_owner = bddf::open_inspector(counting);
  FormatInspector& inspector = *inspector_owner;
  Report report = inspector.summary();
  CHECK(field(report.details, "opened_from").as_string() == "index");
  uint64_t index_bytes = bytes.size() - bddf_test::model_of(inspector).series[0].block_index_file_offset;
  uint64_t opened = counting.bytes_read();
  INFO("read " << opened << " of " << bytes.size() << " bytes; index is " << index_bytes);
  CHECK(opened < index_bytes + 2048);  // the index, the descriptors at the start, the trailer
  CHECK(opened * 100 < bytes.size());
  CHECK(bytes.size() > 100u * 1000 * 1000);
  CHECK(field(report.details, "data_blocks").as_uint() == 2 * kSteps + kSteps * 8 / 2048 + 1);

  counting.reset();
  Json args = Json::object();
  Json chosen = Json::array();
  chosen.push_back(0);
  chosen.push_back(1);
  args["series"] = chosen;
  args["t0_ns"] = kStart + 10 * 100000000ll;
  args["t1_ns"] = kStart + 19 * 100000000ll + 1;
  Json hits = inspector.query("extract", args, nullptr);
  CHECK(counting.bytes_read() == 0);
  CHECK(field(hits, "total").as_uint() == 20);
  const Json& blocks = field(hits, "blocks");
  REQUIRE(blocks.size() == 20);
  CHECK(field(blocks[size_t{0}], "series").as_uint() == 0);
  CHECK(field(blocks[size_t{1}], "series").as_uint() == 1);
  CHECK(field(blocks[size_t{19}], "timestamp_ns").as_string() == std::to_string(kStart + 19 * 100000000ll + 1));

  // Spans of a small range read only the blocks there (binary search, not a scan).
  counting.reset();
  uint64_t middle = bytes.size() / 2;
  std::vector<Span> spans = inspector.spans(middle, 64);
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].offset <= middle);
  CHECK(spans[0].offset + spans[0].length >= middle + 64);
  CHECK(spans[0].children.size() == 4);  // header, descriptor length, descriptor, payload
  CHECK(counting.bytes_read() < 4096);
  std::vector<std::string> path = inspector.locate(spans[0].offset + 9);
  REQUIRE(path.size() == 2);
  CHECK(path[1].find("/descriptor_size") != std::string::npos);
  // Tree paging reads only the page.
  counting.reset();
  std::vector<TreeNode> page = inspector.children("", 1000, 50);
  CHECK(page.size() == 50);
  CHECK(counting.bytes_read() < 50 * 64);
}

TEST_CASE("bddf demo: a realistic file that our reader reads cleanly") {
  std::string path = test_support::scratch_dir("bddf") + "/demo.bddf";
  std::string error;
  REQUIRE_MESSAGE(write_demo_file(path, 3 * 1024 * 1024, &error), error);
  auto opened = bddf_test::open_path(path);
  Report report = opened.inspector->check(nullptr);
  CHECK_MESSAGE(report.problems.empty(), (report.problems.empty() ? "" : report.problems[0].code + " " + report.problems[0].message));
  CHECK(field(field(report.details, "checksum"), "status").as_string() == "valid");
  CHECK(field(report.details, "series").size() == 7);
  uint64_t size = opened.source->size();
  CHECK(size > 2 * 1024 * 1024);
  CHECK(size < 4 * 1024 * 1024);
  std::string text = opened.inspector->info_text(InfoOptions{path});
  CHECK(text.find("bosdyn.api.RobotState") != std::string::npos);
  CHECK(text.find("float32[3]") != std::string::npos);
  // A RobotState block decodes as a raw protobuf tree with joint names as strings.
  Json args = Json::object();
  args["series"] = 0;
  args["count"] = 1;
  Json entry = field(opened.inspector->query("blocks", args, nullptr), "entries")[size_t{0}];
  Json request = Json::object();
  request["offset"] = field(entry, "file_offset").as_uint();
  std::string decoded = opened.inspector->query("block", request, nullptr).dump();
  CHECK(decoded.find("\"fl.hx\"") != std::string::npos);
  CHECK(decoded.find("protobuf_raw") != std::string::npos);
}

TEST_CASE("block index: the plain encoding decodes without protobuf to what protobuf reads, anything else is left to protobuf") {
  using bosdyn::api::DescriptorBlock;
  auto same = [](const PlainBlockIndex& a, const PlainBlockIndex& b) {
    CHECK(a.series_index == b.series_index);
    CHECK(a.descriptor_file_offset == b.descriptor_file_offset);
    CHECK(a.total_bytes == b.total_bytes);
    REQUIRE(a.entries.size() == b.entries.size());
    for (size_t i = 0; i < a.entries.size(); ++i) {
      CHECK(a.entries[i].timestamp_ns == b.entries[i].timestamp_ns);
      CHECK(a.entries[i].file_offset == b.entries[i].file_offset);
      CHECK(a.entries[i].extra_count == b.entries[i].extra_count);
      CHECK(a.entries.extra(i) == b.entries.extra(i));
    }
  };
  DescriptorBlock block;
  auto* sbi = block.mutable_series_block_index();
  sbi->set_series_index(7);
  sbi->set_descriptor_file_offset(123456789012ull);
  sbi->set_total_bytes(99);
  for (int i = 0; i < 300; ++i) {
    auto* e = sbi->add_block_entries();
    e->mutable_timestamp()->set_seconds(i % 3 == 0 ? -5 : 1700000000 + i);
    e->mutable_timestamp()->set_nanos(i % 5 == 0 ? -1 : i * 1000);
    e->set_file_offset(4 + 1000ull * i);
    for (int k = 0; k < i % 4; ++k) e->add_additional_indexes(k == 1 ? -k : k * 1000000000000ll);
  }
  sbi->add_block_entries();  // an entry with nothing set
  std::string bytes = block.SerializeAsString();
  PlainBlockIndex fast, parsed;
  REQUIRE(decode_block_index_fast(bytes, &fast));
  block_index_from_message(*sbi, &parsed);
  same(fast, parsed);

  // Not the plain encoding: the fast decoder declines, and protobuf decides.
  std::string twice = bytes + bytes;  // repeated message fields merge in protobuf
  CHECK_FALSE(decode_block_index_fast(twice, &fast));
  DescriptorBlock other;
  other.mutable_file_index()->add_series_block_index_offsets(5);
  CHECK_FALSE(decode_block_index_fast(other.SerializeAsString(), &fast));
  std::string with_unknown_field = bytes + std::string("\x28\x01", 2);  // field 5 of DescriptorBlock
  CHECK_FALSE(decode_block_index_fast(with_unknown_field, &fast));
  for (size_t cut : {size_t{1}, bytes.size() / 2, bytes.size() - 1})
    CHECK_FALSE(decode_block_index_fast(bytes.substr(0, cut), &fast));
  CHECK(decode_block_index_fast(std::string(), &fast) == false);
}
