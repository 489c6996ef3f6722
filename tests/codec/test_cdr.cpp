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

TEST_CASE("cdr: big-endian values are swapped, the header's low bit is the byte order") {
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

TEST_CASE("cdr: string lengths count their NUL, sequences carry a uint32 count, fixed arrays none") {
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
  // A delimited CDR2 message whose DHEADER says more than there is.
  decode(*schema, std::string("\x00\x15\x00\x00\x40\x00\x00\x00", 8), &error);
  CHECK(error.find("DHEADER of t/msg/E says 64 bytes, 0 remain") != std::string::npos);
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

TEST_CASE("cdr: an empty type is one octet, bool, char and byte are octets") {
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

// DDS-XTypes 1.3, 7.4.3 (docs/cdr.md): D_CDR2 puts a DHEADER (uint32, the bytes that follow)
// before every struct and before a collection of strings or structs; PL_CDR2 puts a DHEADER
// then an EMHEADER1 per member (M_FLAG, a 3-bit length code, a 28-bit id); PL_CDR (XCDR1) a
// parameter list of 16-bit ids and lengths, PID_EXTENDED for long ones, closed by PID_SENTINEL.
// The bytes are written out by hand from those rules.
namespace {
const char* kNested = "uint8 a\nt/Inner in\nstring[] names\n================================================================================\nMSG: t/Inner\nuint16 x\n";
void expect_nested(const Json& j, const std::string& error) {
  REQUIRE(error == "");
  REQUIRE(j.find("a"));
  CHECK(j.find("a")->as_uint() == 7);
  REQUIRE(j.find("in"));
  CHECK(j.find("in")->find("x")->as_uint() == 0x0102);
  REQUIRE(j.find("names"));
  REQUIRE(j.find("names")->size() == 1);
  CHECK(j.find("names")->elements()[0].as_string() == "hi");
}
}  // namespace

TEST_CASE("cdr: D_CDR2 reads each struct's and each string sequence's DHEADER, and skips what a newer type appended") {
  auto schema = parse("t/msg/R", kNested);
  std::string m = hex_bytes({0x00, 0x09, 0x00, 0x00});  // D_CDR2_LE, XTypes Table 60
  m += hex_bytes({27, 0, 0, 0});                  // 0: the root's DHEADER: bytes 4..31
  m += hex_bytes({7, 0, 0, 0});                   // 4: a, padding
  m += hex_bytes({4, 0, 0, 0, 0x02, 0x01, 0xaa, 0xbb});  // 8: Inner's DHEADER (4), x, 2 bytes a newer Inner appended
  m += hex_bytes({11, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 'h', 'i', 0});  // 16: names' DHEADER (11), count 1, "hi"
  std::string error;
  expect_nested(decode(*schema, m, &error), error);
  std::string rtps = m;  // the same in XTypes Table 39's identifier
  rtps[1] = 0x15;
  expect_nested(decode(*schema, rtps, &error), error);
  CHECK(csv_of(*schema, m, &error) == "a,in.x,names\r\n7,258,\"[\"\"hi\"\"]\"\r\n");
  CHECK(error == "");
  // Inner's DHEADER shorter than its members: a problem naming it.
  std::string bad = m;
  bad[4 + 8] = 1;
  decode(*schema, bad, &error);
  CHECK(error.find("t/Inner runs past the end its DHEADER gives") != std::string::npos);
}

TEST_CASE("cdr: PL_CDR2 finds members by their EMHEADER ids in any order, and skips unknown ones") {
  auto schema = parse("t/msg/R", kNested);
  std::string m = hex_bytes({0x00, 0x0b, 0x00, 0x00});  // PL_CDR2_LE
  m += hex_bytes({50, 0, 0, 0});                  // 0: the root's DHEADER: bytes 4..53
  m += hex_bytes({0x02, 0, 0, 0x50});             // 4: names (id 2), LC 5: its DHEADER is the NEXTINT
  m += hex_bytes({11, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 'h', 'i', 0, 0});  // 8..23, padding
  m += hex_bytes({0x00, 0, 0, 0x00, 7, 0, 0, 0});  // 24: a (id 0), LC 0: 1 byte; padding
  m += hex_bytes({0x09, 0, 0, 0x20, 1, 2, 3, 4});  // 32: id 9, LC 2: 4 bytes no definition has
  m += hex_bytes({0x01, 0, 0, 0x50});             // 40: in (id 1), LC 5
  m += hex_bytes({6, 0, 0, 0, 0x00, 0, 0, 0x10, 0x02, 0x01});  // 44: Inner's DHEADER (6); x (id 0), LC 1: 2 bytes
  std::string error;
  expect_nested(decode(*schema, m, &error), error);
  CHECK(csv_of(*schema, m, &error) == "a,in.x,names\r\n7,258,\"[\"\"hi\"\"]\"\r\n");
  // The unknown member marked must-understand (M_FLAG) is refused.
  std::string must = m;
  must[4 + 35] = static_cast<char>(0xa0);
  decode(*schema, must, &error);
  CHECK(error.find("member id 9 of t/msg/R must be understood") != std::string::npos);
  // A member of the definition left out (optional members are not decoded).
  std::string absent = m;
  absent[4 + 24] = 0x05;  // a's id becomes 5
  decode(*schema, absent, &error);
  CHECK(error.find("member 'a' (id 0) of t/msg/R is absent") != std::string::npos);
  // An EMHEADER whose length runs past its struct (the root's DHEADER now ends at byte 14).
  std::string over = m;
  over[4 + 0] = 10;
  decode(*schema, over, &error);
  CHECK(error.find("member id 2 of t/msg/R says 15 bytes, 6 remain in the struct") != std::string::npos);
}

TEST_CASE("cdr: PL_CDR (XCDR1) reads a parameter list: short and extended headers, an unknown member, the sentinel") {
  auto schema = parse("t/msg/P", "uint8 a\nfloat64 d\n");
  std::string m = hex_bytes({0x00, 0x03, 0x00, 0x00});  // PL_CDR_LE
  m += hex_bytes({0x01, 0x40, 8, 0});                        // 0: id 1 (d), must understand, 8 bytes
  m += hex_bytes({0, 0, 0, 0, 0, 0, 0xf8, 0x3f});            // 4: d = 1.5, aligned from its own start
  m += hex_bytes({0x01, 0x3f, 8, 0, 0, 0, 0, 0, 1, 0, 0, 0});  // 12: PID_EXTENDED: id 0 (a), 1 byte
  m += hex_bytes({7, 0, 0, 0});                              // 24: a, padding
  m += hex_bytes({0x05, 0x00, 0, 0});                        // 28: id 5, 0 bytes: no such member, skipped
  m += hex_bytes({0x02, 0x3f, 0, 0});                        // 32: PID_SENTINEL
  std::string error;
  Json j = decode(*schema, m, &error);
  REQUIRE(error == "");
  CHECK(j.find("a")->as_uint() == 7);
  CHECK(j.find("d")->as_double() == 1.5);
  // Without the sentinel the list never ends: a problem, not a guess.
  decode(*schema, m.substr(0, m.size() - 4), &error);
  CHECK(error.find("no sentinel") != std::string::npos);
  // Big-endian (PL_CDR_BE): the same list with its ids and lengths swapped.
  std::string be = hex_bytes({0x00, 0x02, 0x00, 0x00, 0, 0, 0, 1, 7, 0, 0, 0, 0x40, 0x01, 0, 8});
  be += hex_bytes({0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x3f, 0x02, 0, 0});
  j = decode(*schema, be, &error);
  REQUIRE(error == "");
  CHECK(j.find("d")->as_double() == 1.5);
}
