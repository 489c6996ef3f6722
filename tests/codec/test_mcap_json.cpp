// MCAP json channels in the export and the plots: columns learned from the messages (members by
// dotted path, short arrays by element, long ones as one JSON cell), in the order the messages
// write them, every value kept exact; a message that is not JSON named and left out.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/export.h"
#include "export_support.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"

using namespace logscope;

namespace {

constexpr uint64_t kStart = 1700000000000000000ull;

std::string long_array() {
  std::string text = "[";
  for (int i = 0; i < 65; ++i) text += (i ? "," : "") + std::to_string(i);
  return text + "]";
}

// /state: json with a jsonschema; the third message is not JSON, the fourth adds a member and
// writes its members in another order. /other: the same topic name's second channel of another type.
std::string make_file() {
  mcap::WriterOptions options;
  options.chunk_size = 512;
  mcap::Writer writer(options);
  uint16_t state = writer.add_channel(writer.add_schema("demo.State", "jsonschema", R"({"type":"object"})"), "/state", "json");
  uint16_t other = writer.add_channel(writer.add_schema("demo.Other", "jsonschema", R"({"type":"object"})"), "/state", "json");
  uint16_t bare = writer.add_channel(0, "/count", "json");
  const std::vector<std::string> payloads = {
      R"({"id":18446744073709551615,"ok":true,"name":"a,\"b\"","pose":{"x":0.1,"y":-2},"v":[1,2.5,null],"big":)" + long_array() + "}",
      R"({"id":-9223372036854775808,"ok":false,"name":"","pose":{"x":1e300,"y":3},"v":[],"big":[]})",
      "{not json",
      R"({"extra":{"deep":[{"k":7}]},"pose":{"y":4,"x":5},"id":2,"ok":null,"name":"z","v":[0,0,0,9]})",
  };
  for (size_t i = 0; i < payloads.size(); ++i) {
    uint64_t t = kStart + i * 1000;
    writer.write_message(state, static_cast<uint32_t>(i), t, t, payloads[i]);
    writer.write_message(other, static_cast<uint32_t>(i), t + 1, t + 1, R"({"q":1})");
    writer.write_message(bare, static_cast<uint32_t>(i), t + 2, t + 2, std::to_string(i * 3));
  }
  return writer.finish();
}


}  // namespace

TEST_CASE("a json channel exports its members as columns learned from the messages") {
  std::string bytes = make_file();
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = mcap::open_inspector(source);

  StringSink csv;
  ExportResult result = inspector->export_rows("/state", ExportRequest(), csv, nullptr);
  REQUIRE_MESSAGE(result.error.empty(), result.error);
  CHECK(result.rows == 3);
  std::string header = csv.text().substr(0, csv.text().find('\r'));
  // The first message's order, then what later ones add; an array over 64 elements is one cell.
  CHECK(header == "time_ns,id,ok,name,pose.x,pose.y,v[0],v[1],v[2],v[3],big,extra.deep[0].k");
  size_t undecodable = 0, other_type = 0;
  for (const Problem& p : result.problems) {
    if (p.code == "mcap.export.undecodable") {
      ++undecodable;
      CHECK(p.message.find("not JSON") != std::string::npos);
      CHECK(p.message.find(std::to_string(kStart + 2000)) != std::string::npos);
    }
    if (p.code == "mcap.export.no_schema") ++other_type;
  }
  CHECK(undecodable == 1);
  CHECK(other_type == 4);  // demo.Other is another type on the topic

  ExportRequest jsonl;
  jsonl.format = ExportFormat::Jsonl;
  StringSink lines;
  REQUIRE(inspector->export_rows("/state", jsonl, lines, nullptr).error.empty());
  std::vector<Json> rows = export_support::jsonl_rows(lines.text());
  REQUIRE(rows.size() == 3);
  // 64-bit integers exact, text as written, null as an empty cell, floats round-trip.
  CHECK(rows[0].dump() == R"({"time_ns":1700000000000000000,"id":18446744073709551615,"ok":true,"name":"a,\"b\"","pose.x":0.1,"pose.y":-2,"v[0]":1,"v[1]":2.5,"v[2]":null,"v[3]":null,"big":)" + long_array() + R"(,"extra.deep[0].k":null})");
  CHECK(rows[1].dump() == R"({"time_ns":1700000000000001000,"id":-9223372036854775808,"ok":false,"name":"","pose.x":1e+300,"pose.y":3,"v[0]":null,"v[1]":null,"v[2]":null,"v[3]":null,"big":null,"extra.deep[0].k":null})");
  CHECK(rows[2].find("pose.x")->as_double() == 5);
  CHECK(rows[2].find("v[3]")->as_uint() == 9);
  CHECK(rows[2].find("extra.deep[0].k")->as_uint() == 7);
  CHECK(rows[2].find("ok")->is_null());

  // A message that is a bare number is one column, "value".
  StringSink count;
  REQUIRE(inspector->export_rows("/count", ExportRequest(), count, nullptr).error.empty());
  CHECK(count.text() == "time_ns,value\r\n1700000000000000002,0\r\n1700000000000001002,3\r\n1700000000000002002,6\r\n1700000000000003002,9\r\n");
}

TEST_CASE("a json channel's columns have kinds, and the plot reads its numbers") {
  std::string bytes = make_file();
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = mcap::open_inspector(source);
  Json args = Json::object();
  args["topic"] = "/state";
  Json columns = inspector->query("columns", args, nullptr);
  REQUIRE_MESSAGE(columns.find("columns"), columns.dump());
  CHECK(columns.find("type")->as_string() == "demo.State");
  std::string kinds;
  for (const Json& c : columns.find("columns")->elements()) kinds += c.find("name")->as_string() + ":" + c.find("kind")->as_string() + " ";
  CHECK(kinds == "id:number ok:bool name:text pose.x:number pose.y:number v[0]:number v[1]:number v[2]:number v[3]:number big:json extra.deep[0].k:number ");
  args["fields"] = "pose.y";
  Json plot = inspector->query("plot", args, nullptr);
  REQUIRE_MESSAGE(plot.find("count"), plot.dump());
  CHECK(plot.find("count")->as_uint() == 3);
}
