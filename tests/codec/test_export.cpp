// The export engine: number text, CSV/JSONL writing, field selection and time arguments; bag topics
// from our writer (V2.0 none/bz2/lz4, V1.2) with known values, ranges that read less, damaged
// messages and the CLI. The real sample bags against python3-rosbag: test_export_samples.cpp.
#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <limits>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/export.h"
#include "export_support.h"
#include "rosbag/export.h"
#include "rosbag/inspector.h"
#include "rosbag/writer.h"
#include "test_support.h"

using namespace logscope;
using export_support::parse_csv;
using export_support::Row;

namespace {

ExportRequest csv_request() { return ExportRequest(); }

std::string table(const std::vector<std::string>& columns, const std::function<void(TableWriter&)>& rows,
                  ExportRequest request = ExportRequest()) {
  StringSink sink;
  TableWriter writer(sink, request);
  std::string error;
  REQUIRE(writer.start(columns, &error));
  rows(writer);
  return sink.text();
}

}  // namespace

TEST_CASE("numbers print in their shortest form that reads back as the same value") {
  CHECK(format_f64(0.1) == "0.1");
  CHECK(format_f32(0.1f) == "0.1");  // not 0.10000000149011612: a float32 is printed as a float32
  CHECK(format_f64(static_cast<double>(0.1f)) == "0.10000000149011612");
  CHECK(format_f64(1e300) == "1e+300");
  CHECK(format_f64(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(format_f32(-std::numeric_limits<float>::infinity()) == "-inf");
  for (double v : {3.141592653589793, 1.0 / 3, 5e-324, 1.7976931348623157e308, -0.0})
    CHECK(std::strtod(format_f64(v).c_str(), nullptr) == v);
  for (float v : {3.1415927f, 1.0f / 3, 1e-45f, 3.4028235e38f})
    CHECK(std::strtof(format_f32(v).c_str(), nullptr) == v);
  std::string csv = table({"time_ns", "a", "b"}, [](TableWriter& w) {
    w.begin_row();
    w.unsigned_integer(UINT64_MAX);
    w.integer(INT64_MIN);
    w.f32(2.5f);
    w.end_row();
  });
  CHECK(csv == "time_ns,a,b\r\n18446744073709551615,-9223372036854775808,2.5\r\n");
}

TEST_CASE("CSV cells are quoted per RFC 4180, JSON Lines keep types, a row is padded to its columns") {
  auto fill = [](TableWriter& w) {
    w.begin_row();
    w.unsigned_integer(1);
    w.text("a,\"b\"\nc");
    w.json("[1,2]");
    w.boolean(true);
    w.end_row();
    w.begin_row();
    w.unsigned_integer(2);
    w.end_row();
  };
  std::string csv = table({"time_ns", "s", "arr", "flag"}, fill);
  CHECK(csv == "time_ns,s,arr,flag\r\n1,\"a,\"\"b\"\"\nc\",\"[1,2]\",true\r\n2,,,\r\n");
  std::vector<Row> rows;
  REQUIRE(parse_csv(csv, &rows));
  REQUIRE(rows.size() == 3);
  CHECK(rows[1][1] == "a,\"b\"\nc");
  ExportRequest jsonl;
  jsonl.format = ExportFormat::Jsonl;
  std::string lines = table({"time_ns", "s", "arr", "flag"}, fill, jsonl);
  CHECK(lines == "{\"time_ns\":1,\"s\":\"a,\\\"b\\\"\\nc\",\"arr\":[1,2],\"flag\":true}\n"
                 "{\"time_ns\":2,\"s\":null,\"arr\":null,\"flag\":null}\n");
}

TEST_CASE("--fields keeps the named columns and those below them, in the order asked, after the time") {
  ExportRequest request;
  request.fields = {"pose.position", "id"};
  std::string csv = table({"time_ns", "id", "pose.position.x", "pose.position.y", "pose.positional", "ranges[0]"},
                          [](TableWriter& w) {
                            w.begin_row();
                            for (int i = 0; i < 6; ++i) w.integer(i);
                            w.end_row();
                          }, request);
  CHECK(csv == "time_ns,pose.position.x,pose.position.y,id\r\n0,2,3,1\r\n");
  StringSink sink;
  request.fields = {"nope"};
  TableWriter writer(sink, request);
  std::string error;
  CHECK_FALSE(writer.start({"time_ns", "id"}, &error));
  CHECK(error.find("\"nope\"") != std::string::npos);
}

TEST_CASE("time arguments: +seconds after the start or absolute seconds, exact to the nanosecond") {
  uint64_t ns = 0;
  CHECK(parse_export_time("+12.5", 1000, &ns));
  CHECK(ns == 12500001000ULL);
  CHECK(parse_export_time("1700000000.123456789", 0, &ns));
  CHECK(ns == 1700000000123456789ULL);
  CHECK(parse_export_time("+.25", 0, &ns));
  CHECK(ns == 250000000ULL);
  CHECK_FALSE(parse_export_time("12s", 0, &ns));
  CHECK_FALSE(parse_export_time("1.0000000001", 0, &ns));
  CHECK_FALSE(parse_export_time("", 0, &ns));
  CHECK_FALSE(parse_export_time("99999999999999999999", 0, &ns));
}

namespace {

const char* kProbeDefinition =
    "Header header\nfloat32 f\nfloat64 d\nuint64 big\nint64 neg\nfloat64[3] vec\nfloat32[] ranges\nstring label\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string probe_message(uint32_t i) {
  std::string m;
  put<uint32_t>(m, i);
  put<uint32_t>(m, 100 + i);
  put<uint32_t>(m, 7);
  put<uint32_t>(m, 4);
  m += "base";
  put<float>(m, 0.1f * static_cast<float>(i));
  put<double>(m, 1.0 / 3 + i);
  put<uint64_t>(m, UINT64_MAX - i);
  put<int64_t>(m, INT64_MIN + i);
  for (int k = 0; k < 3; ++k) put<double>(m, k + 0.5);
  put<uint32_t>(m, i % 3);
  for (uint32_t k = 0; k < i % 3; ++k) put<float>(m, static_cast<float>(k) * 1.5f);
  std::string label = i % 2 ? "odd, \"quoted\"" : "even";
  put<uint32_t>(m, static_cast<uint32_t>(label.size()));
  m += label;
  return m;
}

// A bag of 200 /probe messages (one per 10 ms from t = 100 s) and as many /noise ones, in chunks
// of about 2 KB.
std::vector<uint8_t> probe_bag(int version, const std::string& compression) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.version = version;
  options.compression = compression;
  options.chunk_threshold = 2048;
  rosbag::BagWriter writer(sink, options);
  uint32_t probe = writer.add_connection("/probe", "test_msgs/Probe", "0123456789abcdef0123456789abcdef", kProbeDefinition);
  uint32_t noise = writer.add_connection("/noise", "std_msgs/UInt32", "304a39449588c7f8ce2df6e8001c5fce", "uint32 data\n");
  for (uint32_t i = 0; i < 200; ++i) {
    uint64_t t = 100000000000ULL + uint64_t{i} * 10000000ULL;
    REQUIRE(writer.write(probe, rosbag::Time::from_ns(t), probe_message(i)));
    std::string n;
    put<uint32_t>(n, i);
    REQUIRE(writer.write(noise, rosbag::Time::from_ns(t + 1), n));
  }
  REQUIRE(writer.close());
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

}  // namespace

TEST_CASE("a bag topic from our writer exports exactly, in every version and compression") {
  for (auto variant : {std::pair{200, "none"}, {200, "bz2"}, {200, "lz4"}, {102, "none"}}) {
    // Plain copies: CAPTURE is a lambda, and C++17 lambdas cannot capture structured bindings.
    const int version = variant.first;
    const char* compression = variant.second;
    CAPTURE(version);
    CAPTURE(compression);
    MemoryByteSource source(probe_bag(version, compression));
    auto inspector = rosbag::open_inspector(source, rosbag::format_of(detect(source)));
    REQUIRE(inspector);
    StringSink sink;
    ExportResult result = rosbag::export_topic(source, *rosbag::opened_bag(*inspector), "/probe", ExportRequest(), sink);
    CHECK(result.error.empty());
    CHECK(result.problems.empty());
    CHECK(result.rows == 200);
    CHECK(result.json_columns == std::vector<std::string>{"ranges"});
    std::vector<Row> rows;
    REQUIRE(parse_csv(sink.text(), &rows));
    REQUIRE(rows.size() == 201);
    CHECK(rows[0] == Row{"time_ns", "header.seq", "header.stamp.secs", "header.stamp.nsecs", "header.frame_id", "f", "d", "big",
                         "neg", "vec[0]", "vec[1]", "vec[2]", "ranges", "label"});
    CHECK(rows[1] == Row{"100000000000", "0", "100", "7", "base", "0", "0.3333333333333333", "18446744073709551615",
                         "-9223372036854775808", "0.5", "1.5", "2.5", "[]", "even"});
    CHECK(rows[3] == Row{"100020000000", "2", "102", "7", "base", "0.2", "2.3333333333333335", "18446744073709551613",
                         "-9223372036854775806", "0.5", "1.5", "2.5", "[0,1.5]", "even"});
    CHECK(rows[4][13] == "odd, \"quoted\"");
  }
}

TEST_CASE("a time range reads only the chunks that hold it, and --fields narrows the columns") {
  MemoryByteSource memory(probe_bag(200, "lz4"));
  auto inspector = rosbag::open_inspector(memory, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  CountingByteSource counting(memory);
  ExportRequest request;
  request.from_ns = 100500000000ULL;  // +0.5 s .. +0.6 s: messages 50..60
  request.to_ns = 100600000000ULL;
  request.fields = {"header.seq", "ranges"};
  request.format = ExportFormat::Jsonl;
  StringSink sink;
  ExportResult result = rosbag::export_topic(counting, *rosbag::opened_bag(*inspector), "/probe", request, sink);
  CHECK(result.rows == 11);
  CHECK(result.json_columns == std::vector<std::string>{"ranges"});
  CHECK(sink.text().rfind("{\"time_ns\":100500000000,\"header.seq\":50,\"ranges\":[0,1.5]}\n", 0) == 0);
  CHECK(counting.bytes_read() * 5 < memory.size());  // a few chunks of many
  StringSink none;
  ExportResult missing = rosbag::export_topic(memory, *rosbag::opened_bag(*inspector), "/nope", ExportRequest(), none);
  CHECK(missing.error.find("/noise, /probe") != std::string::npos);
}

TEST_CASE("a message that does not fit its definition is left out, said where, and the rest exported") {
  rosbag::MemorySink sink;
  rosbag::BagWriter writer(sink, rosbag::WriterOptions());
  uint32_t probe = writer.add_connection("/probe", "test_msgs/Probe", "0123456789abcdef0123456789abcdef", kProbeDefinition);
  std::string good = probe_message(1), cut = probe_message(2).substr(0, 30), lying = probe_message(3);
  uint32_t huge = 0xfffffff0u;  // the ranges length: far more than the bytes that remain
  std::memcpy(&lying[lying.size() - 13 - 4 - 4], &huge, 4);  // before label length and label
  REQUIRE(writer.write(probe, rosbag::Time{100, 0}, good));
  REQUIRE(writer.write(probe, rosbag::Time{101, 0}, cut));
  REQUIRE(writer.write(probe, rosbag::Time{102, 0}, lying));
  REQUIRE(writer.write(probe, rosbag::Time{103, 0}, good));
  REQUIRE(writer.close());
  MemoryByteSource source(std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end()));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  StringSink out;
  ExportResult result = rosbag::export_topic(source, *rosbag::opened_bag(*inspector), "/probe", ExportRequest(), out);
  CHECK(result.rows == 2);
  REQUIRE(result.problems.size() == 2);
  for (const Problem& p : result.problems) {
    CHECK(p.code == "rosbag.export.undecodable");
    CHECK(p.offset > 0);  // the chunk's offset
  }
  CHECK(result.problems[0].message.find("101000000000 ns") != std::string::npos);
  std::vector<Row> rows;
  REQUIRE(parse_csv(out.text(), &rows));
  REQUIRE(rows.size() == 3);
  CHECK(rows[1][0] == "100000000000");
  CHECK(rows[2][0] == "103000000000");
}

TEST_CASE("a definition that flattens to too many columns is refused, not built") {
  std::string definition;
  for (int i = 0; i < 30; ++i) definition += "t/Q[64] a" + std::to_string(i) + "\n";  // 30 x 4096 columns
  definition += "================================================================================\nMSG: t/Q\n";
  for (int i = 0; i < 64; ++i) definition += "float64 f" + std::to_string(i) + "\n";
  rosbag::MemorySink sink;
  rosbag::BagWriter writer(sink, rosbag::WriterOptions());
  uint32_t wide = writer.add_connection("/wide", "t/Wide", "0123456789abcdef0123456789abcdef", definition);
  REQUIRE(writer.write(wide, rosbag::Time{1, 0}, std::string(30 * 64 * 64 * 8, '\0')));
  REQUIRE(writer.close());
  MemoryByteSource source(std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end()));
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  StringSink out;
  ExportResult result = rosbag::export_topic(source, *rosbag::opened_bag(*inspector), "/wide", ExportRequest(), out);
  CHECK(result.error.find("more than 100000 columns") != std::string::npos);
  CHECK(out.text().empty());
}

TEST_CASE("logscope export: stdout or -o, usage errors named, exit status 0 clean and 2 unusable") {
  std::string dir = test_support::scratch_dir("export_cli");
  std::string bag = dir + "/probe.bag";
  test_support::write_file(bag, probe_bag(200, "bz2"));
  int status = -1;
  std::string out = test_support::run_cli("export '" + bag + "' --topic /noise --to +0.02", &status);  // stderr follows
  CHECK(status == 0);
  CHECK(out == "time_ns,data\r\n100000000001,0\r\n100010000001,1\r\nlogscope: export: 2 rows\n");
  out = test_support::run_cli("export '" + bag + "' --topic /probe --fields ranges -o '" + dir + "/probe.csv'", &status);
  CHECK(status == 0);
  CHECK(out.find("1 column(s) hold a whole array as one JSON cell") != std::string::npos);
  CHECK(out.find("200 rows") != std::string::npos);
  CHECK(test_support::read_text(dir + "/probe.csv").rfind("time_ns,ranges\r\n100000000000,[]\r\n", 0) == 0);
  out = test_support::run_cli("export '" + bag + "' --topic /probe --fields vec -o /dev/null", &status);
  CHECK(out.find("JSON cell") == std::string::npos);  // ranges is not written: no note about it
  out = test_support::run_cli("export '" + bag + "' --series 1", &status);
  CHECK(status == 2);
  CHECK(out.find("--series is for BDDF") != std::string::npos);
  out = test_support::run_cli("export '" + bag + "' --topic /probe --from 5x", &status);
  CHECK(status == 2);
  CHECK(out.find("--from needs seconds") != std::string::npos);
  out = test_support::run_cli("export '" + bag + "' --topic /probe --fields nope", &status);
  CHECK(status == 2);
  CHECK(out.find("no column is named \"nope\"") != std::string::npos);
  out = test_support::run_cli("export '" + bag + "'", &status);
  CHECK(status == 2);
}
