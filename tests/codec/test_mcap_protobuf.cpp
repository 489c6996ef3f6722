// MCAP's protobuf channels decoded by name from the FileDescriptorSet each schema embeds
// (mcap/payload_protobuf.cpp), compared with Debian's protoc: for every message, the numeric leaf
// paths `logscope export FILE --topic T` writes are the ones `protoc --descriptor_set_in=SCHEMA
// --decode=TYPE` prints for the same payload bytes, and every value is equal. On a writer-made
// file (tests/fixtures/proto/logscope_test/telemetry.proto, messages made with libprotobuf's
// dynamic messages) and on the real protobuf sample. Also the record view, the plots, and bad
// descriptors or payloads as problems.
#include <doctest/doctest.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "core/byte_source.h"
#include "core/export.h"
#include "export_support.h"
#include "mcap/inspector.h"
#include "mcap/model.h"
#include "mcap/walk.h"
#include "mcap/writer.h"
#include "protobuf_support.h"
#include "skip.h"
#include "test_support.h"

using namespace logscope;
using namespace protobuf_support;

namespace {

constexpr uint64_t kStart = 1767225600000000000ull;
constexpr int kMessages = 40;
const std::string kType = "logscope_test.Telemetry";

std::string telemetry_descriptor_set(const std::string& dir) {
  std::string out = dir + "/telemetry.desc";
  int status = 0;
  run("protoc -I '" + proto_root() + "' --descriptor_set_out='" + out + "' --include_imports logscope_test/telemetry.proto", "",
      &status);
  REQUIRE(status == 0);
  return out;
}

const gpb::FieldDescriptor* field(const gpb::Message& m, const char* name) {
  const gpb::FieldDescriptor* f = m.GetDescriptor()->FindFieldByName(name);
  REQUIRE_MESSAGE(f != nullptr, name);
  return f;
}

// Telemetry messages with every kind of field: a well-known type, nested and repeated messages
// (0 to 2 waypoints), packed floats (with nan and infinities) and zigzag integers, two maps
// inserted out of key order, 64-bit integers beyond 2^53, a oneof, an explicitly present 0.0,
// unknown fields; every fifth message sparse.
std::vector<std::string> telemetry_messages(const gpb::DescriptorPool& pool, int count) {
  gpb::DynamicMessageFactory factory(&pool);
  const gpb::Descriptor* type = pool.FindMessageTypeByName(kType);
  REQUIRE(type != nullptr);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) {
    std::unique_ptr<gpb::Message> m(factory.GetPrototype(type)->New());
    const gpb::Reflection* r = m->GetReflection();
    r->SetString(m.get(), field(*m, "frame_id"), "base_link");
    if (i % 5 == 4) {
      r->SetInt64(m.get(), field(*m, "big"), -i);
      out.push_back(m->SerializeAsString());
      continue;
    }
    gpb::Message* stamp = r->MutableMessage(m.get(), field(*m, "stamp"));
    stamp->GetReflection()->SetInt64(stamp, field(*stamp, "seconds"), 1767225600 + i);
    stamp->GetReflection()->SetInt32(stamp, field(*stamp, "nanos"), i * 1000);  // 0 at i = 0: not printed
    r->SetEnumValue(m.get(), field(*m, "mode"), i % 4);
    gpb::Message* position = r->MutableMessage(m.get(), field(*m, "position"));
    position->GetReflection()->SetDouble(position, field(*position, "x"), i * 0.1);
    position->GetReflection()->SetDouble(position, field(*position, "y"), -i / 3.0);
    position->GetReflection()->SetDouble(position, field(*position, "z"), 1e-300 * i);
    for (int k = 0; k < i % 3; ++k) {
      gpb::Message* w = r->AddMessage(m.get(), field(*m, "waypoints"));
      w->GetReflection()->SetDouble(w, field(*w, "x"), k + i * 0.01);
      w->GetReflection()->SetDouble(w, field(*w, "z"), -k * 2.5);
    }
    for (int k = 0; k < 1 + i % 4; ++k) {
      float v = 0.1f * static_cast<float>(k + i);
      if (i == 7 && k == 1) v = std::numeric_limits<float>::quiet_NaN();
      if (i == 7 && k == 2) v = std::numeric_limits<float>::infinity();
      if (i == 11 && k == 0) v = -std::numeric_limits<float>::infinity();
      r->AddFloat(m.get(), field(*m, "ranges"), v);
    }
    for (int k = 0; k < 3; ++k) r->AddInt32(m.get(), field(*m, "offsets"), (k - 1) * (i + 1) * 1000);
    for (const char* key : {"volt", "amp", "temp"}) {
      gpb::Message* e = r->AddMessage(m.get(), field(*m, "gauges"));
      e->GetReflection()->SetString(e, field(*e, "key"), key);
      e->GetReflection()->SetDouble(e, field(*e, "value"), std::strlen(key) * 1.5 + i);
    }
    for (int key : {7, -2, 3}) {
      gpb::Message* e = r->AddMessage(m.get(), field(*m, "mode_by_id"));
      e->GetReflection()->SetInt32(e, field(*e, "key"), key);
      e->GetReflection()->SetEnumValue(e, field(*e, "value"), (key + 4) % 4);
    }
    r->SetInt64(m.get(), field(*m, "big"), -9007199254740993ll - i);
    r->SetUInt64(m.get(), field(*m, "counter"), UINT64_MAX - static_cast<uint64_t>(i));
    r->SetUInt32(m.get(), field(*m, "flags"), 0xdeadbeefu);
    r->SetInt64(m.get(), field(*m, "delta"), INT64_MIN + i);
    r->SetBool(m.get(), field(*m, "healthy"), i % 2 == 0);
    r->SetString(m.get(), field(*m, "blob"), std::string("\x00\x01\xff", 3));
    if (i % 2 == 0) r->SetUInt32(m.get(), field(*m, "sensor_id"), static_cast<uint32_t>(i + 1));
    else r->SetString(m.get(), field(*m, "sensor_name"), "lidar");
    r->SetFloat(m.get(), field(*m, "temperature"), i % 3 == 0 ? 0.0f : 20.5f + static_cast<float>(i));
    if (i % 4 == 1) {
      gpb::UnknownFieldSet* unknown = r->MutableUnknownFields(m.get());
      unknown->AddVarint(99, 1000 + static_cast<uint64_t>(i));
      unknown->AddFixed32(98, 0x3f800000u);
    }
    out.push_back(m->SerializeAsString());
  }
  return out;
}

// A payload that no protobuf parser accepts: field 1 claims 127 bytes and 1 remains.
const std::string kBadPayload("\x12\x7f\x01", 3);

struct Fixture {
  std::string dir;
  std::string descriptor_set;  // its path
  std::string file;            // the MCAP's path
  std::string bytes;
  std::vector<std::string> payloads;  // /telemetry's, in file order (the bad one included)
};

// Channels (ids from 0): /telemetry (Telemetry, one bad payload at message 13), /telemetry again
// with the same descriptor set but another type (Vector3), /bad_descriptor, /wrong_type,
// /empty_schema, /unbuildable.
Fixture make_fixture(const std::string& name, const std::string& compression = "zstd") {
  Fixture f;
  f.dir = test_support::scratch_dir(name);
  f.descriptor_set = telemetry_descriptor_set(f.dir);
  std::string set = test_support::read_text(f.descriptor_set);
  auto pool = pool_of(f.descriptor_set);
  f.payloads = telemetry_messages(*pool, kMessages);
  f.payloads.insert(f.payloads.begin() + 13, kBadPayload);

  // A FileDescriptorSet that parses but cannot be built: a field of an undefined type.
  gpb::FileDescriptorSet broken;
  gpb::FileDescriptorProto* file = broken.add_file();
  file->set_name("broken.proto");
  file->set_package("broken");
  gpb::DescriptorProto* message = file->add_message_type();
  message->set_name("Broken");
  gpb::FieldDescriptorProto* bad = message->add_field();
  bad->set_name("missing");
  bad->set_number(1);
  bad->set_label(gpb::FieldDescriptorProto::LABEL_OPTIONAL);
  bad->set_type(gpb::FieldDescriptorProto::TYPE_MESSAGE);
  bad->set_type_name(".broken.Missing");

  mcap::WriterOptions options;
  options.compression = compression;
  options.chunk_size = 2048;
  mcap::Writer writer(options);
  uint16_t telemetry = writer.add_channel(writer.add_schema(kType, "protobuf", set), "/telemetry", "protobuf");
  uint16_t vector = writer.add_channel(writer.add_schema("logscope_test.Vector3", "protobuf", set), "/telemetry", "protobuf");
  uint16_t garbage = writer.add_channel(writer.add_schema(kType, "protobuf", "not a descriptor set"), "/bad_descriptor", "protobuf");
  uint16_t wrong = writer.add_channel(writer.add_schema("logscope_test.Nope", "protobuf", set), "/wrong_type", "protobuf");
  uint16_t empty = writer.add_channel(writer.add_schema(kType, "protobuf", ""), "/empty_schema", "protobuf");
  uint16_t unbuildable = writer.add_channel(writer.add_schema("broken.Broken", "protobuf", broken.SerializeAsString()), "/unbuildable", "protobuf");
  for (size_t i = 0; i < f.payloads.size(); ++i) {
    uint64_t t = kStart + i * 10000000ull;
    writer.write_message(telemetry, static_cast<uint32_t>(i), t, t, f.payloads[i]);
    if (i % 10 == 0) {
      writer.write_message(vector, static_cast<uint32_t>(i), t + 1, t + 1, std::string("\x09\x00\x00\x00\x00\x00\x00\xf0\x3f", 9));
      for (uint16_t channel : {garbage, wrong, empty, unbuildable}) writer.write_message(channel, static_cast<uint32_t>(i), t + 2, t + 2, f.payloads[0]);
    }
  }
  f.bytes = writer.finish();
  f.file = f.dir + "/" + name + ".mcap";
  test_support::write_file(f.file, std::vector<uint8_t>(f.bytes.begin(), f.bytes.end()));
  return f;
}

// Every message of a file with its channel and log time, in file order, from the codec's record
// walk (its payloads are @mcap/core's: tests/node/mcap-agreement.test.mjs compares their SHA1s).
struct MessageList : mcap::RecordHandler {
  struct Item {
    uint16_t channel = 0;
    uint64_t log_time = 0;
    std::string payload;
  };
  std::vector<Item> items;
  void add(std::string_view content) {
    mcap::MessageHeader m;
    std::string why;
    REQUIRE(mcap::parse_message_header(content, &m, &why));
    items.push_back(Item{m.channel_id, m.log_time, std::string(content.substr(mcap::MessageHeader::kSize))});
  }
  void record(const mcap::RecordFrame& frame, std::string_view content, bool whole) override {
    if (frame.op == mcap::kOpMessage && whole) add(content);
  }
  void chunk(const mcap::RecordFrame&, const mcap::ChunkHeader&, const mcap::Decompressed& records) override {
    std::string_view bytes(reinterpret_cast<const char*>(records.bytes.data()), records.bytes.size());
    mcap::RecordFrame f;
    std::string why;
    for (uint64_t at = 0; at < bytes.size() && mcap::frame_at(bytes, at, &f, &why); at = f.end())
      if (f.op == mcap::kOpMessage) add(bytes.substr(static_cast<size_t>(f.content_offset()), static_cast<size_t>(f.length)));
  }
};

MessageList list_messages(const std::string& path) {
  std::string error;
  std::unique_ptr<FileByteSource> source = FileByteSource::open(path, &error);
  REQUIRE_MESSAGE(source != nullptr, error);
  MessageList list;
  std::vector<Problem> problems;
  REQUIRE(source->size() >= 2 * mcap::kMagicSize);
  mcap::WalkResult walked = mcap::walk_records(*source, mcap::kMagicSize, source->size() - mcap::kMagicSize, list, &problems, nullptr);
  REQUIRE(walked.complete);
  return list;
}


// `logscope export FILE --topic T --format jsonl`'s rows.
std::vector<Json> cli_export(const std::string& file, const std::string& topic, const std::string& dir) {
  std::string out = dir + "/export.jsonl";
  std::remove(out.c_str());
  int status = 0;
  std::string said = test_support::run_cli("export '" + file + "' --topic '" + topic + "' --format jsonl -o '" + out + "'", &status);
  INFO("logscope export said: " << said);
  REQUIRE(status <= 1);
  return export_support::jsonl_rows(test_support::read_text(out));
}

// The exported rows of a topic against protoc's decoding of its messages (file order; null where
// protoc cannot parse one): such a payload has no row, every other one its row (same log time)
// with the paths and values protoc prints. Returns the leaves compared.
size_t compare_rows(const std::vector<Json>& rows, const std::vector<const MessageList::Item*>& messages,
                    const std::vector<const TextNode*>& decoded, const gpb::Descriptor* type, const std::string& topic, size_t* rows_compared) {
  size_t row = 0, compared = 0;
  for (size_t i = 0; i < messages.size(); ++i) {
    if (!decoded[i]) continue;  // protoc cannot parse it: the export left it out too (the count below)
    REQUIRE_MESSAGE(row < rows.size(), "no exported row for message " << i << " of " << topic);
    CHECK(rows[row].find("time_ns")->as_uint() == messages[i]->log_time);
    compare_with_protoc(*decoded[i], rows[row], type, &compared);
    ++row;
  }
  CHECK_MESSAGE(row == rows.size(), topic);
  *rows_compared = row;
  return compared;
}

// protoc's decoding of `messages` with the descriptor set at `descriptor_set`.
struct ProtocDecoded {
  std::vector<TextNode> nodes;
  std::vector<bool> ok;
  const TextNode* at(size_t i) const { return ok[i] ? &nodes[i] : nullptr; }
};
ProtocDecoded protoc_messages(const std::vector<const MessageList::Item*>& messages, const std::string& type,
                              const std::string& descriptor_set, const std::string& dir) {
  std::vector<std::vector<uint8_t>> payloads;
  for (const auto* m : messages) payloads.emplace_back(m->payload.begin(), m->payload.end());
  ProtocDecoded d;
  d.nodes = protoc_decode(payloads, type, descriptor_set, dir, &d.ok);
  return d;
}

std::vector<const MessageList::Item*> of_channels(const MessageList& list, const std::set<uint16_t>& channels) {
  std::vector<const MessageList::Item*> out;
  for (const auto& m : list.items)
    if (channels.count(m.channel)) out.push_back(&m);
  return out;
}

Json query(FormatInspector& inspector, const std::string& name, const Json& args) { return inspector.query(name, args, nullptr); }

}  // namespace

TEST_CASE("writer-made protobuf channel: export by name equals protoc --decode with the schema's own descriptor set") {
  for (const char* compression : {"zstd", ""}) {
    Fixture f = make_fixture(std::string("mcap_protobuf_") + (*compression ? compression : "none"), compression);
    MessageList list = list_messages(f.file);
    std::vector<const MessageList::Item*> telemetry = of_channels(list, {0});
    REQUIRE(telemetry.size() == f.payloads.size());
    for (size_t i = 0; i < telemetry.size(); ++i) REQUIRE(telemetry[i]->payload == f.payloads[i]);
    // protoc reads the schema record's data, as the file holds it.
    MemoryByteSource source(reinterpret_cast<const uint8_t*>(f.bytes.data()), f.bytes.size());
    auto inspector = mcap::open_inspector(source);
    const mcap::FileModel* model = mcap::file_model(*inspector);
    REQUIRE(model != nullptr);
    std::string schema_file = f.dir + "/schema.desc";
    const std::string& data = model->schema(model->channel(0)->schema_id)->data;
    test_support::write_file(schema_file, std::vector<uint8_t>(data.begin(), data.end()));
    ProtocDecoded decoded = protoc_messages(telemetry, kType, schema_file, f.dir);
    std::vector<const TextNode*> nodes;
    for (size_t i = 0; i < telemetry.size(); ++i) nodes.push_back(decoded.at(i));
    CHECK(nodes[13] == nullptr);  // protoc cannot parse the bad payload either
    auto pool = pool_of(schema_file);
    size_t rows = 0;
    size_t leaves = compare_rows(cli_export(f.file, "/telemetry", f.dir), telemetry, nodes, pool->FindMessageTypeByName(kType), "/telemetry", &rows);
    CHECK(rows == f.payloads.size() - 1);  // the bad payload has no row
    CHECK(leaves > 800);
    MESSAGE("/telemetry (" << std::string(*compression ? compression : "no compression") << "): " << rows << " rows, " << leaves
                           << " leaves compared with protoc");
  }
}

TEST_CASE("writer-made protobuf channel: columns by path in protoc's order, problems named, the plot reads them") {
  Fixture f = make_fixture("mcap_protobuf_columns");
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(f.bytes.data()), f.bytes.size());
  auto inspector = mcap::open_inspector(source);
  StringSink csv;
  ExportResult result = inspector->export_rows("/telemetry", ExportRequest(), csv, nullptr);
  REQUIRE_MESSAGE(result.error.empty(), result.error);
  CHECK(result.rows == static_cast<uint64_t>(kMessages));
  // The bad payload and the other channel's messages (another type on the topic) are named.
  size_t undecodable = 0, other_type = 0;
  for (const Problem& p : result.problems) {
    if (p.code == "mcap.export.undecodable") {
      ++undecodable;
      CHECK(p.message.find("do not parse as logscope_test.Telemetry") != std::string::npos);
      CHECK(p.message.find("/telemetry") != std::string::npos);
    }
    if (p.code == "mcap.export.no_schema") ++other_type;
  }
  CHECK(undecodable == 1);
  CHECK(other_type == 5);
  std::string header = csv.text().substr(0, csv.text().find('\r'));
  INFO(header);
  // Field-number order, elements in order, map entries by key, unknown fields by number.
  CHECK(header.rfind("time_ns,stamp.seconds,stamp.nanos,mode,position.x,position.y,position.z,waypoints[0].x,"
                     "waypoints[1].x,waypoints[1].z,ranges[0],ranges[1],ranges[2],ranges[3],offsets[0],offsets[1],offsets[2],"
                     "gauges[0].value,gauges[1].value,gauges[2].value,mode_by_id[0].key,mode_by_id[0].value,",
                     0) == 0);
  CHECK(header.find(",big,counter,flags,delta,healthy,sensor_id,temperature,98,99") != std::string::npos);

  // The columns query lists the export's columns with their kinds; the plot reads a path.
  Json args = Json::object();
  args["topic"] = "/telemetry";
  Json columns = query(*inspector, "columns", args);
  REQUIRE_MESSAGE(columns.find("columns"), columns.dump());
  CHECK(columns.find("type")->as_string() == kType);
  std::string listed = "time_ns";
  for (const Json& c : columns.find("columns")->elements()) {
    listed += "," + c.find("name")->as_string();
    if (c.find("name")->as_string() == "healthy") CHECK(c.find("kind")->as_string() == "bool");
    if (c.find("name")->as_string() == "position.x") CHECK(c.find("kind")->as_string() == "number");
  }
  CHECK(listed == header);
  args["fields"] = "position.x,counter";
  Json plot = query(*inspector, "plot", args);
  REQUIRE_MESSAGE(plot.find("count"), plot.dump());
  CHECK(plot.find("count")->as_uint() == static_cast<uint64_t>(kMessages));

  // --fields selects by path prefix, as for every export.
  ExportRequest request;
  request.fields = {"position"};
  StringSink some;
  REQUIRE(inspector->export_rows("/telemetry", request, some, nullptr).error.empty());
  CHECK(some.text().substr(0, some.text().find('\r')) == "time_ns,position.x,position.y,position.z");

  // A time range: only its messages, columns from them alone (message 2 has two waypoints).
  ExportRequest range;
  range.from_ns = kStart;
  range.to_ns = kStart + 10000000ull;
  StringSink two;
  ExportResult ranged = inspector->export_rows("/telemetry", range, two, nullptr);
  CHECK(ranged.rows == 2);
  CHECK(two.text().find("waypoints[1]") == std::string::npos);
  CHECK(two.text().find("waypoints[0].x") != std::string::npos);
}

TEST_CASE("writer-made protobuf channel: the Data view's messages by field name, enums by name, nested and repeated") {
  Fixture f = make_fixture("mcap_protobuf_decoded");
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(f.bytes.data()), f.bytes.size());
  auto inspector = mcap::open_inspector(source);
  Json args = Json::object();
  args["channel"] = 0;
  args["count"] = 20;
  Json page = query(*inspector, "decoded", args);
  REQUIRE_MESSAGE(page.find("messages"), page.dump());
  const std::vector<Json>& messages = page.find("messages")->elements();
  REQUIRE(messages.size() == 20);
  const Json* m = messages[2].find("message");
  REQUIRE_MESSAGE(m != nullptr, messages[2].dump());
  CHECK(m->find("frame_id")->as_string() == "base_link");
  CHECK(m->find("mode")->as_string() == "MODE_DRIVE");
  CHECK(m->find("stamp")->find("seconds")->as_string() == "1767225602");  // 64-bit as text (proto3 JSON)
  CHECK(m->find("position")->find("x")->as_double() == doctest::Approx(0.2));
  CHECK(m->find("waypoints")->size() == 2);
  CHECK(m->find("waypoints")->elements()[1].find("z")->as_double() == -2.5);
  CHECK(m->find("gauges")->elements()[0].find("key")->as_string() == "amp");  // map entries by key
  CHECK(m->find("mode_by_id")->elements()[0].find("value")->as_string() == "MODE_DRIVE");  // (-2 + 4) % 4
  CHECK(m->find("big")->as_string() == "-9007199254740995");
  CHECK(m->find("counter")->as_string() == "18446744073709551613");
  CHECK(m->find("blob")->as_string() == "0001ff");
  CHECK(m->find("sensor_id")->as_uint() == 3);
  CHECK(m->find("healthy")->as_bool());
  CHECK(messages[1].find("message")->find("[unknown]") != nullptr);
  CHECK(messages[13].find("decode_error")->as_string().find("do not parse as logscope_test.Telemetry") != std::string::npos);

  // The record view of one message node decodes it the same way.
  for (const TreeNode& node : inspector->children("", 0, 1000)) {
    if (node.label.find("Chunk") == std::string::npos) continue;
    std::vector<TreeNode> inner = inspector->children(node.id, 0, 1000);
    for (const TreeNode& record : inner) {
      Json j = inspector->decode(record.id);
      if (j.find("topic") && j.find("topic")->as_string() == "/telemetry" && j.find("message")) {
        CHECK(j.find("message")->find("frame_id")->as_string() == "base_link");
        return;
      }
    }
  }
  FAIL("no /telemetry message in the tree");
}

TEST_CASE("protobuf schemas that cannot be used and payloads that do not parse: clear problems, never a crash") {
  Fixture f = make_fixture("mcap_protobuf_bad");
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(f.bytes.data()), f.bytes.size());
  auto inspector = mcap::open_inspector(source);
  struct Case {
    uint16_t channel;
    const char* topic;
    const char* says;
  };
  for (const Case& c : {Case{2, "/bad_descriptor", "not a FileDescriptorSet"}, Case{3, "/wrong_type", "has no message type \"logscope_test.Nope\""},
                        Case{4, "/empty_schema", "has no data"}, Case{5, "/unbuildable", "could be built"}}) {
    INFO(c.topic);
    Json args = Json::object();
    args["channel"] = c.channel;
    Json page = query(*inspector, "decoded", args);
    REQUIRE_MESSAGE(page.find("messages"), page.dump());
    REQUIRE(page.find("messages")->size() == 5);
    const Json& first = page.find("messages")->elements()[0];
    CHECK(first.find("message") == nullptr);
    REQUIRE(first.find("decode_note") != nullptr);
    CHECK_MESSAGE(first.find("decode_note")->as_string().find(c.says) != std::string::npos, first.find("decode_note")->as_string());
    StringSink sink;
    ExportResult result = inspector->export_rows(c.topic, ExportRequest(), sink, nullptr);
    CHECK(result.rows == 0);
    CHECK_MESSAGE(result.error.find(c.says) != std::string::npos, result.error);
    Json columns_args = Json::object();
    columns_args["topic"] = c.topic;
    CHECK(query(*inspector, "columns", columns_args).find("error") != nullptr);
    int status = 0;
    std::string said = test_support::run_cli("export '" + f.file + "' --topic '" + c.topic + "'", &status);
    CHECK(status != 0);
    CHECK_MESSAGE(said.find(c.says) != std::string::npos, said);
  }

  // A message of 1.2 million packed zeros (1 byte each on the wire, a leaf each): refused by the
  // export rather than grown into gigabytes; the record view shows its first values.
  std::string huge = "\x3a";
  uint64_t count = 1200000;
  for (uint64_t v = count; ; v >>= 7) {
    huge.push_back(static_cast<char>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
    if (v < 0x80) break;
  }
  huge.append(count, '\0');
  mcap::Writer writer;
  uint16_t channel = writer.add_channel(writer.add_schema(kType, "protobuf", test_support::read_text(f.descriptor_set)), "/huge", "protobuf");
  writer.write_message(channel, 0, kStart, kStart, huge);
  writer.write_message(channel, 1, kStart + 1, kStart + 1, f.payloads[2]);
  std::string bytes = writer.finish();
  MemoryByteSource huge_source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto huge_inspector = mcap::open_inspector(huge_source);
  StringSink sink;
  ExportResult result = huge_inspector->export_rows("/huge", ExportRequest(), sink, nullptr);
  CHECK(result.rows == 1);
  REQUIRE(!result.problems.empty());
  CHECK(result.problems[0].code == "mcap.export.undecodable");
  CHECK_MESSAGE(result.problems[0].message.find("more than 1048575 numeric values") != std::string::npos, result.problems[0].message);
  Json args = Json::object();
  args["count"] = 1;
  Json page = query(*huge_inspector, "decoded", args);
  REQUIRE_MESSAGE(page.find("messages"), page.dump());
  const Json* shown = page.find("messages")->elements()[0].find("message");
  REQUIRE(shown != nullptr);
  CHECK(shown->find("offsets")->size() == 5000);  // the JSON tree's limit
  CHECK(shown->find("[truncated]") != nullptr);
}

namespace {

// A real sample's protobuf channels: protoc once per schema (every message of its channels, with
// the schema record's own descriptor set), `logscope export` once per topic.
void compare_sample(const std::string& name, size_t expect_channels, size_t expect_messages) {
  std::string path = test_support::sample("mcap/" + name);
  if (!test_support::have_samples()) return;
  if (!std::filesystem::exists(path)) {
    test_support::skip(path + " is absent");
    return;
  }
  std::string dir = test_support::scratch_dir("mcap_protobuf_sample");
  std::string error;
  std::unique_ptr<FileByteSource> source = FileByteSource::open(path, &error);
  REQUIRE_MESSAGE(source != nullptr, error);
  auto inspector = mcap::open_inspector(*source);
  const mcap::FileModel* model = mcap::file_model(*inspector);
  REQUIRE(model != nullptr);
  MessageList list = list_messages(path);
  size_t channels = 0, total_rows = 0, total_leaves = 0;
  for (const auto& [schema_id, schema_info] : model->schemas) {
    const mcap::Schema& schema = schema_info.schema;
    std::set<uint16_t> ids;
    for (const auto& [id, info] : model->channels)
      if (info.channel.schema_id == schema_id && info.channel.message_encoding == "protobuf") ids.insert(id);
    if (schema.encoding != "protobuf" || ids.empty()) continue;
    INFO(schema.name);
    std::string schema_file = dir + "/schema" + std::to_string(schema_id) + ".desc";
    test_support::write_file(schema_file, std::vector<uint8_t>(schema.data.begin(), schema.data.end()));
    auto pool = pool_of(schema_file);
    const gpb::Descriptor* type = pool->FindMessageTypeByName(schema.name);
    REQUIRE(type != nullptr);
    std::vector<const MessageList::Item*> messages = of_channels(list, ids);
    ProtocDecoded decoded = protoc_messages(messages, schema.name, schema_file, dir);
    std::map<std::string, std::set<uint16_t>> topics;
    for (uint16_t id : ids) topics[model->channel(id)->topic].insert(id);
    for (const auto& [topic_binding, channel_ids] : topics) {
      const std::string& topic = topic_binding;  // clang 14: doctest's INFO cannot capture a binding
      INFO(topic);
      std::vector<const MessageList::Item*> of_topic;
      std::vector<const TextNode*> nodes;
      for (size_t i = 0; i < messages.size(); ++i)
        if (channel_ids.count(messages[i]->channel)) of_topic.push_back(messages[i]), nodes.push_back(decoded.at(i));
      size_t rows = 0;
      total_leaves += compare_rows(cli_export(path, topic, dir), of_topic, nodes, type, topic, &rows);
      CHECK(rows == of_topic.size());  // every real message parses
      total_rows += rows;
      channels += channel_ids.size();
    }
  }
  MESSAGE(name << ": " << channels << " protobuf channels, " << total_rows << " messages, " << total_leaves << " leaves compared with protoc");
  CHECK(channels == expect_channels);
  CHECK(total_rows == expect_messages);
  CHECK(total_leaves >= expect_messages);
}

}  // namespace

TEST_CASE("real protobuf samples: every channel's export equals protoc --decode with the file's own descriptor set") {
  // rerun's: one foxglove.PoseInFrame message beside a JSON channel (SOURCES.md: 293 messages).
  compare_sample("rerun-io__rerun__simple-protobuf.mcap", 1, 1);
  // keelson's: 649 channels of keelson.primitives.TimestampedBytes, 2,172 messages.
  compare_sample("RISE-Maritime__keelson__test.mcap", 649, 2172);
}
