// ULog from our writer: every feature read back (header, flag bits, formats with nested types,
// arrays, char[N] and padding, info, multi-info joined, parameters and defaults, subscriptions with
// multi_id, data, strings plain and tagged, sync, dropout, remove), the export's columns as
// ulog2csv names and orders them, the queries, appended data, and each finding of the doctor.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "core/detect.h"
#include "core/export.h"
#include "core/node_id.h"
#include "core/query.h"
#include "test_support.h"
#include "test_ulog_support.h"
#include "ulog/extract.h"
#include "ulog/format.h"
#include "ulog/reader.h"

using namespace logscope;
using namespace ulog_test;
using test_support::has_code;

namespace {

std::string export_csv(FormatInspector& inspector, const std::string& topic, ExportRequest request = {}) {
  StringSink sink;
  ExportResult result = inspector.export_rows(topic, request, sink, nullptr);
  REQUIRE_MESSAGE(result.error.empty(), result.error);
  return sink.text();
}

// The first line of CSV text, without its CRLF (RFC 4180).
std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

}  // namespace

TEST_CASE("ulog: every feature of a writer-made file is read back") {
  std::vector<ulog::LedgerEntry> ledger;
  Opened o = open_bytes(feature_file(&ledger));
  const ulog::FileModel& m = o.model();
  CHECK(m.header_ok);
  CHECK(m.version == 1);
  CHECK(m.header_timestamp_us == 1000000);
  CHECK(m.flags.present);
  CHECK((m.flags.compat[0] & 1) == 1);
  CHECK(!m.flags.data_appended());
  REQUIRE(m.formats.formats.size() == 3);
  const ulog::Format* pose = m.formats.find("pose");
  REQUIRE(pose);
  CHECK(pose->resolved);
  CHECK(pose->size == 8 + 8 + 8 + 2 * 12 + 6 + 6 + 2 + 1 + 7);
  CHECK(pose->data_size == pose->size - 7);  // the trailing padding may be left out
  CHECK(m.info_text("sys_name") == "PX4");
  CHECK(m.info_text("ver_hw") == "TEST_HW1");
  CHECK(m.info_text("note") == "late");
  REQUIRE(m.multi_infos.size() == 1);
  REQUIRE(m.multi_infos[0].values.size() == 2);
  CHECK(m.multi_infos[0].values[0].as_string() == "first-more");
  CHECK(m.multi_infos[0].values[1].as_string() == "second");
  REQUIRE(m.parameters.size() == 3);
  CHECK(m.parameters[0].name == "MAV_TYPE");
  CHECK(m.parameters[0].value.as_int() == 2);
  CHECK(m.parameters[1].value.as_double() == 7.5);
  CHECK(m.parameters[2].in_data);
  CHECK(m.parameters[2].value.as_double() == 9.0);
  CHECK(m.defaults.size() == 2);
  REQUIRE(m.subscriptions.size() == 3);
  CHECK(m.subscriptions[0].messages == 20);
  CHECK(m.subscriptions[1].multi_id == 1);
  CHECK(m.subscriptions[1].messages == 10);
  CHECK(m.subscriptions[2].messages == 20);
  CHECK(m.subscriptions[2].removed);
  CHECK(m.data_messages == 50);
  REQUIRE(m.strings.size() == 2);
  CHECK(!m.strings[0].tagged);
  CHECK(m.strings[0].text == "[commander] Takeoff detected");
  CHECK(m.strings[1].tagged);
  CHECK(m.strings[1].tag == 7);
  CHECK(m.strings[1].level == '3');
  CHECK(m.syncs == 1);
  REQUIRE(m.dropouts.size() == 1);
  CHECK(m.dropouts[0].duration_ms == 35);
  CHECK(m.messages == ledger.size());
  for (const Problem& p : m.problems) CHECK_MESSAGE(p.severity != Severity::Error, p.code << ": " << p.message);
  CHECK(has_code(m.problems, "ulog.data.dropout"));

  Report summary = o.inspector->summary();
  CHECK(summary.format == "ulog");
  CHECK(summary.file.counts[0].name == "messages");
  CHECK(summary.file.counts[0].value == 50);
  CHECK(*summary.file.start_ns == 1000000000);
  CHECK(*summary.file.end_ns == (1000000 + 19 * 10000 + 2) * int64_t{1000});
  CHECK(summary.facts.find("ver_sw_release")->as_string() == "v1.13.0 dev");
  CHECK(summary.facts.find("logged_errors")->as_uint() == 1);
  const Table* topics = nullptr;
  for (const Table& t : summary.tables)
    if (t.name == "topics") topics = &t;
  REQUIRE(topics);
  CHECK(topics->columns[0] == "topic");
  CHECK(topics->columns[1] == "multi_id");
  CHECK(topics->columns[3] == "messages");
  CHECK(topics->rows.size() == 3);

  std::string info = o.inspector->info_text({});
  CHECK(info.find("SW Version: v1.13.0 dev") != std::string::npos);
  CHECK(info.find("Info Multiple Messages: [perf: 2]") != std::string::npos);
  CHECK(info.find(" pose (1, 63)") != std::string::npos);
  CHECK(info.find("Dropouts: count: 1, total duration: 0.0 s, max: 35 ms, mean: 35 ms") != std::string::npos);
}

TEST_CASE("ulog: export columns are ulog2csv's: timestamp first, arrays name[i], nested a.b, char[N] one column, no padding") {
  Opened o = open_bytes(feature_file());
  std::string csv = export_csv(*o.inspector, "pose");
  CHECK(first_line(csv) ==
        "timestamp,lat,lon,parts[0].v[0],parts[0].v[1],parts[0].flag,parts[1].v[0],parts[1].v[1],parts[1].flag,label,counts[0],counts[1],counts[2],ok");
  std::string second = csv.substr(csv.find('\n') + 1);
  CHECK(first_line(second) == "1000000,47,8,1.5,-2,0,3,-2,1,abc,-1,2,300,1");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 21);
  std::string other = export_csv(*o.inspector, "pose:1");
  CHECK(std::count(other.begin(), other.end(), '\n') == 11);
  CHECK(other.find(",second,") != std::string::npos);
  ExportRequest range;
  range.from_ns = 1050000000;
  range.to_ns = 1100000000;
  std::string ranged = export_csv(*o.inspector, "tick", range);
  CHECK(std::count(ranged.begin(), ranged.end(), '\n') == 1 + 5);  // 1050002 .. 1090002 µs
  StringSink sink;
  CHECK(!o.inspector->export_rows("nope", {}, sink, nullptr).error.empty());
  CHECK(!o.inspector->export_rows("pose:x", {}, sink, nullptr).error.empty());
}

TEST_CASE("ulog: queries: params with defaults, messages, info_multiple, decoded, columns, plot, timeline, gps_track") {
  Opened o = open_bytes(feature_file());
  Json params = o.inspector->query("params", Json::object(), nullptr);
  REQUIRE(params.find("parameters"));
  CHECK(params.find("total")->as_uint() == 2);
  const Json& list = *params.find("parameters");
  REQUIRE(list.size() == 2);
  CHECK(list[0].find("name")->as_string() == "MAV_TYPE");
  CHECK(list[0].find("changed_from_default")->as_bool() == false);
  CHECK(list[1].find("name")->as_string() == "MPC_XY_CRUISE");
  CHECK(list[1].find("changed_from_default")->as_bool() == true);
  CHECK(list[1].find("system_default")->as_double() == 5.0);
  CHECK(params.find("changes")->size() == 1);

  Json messages = o.inspector->query("messages", Json::object(), nullptr);
  CHECK(messages.find("total")->as_uint() == 2);
  CHECK((*messages.find("messages"))[1].find("line")->as_string() == "0:00:01 ERROR: [battery] Low battery");
  CHECK((*messages.find("messages"))[1].find("tag")->as_uint() == 7);

  Json args = Json::object();
  args["key"] = "perf";
  Json multi = o.inspector->query("info_multiple", args, nullptr);
  CHECK(multi.find("values")->size() == 2);

  Json decoded_args = Json::object();
  decoded_args["topic"] = "pose";
  decoded_args["multi_id"] = uint64_t{1};
  decoded_args["count"] = uint64_t{2};
  Json decoded = o.inspector->query("decoded", decoded_args, nullptr);
  CHECK(decoded.find("total")->as_uint() == 10);
  REQUIRE(decoded.find("messages")->size() == 2);
  const Json* message = (*decoded.find("messages"))[0].find("message");
  REQUIRE(message);
  CHECK(message->find("label")->as_string() == "second");
  CHECK((*message->find("parts"))[1].find("flag")->as_uint() == 1);
  CHECK(!message->find("_padding1"));

  Json col_args = Json::object();
  col_args["topic"] = "tick";
  Json columns = o.inspector->query("columns", col_args, nullptr);
  CHECK(columns.find("columns")->size() == 2);
  col_args["fields"] = "n";
  Json plot = o.inspector->query("plot", col_args, nullptr);
  CHECK(plot.find("count")->as_uint() == 20);

  Json timeline = o.inspector->query("timeline", Json::object(), nullptr);
  CHECK(timeline.find("rows")->size() == 3);

  Json gps_args = Json::object();
  gps_args["topic"] = "pose";
  Json gps = o.inspector->query("gps_track", gps_args, nullptr);
  CHECK(gps.find("kept")->as_uint() == 20);
  CHECK(gps.find("bounds")->find("lat_min")->as_double() == 47.0);

  // Every value of every answer has a unit (docs/report.md, "Query results").
  for (const Json* answer : {&params, &messages, &multi, &decoded, &columns, &plot, &timeline, &gps}) {
    CHECK(!answer->find("error"));
    CHECK(untyped_paths(*answer) == std::vector<std::string>());
  }
}

TEST_CASE("ulog: the tree lists the header and every message, locate, spans and decode agree") {
  std::vector<ulog::LedgerEntry> ledger;
  Opened o = open_bytes(feature_file(&ledger));
  FormatInspector& in = *o.inspector;
  REQUIRE(in.child_count("") == 1 + ledger.size());
  std::vector<TreeNode> all = in.children("", 0, 1 + ledger.size());
  REQUIRE(all.size() == 1 + ledger.size());
  CHECK(all[0].id == "h");
  for (size_t i = 0; i < ledger.size(); ++i) {
    CHECK(all[i + 1].offset == ledger[i].offset);
    CHECK(all[i + 1].offset + all[i + 1].length == ledger[i].end);
    std::vector<std::string> path = in.locate(ledger[i].offset + 1);
    REQUIRE(path.size() == 1);
    CHECK(path[0] == all[i + 1].id);
  }
  std::vector<TreeNode> page = in.children("", 30, 5);
  REQUIRE(page.size() == 5);
  CHECK(page[0].id == all[30].id);
  Json d = in.decode(all.back().id);
  CHECK(d.find("type")->as_string() == "R");
  Json data_node;
  for (const TreeNode& n : all)
    if (n.kind == "data") {
      data_node = in.decode(n.id);
      break;
    }
  CHECK(data_node.find("topic")->as_string() == "pose");
  CHECK(in.decode("m").find("error"));
  CHECK(in.decode("m99999").find("error"));
  std::vector<Span> spans = in.spans(0, 200);
  REQUIRE(!spans.empty());
  CHECK(spans[0].name == "ULog header");
}

TEST_CASE("ulog: detection by the format table, and the near misses") {
  auto detect_bytes = [](const std::string& bytes) {
    MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    return detect(source);
  };
  std::string bytes = feature_file();
  Detection d = detect_bytes(bytes);
  CHECK(d.family == "ulog");
  CHECK(d.label == "ULog v1");
  Detection cut = detect_bytes(bytes.substr(0, 5));
  CHECK(cut.family != "ulog");
  CHECK(cut.kind == "truncated-header");
  std::string v9 = bytes.substr(0, 64);
  v9[7] = 9;
  CHECK(detect_bytes(v9).kind == "unsupported-version");
}

TEST_CASE("ulog: appended data is read from the offsets the flag bits give") {
  MemoryOutputSink sink;
  ulog::Writer w(sink);
  w.header(5);
  uint8_t compat[8] = {}, incompat[8] = {ulog::kIncompatDataAppended};
  uint64_t appended[3] = {};
  uint64_t flags_at = sink.written();
  w.flag_bits(compat, incompat, appended);
  for (const char* f : kFeatureFormats) w.format(f);
  w.add_subscription(0, 0, "tick");
  for (uint32_t i = 0; i < 5; ++i) w.data(0, tick_payload(10 + i, i));
  uint64_t first = sink.written();
  w.info_multiple(false, "char[9] hardfault_plain", "crash one");
  uint64_t second = sink.written();
  w.info_multiple(false, "char[9] hardfault_plain", "crash two");
  w.data(0, tick_payload(99, 99));
  std::string bytes = sink.bytes;
  uint64_t offsets[3] = {first, second, 0};
  for (int i = 0; i < 3; ++i) std::memcpy(&bytes[flags_at + 3 + 16 + 8 * static_cast<size_t>(i)], &offsets[i], 8);

  Opened o = open_bytes(bytes);
  const ulog::FileModel& m = o.model();
  CHECK(m.flags.data_appended());
  REQUIRE(m.sections.size() == 3);
  CHECK(m.sections[0].end == first);
  CHECK(m.sections[1].begin == first);
  REQUIRE(m.multi_infos.size() == 1);
  CHECK(m.multi_infos[0].values.size() == 2);
  CHECK(m.multi_infos[0].values[1].as_string() == "crash two");
  CHECK(m.data_messages == 6);
  CHECK(m.problems.empty());

  // An offset past the end of the file: the data is missing.
  std::string past = bytes;
  uint64_t far = bytes.size() + 100;
  std::memcpy(&past[flags_at + 3 + 16 + 8], &far, 8);
  CHECK(has_code(open_bytes(past).model().problems, "ulog.appended.offset_past_end"));
  // A message that runs past the first offset.
  std::string crossing = bytes;
  uint64_t inside = first - 2;
  std::memcpy(&crossing[flags_at + 3 + 16], &inside, 8);
  CHECK(has_code(open_bytes(crossing).model().problems, "ulog.appended.past_offset"));

  // Repair keeps the crash dumps, inline.
  MemoryOutputSink out;
  ExtractResult repaired = ulog::repair_ulog(*o.source, out);
  REQUIRE(repaired.ok);
  Opened fixed = open_bytes(out.bytes);
  CHECK(!fixed.model().flags.data_appended());
  CHECK(fixed.model().multi_infos[0].values.size() == 2);
  CHECK(fixed.model().data_messages == 6);
  CHECK(fixed.inspector->check(nullptr).count(Severity::Error) == 0);
}

TEST_CASE("ulog: the doctor's findings each at its byte offset") {
  SUBCASE("data before its subscription, and size mismatch, time going back, unknown types, unknown incompatible flags") {
    MemoryOutputSink sink;
    ulog::Writer w(sink);
    w.header(0);
    for (const char* f : kFeatureFormats) w.format(f);
    uint64_t early = sink.written();
    w.data(4, tick_payload(1, 1));
    w.add_subscription(0, 4, "tick");
    w.data(4, tick_payload(20, 2));
    uint64_t back = sink.written();
    w.data(4, tick_payload(10, 3));
    uint64_t short_at = sink.written();
    w.data(4, std::string(5, '\0'));
    uint64_t unknown_at = sink.written();
    w.message('Z', "what");
    w.data(4, tick_payload(30, 4));
    Opened o = open_bytes(sink.bytes);
    Report r = o.inspector->check(nullptr);
    auto at = [&](const std::string& code) -> int64_t {
      for (const Problem& p : r.problems)
        if (p.code == code) return static_cast<int64_t>(p.offset);
      return -1;
    };
    CHECK(at("ulog.subscription.used_before_declared") == static_cast<int64_t>(early));
    CHECK(at("ulog.data.time_backwards") == static_cast<int64_t>(back));
    CHECK(at("ulog.data.size_mismatch") == static_cast<int64_t>(short_at));
    CHECK(at("ulog.message.unknown_type") == static_cast<int64_t>(unknown_at));
    CHECK(o.model().subscriptions[0].messages == 4);  // the unknown type was skipped by its length

    std::string flagged;
    MemoryOutputSink s2;
    ulog::Writer w2(s2);
    w2.header(0);
    uint8_t compat[8] = {}, incompat[8] = {0, 1};
    uint64_t appended[3] = {};
    w2.flag_bits(compat, incompat, appended);
    w2.format(kFeatureFormats[2]);
    Opened f = open_bytes(s2.bytes);
    CHECK(has_code(f.model().problems, "ulog.flags.unknown_incompatible"));
    CHECK(f.model().formats.formats.empty());
  }
}

TEST_CASE("ulog: a cut at every byte keeps every complete message before it, repair makes a clean file of them") {
  std::vector<ulog::LedgerEntry> ledger;
  std::string bytes = feature_file(&ledger);
  for (size_t cut = ulog::kHeaderSize; cut <= bytes.size(); ++cut) {
    Opened o = open_bytes(bytes.substr(0, cut));
    const ulog::FileModel& m = o.model();
    uint64_t whole = 0;
    for (const ulog::LedgerEntry& e : ledger) whole += e.end <= cut;
    CHECK(m.messages == whole);
    uint64_t data = complete_before(ledger, 'D', cut);
    CHECK(m.data_messages == data);
    bool inside = std::none_of(ledger.begin(), ledger.end(), [&](const ulog::LedgerEntry& e) { return e.end == cut; }) && cut > ulog::kHeaderSize;
    CHECK(has_code(m.problems, "ulog.file.truncated") == inside);
    if (inside) CHECK(m.recovery.ends_at <= cut);
    if (cut % 7 == 0 || cut == bytes.size()) {
      MemoryOutputSink out;
      ExtractResult repaired = ulog::repair_ulog(*o.source, out);
      REQUIRE(repaired.ok);
      Opened fixed = open_bytes(out.bytes);
      CHECK(fixed.model().data_messages == data);
      CHECK(fixed.inspector->check(nullptr).count(Severity::Error) == 0);
    }
  }
}
