// MCAP payloads by their channel's encodings (mcap/payload.h): the record view of a CDR, ros1 and
// JSON message, the export by topic with every numeric leaf, its problems, and the plot queries,
// on the file `make-demo-cdr` writes (mcap/cdr_demo.h). The values against
// @foxglove/rosmsg2-serialization: tests/node/cdr-agreement.test.mjs.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "core/byte_source.h"
#include "core/export.h"
#include "export_support.h"
#include "mcap/cdr_demo.h"
#include "mcap/inspector.h"

using namespace logscope;

namespace {
std::vector<export_support::Row> parse_csv(const std::string& text) {
  std::vector<export_support::Row> rows;
  REQUIRE(export_support::parse_csv(text, &rows));
  return rows;
}
}  // namespace

namespace {

struct Opened {
  std::string bytes;
  std::unique_ptr<MemoryByteSource> source;
  std::unique_ptr<FormatInspector> inspector;
};

Opened open_demo(const std::string& compression = "zstd", bool message_indexes = true) {
  Opened o;
  mcap::CdrDemoOptions options;
  options.compression = compression;
  options.message_indexes = message_indexes;
  o.bytes = mcap::cdr_demo(options);
  o.source = std::make_unique<MemoryByteSource>(reinterpret_cast<const uint8_t*>(o.bytes.data()), o.bytes.size());
  o.inspector = mcap::open_inspector(*o.source);
  return o;
}

// The first message record of `topic` in the tree (chunk children), decoded.
Json first_message(FormatInspector& inspector, const std::string& topic) {
  for (const TreeNode& node : inspector.children("", 0, 1000)) {
    if (node.label.find("Chunk") == std::string::npos) continue;
    for (const TreeNode& inner : inspector.children(node.id, 0, 100000)) {
      Json j = inspector.decode(inner.id);
      const Json* t = j.find("topic");
      if (t && t->as_string() == topic && j.find("record")->as_string() == "Message") return j;
    }
  }
  return Json();
}

std::string export_text(FormatInspector& inspector, const std::string& topic, ExportResult* result) {
  StringSink sink;
  *result = inspector.export_rows(topic, ExportRequest(), sink, nullptr);
  return sink.text();
}

}  // namespace

TEST_CASE("mcap payloads: the record view decodes CDR, ros1 and JSON messages by their channel") {
  for (const char* compression : {"", "lz4", "zstd"}) {
    Opened o = open_demo(compression);
    Json imu = first_message(*o.inspector, "/imu");
    REQUIRE(imu.find("message"));
    CHECK_FALSE(imu.find("decode_error"));
    CHECK(imu.find("message")->find("header")->find("frame_id")->as_string() == "imu_link");
    CHECK(imu.find("message")->find("orientation")->find("w")->as_double() == 1.0);
    CHECK(imu.find("data"));  // the bytes stay beside the fields

    Json all = first_message(*o.inspector, "/all_kinds");
    REQUIRE(all.find("message"));
    CHECK_FALSE(all.find("decode_error"));
    CHECK(all.find("message")->find("u64")->as_uint() == 9007199254740993ull);
    CHECK(all.find("message")->find("long_fixed")->find("length")->as_uint() == 70);

    Json legacy = first_message(*o.inspector, "/legacy");
    CHECK(legacy.find("message")->dump() == "{\"data\":0.0}");
    Json status = first_message(*o.inspector, "/status");
    CHECK(status.find("message")->dump() == "{\"ok\":false,\"n\":0}");
    Json bad = first_message(*o.inspector, "/mismatch");
    REQUIRE(bad.find("decode_error"));
    CHECK(bad.find("decode_error")->as_string().find("field 'b'") != std::string::npos);
  }
}

TEST_CASE("mcap export: every numeric leaf of a CDR topic by its path, one row per message") {
  Opened o = open_demo();
  ExportResult result;
  std::string csv = export_text(*o.inspector, "/pose", &result);
  CHECK(result.error == "");
  CHECK(result.rows == 20);
  CHECK(result.problems.empty());
  auto rows = parse_csv(csv);
  REQUIRE(rows.size() == 21);
  CHECK(rows[0] == std::vector<std::string>{"time_ns", "header.stamp.sec", "header.stamp.nanosec", "header.frame_id", "pose.position.x",
                                            "pose.position.y", "pose.position.z", "pose.orientation.x", "pose.orientation.y",
                                            "pose.orientation.z", "pose.orientation.w"});
  CHECK(rows[3][0] == "1700000000350002000");
  CHECK(rows[3][4] == "3");
  CHECK(rows[3][5] == "-5");

  // Every encapsulation of /all_kinds gives the same columns; extremes print exactly.
  csv = export_text(*o.inspector, "/all_kinds", &result);
  CHECK(result.rows == 20);
  CHECK(result.problems.empty());
  rows = parse_csv(csv);
  std::map<std::string, size_t> at;
  for (size_t c = 0; c < rows[0].size(); ++c) at[rows[0][c]] = c;
  CHECK(rows[1][at["i64"]] == "-9223372036854775808");
  CHECK(rows[2][at["u64"]] == "18446744073709551615");
  CHECK(rows[4][at["f64"]] == "inf");
  CHECK(rows[2][at["corners[1].y"]] == "-1.25");
  CHECK(result.json_columns == std::vector<std::string>{"bounded_f64", "blob", "seq_i64", "names", "short_names", "path", "long_fixed"});

  // Without message indexes the chunk indexes list no channel: every chunk is read.
  Opened bare = open_demo("lz4", false);
  StringSink all;
  CHECK(bare.inspector->export_rows("/pose", ExportRequest(), all, nullptr).rows == 20);

  // The range: only messages in it.
  ExportRequest request;
  request.from_ns = 1700000000300000000ull;
  request.to_ns = 1700000000400000000ull;
  StringSink sink;
  result = o.inspector->export_rows("/imu", request, sink, nullptr);
  CHECK(result.rows == 3);  // 300, 350 and 400 ms: both ends count
}

TEST_CASE("mcap export: a definition that does not fit the bytes is a problem naming the topic, unknown topics say why, JSON exports") {
  Opened o = open_demo();
  ExportResult result;
  export_text(*o.inspector, "/mismatch", &result);
  CHECK(result.rows == 0);
  REQUIRE(result.problems.size() == 20);
  CHECK(result.problems[0].code == "mcap.export.undecodable");
  CHECK(result.problems[0].message.find("/mismatch") != std::string::npos);
  export_text(*o.inspector, "/nope", &result);
  CHECK(result.error.find("no topic \"/nope\"") != std::string::npos);
  // A json channel's columns are its messages' (test_mcap_json.cpp has the rules).
  std::string status = export_text(*o.inspector, "/status", &result);
  CHECK(result.error.empty());
  CHECK(result.rows == 20);
  CHECK(parse_csv(status)[0] == std::vector<std::string>{"time_ns", "ok", "n"});
  CHECK(parse_csv(status)[2][1] == "true");
  std::string csv = export_text(*o.inspector, "/legacy", &result);
  CHECK(result.rows == 20);
  CHECK(parse_csv(csv)[2][1] == "0.5");
}

TEST_CASE("mcap plots: columns and plot of a CDR topic") {
  Opened o = open_demo();
  Json args = Json::object();
  args["topic"] = "/scan";
  Json columns = o.inspector->query("columns", args, nullptr);
  REQUIRE(columns.find("columns"));
  CHECK(columns.find("type")->as_string() == "sensor_msgs/msg/LaserScan");
  CHECK(columns.find("columns")->elements()[3].find("name")->as_string() == "angle_min");
  CHECK(columns.find("columns")->elements()[3].find("kind")->as_string() == "number");
  args["fields"] = "angle_max,header.stamp.nanosec";
  Json plot = o.inspector->query("plot", args, nullptr);
  CHECK_FALSE(plot.find("error"));
  CHECK(plot.find("count")->as_uint() == 20);
  CHECK(plot.find("columns")->dump() == "[\"angle_max\",\"header.stamp.nanosec\"]");
}

TEST_CASE("mcap decoded query: pages of messages with their payloads decoded, one channel or all") {
  Opened o = open_demo();
  Json args = Json::object();
  args["count"] = 10;
  Json page = o.inspector->query("decoded", args, nullptr);
  REQUIRE(page.find("messages"));
  CHECK(page.find("count")->as_uint() == 10);
  CHECK(page.find("more")->as_bool());
  const Json& first = page.find("messages")->elements()[0];
  CHECK(first.find("topic")->as_string() == "/imu");
  CHECK(first.find("message")->find("header")->find("frame_id")->as_string() == "imu_link");
  args["channel"] = 4;  // /mismatch
  args["first"] = 18;
  page = o.inspector->query("decoded", args, nullptr);
  CHECK(page.find("count")->as_uint() == 2);
  CHECK_FALSE(page.find("more")->as_bool());
  CHECK(page.find("messages")->elements()[0].find("decode_error")->as_string().find("field 'b'") != std::string::npos);
  args["channel"] = 6;  // /status, JSON
  args["first"] = 0;
  page = o.inspector->query("decoded", args, nullptr);
  CHECK(page.find("messages")->elements()[1].find("message")->dump() == "{\"ok\":true,\"n\":1}");
  args["channel"] = 99;
  CHECK(o.inspector->query("decoded", args, nullptr).find("error"));
}
