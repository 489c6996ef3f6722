// The CDR engine (codec/cdr): ros2msg parsing, XCDR1 and XCDR2 alignment in both byte orders, the
// string and sequence rules, the export's columns and rows, and bytes that do not fit. Byte
// layouts here are written out by hand from the rules in docs/cdr.md, not by our writer, so the
// writer is checked too. The comparison with @foxglove/rosmsg2-serialization is
// tests/node/cdr-agreement.test.mjs.
#include <doctest/doctest.h>

#include <string>

#include "cdr/decode.h"
#include "cdr/flatten.h"
#include "cdr/reader.h"
#include "cdr/schema.h"
#include "cdr/writer.h"
#include "core/export.h"

using namespace logscope;
using namespace logscope::cdr;

namespace {

std::unique_ptr<Schema> parse(const std::string& root, const std::string& text) {
  std::string error;
  auto schema = Schema::parse_ros2msg(root, text, &error);
  INFO(error);
  REQUIRE(schema);
  return schema;
}

Json decode(const Schema& schema, const std::string& bytes, std::string* error) {
  return decode_json(schema, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), DecodeOptions(), error);
}

std::string hex_bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s.push_back(static_cast<char>(v));
  return s;
}

std::string csv_of(const Schema& schema, const std::string& bytes, std::string* error) {
  FlatLayout layout(schema);
  StringSink sink;
  TableWriter table(sink, ExportRequest());
  std::string start_error;
  REQUIRE(table.start(layout.columns(), &start_error));
  table.begin_row();
  bool ok = layout.write_row(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), table, error);
  if (ok) table.end_row();
  return sink.text();
}

}  // namespace

TEST_CASE("cdr: XCDR1 aligns 8-byte values to 8 from the end of the header, XCDR2 to 4") {
  auto schema = parse("t/msg/A", "uint8 a\nfloat64 b\nuint16 c\nint64 d\n");
  // XCDR1 little-endian: a at 0, pad to 8, b at 8..16, c at 16..18, pad to 24, d at 24..32.
  std::string x1 = hex_bytes({0x00, 0x01, 0x00, 0x00, 7, 0, 0, 0, 0, 0, 0, 0});
  x1 += hex_bytes({0, 0, 0, 0, 0, 0, 0xf8, 0x3f});  // 1.5
  x1 += hex_bytes({0x34, 0x12, 0, 0, 0, 0, 0, 0});
  x1 += hex_bytes({0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff});  // -2
  std::string error;
  Json j = decode(*schema, x1, &error);
  CHECK(error == "");
  CHECK(j.find("a")->as_uint() == 7);
  CHECK(j.find("b")->as_double() == 1.5);
  CHECK(j.find("c")->as_uint() == 0x1234);
  CHECK(j.find("d")->as_int() == -2);

  // XCDR2 little-endian (CDR2_LE, 0x0011): b at 4, c at 12, d at 16 (aligned to 4 only).
  std::string x2 = hex_bytes({0x00, 0x11, 0x00, 0x00, 7, 0, 0, 0});
  x2 += hex_bytes({0, 0, 0, 0, 0, 0, 0xf8, 0x3f});
  x2 += hex_bytes({0x34, 0x12, 0, 0});
  x2 += hex_bytes({0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff});
  j = decode(*schema, x2, &error);
  CHECK(error == "");
  CHECK(j.find("b")->as_double() == 1.5);
  CHECK(j.find("d")->as_int() == -2);
  // The RTPS identifier of plain CDR2 (0x0007) reads the same.
  std::string rtps = x2;
  rtps[1] = 0x07;
  j = decode(*schema, rtps, &error);
  CHECK(error == "");
  CHECK(j.find("c")->as_uint() == 0x1234);

  // The writer lays out both the same way.
  CdrWriter w1(1), w2(2);
  for (CdrWriter* w : {&w1, &w2}) {
    w->put<uint8_t>(7);
    w->put<double>(1.5);
    w->put<uint16_t>(0x1234);
    w->put<int64_t>(-2);
  }
  CHECK(w1.bytes() == x1);
  CHECK(w2.bytes() == x2);

  // Read as XCDR1, the XCDR2 bytes do not fit: a problem, not a guess.
  std::string wrong = x2;
  wrong[1] = 0x01;
  decode(*schema, wrong, &error);
  CHECK(error != "");
}

TEST_CASE("cdr: big-endian values are swapped; the header's low bit is the byte order") {
  auto schema = parse("t/msg/B", "int32 a\nfloat32 b\nuint64 c\n");
  std::string be = hex_bytes({0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xfd, 0x40, 0x20, 0x00, 0x00});
  be += hex_bytes({0, 0, 0, 0, 0, 0, 1, 0});  // c = 256 at offset 8
  std::string error;
  Json j = decode(*schema, be, &error);
  CHECK(error == "");
  CHECK(j.find("a")->as_int() == -3);
  CHECK(j.find("b")->as_double() == 2.5);
  CHECK(j.find("c")->as_uint() == 256);
  CdrWriter w(1, true);
  w.put<int32_t>(-3);
  w.put<float>(2.5f);
  w.put<uint64_t>(256);
  CHECK(w.bytes() == be);
  // CDR2_BE: c aligned to 4 (offset 8 here too), identifier 0x0010.
  CdrWriter w2(2, true);
  w2.put<int32_t>(-3);
  w2.put<float>(2.5f);
  w2.put<uint64_t>(256);
  CHECK(w2.bytes().substr(0, 4) == hex_bytes({0, 0x10, 0, 0}));
  j = decode(*schema, w2.bytes(), &error);
  CHECK(error == "");
  CHECK(j.find("c")->as_uint() == 256);
}

TEST_CASE("cdr: string lengths count their NUL; sequences carry a uint32 count; fixed arrays none") {
  auto schema = parse("t/msg/C", "string s\nuint8 tail\nint16[2] fixed\nfloat64[] seq\nstring[] names\n");
  CdrWriter w(1);
  w.string("abc");           // 4 + "abc\0" = offsets 0..8
  w.put<uint8_t>(9);         // 8
  w.put<int16_t>(-1);        // 10
  w.put<int16_t>(2);         // 12
  w.sequence_length(2);      // 16
  w.put<double>(0.25);       // 24 (aligned to 8)
  w.put<double>(-4.0);       // 32
  w.sequence_length(2);
  w.string("");
  w.string("x");
  const std::string& bytes = w.bytes();
  CHECK(bytes.substr(4, 8) == std::string("\x04\x00\x00\x00" "abc\0", 8));
  std::string error;
  Json j = decode(*schema, bytes, &error);
  CHECK(error == "");
  CHECK(j.find("s")->as_string() == "abc");
  CHECK(j.find("tail")->as_uint() == 9);
  CHECK(j.find("fixed")->dump() == "[-1,2]");
  CHECK(j.find("seq")->dump() == "[0.25,-4.0]");
  CHECK(j.find("names")->dump() == "[\"\",\"x\"]");

  std::string csv = csv_of(*schema, bytes, &error);
  CHECK(error == "");
  CHECK(csv == "s,tail,fixed[0],fixed[1],seq,names\r\nabc,9,-1,2,\"[0.25,-4]\",\"[\"\"\"\",\"\"x\"\"]\"\r\n");
}

TEST_CASE("cdr: nested types, builtin time, bounded strings and sequences, defaults and constants") {
  std::string sep = "================================================================================\n";
  std::string text = "# a comment\nstd_msgs/Header header\nuint8 MODE_A=1\nstring NAME=\"a # b\" # c\n"
                     "string<=8 label \"hi # there\"\nint32[<=3] small [1, 2]\ngeometry_msgs/Point[] points\n" +
                     sep + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n" + sep +
                     "MSG: geometry_msgs/Point\nfloat64 x\nfloat64 y\nfloat64 z\n";
  auto schema = parse("t/msg/D", text);
  const MessageType& root = schema->root();
  REQUIRE(root.fields.size() == 4);
  REQUIRE(root.constants.size() == 2);
  CHECK(root.constants[1].value == "\"a # b\"");
  CHECK(root.fields[1].string_bound == 8);
  CHECK(root.fields[1].default_value == "\"hi # there\"");
  CHECK(root.fields[2].array == ArrayKind::Bounded);
  CHECK(root.fields[2].array_size == 3);
  CHECK(root.fields[2].default_value == "[1, 2]");

  CdrWriter w(2);
  w.put<int32_t>(5);
  w.put<uint32_t>(6);
  w.string("map");
  w.string("lbl");
  w.sequence_length(1);
  w.put<int32_t>(42);
  w.sequence_length(1);
  w.put<double>(1.0);
  w.put<double>(2.0);
  w.put<double>(3.0);
  std::string error;
  Json j = decode(*schema, w.bytes(), &error);
  CHECK(error == "");
  CHECK(j.dump() == "{\"header\":{\"stamp\":{\"sec\":5,\"nanosec\":6},\"frame_id\":\"map\"},\"label\":\"lbl\",\"small\":[42],"
                    "\"points\":[{\"x\":1.0,\"y\":2.0,\"z\":3.0}]}");
  FlatLayout layout(*schema);
  CHECK(layout.columns() == std::vector<std::string>{"header.stamp.sec", "header.stamp.nanosec", "header.frame_id", "label", "small", "points"});

  // Over the bounds: problems naming the field.
  CdrWriter over(2);
  over.put<int32_t>(5);
  over.put<uint32_t>(6);
  over.string("map");
  over.string("123456789");
  decode(*schema, over.bytes(), &error);
  CHECK(error.find("'label'") != std::string::npos);
}

TEST_CASE("cdr: counts are checked against the bytes that remain, never trusted") {
  auto schema = parse("t/msg/E", "float32[] ranges\nstring s\n");
  CdrWriter w(1);
  w.sequence_length(1000000000);
  w.put<float>(1.0f);
  std::string error;
  decode(*schema, w.bytes(), &error);
  CHECK(error.find("array 'ranges' of 1000000000") != std::string::npos);
  CdrWriter s(1);
  s.sequence_length(0);
  s.put<uint32_t>(0xfffffff0u);
  decode(*schema, s.bytes(), &error);
  CHECK(error.find("string 's'") != std::string::npos);
  // Too short for the header; an unknown identifier; delimited CDR2 refused by name.
  decode(*schema, std::string("\x00\x01", 2), &error);
  CHECK(error.find("shorter than the 4-byte") != std::string::npos);
  decode(*schema, std::string("\x01\x01\x00\x00", 4), &error);
  CHECK(error.find("names no CDR representation") != std::string::npos);
  decode(*schema, std::string("\x00\x15\x00\x00\x00\x00\x00\x00", 8), &error);
  CHECK(error.find("D_CDR2_LE") != std::string::npos);
  // Bytes left over beyond padding: the definition does not match.
  CdrWriter extra(1);
  extra.sequence_length(0);
  extra.string("a");
  extra.put<uint64_t>(1);
  decode(*schema, extra.bytes(), &error);
  CHECK(error.find("left after the last field") != std::string::npos);
  // Padding that the header announces is fine.
  CdrWriter padded(1);
  padded.sequence_length(0);
  padded.string("a");  // 4 + 4 + 2 = 10 bytes: 2 of padding
  padded.pad_end();
  CHECK(padded.bytes()[3] == 2);
  CHECK(validate(*schema, reinterpret_cast<const uint8_t*>(padded.bytes().data()), padded.bytes().size(), &error));
}

TEST_CASE("cdr: an empty type is one octet; bool, char and byte are octets") {
  auto schema = parse("t/msg/F", "t/Empty e\nbool flag\nchar c\nbyte b\n" + std::string("===\nMSG: t/Empty\n"));
  CdrWriter w(1);
  w.put<uint8_t>(0);
  w.put<uint8_t>(1);
  w.put<uint8_t>(65);
  w.put<uint8_t>(200);
  std::string error;
  Json j = decode(*schema, w.bytes(), &error);
  CHECK(error == "");
  CHECK(j.dump() == "{\"e\":{},\"flag\":true,\"c\":65,\"b\":200}");
}

TEST_CASE("cdr: definitions that cannot be used are refused with the reason") {
  std::string error;
  CHECK(!Schema::parse_ros2msg("t/srv/S_Event", "int32 a\n---\nint32 b\n", &error));
  CHECK(error.find("service or action") != std::string::npos);
  CHECK(!Schema::parse_ros2msg("t/msg/G", "Unknown thing\n", &error));
  CHECK(error.find("does not define") != std::string::npos);
  CHECK(!Schema::parse_ros2msg("t/msg/G", "int32[x] a\n", &error));
  CHECK(!Schema::parse_ros2msg("t/msg/G", "int32<=3 a\n", &error));
  CHECK(!Schema::parse_ros2msg("t/msg/G", "int32\n", &error));
  CHECK(!Schema::parse_ros2msg("t/msg/G", "int32 a\n====\nint32 b\n", &error));
  // A type made of itself: parsed, then refused for its depth when decoding, quickly.
  auto self = parse("t/msg/H", "H a\nH b\n");
  CdrWriter w(1);
  w.put<uint64_t>(0);
  decode(*self, w.bytes(), &error);
  CHECK(error.find("deeper than") != std::string::npos);
  FlatLayout layout(*self);
  CHECK(layout.columns().empty());
}

TEST_CASE("cdr: ros2idl schemas (rosidl's IDL: modules, typedefs of arrays, sequences, bounds, annotations) decode like ros2msg") {
  std::string sep = "================================================================================\n";
  // rosbag2's layout: every definition after the delimiter, the root's too, in any order.
  std::string idl = sep + "IDL: demo_msgs/msg/Sample\n// generated from rosidl_adapter/resource/msg.idl.em\n#include \"std_msgs/msg/Header.idl\"\n\n"
                    "module demo_msgs {\n  module msg {\n    typedef double double__3[3];\n"
                    "    module Sample_Constants {\n      const uint8 MODE_A = 1;\n      const string NAME = \"a; {b}\";\n    };\n"
                    "    @verbatim (language=\"comment\", text=\n      \"A sample; with {braces}.\")\n    struct Sample {\n"
                    "      std_msgs::msg::Header header;\n      double__3 position;\n      sequence<float, 4> bounded;\n"
                    "      sequence<int64> values;\n      @default (value=\"hi\")\n      string<8> label;\n      boolean flag;\n"
                    "      octet raw[2];\n      unsigned long long big, other;\n    };\n  };\n};\n" +
                    sep + "IDL: std_msgs/msg/Header\nmodule std_msgs {\n  module msg {\n    struct Header {\n"
                    "      builtin_interfaces::msg::Time stamp;\n      string frame_id;\n    };\n  };\n};\n" +
                    sep + "IDL: builtin_interfaces/msg/Time\nmodule builtin_interfaces {\n  module msg {\n    struct Time {\n"
                    "      int32 sec;\n      uint32 nanosec;\n    };\n  };\n};\n";
  std::string error;
  auto schema = Schema::parse_ros2idl("demo_msgs/msg/Sample", idl, &error);
  INFO(error);
  REQUIRE(schema);
  FlatLayout layout(*schema);
  CHECK(layout.columns() == std::vector<std::string>{"header.stamp.sec", "header.stamp.nanosec", "header.frame_id", "position[0]", "position[1]",
                                                    "position[2]", "bounded", "values", "label", "flag", "raw[0]", "raw[1]", "big", "other"});
  CHECK(schema->root().fields[4].string_bound == 8);
  CHECK(schema->root().fields[2].array == ArrayKind::Bounded);
  CHECK(schema->root().fields[2].array_size == 4);
  CHECK(schema->root().fields[3].array == ArrayKind::Unbounded);
  CdrWriter w(2, true);
  w.put<int32_t>(1);
  w.put<uint32_t>(2);
  w.string("base");
  for (double v : {1.0, 2.0, 3.0}) w.put<double>(v);
  w.sequence_length(1);
  w.put<float>(0.5f);
  w.sequence_length(2);
  w.put<int64_t>(-1);
  w.put<int64_t>(7);
  w.string("lbl");
  w.put<uint8_t>(1);
  w.put<uint8_t>(9);
  w.put<uint8_t>(8);
  w.put<uint64_t>(5);
  w.put<uint64_t>(6);
  Json j = decode(*schema, w.bytes(), &error);
  CHECK(error == "");
  CHECK(j.dump() == "{\"header\":{\"stamp\":{\"sec\":1,\"nanosec\":2},\"frame_id\":\"base\"},\"position\":[1.0,2.0,3.0],\"bounded\":[0.5],"
                    "\"values\":[-1,7],\"label\":\"lbl\",\"flag\":true,\"raw\":{\"length\":2,\"hex\":\"0908\"},\"big\":5,\"other\":6}");
  // What IDL allows and ROS types never use is refused, as is text that is not IDL.
  CHECK(!Schema::parse_ros2idl("a/msg/B", "module a { module msg { struct B { double m[2][3]; }; }; };", &error));
  CHECK(error.find("multi-dimensional") != std::string::npos);
  CHECK(!Schema::parse_ros2idl("a/msg/B", "module a { struct", &error));
  CHECK(!Schema::parse_ros2idl("a/msg/B", "float64 x\n", &error));
}
