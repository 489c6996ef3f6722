// Damaged and cut files, made from our writer's output: the doctor names each fault with its
// offset, recovery keeps every complete block, and nothing crashes on junk.
#include <cstring>
#include <optional>
#include <random>

#include "bddf/blocks.h"
#include "bddf/format.h"
#include "bddf/wire.h"
#include "bddf/writer.h"
#include "test_bddf_support.h"

using namespace logscope;
using namespace logscope::bddf;
using bddf_test::has_problem;

namespace {

constexpr int64_t kStart = 1767225600000000000ll;

struct Fixture {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> data_offsets;  // file order
  uint64_t first_index_offset = 0;     // first SeriesBlockIndex
};

// Two message series and one POD series, 60 blocks in all.
Fixture make_file(bool out_of_order = false) {
  Fixture f;
  Writer writer([&](const void* d, size_t n) {
    f.bytes.insert(f.bytes.end(), static_cast<const uint8_t*>(d), static_cast<const uint8_t*>(d) + n);
    return true;
  }, Writer::Options{});
  int a = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  int b = writer.add_message_channel("bosdyn.api.OperatorComment", "bosdyn.api.OperatorComment");
  int c = writer.add_pod_channel("power/battery_voltage", 10);
  for (int i = 0; i < 40; ++i) {
    std::string payload = "\x0a\x05hello\x10" + std::string(1, static_cast<char>(i));
    int64_t ts = kStart + (out_of_order && i == 20 ? -5 : i) * 20000000ll;
    writer.write_block(a, ts, payload.data(), payload.size());
    if (i % 4 == 0) writer.write_block(b, ts, "\x0a\x02ok", 4);
    double v = 50 + i;
    for (int k = 0; k < 30; ++k) writer.write_pod_sample(c, ts + k, &v);
  }
  REQUIRE(writer.finish());
  auto opened = bddf_test::open_bytes(f.bytes);
  for (uint32_t s = 0; s < bddf_test::model_of(*opened.inspector).series.size(); ++s)
    for (const BlockEntry& e : bddf_test::model_of(*opened.inspector).series[s].entries) f.data_offsets.push_back(e.file_offset);
  std::sort(f.data_offsets.begin(), f.data_offsets.end());
  f.first_index_offset = bddf_test::model_of(*opened.inspector).series[0].block_index_file_offset;
  return f;
}

const Json& field(const Json& object, const std::string& key) {
  const Json* value = object.find(key);
  REQUIRE_MESSAGE(value, "missing key " << key);
  return *value;
}

uint64_t problem_offset(const Report& report, const std::string& code) {
  for (const Problem& p : report.problems)
    if (p.code == code) return p.offset;
  return UINT64_MAX;
}

// Exercises every view of the inspector, so junk gets to every reader path, and holds what each
// answers to the file: nodes, parts and spans lie inside it, every block node decodes as the block
// at its offset (a damaged one with the error that says why), located nodes exist. Returns the
// check's report.
Report touch_everything(FormatInspector& inspector, uint64_t size) {
  inspector.summary();
  Report report = inspector.check(nullptr);
  inspector.info_text(InfoOptions{});
  auto inside = [&](uint64_t offset, uint64_t length) { return offset <= size && length <= size - offset; };
  uint64_t n = inspector.child_count("");
  std::vector<TreeNode> nodes = inspector.children("", 0, n);
  CHECK(nodes.size() == n);
  for (const TreeNode& node : nodes) {
    CAPTURE(node.id);
    CHECK(inside(node.offset, node.length));
    Json decoded = inspector.decode(node.id);
    const Json* decoded_offset = decoded.find("offset");
    CHECK((decoded_offset && decoded_offset->as_uint() == node.offset));
    for (const TreeNode& part : inspector.children(node.id, 0, 10)) {
      CAPTURE(part.id);
      CHECK(inside(part.offset, part.length));
      CHECK(part.offset >= node.offset);
      CHECK(part.offset + part.length <= node.offset + node.length);
      inspector.decode(part.id);
    }
  }
  for (const Span& span : inspector.spans(0, size)) CHECK(inside(span.offset, span.length));
  for (const std::string& id : inspector.locate(size / 2)) CHECK(inspector.decode(id).find("offset") != nullptr);
  Json all = Json::object();
  Json extract = inspector.query("extract", all, nullptr);
  CHECK(extract.find("error") == nullptr);
  return report;
}

}  // namespace

TEST_CASE("bddf damage: trailer index offset pointing nowhere is recovered by a scan") {
  Fixture f = make_file();
  uint64_t size = f.bytes.size();
  for (uint64_t bad : {uint64_t{0}, uint64_t{2}, uint64_t{123}, size - 20, size + 1000, UINT64_MAX}) {
    std::vector<uint8_t> bytes = f.bytes;
    std::memcpy(&bytes[size - 32], &bad, 8);
    auto opened = bddf_test::open_bytes(bytes);
    Report report = opened.inspector->check(nullptr);
    INFO("index offset " << bad);
    CHECK((has_problem(report, "bddf.index.bad_offset") || has_problem(report, "bddf.index.not_file_index")));
    CHECK(problem_offset(report, has_problem(report, "bddf.index.bad_offset") ? "bddf.index.bad_offset" : "bddf.index.not_file_index") == size - 32);
    const Json& recovery = field(report.details, "recovery");
    CHECK(field(recovery, "recovered_blocks").as_uint() == f.data_offsets.size());
    CHECK(field(recovery, "end_code").as_string() == "end_block");
    CHECK(field(recovery, "ends_at").as_uint() == size - 40);
    CHECK(field(field(report.details, "checksum"), "status").as_string() == "mismatch");  // 8 bytes changed
  }
}

TEST_CASE("bddf damage: a file cut anywhere keeps every complete block and says where it ends") {
  Fixture f = make_file();
  // Cut at: the first index block (no trailer), inside a data block, inside a block header.
  uint64_t mid = f.data_offsets[f.data_offsets.size() / 2];
  struct Cut {
    uint64_t at;
    const char* end_code;
    uint64_t ends_at;
    size_t complete;
  };
  size_t before_mid = static_cast<size_t>(std::lower_bound(f.data_offsets.begin(), f.data_offsets.end(), mid) - f.data_offsets.begin());
  for (Cut cut : {Cut{f.first_index_offset, "eof", f.first_index_offset, f.data_offsets.size()},
                  Cut{mid + 15, "truncated_block", mid, before_mid}, Cut{mid + 3, "truncated_header", mid, before_mid}}) {
    INFO("cut at " << cut.at);
    std::vector<uint8_t> bytes(f.bytes.begin(), f.bytes.begin() + static_cast<long>(cut.at));
    auto opened = bddf_test::open_bytes(bytes);
    Report report = opened.inspector->check(nullptr);
    CHECK(field(field(report.details, "checksum"), "status").as_string() == "absent");
    const Json& recovery = field(report.details, "recovery");
    CHECK(field(recovery, "end_code").as_string() == cut.end_code);
    CHECK(field(recovery, "ends_at").as_uint() == cut.ends_at);
    CHECK(field(recovery, "recovered_blocks").as_uint() == cut.complete);
    CHECK(field(report.details, "data_blocks").as_uint() == cut.complete);
    if (std::string(cut.end_code) != "eof") {
      CHECK(problem_offset(report, std::string("bddf.file.") + cut.end_code) == mid);
      // Where the data stops is a recovery fact: the page lists it in its recovery callout.
      for (const Problem& p : report.problems)
        if (p.code == std::string("bddf.file.") + cut.end_code) CHECK(std::string(problem_category(p.code)) == "recovery");
    }
    // The damaged tail shows in the tree as the last node.
    std::vector<TreeNode> nodes = opened.inspector->children("", opened.inspector->child_count("") - 1, 1);
    if (std::string(cut.end_code) != "eof") CHECK(field(opened.inspector->decode(nodes[0].id), "block_type").as_string() == "damaged");
  }
}

TEST_CASE("bddf damage: the doctor names framing, descriptor and index faults with their offsets") {
  Fixture f = make_file();
  auto clean = bddf_test::open_bytes(f.bytes);
  CHECK(clean.inspector->check(nullptr).problems.empty());
  uint64_t victim = f.data_offsets[7];

  SUBCASE("unknown block type") {
    std::vector<uint8_t> bytes = f.bytes;
    bytes[victim + 7] = 0x07;
    Report report = bddf_test::open_bytes(bytes).inspector->check(nullptr);
    CHECK(problem_offset(report, "bddf.block.unknown_type") == victim);
  }
  SUBCASE("descriptor size larger than its block") {
    std::vector<uint8_t> bytes = f.bytes;
    uint32_t huge = 0x00FFFFFF;
    std::memcpy(&bytes[victim + 8], &huge, 4);
    Report report = bddf_test::open_bytes(bytes).inspector->check(nullptr);
    CHECK(problem_offset(report, "bddf.data.descriptor_too_big") == victim);
  }
  SUBCASE("series index out of range") {
    std::vector<uint8_t> bytes = f.bytes;
    // DataDescriptor starts "08 <series>" for series > 0, else "12 ..." (series 0 is not written).
    uint64_t block = 0;
    for (uint64_t o : f.data_offsets)
      if (bytes[o + 12] == 0x08) { block = o; break; }
    REQUIRE(block);
    bytes[block + 13] = 0x09;
    Report report = bddf_test::open_bytes(bytes).inspector->check(nullptr);
    CHECK(problem_offset(report, "bddf.data.series_out_of_range") == block);
  }
  SUBCASE("index entry pointing at the middle of a block") {
    // Recreate with a corrupted index: point one RobotState entry 4 bytes later.
    std::vector<uint8_t> bytes = f.bytes;
    auto opened = bddf_test::open_bytes(bytes);
    uint64_t sbi = bddf_test::model_of(*opened.inspector).series[0].block_index_file_offset;
    uint64_t target = bddf_test::model_of(*opened.inspector).series[0].entries[3].file_offset;
    // Find the varint of `target` inside the block index body and add 4 to its first byte.
    std::vector<uint8_t> varint;
    for (uint64_t v = target; ; v >>= 7) { varint.push_back(static_cast<uint8_t>((v & 0x7F) | (v >= 0x80 ? 0x80 : 0))); if (v < 0x80) break; }
    auto it = std::search(bytes.begin() + static_cast<long>(sbi), bytes.end(), varint.begin(), varint.end());
    REQUIRE(it != bytes.end());
    REQUIRE((*it & 0x7F) < 0x7B);
    *it = static_cast<uint8_t>(*it + 4);
    Report report = bddf_test::open_bytes(bytes).inspector->check(nullptr);
    CHECK(problem_offset(report, "bddf.index.entry_not_a_block") == target + 4);
    CHECK(has_problem(report, "bddf.index.unindexed_block"));
    CHECK(has_problem(report, "bddf.checksum.mismatch"));
  }
  SUBCASE("identifier hash that does not match the identifier") {
    std::vector<uint8_t> bytes = f.bytes;
    auto opened = bddf_test::open_bytes(bytes);
    uint64_t descriptor = bddf_test::model_of(*opened.inspector).series[1].descriptor_file_offset;
    uint64_t hash = bddf_test::model_of(*opened.inspector).series[1].identifier_hash;
    // field 3 varint: tag 0x18 then the hash; flip the lowest bit of the first varint byte.
    std::vector<uint8_t> needle = {0x18, static_cast<uint8_t>((hash & 0x7F) | 0x80)};
    auto it = std::search(bytes.begin() + static_cast<long>(descriptor), bytes.end(), needle.begin(), needle.end());
    REQUIRE(it != bytes.end());
    it[1] ^= 1;
    Report report = bddf_test::open_bytes(bytes).inspector->check(nullptr);
    CHECK(problem_offset(report, "bddf.series.hash_mismatch") == descriptor);
  }
  SUBCASE("version other than 1.0.0 is read with a warning") {
    std::vector<uint8_t> bytes = f.bytes;
    // The file descriptor's version message {major: 1} is "0a 02 08 01".
    std::vector<uint8_t> needle = {0x0a, 0x02, 0x08, 0x01};
    auto it = std::search(bytes.begin(), bytes.begin() + 64, needle.begin(), needle.end());
    REQUIRE(it != bytes.begin() + 64);
    it[3] = 2;
    Report report = bddf_test::open_bytes(bytes).inspector->check(nullptr);
    CHECK(problem_offset(report, "bddf.header.version") == 4);
    CHECK(field(report.details, "version").as_string() == "2.0.0");
    CHECK(field(report.details, "data_blocks").as_uint() == f.data_offsets.size());
  }
}

TEST_CASE("bddf damage: timestamps out of order within a series are a warning") {
  Fixture f = make_file(true);
  Report report = bddf_test::open_bytes(f.bytes).inspector->check(nullptr);
  CHECK(has_problem(report, "bddf.series.timestamps_out_of_order"));
  CHECK(report.count(Severity::Error) == 0);
  // Extraction still finds blocks by time (a linear pass over the in-memory index).
  auto opened = bddf_test::open_bytes(f.bytes);
  Json args = Json::object();
  args["series"] = 0;
  args["t0_ns"] = kStart - 10 * 20000000ll;
  args["t1_ns"] = kStart - 1;
  CHECK(field(opened.inspector->query("extract", args, nullptr), "total").as_uint() == 1);
}

TEST_CASE("bddf damage: random cuts and bit flips never crash or hang, and the check finds every one") {
  Fixture f = make_file();
  // The blocks of the intact file, in file order: a cut copy keeps the data blocks whose bytes all
  // lie before the cut (blocks follow each other without gaps; the last one ends at the trailer).
  auto intact = bddf_test::open_bytes(f.bytes);
  BlockList list = bddf_test::model_of(*intact.inspector).blocks();
  std::vector<BlockRef> blocks(list.begin(), list.end());
  auto complete_data_blocks = [&](uint64_t size) {
    uint64_t complete = 0;
    for (size_t i = 0; i < blocks.size(); ++i) {
      uint64_t end = i + 1 < blocks.size() ? blocks[i + 1].offset : f.bytes.size();
      if (blocks[i].kind == BlockKind::Data && end <= size) ++complete;
    }
    return complete;
  };
  std::mt19937_64 random(42);
  size_t cuts = 0, flips = 0;
  for (int round = 0; round < 150; ++round) {
    CAPTURE(round);
    std::vector<uint8_t> bytes = f.bytes;
    bool cut = round % 3 == 0;
    if (cut) {
      bytes.resize(4 + random() % (bytes.size() - 4));
    } else {
      for (int k = 0; k < 1 + round % 5; ++k) bytes[random() % bytes.size()] ^= static_cast<uint8_t>(1u << (random() % 8));
    }
    bool scrambled_tail = round % 7 == 0;
    if (scrambled_tail) for (size_t i = bytes.size() - 40; i < bytes.size() - 24; ++i) bytes[i] = static_cast<uint8_t>(random());
    if (bytes == f.bytes) continue;  // two flips of one bit undid each other
    auto opened = bddf_test::open_bytes(bytes);
    Report report = touch_everything(*opened.inspector, bytes.size());
    // Every change is reported: a cut loses the trailer, a flipped bit fails the SHA1 if nothing else.
    CHECK(report.count(Severity::Error) > 0);
    if (cut) {
      ++cuts;
      CHECK(field(report.details, "recovery").find("recovered_blocks") != nullptr);
      // Recovery keeps every complete data block (the scrambled 16 bytes may spoil the last ones).
      uint64_t recovered = bddf_test::model_of(*opened.inspector).data_block_count();
      if (scrambled_tail) {
        CHECK(recovered >= complete_data_blocks(bytes.size() - 40));
        CHECK(recovered <= complete_data_blocks(bytes.size()));
      } else {
        CHECK(recovered == complete_data_blocks(bytes.size()));
      }
    } else {
      ++flips;
      CHECK((has_problem(report, "bddf.checksum.mismatch") || !bddf_test::model_of(*opened.inspector).indexed));
    }
  }
  CHECK(cuts >= 45);
  CHECK(flips >= 90);
  // Tiny files: no whole file fits in fewer than 80 bytes, so each is reported.
  for (size_t n = 0; n < 80; ++n) {
    CAPTURE(n);
    std::vector<uint8_t> bytes(f.bytes.begin(), f.bytes.begin() + static_cast<long>(std::min(n, f.bytes.size())));
    auto opened = bddf_test::open_bytes(bytes);
    Report report = touch_everything(*opened.inspector, bytes.size());
    CHECK(report.count(Severity::Error) > 0);
    CHECK(bddf_test::model_of(*opened.inspector).data_block_count() == 0);
  }
}

TEST_CASE("bddf wire decoder: nested messages, strings, bytes, limits") {
  // field 1: message {field 1: "hello", field 2: 150}, field 2: bytes ff 00, field 3: fixed64 1.5
  std::string inner = std::string("\x0a\x05hello\x10\x96\x01", 10);
  std::string bytes = "\x0a" + std::string(1, static_cast<char>(inner.size())) + inner + std::string("\x12\x02\xff\x00", 4);
  double d = 1.5;
  bytes += '\x19';
  bytes.append(reinterpret_cast<const char*>(&d), 8);
  Json decoded = decode_wire(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 100, WireLimits{});
  const Json& fields = field(decoded, "fields");
  REQUIRE(fields.size() == 3);
  const Json& nested = field(fields[size_t{0}], "message");
  CHECK(field(nested[size_t{0}], "string").as_string() == "hello");
  CHECK(field(nested[size_t{1}], "value").as_uint() == 150);
  CHECK(field(fields[size_t{1}], "bytes_hex").as_string() == "ff00");
  CHECK(field(fields[size_t{2}], "as_double").as_double() == 1.5);
  CHECK(field(fields[size_t{1}], "offset").as_uint() == 100 + 2 + inner.size());
  CHECK_FALSE(field(decoded, "truncated").as_bool());
  WireLimits small;
  small.max_fields = 2;
  CHECK(field(decode_wire(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 0, small), "truncated").as_bool());
  // Malformed: a length running past the end.
  std::string bad = "\x0a\x7f" "abc";
  Json broken = decode_wire(reinterpret_cast<const uint8_t*>(bad.data()), bad.size(), 0, WireLimits{});
  CHECK(broken.contains("error"));
  // Deep nesting stops at the depth limit instead of recursing without end.
  std::string deep = "\x08\x01";
  for (int i = 0; i < 200 && deep.size() < 120; ++i) deep = "\x0a" + std::string(1, static_cast<char>(deep.size())) + deep;
  CHECK(field(decode_wire(reinterpret_cast<const uint8_t*>(deep.data()), deep.size(), 0, WireLimits{}), "fields").size() == 1);
}

namespace {

// What the page does for "Run full check" on a local file: it streams the bytes into the check
// feed, in pieces of `piece` bytes (0: random sizes from 1 to 300). Null when there is no feed.
std::optional<std::string> fed_check(FormatInspector& inspector, const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed = 1,
                                     uint64_t stop_at = UINT64_MAX) {
  std::unique_ptr<ByteFeed> feed = inspector.check_feed();
  if (!feed) return std::nullopt;
  REQUIRE(feed->begin() == 0);
  std::mt19937 random(seed);
  uint64_t end = std::min<uint64_t>({feed->end(), bytes.size(), stop_at});
  for (uint64_t at = 0; at < end;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(piece ? piece : 1 + random() % 300, end - at));
    feed->update(bytes.data() + at, n);
    at += n;
  }
  return feed->finish("", false).dump();
}

void check_fed_equals_pulled(const std::vector<uint8_t>& bytes, size_t piece, uint32_t seed) {
  auto opened = bddf_test::open_bytes(bytes);
  std::string pulled = opened.inspector->check(nullptr).to_json().dump();
  std::optional<std::string> fed = fed_check(*opened.inspector, bytes, piece, seed);
  if (fed) CHECK(*fed == pulled);
  else CHECK_FALSE(bddf_test::model_of(*opened.inspector).indexed);  // only then is there nothing to feed
}

}  // namespace

TEST_CASE("bddf check feed: pieces of any size give the pulled check") {
  Fixture f = make_file();
  for (size_t piece : {1, 5, 7, 8, 11, 12, 13, 100, 4096, 1 << 20}) {
    CAPTURE(piece);
    check_fed_equals_pulled(f.bytes, piece, 1);
  }
  for (uint32_t seed = 1; seed <= 5; ++seed) check_fed_equals_pulled(f.bytes, 0, seed);
  // An empty file: its blocks (descriptor, index) are shorter than the 12 header bytes the walk
  // reads, so each header gathered holds the next block's first bytes.
  std::vector<uint8_t> empty;
  {
    Writer writer([&](const void* d, size_t n) {
      empty.insert(empty.end(), static_cast<const uint8_t*>(d), static_cast<const uint8_t*>(d) + n);
      return true;
    }, Writer::Options{});
    REQUIRE(writer.finish());
  }
  for (size_t piece : {1, 3, 70}) check_fed_equals_pulled(empty, piece, 1);
}

TEST_CASE("bddf check feed: every cut and random damage give the pulled check") {
  Fixture f = make_file();
  for (size_t cut = 0; cut <= f.bytes.size(); cut += cut < 300 ? 1 : 37) {
    CAPTURE(cut);
    check_fed_equals_pulled(std::vector<uint8_t>(f.bytes.begin(), f.bytes.begin() + static_cast<std::ptrdiff_t>(cut)), 0,
                            static_cast<uint32_t>(cut));
  }
  std::mt19937 random(11);
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    std::vector<uint8_t> bytes = f.bytes;
    for (int k = 0; k < 3; ++k) bytes[random() % bytes.size()] = static_cast<uint8_t>(random());
    check_fed_equals_pulled(bytes, 0, static_cast<uint32_t>(trial));
  }
}

TEST_CASE("bddf check feed: an early end keeps nothing and asks for the pulled check") {
  Fixture f = make_file();
  auto opened = bddf_test::open_bytes(f.bytes);
  std::optional<std::string> fed = fed_check(*opened.inspector, f.bytes, 4096, 1, f.bytes.size() / 2);
  REQUIRE(fed);
  CHECK(fed->find("\"status\":\"incomplete\"") != std::string::npos);
  std::unique_ptr<ByteFeed> failed = opened.inspector->check_feed();
  failed->update(f.bytes.data(), f.bytes.size());
  CHECK(field(failed->finish("the browser could not read the file", false), "error").as_string() == "the browser could not read the file");
}

TEST_CASE("bddf check feed: the real samples give the pulled check") {
  if (!test_support::have_samples()) return;
  for (const char* name : {"bddf/robot_state_small.bddf", "bddf/corrupted_checksum.bddf", "bddf/empty.bddf", "bddf/truncated_no_trailer.bddf"}) {
    CAPTURE(name);
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample(name));
    REQUIRE(!bytes.empty());
    check_fed_equals_pulled(bytes, 65536, 1);
    check_fed_equals_pulled(bytes, 0, 2);
  }
}
