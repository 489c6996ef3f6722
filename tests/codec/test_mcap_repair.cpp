// MCAP repair and extract (codec/mcap/extract.h) on writer-made files, damaged as
// test_mcap_damage.cpp damages them: cut at every record boundary and inside records, a flipped
// byte in each chunk, a chunk length that lies, a tail of zeros, "\r\n" -> "\n". The output must
// check clean (no error, no warning) and keep exactly the messages the writer's ledger lists as
// complete, byte for byte. tests/node/mcap-repair.test.mjs reads the outputs with @mcap/core.
#include <map>
#include <set>
#include <string>

#include "core/sha1.h"
#include "mcap/demo.h"
#include "mcap/extract.h"
#include "mcap/records.h"
#include "test_mcap_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::mcap;
using mcap_test::small_file;

namespace {

struct Message {
  uint64_t channel = 0, sequence = 0;
  std::string log_time, publish_time, sha1;
  bool operator<(const Message& o) const { return std::tie(sequence, channel, log_time) < std::tie(o.sequence, o.channel, o.log_time); }
  bool operator==(const Message& o) const {
    return channel == o.channel && sequence == o.sequence && log_time == o.log_time && publish_time == o.publish_time && sha1 == o.sha1;
  }
};

// Every message as the messages query lists it, with its payload SHA1.
std::vector<Message> messages_of(const std::string& bytes) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(source);
  std::vector<Message> out;
  for (uint64_t first = 0;;) {
    Json args = Json::object();
    args["first"] = first;
    args["count"] = 10000;
    args["sha1"] = true;
    Json page = inspector->query("messages", args, nullptr);
    REQUIRE(page.find("messages"));
    for (const Json& m : page.find("messages")->elements())
      out.push_back(Message{m.find("channel")->as_uint(), m.find("sequence")->as_uint(), m.find("log_time")->as_string(),
                            m.find("publish_time")->as_string(), m.find("sha1")->as_string()});
    first += page.find("count")->as_uint();
    if (!page.find("more")->as_bool() || page.find("count")->as_uint() == 0) break;
  }
  return out;
}

// The full check of `bytes`: errors and warnings, each as "code @offset".
std::vector<std::string> check_problems(const std::string& bytes) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(source);
  Report report = inspector->check(nullptr);
  std::vector<std::string> out;
  for (const Problem& p : report.problems)
    if (p.severity != Severity::Info) out.push_back(p.code + " @" + std::to_string(p.offset) + ": " + p.message);
  return out;
}

ExtractResult run(const std::string& bytes, MemoryOutputSink& out, McapExtractOptions options) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return extract_mcap(source, out, options);
}

ExtractResult repair(const std::string& bytes, MemoryOutputSink& out) {
  McapExtractOptions options;
  options.repair = true;
  return run(bytes, out, options);
}

uint64_t messages_before(const mcap_test::Written& w, uint64_t cut) {
  uint64_t n = 0;
  for (const LedgerEntry& e : w.ledger)
    if (e.offset + e.length <= cut) n += e.messages;
  return n;
}

uint64_t header_end(const mcap_test::Written& w) {
  for (const LedgerEntry& e : w.ledger)
    if (e.op == kOpHeader) return e.offset + e.length;
  return 0;
}

// The repaired file checks clean and holds exactly the original's messages `kept` (by sequence:
// the writer numbers them in file order).
void check_repaired(const std::string& repaired, const std::vector<Message>& original, const std::set<uint64_t>& kept) {
  std::vector<std::string> problems = check_problems(repaired);
  for (const std::string& p : problems) FAIL_CHECK(p);
  std::vector<Message> got = messages_of(repaired);
  std::sort(got.begin(), got.end());
  std::vector<Message> want;
  for (const Message& m : original)
    if (kept.count(m.sequence)) want.push_back(m);
  std::sort(want.begin(), want.end());
  CHECK(got.size() == want.size());
  CHECK(got == want);
}

std::set<uint64_t> first_n(uint64_t n) {
  std::set<uint64_t> s;
  for (uint64_t i = 0; i < n; ++i) s.insert(i);
  return s;
}

void check_cut_repairs(const mcap_test::Written& w) {
  std::vector<Message> original = messages_of(w.bytes);
  REQUIRE(original.size() == w.messages);
  std::vector<uint64_t> cuts;
  for (const LedgerEntry& e : w.ledger)
    for (uint64_t d : {uint64_t{0}, uint64_t{1}, uint64_t{9}, e.length / 2, e.length - 1})
      if (d < e.length) cuts.push_back(e.offset + d);
  cuts.push_back(w.bytes.size() - 3);
  uint64_t repaired = 0;
  for (uint64_t cut : cuts) {
    CAPTURE(cut);
    std::string bytes = w.bytes.substr(0, static_cast<size_t>(cut));
    MemoryOutputSink out;
    ExtractResult r = repair(bytes, out);
    if (cut < header_end(w)) {
      CHECK_FALSE(r.ok);  // no Header: nothing to recover
      continue;
    }
    REQUIRE(r.ok);
    CHECK(r.bytes_written == out.bytes.size());
    check_repaired(out.bytes, original, first_n(messages_before(w, cut)));
    ++repaired;
  }
  CHECK(repaired > 20);
}

}  // namespace

TEST_CASE("mcap repair: a file cut at or inside any record keeps exactly the complete messages, and checks clean") {
  for (const mcap_test::Written& w : mcap_test::cut_test_files()) check_cut_repairs(w);
}

TEST_CASE("mcap repair: a flipped byte in any chunk drops that chunk only, past it everything is kept") {
  for (const char* compression : {"", "lz4", "zstd"}) {
    CAPTURE(compression);
    WriterOptions o;
    o.compression = compression;
    o.chunk_size = 2048;
    mcap_test::Written w = small_file(o, 200);
    std::vector<Message> original = messages_of(w.bytes);
    uint64_t before = 0, tested = 0;
    for (const LedgerEntry& e : w.ledger) {
      if (e.op != kOpChunk) continue;
      CAPTURE(e.offset);
      std::string bytes = w.bytes;
      bytes[static_cast<size_t>(e.offset + e.length - 7)] ^= 0x10;
      MemoryOutputSink out;
      ExtractResult r = repair(bytes, out);
      REQUIRE(r.ok);
      REQUIRE_FALSE(r.dropped.empty());
      CHECK(r.dropped.front().find("byte " + std::to_string(e.offset)) != std::string::npos);
      std::set<uint64_t> kept;
      for (uint64_t i = 0; i < w.messages; ++i)
        if (i < before || i >= before + e.messages) kept.insert(i);
      check_repaired(out.bytes, original, kept);
      before += e.messages;
      ++tested;
    }
    CHECK(tested > 3);
  }
}

TEST_CASE("mcap repair: past a chunk whose length lies, past a zero tail, and after \\r\\n -> \\n") {
  WriterOptions o;
  o.chunk_size = 2048;
  mcap_test::Written w = small_file(o, 200);
  std::vector<Message> original = messages_of(w.bytes);
  uint64_t before = 0;
  for (const LedgerEntry& e : w.ledger) {
    if (e.op != kOpChunk) continue;
    CAPTURE(e.offset);
    std::string bytes = w.bytes;
    bytes[static_cast<size_t>(e.offset + 6)] = '\x7f';
    MemoryOutputSink out;
    REQUIRE(repair(bytes, out).ok);
    std::set<uint64_t> kept;
    for (uint64_t i = 0; i < w.messages; ++i)
      if (i < before || i >= before + e.messages) kept.insert(i);
    check_repaired(out.bytes, original, kept);
    before += e.messages;
  }
  // Never finished: the data section, then zeros.
  uint64_t data_end = 0;
  for (const LedgerEntry& e : w.ledger)
    if (e.op == kOpDataEnd) data_end = e.offset;
  MemoryOutputSink zeros;
  REQUIRE(repair(w.bytes.substr(0, static_cast<size_t>(data_end)) + std::string(4096, '\0'), zeros).ok);
  check_repaired(zeros.bytes, original, first_n(w.messages));
  // A text-mode transfer: every "\r\n" lost its "\r". What still frames is kept, all of it intact.
  for (const char* compression : {"", "zstd"}) {
    WriterOptions t;
    t.compression = compression;
    t.chunk_size = 1024;
    mcap_test::Written crlf = small_file(t, 150);
    std::vector<Message> whole = messages_of(crlf.bytes);
    std::string bytes;
    for (size_t i = 0; i < crlf.bytes.size(); ++i)
      if (!(crlf.bytes[i] == '\r' && i + 1 < crlf.bytes.size() && crlf.bytes[i + 1] == '\n')) bytes += crlf.bytes[i];
    MemoryOutputSink out;
    ExtractResult r = repair(bytes, out);
    REQUIRE(r.ok);
    CHECK(check_problems(out.bytes).empty());
    std::vector<Message> got = messages_of(out.bytes);
    CHECK(got.size() <= whole.size());
    for (const Message& m : got) CHECK(std::find(whole.begin(), whole.end(), m) != whole.end());
  }
}

TEST_CASE("mcap repair: an intact file is rewritten with the same messages, attachments and metadata") {
  for (bool chunked : {true, false}) {
    WriterOptions o;
    o.chunked = chunked;
    o.compression = "lz4";
    mcap_test::Written w = small_file(o, 300);
    MemoryOutputSink out;
    ExtractResult r = repair(w.bytes, out);
    REQUIRE(r.ok);
    CHECK(r.dropped.empty());
    check_repaired(out.bytes, messages_of(w.bytes), first_n(w.messages));
    FileModel m = mcap_test::open_model(out.bytes);
    CHECK(m.source == SummarySource::Index);
    CHECK(m.attachments.size() == 1);
    CHECK(m.metadata.size() == 1);
    CHECK(!m.chunks.empty());  // always chunked, so indexed readers find the messages
    CHECK(m.chunks.front().compression == (chunked ? "lz4" : "zstd"));  // the input's, or zstd for an unchunked one
  }
}

TEST_CASE("mcap extract: channels by topic or id, a time range, another compression") {
  mcap_test::Written w = small_file(WriterOptions(), 300);
  std::vector<Message> original = messages_of(w.bytes);
  // Channels: i % 6 -> {0, 1, 0, 2, 0, 1}; /imu is channel 0, /log channel 2. Times: t0 + i * 10 ms.
  McapExtractOptions options;
  options.channels = {"/imu", "2"};
  std::string error;
  REQUIRE(parse_time_bound("+1", &options.from, &error));
  REQUIRE(parse_time_bound("+2", &options.to, &error));
  options.compression = "none";
  MemoryOutputSink out;
  ExtractResult r = run(w.bytes, out, options);
  REQUIRE(r.ok);
  CHECK(check_problems(out.bytes).empty());
  std::set<uint64_t> want;
  for (uint64_t i = 100; i <= 200; ++i)
    if (i % 6 == 0 || i % 6 == 2 || i % 6 == 4 || i % 6 == 3) want.insert(i);
  check_repaired(out.bytes, original, want);
  FileModel m = mcap_test::open_model(out.bytes);
  CHECK(m.channels.size() == 2);
  CHECK(m.schemas.size() == 1);  // /log has no schema
  CHECK(m.chunks.front().compression.empty());
  CHECK(m.attachments.size() == 1);  // its log_time (message 150's) is in the range
  CHECK(m.metadata.size() == 1);

  McapExtractOptions unknown;
  unknown.channels = {"/nope"};
  MemoryOutputSink unused;
  ExtractResult refused = run(w.bytes, unused, unknown);
  CHECK_FALSE(refused.ok);
  CHECK(refused.error.find("/nope") != std::string::npos);
  CHECK(unused.bytes.empty());
}

TEST_CASE("mcap extract: messages out of log_time order go out in order") {
  WriterOptions o;
  o.chunk_size = 512;
  Writer w(o);
  uint16_t c = w.add_channel(0, "/a", "json");
  uint16_t d = w.add_channel(0, "/b", "json");
  const uint64_t t0 = 1700000000000000000ull;
  for (uint32_t i = 0; i < 100; ++i) {
    w.write_message(c, i, t0 + i * 1000, t0, "{}");
    w.write_message(d, i, t0 + i * 1000 - 5000, t0, "{}");  // five steps behind
  }
  std::string bytes = w.finish();
  MemoryOutputSink out;
  McapExtractOptions options;
  REQUIRE(run(bytes, out, options).ok);
  CHECK(check_problems(out.bytes).empty());
  std::vector<Message> got = messages_of(out.bytes);
  REQUIRE(got.size() == 200);
  for (size_t i = 1; i < got.size(); ++i) CHECK(std::stoull(got[i - 1].log_time) <= std::stoull(got[i].log_time));
}

TEST_CASE("mcap repair: a cut inside a compressed chunk is not resynchronised into its stored literals") {
  // make-demo-mcap's chunks of 32 KiB hold JSON messages a zstd or lz4 stream keeps partly as
  // literals: a resynchronisation inside them would find a Message with half its payload.
  for (const char* compression : {"zstd", "lz4"}) {
    CAPTURE(compression);
    DemoOptions demo;
    demo.compression = compression;
    demo.chunk_size = 32u << 10;
    MemoryOutputSink file;
    std::string error;
    REQUIRE(write_demo(file, 400u << 10, demo, &error));
    std::vector<Message> original = messages_of(file.bytes);
    for (int step = 10; step < 100; step += 3) {
      uint64_t cut = file.bytes.size() * step / 100;
      CAPTURE(cut);
      std::string bytes = file.bytes.substr(0, static_cast<size_t>(cut));
      MemoryOutputSink out;
      REQUIRE(repair(bytes, out).ok);
      CHECK(check_problems(out.bytes).empty());
      for (const Message& m : messages_of(out.bytes)) CHECK(std::find(original.begin(), original.end(), m) != original.end());
      // The scan of the cut file counts no message the repair did not keep.
      FileModel scanned = mcap_test::open_model(bytes, true);
      CHECK(scanned.message_count == messages_of(out.bytes).size());
    }
  }
}
