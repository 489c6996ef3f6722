// Extract and repair of BDDF files and CARLA logs made by our writers, cut and damaged in the
// test: the outputs pass the codec's check, hold exactly the complete blocks/frames, and the
// payloads are byte-identical to the source's.
#include <cstring>
#include <map>
#include <string>

#include "bddf/blocks.h"
#include "bddf/extract.h"
#include "bddf/model.h"
#include "bddf/reader.h"
#include "bddf/writer.h"
#include "carla/writer.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "core/format_table.h"
#include "inspector.h"
#include "test_support.h"

using namespace logscope;

namespace {

std::vector<uint8_t> make_bddf() {
  std::string bytes;
  bddf::Writer w([&](const void* d, size_t n) { return bytes.append(static_cast<const char*>(d), n), true; },
                 bddf::Writer::Options{{{"robot", "spot-test"}}, true, 2048});
  int state = w.add_message_channel("robot_state", "bosdyn.api.RobotState");
  int comment = w.add_message_channel("comments", "bosdyn.api.OperatorComment");
  int imu = w.add_pod_channel("imu", 10, {3});
  for (int i = 0; i < 300; ++i) {
    int64_t t = 1700000000000000000ll + int64_t(i) * 20000000ll;
    std::string payload(100 + i % 37, static_cast<char>('a' + i % 26));
    REQUIRE(w.write_block(state, t, payload.data(), payload.size(), {i}));
    if (i % 50 == 0) REQUIRE(w.write_block(comment, t, "note", 4));
    double sample[3] = {i * 1.0, i * 2.0, i * 3.0};
    REQUIRE(w.write_pod_sample(imu, t, sample));
  }
  REQUIRE(w.finish());
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

struct Block {
  std::string channel;
  int64_t time;
  std::string payload;
  bool operator==(const Block& o) const { return channel == o.channel && time == o.time && payload == o.payload; }
};

// The data blocks of a file in file order, read by our reader, with their payloads; `before`
// keeps only blocks that end at or before that byte.
std::vector<Block> data_blocks(const std::vector<uint8_t>& bytes, uint64_t before = UINT64_MAX) {
  MemoryByteSource source(bytes.data(), bytes.size());
  bddf::FileModel model = bddf::open_file_model(source);
  std::vector<Block> out;
  for (const bddf::BlockRef& ref : model.blocks()) {
    if (ref.kind != bddf::BlockKind::Data) continue;
    bddf::BlockFrame frame;
    std::string why;
    if (bddf::read_frame(source, ref.offset, bytes.size(), &frame, &why) != bddf::FrameStatus::Ok) continue;
    if (frame.offset + frame.length > before) continue;
    std::string payload(frame.payload_size(), '\0');
    source.read(frame.payload_offset(), payload.data(), payload.size());
    const bddf::Series& s = model.series[ref.series];
    out.push_back({s.channel(), s.entries[ref.entry].timestamp_ns, payload});
  }
  return out;
}

Report check_bytes(const std::vector<uint8_t>& bytes, std::string* checksum) {
  MemoryByteSource source(bytes.data(), bytes.size());
  Detection d = detect(source);
  auto inspector = open_inspector(source, d);
  REQUIRE(inspector);
  Report report = inspector->check(nullptr);
  if (const Json* c = report.details.find("checksum")) *checksum = c->find("status")->as_string();
  return report;
}

ExtractResult run_bddf(const std::vector<uint8_t>& input, MemoryOutputSink& out, const bddf::BddfExtractOptions& options) {
  MemoryByteSource source(input.data(), input.size());
  return bddf::extract_bddf(source, out, options);
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

}  // namespace

TEST_CASE("bddf repair: no trailer and index, or cut mid-block: exactly the complete blocks, new index and SHA1") {
  std::vector<uint8_t> whole = make_bddf();
  MemoryByteSource whole_source(whole.data(), whole.size());
  bddf::FileModel model = bddf::open_file_model(whole_source);
  uint64_t index_at = 0, last_data = 0;
  for (const bddf::BlockRef& ref : model.blocks()) {
    if (ref.kind == bddf::BlockKind::SeriesBlockIndex && !index_at) index_at = ref.offset;
    if (ref.kind == bddf::BlockKind::Data) last_data = ref.offset;
  }
  REQUIRE(index_at > 0);
  for (uint64_t cut : {index_at, last_data + 30, index_at / 2}) {
    CAPTURE(cut);
    std::vector<uint8_t> input(whole.begin(), whole.begin() + cut);
    MemoryOutputSink out;
    ExtractResult result = run_bddf(input, out, {});
    REQUIRE_MESSAGE(result.ok, result.error);
    std::string checksum;
    Report report = check_bytes(bytes_of(out.bytes), &checksum);
    CHECK(checksum == "valid");
    CHECK(report.count(Severity::Error) + report.count(Severity::Warning) == 0);
    std::vector<Block> expected = data_blocks(whole, cut);
    CHECK(expected.size() > 10);
    CHECK(data_blocks(bytes_of(out.bytes)) == expected);
    if (cut < index_at) CHECK_FALSE(result.dropped.empty());
  }
}

TEST_CASE("bddf extract: chosen series in a span, payloads byte-identical to the source's") {
  std::vector<uint8_t> whole = make_bddf();
  bddf::BddfExtractOptions options;
  options.series = {0, 2};
  REQUIRE(parse_time_bound("+1", &options.from, nullptr));
  REQUIRE(parse_time_bound("+3", &options.to, nullptr));
  MemoryOutputSink out;
  ExtractResult result = run_bddf(whole, out, options);
  REQUIRE_MESSAGE(result.ok, result.error);
  std::string checksum;
  Report report = check_bytes(bytes_of(out.bytes), &checksum);
  CHECK(checksum == "valid");
  CHECK(report.count(Severity::Error) + report.count(Severity::Warning) == 0);
  std::vector<Block> expected;
  for (const Block& b : data_blocks(whole))
    if (b.channel != "comments" && b.time >= 1700000001000000000ll && b.time <= 1700000003000000000ll) expected.push_back(b);
  CHECK(expected.size() > 100);
  CHECK(data_blocks(bytes_of(out.bytes)) == expected);

  bddf::BddfExtractOptions bad;
  bad.series = {7};
  MemoryOutputSink unused;
  ExtractResult refused = run_bddf(whole, unused, bad);
  CHECK_FALSE(refused.ok);
  CHECK(refused.error.find("series 7") != std::string::npos);
}

// The page's job worker has the file open in an inspector when it extracts: the extract uses that
// inspector's index (ExtractSelection::open) instead of reading its own copy, with the same output.
TEST_CASE("bddf extract and repair with the caller's open inspector: the same bytes, the index not read again") {
  std::vector<uint8_t> whole = make_bddf();
  const FormatEntry* entry = find_format("bddf");
  REQUIRE(entry);
  for (bool repair : {false, true}) {
    CAPTURE(repair);
    ExtractSelection selection;
    if (!repair) selection.sources = {"0", "2"};
    MemoryByteSource bytes(whole.data(), whole.size());
    CountingByteSource source(bytes);
    Detection d = detect(source);
    MemoryOutputSink own, reused;
    source.reset();
    ExtractResult alone = (repair ? entry->repair : entry->extract)(source, d, selection, own, nullptr);
    uint64_t read_alone = source.bytes_read();
    auto inspector = open_inspector(source, d);
    REQUIRE(inspector);
    selection.open = inspector.get();
    source.reset();
    ExtractResult with_open = (repair ? entry->repair : entry->extract)(source, d, selection, reused, nullptr);
    REQUIRE_MESSAGE(alone.ok, alone.error);
    REQUIRE_MESSAGE(with_open.ok, with_open.error);
    CHECK(reused.bytes == own.bytes);
    CHECK(with_open.kept == alone.kept);
    CAPTURE(read_alone);
    CAPTURE(source.bytes_read());
    CHECK(source.bytes_read() < read_alone);
  }
}

TEST_CASE("carla repair: a log cut mid-frame gives the same info as the original up to its last complete frame") {
  test_support::use_utc();
  std::string dir = test_support::scratch_dir("extract-carla");
  carla::LogWriter w;
  w.header(1637671165, "Town02");
  std::vector<size_t> frame_ends;
  for (int f = 1; f <= 40; ++f) {
    w.frame_start(f, f == 40 ? -1.0 : 0.05, (f - 1) * 0.05);
    carla::EventAddRecord car;
    car.id = 5, car.type = 1, car.blueprint = "vehicle.audi.tt", car.attributes = {{3, "role_name", "hero"}};
    w.write(carla::packets::EventAdd, f == 1 ? std::vector<carla::EventAddRecord>{car} : std::vector<carla::EventAddRecord>{});
    w.write(carla::packets::Position, {{5, {f * 10.0, 0, 0}, {0, 0, 0}}});
    w.frame_end();
    frame_ends.push_back(w.bytes().size());
  }
  std::vector<uint8_t> log = w.take();
  size_t last_complete = frame_ends[29];  // cut inside frame 31
  std::vector<uint8_t> cut(log.begin(), log.begin() + last_complete + (frame_ends[30] - last_complete) / 2);
  std::vector<uint8_t> upto(log.begin(), log.begin() + last_complete);
  test_support::write_file(dir + "/cut.log", cut);
  test_support::write_file(dir + "/upto.log", upto);
  int status = -1;
  std::string said = test_support::run_cli("repair '" + dir + "/cut.log' '" + dir + "/repaired.log'", &status);
  INFO(said);
  CHECK(status == 0);  // the last frame's duration is -1 again: the check is clean
  CHECK(said.find("dropped: " + std::to_string(cut.size() - last_complete) + " bytes from byte " + std::to_string(last_complete)) != std::string::npos);
  CHECK(said.find("verdict: the written file is valid") != std::string::npos);
  std::vector<uint8_t> expected = upto;
  double closed = -1.0;
  std::memcpy(&expected[frame_ends[28] + 5 + 8], &closed, 8);  // frame 30's duration
  CHECK(test_support::read_file(dir + "/repaired.log") == expected);
  auto stdout_lines = [](std::string text) {  // run_cli merges stderr: drop its "logscope:" notes
    std::string out;
    for (size_t begin = 0, end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1)
      if (text.compare(begin, 9, "logscope:") != 0) out += text.substr(begin, end - begin + 1);
    return out;
  };
  std::string theirs = stdout_lines(test_support::run_cli("info '" + dir + "/upto.log'"));
  std::string ours = stdout_lines(test_support::run_cli("info '" + dir + "/repaired.log'"));
  CHECK(theirs.find("Frames: 30") != std::string::npos);
  CHECK(theirs.find("Duration: 1.45 seconds") != std::string::npos);
  CHECK(ours == theirs);
}
