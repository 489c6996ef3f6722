// Repair and extract of V1.2 and V1.1 bags. Bags from our writer (V1.2 without FILE_HEADER, V1.2
// never closed, V1.2 indexed, V1.1), cut at every record boundary and inside every record: the
// repaired V2.0 bag holds exactly the complete messages the writer's ledger lists, with their
// connections, read back by the codec and by Debian's python3-rosbag; for V1.2 it holds what
// python3-rosbag's reindex keeps. The real V1.2 recordings (rosbag/real/pbouffard__*) repaired
// whole and without their FILE_HEADER and index read as python3-rosbag reads the originals.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/json.h"
#include "core/sha1.h"
#include "inspector.h"
#include "rosbag/extract.h"
#include "rosbag/iterate.h"
#include "rosbag/reader.h"
#include "rosbag/writer.h"
#include "test_support.h"

using namespace logscope;
using rosbag::WrittenRecord;

namespace {

const char* kPython = "/usr/bin/python3";

struct Topic {
  std::string name, type, md5, definition, callerid;
  bool latching;
};

// Three topics: a nested type from one caller, a latched Int32 from another, a String with no
// callerid. A third of the /text messages are stamped before the message written just ahead of
// them (a recorder's queues do that), so the output's time order differs from the file order.
const std::vector<Topic>& topics() {
  static const std::vector<Topic> list{
      {"/pose", "demo_msgs/Pose", "0123456789abcdef0123456789abcdef",
       "Header header\nfloat64[3] position\n"
       "================================================================================\n"
       "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n",
       "/node_a", false},
      {"/count", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n", "/node_b", true},
      {"/text", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n", "", false},
  };
  return list;
}

std::string message_bytes(size_t topic, uint32_t i) {
  std::string m;
  auto put32 = [&](uint32_t v) { m.append(reinterpret_cast<const char*>(&v), 4); };
  if (topic == 0) {
    put32(i), put32(1700000000u + i), put32(0), put32(3), m += "map";
    for (int k = 0; k < 3; ++k) {
      double d = i + k * 0.25;
      m.append(reinterpret_cast<const char*>(&d), 8);
    }
  } else if (topic == 1) {
    put32(i * 7);
  } else {
    std::string text = "line " + std::to_string(i);
    put32(static_cast<uint32_t>(text.size())), m += text;
  }
  return m;
}

struct Fixture {
  std::string bytes;
  std::vector<WrittenRecord> ledger;
  std::vector<size_t> topic_of;  // writer connection id -> index in topics()
};

Fixture make_v1(int version, bool file_header, bool close) {
  Fixture f;
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.version = version;
  options.v12_file_header = file_header;
  options.ledger = &f.ledger;
  rosbag::BagWriter writer(sink, options);
  for (size_t t = 0; t < topics().size(); ++t) {
    const Topic& topic = topics()[t];
    writer.add_connection(topic.name, topic.type, topic.md5, topic.definition, topic.callerid, topic.latching);
    f.topic_of.push_back(t);
  }
  uint64_t base = 1700000000000000000ull;
  for (uint32_t i = 0; i < 24; ++i) {
    size_t t = i % 3;
    uint64_t ns = base + uint64_t(i) * 100000000ull;
    if (t == 2 && i % 2 == 0) ns -= 150000000ull;  // before the message written just ahead of it
    REQUIRE(writer.write(static_cast<uint32_t>(t), rosbag::Time::from_ns(ns), message_bytes(t, i)));
  }
  if (close) REQUIRE(writer.close());
  f.bytes = sink.bytes;
  return f;
}

struct Message {
  std::string topic;
  uint64_t time_ns;
  std::string data;
  bool operator==(const Message& o) const { return topic == o.topic && time_ns == o.time_ns && data == o.data; }
};

std::string sha1_hex(const std::string& data) { return Sha1::hex(Sha1::of(data.data(), data.size())); }

// The ledger's complete messages in a cut at `cut`, in time order (ties in file order).
std::vector<Message> expected_messages(const Fixture& f, uint64_t cut) {
  std::vector<Message> out;
  for (const WrittenRecord& r : f.ledger)
    if (r.kind == WrittenRecord::Message && r.end <= cut)
      out.push_back({topics()[f.topic_of[r.connection]].name, r.time.ns(), f.bytes.substr(r.data_offset, r.end - r.data_offset)});
  std::stable_sort(out.begin(), out.end(), [](const Message& a, const Message& b) { return a.time_ns < b.time_ns; });
  return out;
}

// Every record boundary, and inside every record: its first bytes, its middle, its last byte.
std::vector<uint64_t> cut_points(const Fixture& f) {
  std::set<uint64_t> cuts{rosbag::kV1VersionLineLength, f.bytes.size()};
  for (const WrittenRecord& r : f.ledger)
    for (uint64_t c : {r.offset, r.offset + 1, r.offset + 4, r.offset + 9, (r.offset + r.end) / 2, r.end - 1, r.end})
      if (c >= rosbag::kV1VersionLineLength && c <= f.bytes.size()) cuts.insert(c);
  return std::vector<uint64_t>(cuts.begin(), cuts.end());
}

struct ReadBack {
  rosbag::Bag bag;
  std::vector<Message> messages;
  std::vector<Problem> problems;
};

ReadBack read_back(const std::string& bytes) {
  ReadBack r;
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  rosbag::open_bag(source, rosbag::format_of(detect(source)), &r.bag);
  rosbag::for_each_message(source, r.bag, {}, [&](const rosbag::MessageView& m) {
    r.messages.push_back({m.connection ? m.connection->topic : "?", m.time.ns(), std::string(m.data)});
    return true;
  }, &r.problems);
  return r;
}

ExtractResult run_extract(const std::string& input, MemoryOutputSink& out, const rosbag::BagExtractOptions& options = {}) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  Detection d = detect(source);
  REQUIRE((rosbag::format_of(d) == rosbag::Format::RosbagV12 || rosbag::format_of(d) == rosbag::Format::RosbagV11));
  return rosbag::extract_bag(source, rosbag::format_of(d), out, options);
}

std::vector<std::string> problem_codes(const std::string& bytes) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(source, detect(source));
  REQUIRE(inspector);
  std::vector<std::string> codes;
  for (const Problem& p : inspector->check(nullptr).problems)
    if (p.severity != Severity::Info) codes.push_back(p.code);
  return codes;
}

void write_text(const std::string& path, const std::string& bytes) {
  test_support::write_file(path, std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

std::string run(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

bool have_rosbag() {
  bool present = std::system((std::string(kPython) + " -c 'import rosbag' 2>/dev/null").c_str()) == 0;
  if (!present) test_support::skip("python3-rosbag is not installed: the reference comparisons did not run");
  return present;
}

// The reference script on many files at once: one JSON object by path.
Json reference(const std::string& command, const std::vector<std::string>& paths) {
  std::string line = std::string(kPython) + " " + LOGSCOPE_SOURCE_DIR + "/tests/reference/rosbag_reference.py " + command;
  for (const std::string& p : paths) line += " '" + p + "'";
  std::string error;
  auto parsed = Json::parse(run(line + " 2>/dev/null"), &error);
  REQUIRE_MESSAGE(parsed, error);
  return *parsed;
}

// (topic, time, length, sha1) rows, sorted: python3-rosbag merges topics by time, ties its own way.
using Row = std::tuple<std::string, uint64_t, uint64_t, std::string>;
std::vector<Row> rows_of(const Json& messages) {
  std::vector<Row> rows;
  for (const Json& m : messages.elements()) {
    const auto& e = m.elements();
    rows.emplace_back(e[0].as_string(), e[1].as_uint(), e[2].as_uint(), e[3].as_string());
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}
std::vector<Row> rows_of(const std::vector<Message>& messages) {
  std::vector<Row> rows;
  for (const Message& m : messages) rows.emplace_back(m.topic, m.time_ns, m.data.size(), sha1_hex(m.data));
  std::sort(rows.begin(), rows.end());
  return rows;
}

struct Variant {
  const char* name;
  int version;
  bool file_header, close;
};
const Variant kVariants[] = {
    {"v12-no-file-header", 102, false, false},  // the old recorder's unindexed layout
    {"v12-never-closed", 102, true, false},      // a crashed recording: index_pos 0, no index
    {"v12-indexed", 102, true, true},
    {"v11", 101, false, false},
};

}  // namespace

TEST_CASE("repair V1.2 and V1.1 cut anywhere: exactly the ledger's complete messages, with their connections") {
  for (const Variant& v : kVariants) {
    CAPTURE(v.name);
    Fixture f = make_v1(v.version, v.file_header, v.close);
    std::vector<uint64_t> cuts = cut_points(f);
    CHECK(cuts.size() > 100);
    for (uint64_t cut : cuts) {
      CAPTURE(cut);
      std::string input = f.bytes.substr(0, cut);
      std::vector<Message> expected = expected_messages(f, cut);
      MemoryOutputSink out;
      ExtractResult result = run_extract(input, out);
      uint64_t first_record_end = 0;
      for (const WrittenRecord& r : f.ledger)
        if (!first_record_end) first_record_end = r.end;
      if (cut > rosbag::kV1VersionLineLength && cut < first_record_end) {
        // Not one complete record: nothing to recover.
        CHECK_FALSE(result.ok);
        CHECK(result.error.find("nothing to recover") != std::string::npos);
        continue;
      }
      REQUIRE_MESSAGE(result.ok, result.error);
      ReadBack back = read_back(out.bytes);
      CHECK(back.bag.version == 200);
      CHECK(back.bag.indexed);
      CHECK(back.bag.problems.empty());
      CHECK(back.problems.empty());
      CHECK(back.messages == expected);
      for (const rosbag::Connection& c : back.bag.connections) {
        CAPTURE(c.topic);
        auto t = std::find_if(topics().begin(), topics().end(), [&](const Topic& x) { return x.name == c.topic; });
        REQUIRE(t != topics().end());
        CHECK(c.type == t->type);
        CHECK(c.md5 == t->md5);
        // V1.1 stores no definitions, no callerid and no latching.
        CHECK(c.definition == (v.version == 102 ? t->definition : ""));
        CHECK(c.callerid == (v.version == 102 ? t->callerid : ""));
        CHECK(c.latching == (v.version == 102 && t->latching));
      }
      std::vector<std::string> codes = problem_codes(out.bytes);
      if (v.version == 102) CHECK(codes.empty());
      else
        for (const std::string& code : codes) CHECK(code == "rosbag.connection.no_definition");
      // What was lost is said, with the byte where reading stopped.
      bool complete = cut == f.bytes.size() || cut == rosbag::kV1VersionLineLength || std::any_of(f.ledger.begin(), f.ledger.end(), [&](const WrittenRecord& r) { return r.end == cut; });
      CHECK(result.dropped.empty() == complete);
    }
  }
}

TEST_CASE("repair V1.x: python3-rosbag reads every repaired cut, V1.2 holds what its reindex keeps") {
  if (!have_rosbag()) return;
  std::string dir = test_support::scratch_dir("repair_v1");
  for (const Variant& v : kVariants) {
    CAPTURE(v.name);
    Fixture f = make_v1(v.version, v.file_header, v.close);
    std::vector<std::string> inputs, outputs;
    std::map<std::string, std::vector<Row>> expected;  // by output path
    for (uint64_t cut : cut_points(f)) {
      std::string input = f.bytes.substr(0, cut);
      MemoryOutputSink out;
      if (!run_extract(input, out).ok) continue;  // nothing to recover (the first case's subject)
      std::string stem = dir + "/" + v.name + "-" + std::to_string(cut);
      write_text(stem + ".bag", input);
      write_text(stem + ".repaired.bag", out.bytes);
      inputs.push_back(stem + ".bag");
      outputs.push_back(stem + ".repaired.bag");
      expected[outputs.back()] = rows_of(expected_messages(f, cut));
    }
    REQUIRE(outputs.size() > 100);
    Json read = reference("raw", outputs);
    Json kept = v.version == 102 ? reference("reindex_v12", inputs) : Json();
    int compared_with_reindex = 0;
    for (size_t i = 0; i < outputs.size(); ++i) {
      CAPTURE(outputs[i]);
      const Json* ours = read.find(outputs[i]);
      REQUIRE(ours);
      INFO(ours->dump(0).substr(0, 300));
      REQUIRE(ours->find("messages"));
      CHECK(ours->find("version")->as_uint() == 200);
      std::vector<Row> rows = rows_of(*ours->find("messages"));
      CHECK(rows == expected[outputs[i]]);
      if (v.version != 102) continue;
      const Json* theirs = kept.find(inputs[i]);
      REQUIRE(theirs);
      if (!theirs->find("messages")) {
        // python3-rosbag cannot open this cut at all (inside the FILE_HEADER): it keeps nothing.
        CHECK(rows.empty());
        continue;
      }
      CHECK(rows == rows_of(*theirs->find("messages")));
      ++compared_with_reindex;
    }
    if (v.version == 102) CHECK(compared_with_reindex > 100);
  }
}

TEST_CASE("extract from V1.x: topics and time ranges select from the ledger, unknown topics are refused") {
  for (const Variant& v : kVariants) {
    CAPTURE(v.name);
    Fixture f = make_v1(v.version, v.file_header, v.close);
    std::vector<Message> all = expected_messages(f, f.bytes.size());
    struct Case {
      std::vector<std::string> topics;
      const char *from, *to;
    };
    for (const Case& c : {Case{{"/text"}, nullptr, nullptr}, Case{{"/pose", "/count"}, "+0.5", "+1.45"},
                          Case{{}, "1700000001.1", nullptr}, Case{{}, nullptr, "+0"}}) {
      rosbag::BagExtractOptions options;
      options.topics = c.topics;
      if (c.from) REQUIRE(parse_time_bound(c.from, &options.from, nullptr));
      if (c.to) REQUIRE(parse_time_bound(c.to, &options.to, nullptr));
      uint64_t start = UINT64_MAX;
      for (const Message& m : all) start = std::min(start, m.time_ns);
      uint64_t from = options.from.resolve(start, 0), to = options.to.resolve(start, UINT64_MAX);
      std::vector<Message> wanted;
      for (const Message& m : all)
        if ((c.topics.empty() || std::count(c.topics.begin(), c.topics.end(), m.topic)) && m.time_ns >= from && m.time_ns <= to)
          wanted.push_back(m);
      CHECK(!wanted.empty());
      MemoryOutputSink out;
      ExtractResult result = run_extract(f.bytes, out, options);
      REQUIRE_MESSAGE(result.ok, result.error);
      CHECK(read_back(out.bytes).messages == wanted);
    }
    MemoryOutputSink unused;
    ExtractResult missing = run_extract(f.bytes, unused, [] {
      rosbag::BagExtractOptions o;
      o.topics = {"/nope"};
      return o;
    }());
    CHECK_FALSE(missing.ok);
    CHECK(missing.error.find("/nope") != std::string::npos);
    CHECK(missing.error.find("/pose") != std::string::npos);
  }
}

TEST_CASE("repair V1.2: a message order beyond the reorder window is kept and said, the input is read in few reads") {
  Fixture f = make_v1(102, false, false);
  std::vector<Message> all = expected_messages(f, f.bytes.size());
  rosbag::BagExtractOptions options;
  options.reorder_window = 0;  // every message goes out as it is read: file order
  MemoryOutputSink out;
  ExtractResult result = run_extract(f.bytes, out, options);
  REQUIRE(result.ok);
  bool said = false;
  for (const std::string& line : result.kept) said |= line.find("out of time order") != std::string::npos;
  CHECK(said);
  ReadBack back = read_back(out.bytes);
  CHECK(back.messages == all);  // read back in time order all the same

  // A source that is not in memory: the records come through a sequential pass in large reads,
  // not one read per record.
  struct FileLike : ByteSource {
    explicit FileLike(const std::string& b) : bytes(b) {}
    uint64_t size() const override { return bytes.size(); }
    size_t read(uint64_t offset, void* destination, size_t length) override {
      if (offset >= bytes.size()) return 0;
      size_t n = std::min<uint64_t>(length, bytes.size() - offset);
      std::memcpy(destination, bytes.data() + offset, n);
      return n;
    }
    const std::string& bytes;
  };
  std::string big;
  {
    rosbag::MemorySink sink;
    rosbag::WriterOptions w;
    w.version = 102;
    w.v12_file_header = false;
    rosbag::BagWriter writer(sink, w);
    writer.add_connection("/text", "std_msgs/String", topics()[2].md5, topics()[2].definition);
    for (uint32_t i = 0; i < 20000; ++i) REQUIRE(writer.write(0, rosbag::Time::from_ns(1700000000000000000ull + i * 1000000ull), message_bytes(2, i)));
    big = sink.bytes;
  }
  FileLike file(big);
  CountingByteSource counting(file);
  MemoryOutputSink big_out;
  REQUIRE(rosbag::extract_bag(counting, rosbag::Format::RosbagV12, big_out, {}).ok);
  CHECK(read_back(big_out.bytes).messages.size() == 20000);
  CHECK(counting.read_calls() < 20);
  CHECK(counting.bytes_read() < big.size() + 64 * 1024);
}

TEST_CASE("repair V1.2 made by hand: a connection per callerid and latching, definitions by type, other records said") {
  using namespace rosbag;
  std::string bag = "#ROSRECORD V1.2\n";
  auto definition = [&](const std::string& topic, const Topic& t) {
    std::string h;
    append_field(h, "op", std::string(1, char(kOpMessageDefinition)));
    append_field(h, "topic", topic);
    append_field(h, "md5", t.md5);
    append_field(h, "type", t.type);
    append_field(h, "def", t.definition);
    append_record(bag, h, "");
  };
  auto message = [&](const std::string& topic, const Topic& t, uint32_t sec, const std::string& callerid, bool latching) {
    std::string h;
    append_field(h, "op", std::string(1, char(kOpMessageData)));
    append_field(h, "topic", topic);
    append_field(h, "md5", t.md5);
    append_field(h, "type", t.type);
    append_field_u32(h, "sec", sec);
    append_field_u32(h, "nsec", 0);
    if (!callerid.empty()) append_field(h, "callerid", callerid);
    if (latching) append_field(h, "latching", "1");
    append_record(bag, h, message_bytes(2, sec));
  };
  const Topic& text = topics()[2];
  definition("/chatter", text);
  message("/chatter", text, 10, "/talker_1", false);
  message("/chatter", text, 11, "/talker_2", false);
  message("/chatter", text, 12, "/talker_1", false);
  message("/echo", text, 13, "/talker_3", true);  // no MSG_DEF of its own: the String one is used
  std::string other;
  append_field(other, "op", std::string(1, char(kOpChunkInfo)));
  size_t other_at = bag.size();
  append_record(bag, other, "xx");
  message("/chatter", text, 14, "/talker_2", false);

  MemoryOutputSink out;
  ExtractResult result = run_extract(bag, out);
  REQUIRE_MESSAGE(result.ok, result.error);
  ReadBack back = read_back(out.bytes);
  CHECK(back.messages.size() == 5);
  std::map<std::string, int> per_caller;
  for (const Connection& c : back.bag.connections) {
    CHECK(c.definition == text.definition);
    ++per_caller[c.topic + " " + c.callerid + (c.latching ? " latched" : "")];
  }
  CHECK(per_caller == std::map<std::string, int>{{"/chatter /talker_1", 1}, {"/chatter /talker_2", 1}, {"/echo /talker_3 latched", 1}});
  bool said = false;
  for (const std::string& line : result.dropped) said |= line.find("(byte " + std::to_string(other_at) + ")") != std::string::npos;
  CHECK_MESSAGE(said, "the record of another kind is named with its offset");
  CHECK(problem_codes(out.bytes).empty());
}

TEST_CASE("repair the real V1.2 recordings, whole and without FILE_HEADER and index: python3-rosbag reads the same messages") {
  if (!test_support::have_samples() || !have_rosbag()) return;
  std::string dir = test_support::scratch_dir("repair_v1_real");
  std::string listing = run("ls '" + test_support::sample("rosbag/real") + "'");
  std::vector<std::string> inputs, outputs;
  for (size_t begin = 0, end; (end = listing.find('\n', begin)) != std::string::npos; begin = end + 1) {
    std::string name = listing.substr(begin, end - begin);
    if (name.rfind("pbouffard__", 0) != 0 || name.size() < 4 || name.substr(name.size() - 4) != ".bag") continue;
    std::string path = test_support::sample("rosbag/real/" + name);
    std::string bytes = test_support::read_text(path);
    if (bytes.rfind("#ROSRECORD V1.2", 0) != 0) continue;
    // The same recording as a recorder without an index writes it: records straight after the
    // version line, up to where the index began.
    MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    rosbag::Bag bag;
    rosbag::open_bag(source, rosbag::Format::RosbagV12, &bag);
    REQUIRE(bag.indexed);
    std::string headerless = bytes.substr(0, rosbag::kV1VersionLineLength) +
                             bytes.substr(bag.first_record_offset, bag.index_pos - bag.first_record_offset);
    write_text(dir + "/" + name + ".no-index.bag", headerless);
    for (const std::string& in : {path, dir + "/" + name + ".no-index.bag"}) {
      std::string out = dir + "/" + in.substr(in.rfind('/') + 1) + ".repaired.bag";
      std::remove(out.c_str());
      int status = -1;
      std::string said = test_support::run_cli("repair '" + in + "' '" + out + "'", &status);
      INFO(said);
      CHECK(status == 0);
      inputs.push_back(in);
      outputs.push_back(out);
    }
  }
  CHECK(inputs.size() == 6);  // three V1.2 recordings, each whole and without index
  std::vector<std::string> all = inputs;
  all.insert(all.end(), outputs.begin(), outputs.end());
  Json read = reference("raw", all);
  for (size_t i = 0; i < inputs.size(); ++i) {
    CAPTURE(inputs[i]);
    const Json* in = read.find(inputs[i]);
    const Json* out = read.find(outputs[i]);
    REQUIRE(in);
    REQUIRE(out);
    REQUIRE(in->find("messages"));
    REQUIRE(out->find("messages"));
    CHECK(in->find("messages")->elements().size() > 0);
    CHECK(rows_of(*out->find("messages")) == rows_of(*in->find("messages")));
    // The latched /rosout message of the GPS demo keeps its callerid and latching.
    if (inputs[i].find("gpsd_viewer") != std::string::npos) {
      const Json* rosout = out->find("connections")->find("/rosout");
      REQUIRE(rosout);
      CHECK(rosout->elements()[0].find("callerid")->as_string() == "/gpsd_client");
      CHECK(rosout->elements()[0].find("latching")->as_string() == "1");
    }
  }
}

TEST_CASE("repair V1.x of damaged bytes: a valid V2.0 bag of what is complete, or a reason") {
  uint64_t seed = 12345;
  auto next = [&] { return seed = seed * 6364136223846793005ull + 1442695040888963407ull, seed >> 33; };
  for (const Variant& v : kVariants) {
    CAPTURE(v.name);
    Fixture f = make_v1(v.version, v.file_header, v.close);
    for (int round = 0; round < 200; ++round) {
      std::string input = f.bytes;
      for (int k = 0, n = 1 + int(next() % 4); k < n; ++k) {
        size_t at = rosbag::kV1VersionLineLength + next() % (input.size() - rosbag::kV1VersionLineLength);
        input[at] = static_cast<char>(next() % 3 == 0 ? 0xff : next());
      }
      CAPTURE(round);
      MemoryOutputSink out;
      ExtractResult result = run_extract(input, out);
      if (!result.ok) {
        CHECK(!result.error.empty());
        continue;
      }
      ReadBack back = read_back(out.bytes);
      CHECK(back.bag.indexed);
      CHECK(back.bag.problems.empty());
      CHECK(back.problems.empty());
      CHECK(back.messages.size() <= 24);
    }
  }
}
