// Protobuf by name and by field number (codec/protobuf) through BDDF's export, compared with
// protoc: for every message, the numeric leaf paths the export writes are the ones
// `protoc --decode=TYPE` prints (descriptor set built by protoc from tests/fixtures/proto), and
// every value is equal; without a schema, the same against `protoc --decode_raw`. Payloads of our
// writer's file (made with dynamic messages) and of the SDK-written samples.
#include <doctest/doctest.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>

#include "bddf/blocks.h"
#include "bddf/inspector.h"
#include "bddf/model.h"
#include "bddf/writer.h"
#include "core/byte_source.h"
#include "core/export.h"
#include "protobuf/raw.h"
#include "protobuf/schemas.h"
#include "protobuf_support.h"
#include "test_support.h"

using namespace logscope;
using namespace protobuf_support;

namespace {

constexpr int64_t kStart = 1767225600123456789ll;

std::shared_ptr<const protobuf::Schemas> schemas_from(const std::string& descriptor_set) {
  std::string error;
  auto schemas = protobuf::load_descriptor_set(test_support::read_text(descriptor_set), &error);
  REQUIRE_MESSAGE(schemas != nullptr, error);
  return schemas;
}

// RobotStates with every kind of field the test schemas have: nested and repeated messages,
// packed doubles, enums, a map inserted out of key order, negative and 64-bit integers, and
// unknown fields (a varint, a fixed32, a nested message) that protoc prints by number.
std::vector<std::string> robot_states(const gpb::DescriptorPool& pool, int count) {
  gpb::DynamicMessageFactory factory(&pool);
  const gpb::Descriptor* type = pool.FindMessageTypeByName("bosdyn.api.RobotState");
  REQUIRE(type != nullptr);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) {
    std::unique_ptr<gpb::Message> m(factory.GetPrototype(type)->New());
    const gpb::Reflection* r = m->GetReflection();
    auto field = [](const gpb::Message& msg, const char* name) {
      const gpb::FieldDescriptor* f = msg.GetDescriptor()->FindFieldByName(name);
      REQUIRE_MESSAGE(f != nullptr, name);
      return f;
    };
    gpb::Message* power = r->MutableMessage(m.get(), field(*m, "power_state"));
    power->GetReflection()->SetEnumValue(power, field(*power, "motor_power_state"), 1 + i % 5);
    gpb::Message* charge = power->GetReflection()->MutableMessage(power, field(*power, "locomotion_charge_percentage"));
    charge->GetReflection()->SetDouble(charge, field(*charge, "value"), 87.5 - i * 0.01);
    gpb::Message* battery = r->AddMessage(m.get(), field(*m, "battery_states"));
    const gpb::Reflection* br = battery->GetReflection();
    br->SetString(battery, field(*battery, "identifier"), "battery-0");
    for (int k = 0; k < 3 + i % 2; ++k) br->AddDouble(battery, field(*battery, "temperatures"), 31.0 + k * 0.1 + i * 1e-3);
    br->SetEnumValue(battery, field(*battery, "status"), 3);
    gpb::Message* faults = r->MutableMessage(m.get(), field(*m, "system_fault_state"));
    gpb::Message* fault = faults->GetReflection()->AddMessage(faults, field(*faults, "faults"));
    fault->GetReflection()->SetInt32(fault, field(*fault, "code"), -5 - i);
    fault->GetReflection()->SetUInt64(fault, field(*fault, "uid"), UINT64_MAX - static_cast<uint64_t>(i));
    for (const char* name : {"vision", "battery", "robot"}) {  // map entries, not in key order
      gpb::Message* entry = faults->GetReflection()->AddMessage(faults, field(*faults, "aggregated"));
      entry->GetReflection()->SetString(entry, field(*entry, "key"), name);
      entry->GetReflection()->SetEnumValue(entry, field(*entry, "value"), 1 + static_cast<int>(std::strlen(name)) % 3);
    }
    gpb::Message* kin = r->MutableMessage(m.get(), field(*m, "kinematic_state"));
    const gpb::Reflection* kr = kin->GetReflection();
    for (int j = 0; j < 12; ++j) {
      gpb::Message* joint = kr->AddMessage(kin, field(*kin, "joint_states"));
      joint->GetReflection()->SetString(joint, field(*joint, "name"), "joint" + std::to_string(j));
      for (const char* part : {"position", "velocity", "load"}) {
        gpb::Message* v = joint->GetReflection()->MutableMessage(joint, field(*joint, part));
        // 0 is proto3's default: the wrapper is present and its value is not (protoc prints `position {}`).
        v->GetReflection()->SetDouble(v, field(*v, "value"), j == 0 ? 0.0 : std::sin(i * 0.1 + j) * (part[0] == 'l' ? 30 : 1));
      }
    }
    gpb::Message* snapshot = kr->MutableMessage(kin, field(*kin, "transforms_snapshot"));
    for (const char* child : {"odom", "body", "vision"}) {
      gpb::Message* entry = snapshot->GetReflection()->AddMessage(snapshot, field(*snapshot, "child_to_parent_edge_map"));
      entry->GetReflection()->SetString(entry, field(*entry, "key"), child);
      gpb::Message* edge = entry->GetReflection()->MutableMessage(entry, field(*entry, "value"));
      gpb::Message* pose = edge->GetReflection()->MutableMessage(edge, field(*edge, "parent_tf_rt_child"));
      gpb::Message* q = pose->GetReflection()->MutableMessage(pose, field(*pose, "rotation"));
      q->GetReflection()->SetDouble(q, field(*q, "w"), 1.0 - i * 1e-6);
    }
    for (int foot = 0; foot < 4; ++foot) {
      gpb::Message* fs = r->AddMessage(m.get(), field(*m, "foot_state"));
      gpb::Message* p = fs->GetReflection()->MutableMessage(fs, field(*fs, "foot_position_rt_body"));
      p->GetReflection()->SetDouble(p, field(*p, "x"), foot < 2 ? 0.3 : -0.3);
      p->GetReflection()->SetDouble(p, field(*p, "z"), -0.5);
      fs->GetReflection()->SetEnumValue(fs, field(*fs, "contact"), 1);
    }
    gpb::UnknownFieldSet* unknown = r->MutableUnknownFields(kin);
    unknown->AddVarint(99, 1000 + static_cast<uint64_t>(i));
    unknown->AddFixed32(98, 0x3f800000u);
    gpb::UnknownFieldSet* nested = unknown->AddGroup(97);
    nested->AddFixed64(1, 0x4055e00000000000ull);
    out.push_back(m->SerializeAsString());
  }
  return out;
}

std::vector<uint8_t> bddf_with(const std::vector<std::string>& payloads, const std::string& type_name) {
  std::vector<uint8_t> bytes;
  bddf::Writer writer([&](const void* data, size_t size) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    return true;
  }, bddf::Writer::Options());
  int series = writer.add_message_channel(type_name, type_name);
  for (size_t i = 0; i < payloads.size(); ++i)
    REQUIRE(writer.write_block(series, kStart + static_cast<int64_t>(i) * 20000000, payloads[i].data(), payloads[i].size()));
  REQUIRE(writer.finish());
  return bytes;
}

// Every protobuf block of `series` (its payload and time), read through the opened index.
std::vector<std::pair<int64_t, std::vector<uint8_t>>> series_payloads(ByteSource& source, const bddf::FileModel& model, size_t series) {
  std::vector<std::pair<int64_t, std::vector<uint8_t>>> out;
  for (const bddf::BlockEntry& e : model.series[series].entries) {
    bddf::BlockFrame frame;
    std::string why;
    if (bddf::read_frame(source, e.file_offset, model.size, &frame, &why) != bddf::FrameStatus::Ok) continue;
    out.emplace_back(e.timestamp_ns, source.read_vector(frame.payload_offset(), static_cast<size_t>(frame.payload_size())));
  }
  return out;
}

// Exports `series` as JSON Lines and compares each row with protoc's decoding of its payload
// (named when `schemas`, else --decode_raw). Rows are matched by time; a payload protoc cannot
// parse must have no row. Returns the leaves compared.
size_t compare_series(ByteSource& source, FormatInspector& inspector, size_t series, const std::string& type_name,
                      std::shared_ptr<const protobuf::Schemas> schemas, const std::string& descriptor_set,
                      const gpb::DescriptorPool* pool, const std::string& dir) {
  inspector.set_message_schemas(schemas);
  StringSink sink;
  ExportRequest request;
  request.format = ExportFormat::Jsonl;
  ExportResult result = inspector.export_rows(std::to_string(series), request, sink, nullptr);
  REQUIRE_MESSAGE(result.error.empty(), result.error);
  std::map<int64_t, Json> rows;
  std::string text = sink.text();
  for (size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) {
    std::optional<Json> row = Json::parse(std::string_view(text).substr(at, end - at));
    REQUIRE(row.has_value());
    rows[static_cast<int64_t>(row->find("time_ns")->as_int())] = *row;
  }
  const bddf::FileModel* model = bddf::file_model(inspector);
  REQUIRE(model != nullptr);
  std::vector<int64_t> times;
  std::vector<std::vector<uint8_t>> payloads;
  for (auto& [time, payload] : series_payloads(source, *model, series)) times.push_back(time), payloads.push_back(std::move(payload));
  std::vector<bool> ok;
  std::vector<TextNode> decoded = protoc_decode(payloads, schemas ? type_name : "", descriptor_set, dir, &ok);
  const gpb::Descriptor* type = schemas ? pool->FindMessageTypeByName(type_name) : nullptr;
  if (schemas) REQUIRE(type != nullptr);
  size_t compared = 0;
  for (size_t i = 0; i < payloads.size(); ++i) {
    auto row = rows.find(times[i]);
    if (!ok[i]) {  // protoc cannot parse it: neither can the export
      CHECK_MESSAGE(row == rows.end(), "the export wrote a row for a payload protoc cannot parse, at " << times[i]);
      continue;
    }
    REQUIRE_MESSAGE(row != rows.end(), "no exported row for the block at " << times[i]);
    compare_with_protoc(decoded[i], row->second, type, &compared);
  }
  CHECK(!payloads.empty());
  MESSAGE(type_name << std::string(schemas ? " by name" : " by field number") << ": " << payloads.size() << " blocks, " << compared << " leaves compared");
  return compared;
}

}  // namespace

TEST_CASE("writer-made RobotState: export by name equals protoc --decode, by number protoc --decode_raw") {
  std::string dir = test_support::scratch_dir("protobuf_writer");
  std::string descriptor_set = build_descriptor_set(dir);
  auto pool = pool_of(descriptor_set);
  std::vector<std::string> payloads = robot_states(*pool, 40);
  MemoryByteSource source(bddf_with(payloads, "bosdyn.api.RobotState"));
  auto inspector = bddf::open_inspector(source);
  REQUIRE(inspector != nullptr);
  size_t named = compare_series(source, *inspector, 0, "bosdyn.api.RobotState", schemas_from(descriptor_set), descriptor_set, pool.get(), dir);
  size_t raw = compare_series(source, *inspector, 0, "bosdyn.api.RobotState", nullptr, descriptor_set, pool.get(), dir);
  CHECK(raw >= 40 * 55);
  CHECK(named > raw);  // packed doubles are leaves by name, one string by field number

  // A path by name, the map by key order (body, odom, vision), unknown fields by number.
  inspector->set_message_schemas(schemas_from(descriptor_set));
  StringSink csv;
  REQUIRE(inspector->export_rows("0", ExportRequest(), csv, nullptr).error.empty());
  std::string header = csv.text().substr(0, csv.text().find('\r'));
  for (const char* column : {"kinematic_state.joint_states[3].position.value", "battery_states[0].temperatures[2]",
                             "kinematic_state.transforms_snapshot.child_to_parent_edge_map[0].value.parent_tf_rt_child.rotation.w",
                             "system_fault_state.aggregated[2].value", "kinematic_state.99", "kinematic_state.97.1"})
    CHECK_MESSAGE(header.find(std::string(",") + column) != std::string::npos, column << " not in " << header);
}

TEST_CASE("SDK-written BDDF samples: every protobuf block against protoc, by name and by field number") {
  if (!test_support::have_samples()) return;
  std::string dir = test_support::scratch_dir("protobuf_samples");
  std::string descriptor_set = build_descriptor_set(dir);
  auto pool = pool_of(descriptor_set);
  auto schemas = schemas_from(descriptor_set);
  for (std::string name : {"robot_state_small.bddf", "corrupted_checksum.bddf", "truncated_no_trailer.bddf"}) {
    CAPTURE(name);
    std::vector<uint8_t> bytes = test_support::read_file(test_support::sample("bddf/" + name));
    REQUIRE(!bytes.empty());
    MemoryByteSource source(std::move(bytes));
    auto inspector = bddf::open_inspector(source);
    REQUIRE(inspector != nullptr);
    const bddf::FileModel* model = bddf::file_model(*inspector);
    size_t protobuf_series = 0;
    for (size_t s = 0; s < model->series.size(); ++s) {
      const bddf::Series& series = model->series[s];
      if (series.data_type != "message_type") continue;
      ++protobuf_series;
      CHECK(compare_series(source, *inspector, s, series.type_name, schemas, descriptor_set, pool.get(), dir) > 0);
      CHECK(compare_series(source, *inspector, s, series.type_name, nullptr, descriptor_set, pool.get(), dir) > 0);
    }
    CHECK(protobuf_series == 2);  // RobotState and OperatorComment
  }
}

TEST_CASE("a folder of .proto files gives the leaves the descriptor set gives") {
  std::string dir = test_support::scratch_dir("protobuf_folder");
  std::string descriptor_set = build_descriptor_set(dir);
  auto pool = pool_of(descriptor_set);
  std::string error;
  auto from_folder = protobuf::load_proto_folder(proto_root(), &error);
  REQUIRE_MESSAGE(from_folder != nullptr, error);
  CHECK(from_folder->warnings().empty());
  auto from_set = schemas_from(descriptor_set);
  for (const std::string& payload : robot_states(*pool, 5)) {
    std::vector<protobuf::Leaf> a, b;
    const auto* data = reinterpret_cast<const uint8_t*>(payload.data());
    REQUIRE(from_folder->numeric_leaves("bosdyn.api.RobotState", data, payload.size(), &a, &error));
    REQUIRE(from_set->numeric_leaves("bosdyn.api.RobotState", data, payload.size(), &b, &error));
    REQUIRE(a.size() == b.size());
    for (size_t k = 0; k < a.size(); ++k) CHECK(a[k].path == b[k].path);
    Json tree = from_set->message_json("bosdyn.api.RobotState", data, payload.size());
    CHECK(tree.find("message")->find("power_state")->find("motor_power_state")->is_string());  // enums by name
    CHECK(tree.find("message")->find("kinematic_state")->find("joint_states")->size() == 12);
  }
}

TEST_CASE("bad schemas and bad bytes are messages, never crashes") {
  std::string error;
  CHECK(protobuf::load_descriptor_set("not a descriptor set", &error) == nullptr);
  CHECK(error.find("FileDescriptorSet") != std::string::npos);
  error.clear();
  CHECK(protobuf::load_descriptor_set("", &error) == nullptr);
  CHECK(!error.empty());
  error.clear();
  CHECK(protobuf::load_proto_folder("/nonexistent-folder", &error) == nullptr);
  CHECK(error.find("not a folder") != std::string::npos);
  error.clear();
  auto broken = protobuf::load_proto_sources({{"a.proto", "syntax = \"proto3\"; message A { int32 x = 1; }"},
                                              {"b.proto", "syntax = \"proto3\"; message B { nonsense }"}},
                                             &error);
  REQUIRE_MESSAGE(broken != nullptr, error);
  CHECK(broken->has_type("A"));
  CHECK(!broken->has_type("B"));
  CHECK(!broken->warnings().empty());
  CHECK(broken->warnings()[0].find("b.proto:1") == 0);
  error.clear();
  CHECK(protobuf::load_proto_sources({{"b.proto", "message {"}}, &error) == nullptr);
  CHECK(!error.empty());

  // A payload cut short, a length past the end, a zero tag: a clear message.
  std::vector<protobuf::Leaf> leaves;
  const uint8_t cut[] = {0x0a, 0x05, 0x08};
  error.clear();
  CHECK(!protobuf::raw_message_leaves(cut, sizeof cut, &leaves, &error));
  CHECK(error.find("claims 5 bytes") != std::string::npos);
  const uint8_t zero[] = {0x08, 0x01, 0x00};
  CHECK(!protobuf::raw_message_leaves(zero, sizeof zero, &leaves, &error));
  CHECK(!broken->numeric_leaves("A", cut, sizeof cut, &leaves, &error));
  CHECK(error.find("do not parse as A") != std::string::npos);
  CHECK(!broken->numeric_leaves("Nope", cut, sizeof cut, &leaves, &error));
  CHECK(error.find("no message type Nope") != std::string::npos);
  Json tree = broken->message_json("A", cut, sizeof cut);
  CHECK(tree.find("error") != nullptr);

  // An unknown type in the file: its columns by field number, with a note.
  std::vector<std::string> payloads{std::string("\x08\x07", 2), std::string("\x08\x09\x15\x00\x00\x80\x3f", 7)};
  MemoryByteSource source(bddf_with(payloads, "test.Unknown"));
  auto inspector = bddf::open_inspector(source);
  inspector->set_message_schemas(broken);
  StringSink csv;
  ExportResult result = inspector->export_rows("0", ExportRequest(), csv, nullptr);
  CHECK(result.error.empty());
  CHECK(test_support::has_code(result.problems, "bddf.export.field_numbers"));
  CHECK(csv.text() == "time_ns,1,2\r\n1767225600123456789,7,\r\n1767225600143456789,9,1065353216\r\n");
}

TEST_CASE("plot columns of a protobuf series are the export's, named by the schemas") {
  std::string dir = test_support::scratch_dir("protobuf_plot");
  std::string descriptor_set = build_descriptor_set(dir);
  auto pool = pool_of(descriptor_set);
  MemoryByteSource source(bddf_with(robot_states(*pool, 10), "bosdyn.api.RobotState"));
  auto inspector = bddf::open_inspector(source);
  for (bool named : {false, true}) {
    inspector->set_message_schemas(named ? schemas_from(descriptor_set) : nullptr);
    Json args = Json::object();
    args["series"] = 0;
    Json columns = inspector->query("columns", args, nullptr);
    REQUIRE_MESSAGE(columns.find("columns") != nullptr, columns.dump());
    StringSink csv;
    REQUIRE(inspector->export_rows("0", ExportRequest(), csv, nullptr).error.empty());
    std::string header = "time_ns";
    for (const Json& c : columns.find("columns")->elements()) header += "," + c.find("name")->as_string();
    CHECK(csv.text().substr(0, csv.text().find('\r')) == header);
    CHECK((columns.find("note") != nullptr) == !named);
    std::string path = named ? "kinematic_state.joint_states[3].position.value" : "6.2[3].2.1";
    Json plot_args = Json::object();
    plot_args["series"] = 0;
    plot_args["fields"] = path;
    Json plot = inspector->query("plot", plot_args, nullptr);
    CHECK_MESSAGE(plot.find("count") != nullptr, plot.dump());
    if (plot.find("count")) CHECK(plot.find("count")->as_uint() == 10);
  }
}

TEST_CASE("CLI: export and blocks --decode take --descriptors and --proto-path") {
  std::string dir = test_support::scratch_dir("protobuf_cli");
  std::string descriptor_set = build_descriptor_set(dir);
  auto pool = pool_of(descriptor_set);
  std::string file = dir + "/robot_state.bddf";
  test_support::write_file(file, bddf_with(robot_states(*pool, 3), "bosdyn.api.RobotState"));
  int status = -1;
  std::string named = test_support::run_cli("export '" + file + "' --series 0 --descriptors '" + descriptor_set + "'", &status);
  CHECK(status == 0);
  CHECK(named.find(",kinematic_state.joint_states[3].position.value,") != std::string::npos);
  std::string folder = test_support::run_cli("export '" + file + "' --series 0 --proto-path '" + proto_root() + "'", &status);
  CHECK(status == 0);
  CHECK(folder == named);
  std::string raw = test_support::run_cli("export '" + file + "' --series 0", &status);
  CHECK(status == 0);
  CHECK(raw.find("no schema given") != std::string::npos);
  CHECK(raw.find(",6.2[3].2.1,") != std::string::npos);
  std::string decoded = test_support::run_cli("blocks '" + file + "' --series 0 --decode --descriptors '" + descriptor_set + "'", &status);
  CHECK(status == 0);
  CHECK(decoded.find("\"motor_power_state\":\"STATE_OFF\"") != std::string::npos);
  std::string bad = test_support::run_cli("export '" + file + "' --series 0 --descriptors '" + file + "'", &status);
  CHECK(status == 2);
  CHECK(bad.find("not a FileDescriptorSet") != std::string::npos);
}
