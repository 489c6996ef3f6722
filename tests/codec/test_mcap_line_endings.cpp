// A line-ending conversion undone (codec/mcap/line_endings.h): files made by our writer (zstd,
// lz4 and uncompressed chunks, CRCs present and zero, unchunked) with binary payloads full of
// "\r\n" and "\n", converted by deleting every "\r" that precedes a "\n" (as git autocrlf does).
// Where a CRC or a frame checksum decides, the restored file is the original byte for byte and
// repair writes what it writes for the original; where nothing can tell the placements apart,
// check says so and repair keeps every message outside the ambiguous record.
#include <map>
#include <set>
#include <string>

#include "core/sha1.h"
#include "mcap/extract.h"
#include "mcap/line_endings.h"
#include "mcap/records.h"
#include "test_mcap_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::mcap;

namespace {

// What a text-mode transfer makes of `bytes`.
std::string convert(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i)
    if (!(bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n')) out += bytes[i];
  return out;
}

// Pairs "\r\n" in [from, to) of the original: the bytes a record there loses.
uint64_t pairs_in(const std::string& bytes, uint64_t from, uint64_t to) {
  uint64_t n = 0;
  for (uint64_t i = from; i < to && i + 1 < bytes.size(); ++i) n += bytes[i] == '\r' && bytes[i + 1] == '\n';
  return n;
}

struct Made {
  std::string bytes;
  std::vector<LedgerEntry> ledger;
  std::vector<std::string> payloads;  // by sequence
};

// Messages on two channels with binary payloads: random bytes (a lone "\n" in 1 of 256), and a
// "\r\n" somewhere in every fifth one. `text`: JSON lines ending in "\r\n" instead, which zstd
// compresses with Huffman-coded literals (random bytes are stored as they are).
Made binary_file(WriterOptions options, int messages, uint64_t seed, bool text = false) {
  Writer w(options);
  uint16_t s = w.add_schema("demo/Blob", "ros2msg", "uint8[] data\n");
  uint16_t c0 = w.add_channel(s, "/blob", "cdr");
  uint16_t c1 = w.add_channel(0, "/text", "json");
  Made out;
  uint64_t state = seed;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int i = 0; i < messages; ++i) {
    std::string data;
    if (text) {
      // One call per statement: the order of two calls in one expression is unspecified, and g++
      // and clang (the sanitizer build) took them in opposite orders, making different files.
      uint32_t line = next() % 1000;
      uint32_t x = next() % 100000;
      data = "{\"i\":" + std::to_string(i) + ",\"x\":" + std::to_string(x) + ",\"note\":\"line " + std::to_string(line) + "\"}\r\n";
    } else {
      size_t size = 40 + next() % 400;
      for (size_t j = 0; j < size; ++j) data += static_cast<char>(next() & 0xFF);
      if (i % 5 == 0) data.insert(next() % data.size(), "\r\n");
    }
    uint64_t t = 1700000000000000000ull + static_cast<uint64_t>(i) * 1000003ull;
    w.write_message(i % 2 ? c1 : c0, static_cast<uint32_t>(i), t, t, data);
    out.payloads.push_back(data);
  }
  out.bytes = w.finish();
  out.ledger = w.ledger();
  return out;
}

LineEndingRestoration restore(const std::string& damaged, const LineEndingLimits& limits = LineEndingLimits()) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(damaged.data()), damaged.size());
  return restore_line_endings(source, limits);
}

std::string restored_bytes(const std::string& damaged, const LineEndingRestoration& r) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(damaged.data()), damaged.size());
  RestoredSource restored(source, r.inserts);
  std::string out(static_cast<size_t>(restored.size()), '\0');
  REQUIRE(restored.read(0, out.data(), out.size()) == out.size());
  return out;
}

ExtractResult repair(const std::string& bytes, MemoryOutputSink& out) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  McapExtractOptions options;
  options.repair = true;
  return extract_mcap(source, out, options);
}

Report check(const std::string& bytes) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return open_inspector(source)->check(nullptr);
}

// (sequence -> payload SHA1) of every message the messages query lists.
std::map<uint64_t, std::string> messages_of(const std::string& bytes) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(source);
  std::map<uint64_t, std::string> out;
  Json args = Json::object();
  args["first"] = 0;
  args["count"] = 100000;
  args["sha1"] = true;
  Json page = inspector->query("messages", args, nullptr);
  REQUIRE(page.find("messages"));
  for (const Json& m : page.find("messages")->elements()) out[m.find("sequence")->as_uint()] = m.find("sha1")->as_string();
  return out;
}

std::string sha1_hex(const std::string& s) { return Sha1::hex(Sha1::of(s.data(), s.size())); }

// Errors and warnings of the check of `bytes`.
std::vector<std::string> problems_of(const std::string& bytes) {
  std::vector<std::string> out;
  for (const Problem& p : check(bytes).problems)
    if (p.severity != Severity::Info) out.push_back(p.code + " @" + std::to_string(p.offset) + ": " + p.message);
  return out;
}

const DamagedRecord* record_at(const LineEndingRestoration& r, uint64_t restored_offset) {
  for (const DamagedRecord& d : r.records)
    if (d.restored_offset == restored_offset) return &d;
  return nullptr;
}

}  // namespace

TEST_CASE("mcap line endings: with CRCs, every record is restored and the file is the original byte for byte") {
  for (const char* compression : {"zstd", "lz4", ""}) {
    for (uint64_t chunk : {uint64_t{1024}, uint64_t{2048}}) {
      CAPTURE(std::string(compression));
      CAPTURE(chunk);
      WriterOptions o;
      o.compression = compression;
      o.chunk_size = chunk;
      Made made = binary_file(o, 150, 7 + chunk);
      std::string damaged = convert(made.bytes);
      REQUIRE(damaged.size() < made.bytes.size() - 2);
      LineEndingRestoration r = restore(damaged);
      CHECK(r.complete);
      CHECK(r.ambiguous == 0);
      CHECK(r.unresolved == 0);
      CHECK(r.inserts.size() == made.bytes.size() - damaged.size());
      CHECK(restored_bytes(damaged, r) == made.bytes);
      // Each record that lost bytes is named with its count, and at least one chunk lost several.
      uint64_t most = 0;
      for (const LedgerEntry& e : made.ledger) {
        uint64_t lost = pairs_in(made.bytes, e.offset, e.offset + e.length);
        if (!lost) continue;
        const DamagedRecord* d = record_at(r, e.offset);
        REQUIRE(d);
        CHECK(d->bytes_lost == lost);
        CHECK(d->op == e.op);
        CHECK(d->offset == e.offset - pairs_in(made.bytes, 0, e.offset));
        if (e.op == kOpChunk) most = std::max(most, lost);
      }
      CHECK(most >= 2);
      // Repair writes what it writes for the original.
      MemoryOutputSink from_damaged, from_original;
      REQUIRE(repair(damaged, from_damaged).ok);
      REQUIRE(repair(made.bytes, from_original).ok);
      CHECK(from_damaged.bytes == from_original.bytes);
      CHECK(problems_of(from_damaged.bytes).empty());
    }
  }
}

TEST_CASE("mcap line endings: check names each record that lost bytes, with its offsets and count") {
  WriterOptions o;
  o.chunk_size = 2048;
  Made made = binary_file(o, 80, 99);
  std::string damaged = convert(made.bytes);
  Report report = check(damaged);
  std::map<uint64_t, std::string> lost;  // damaged offset -> message
  for (const Problem& p : report.problems)
    if (p.code == "mcap.crlf.bytes_lost") lost[p.offset] = p.message;
  CHECK(std::any_of(report.problems.begin(), report.problems.end(), [](const Problem& p) { return p.code == "mcap.file.line_endings"; }));
  uint64_t expected = 0;
  for (const LedgerEntry& e : made.ledger) {
    uint64_t n = pairs_in(made.bytes, e.offset, e.offset + e.length);
    if (!n) continue;
    ++expected;
    uint64_t at = e.offset - pairs_in(made.bytes, 0, e.offset);
    CAPTURE(at);
    REQUIRE(lost.count(at));
    CHECK(lost[at].find("lost " + std::to_string(n) + (n == 1 ? " byte (" : " bytes (")) != std::string::npos);
    CHECK(lost[at].find("(byte " + std::to_string(e.offset) + " before the conversion)") != std::string::npos);
    CHECK(lost[at].find("repair puts them back") != std::string::npos);
  }
  CHECK(expected > 2);
  CHECK(lost.size() == expected);
}

TEST_CASE("mcap line endings: one zstd chunk with every message, bytes lost in it") {
  WriterOptions o;
  o.chunk_size = 16u << 20;
  Made made = binary_file(o, 6000, 5, true);  // the chunk loses 2 bytes (3 or more often exceed the search's cap: docs/mcap.md)
  std::string damaged = convert(made.bytes);
  LineEndingRestoration r = restore(damaged);
  uint64_t chunks = 0;
  for (const LedgerEntry& e : made.ledger)
    if (e.op == kOpChunk) {
      ++chunks;
      const DamagedRecord* d = record_at(r, e.offset);
      REQUIRE(d);
      CHECK(d->bytes_lost >= 2);
      CHECK(d->outcome == RestoreOutcome::Restored);
      CHECK(d->how == "its CRC");
    }
  CHECK(chunks == 1);
  CHECK(restored_bytes(damaged, r) == made.bytes);
  MemoryOutputSink out;
  REQUIRE(repair(damaged, out).ok);
  std::map<uint64_t, std::string> got = messages_of(out.bytes);
  REQUIRE(got.size() == made.payloads.size());
  for (size_t i = 0; i < made.payloads.size(); ++i) CHECK(got[i] == sha1_hex(made.payloads[i]));
}

TEST_CASE("mcap line endings: without CRCs, what a frame checksum or the structure settles is restored, the rest kept out") {
  for (const char* compression : {"zstd", "lz4", ""}) {
    CAPTURE(std::string(compression));
    WriterOptions o;
    o.compression = compression;
    o.chunk_size = 2048;
    o.chunk_crc = false;
    o.data_crc = false;
    Made made = binary_file(o, 120, 11);
    std::string damaged = convert(made.bytes);
    LineEndingRestoration r = restore(damaged);
    REQUIRE(r.complete);
    std::string restored = restored_bytes(damaged, r);
    REQUIRE(restored.size() == made.bytes.size());
    // Messages by chunk (the writer writes them in sequence order).
    std::set<uint64_t> lost_messages;
    uint64_t before = 0, ambiguous_chunks = 0;
    for (const LedgerEntry& e : made.ledger) {
      if (e.op != kOpChunk) continue;
      const DamagedRecord* d = record_at(r, e.offset);
      bool same = restored.compare(e.offset, e.length, made.bytes, e.offset, e.length) == 0;
      if (!d || d->outcome == RestoreOutcome::Restored) {
        CHECK(same);  // restored means the only placement that fits: the original's
      } else {
        ++ambiguous_chunks;
        for (uint64_t i = before; i < before + e.messages; ++i) lost_messages.insert(i);
      }
      before += e.messages;
    }
    if (std::string(compression) == "lz4") CHECK(ambiguous_chunks == 0);  // lz4 frames carry a content checksum
    MemoryOutputSink out;
    ExtractResult result = repair(damaged, out);
    REQUIRE(result.ok);
    CHECK(problems_of(out.bytes).empty());
    std::map<uint64_t, std::string> got = messages_of(out.bytes);
    CHECK(got.size() == made.payloads.size() - lost_messages.size());
    for (const auto& [sequence, sha1] : got) {
      CHECK(!lost_messages.count(sequence));
      CHECK(sha1 == sha1_hex(made.payloads[sequence]));
    }
    MESSAGE(std::string(compression) << ": " << ambiguous_chunks << " ambiguous chunks, " << r.restored << " records restored");
  }
}

TEST_CASE("mcap line endings: an unchunked message whose payload has \"\\r\\n\" and \"\\n\" is ambiguous and left out") {
  WriterOptions o;
  o.chunked = false;
  Writer w(o);
  uint16_t c = w.add_channel(0, "/text", "json");
  for (uint32_t i = 0; i < 10; ++i) w.write_message(c, i, 1000 + i, 1000 + i, i == 4 ? "one\ntwo\r\nthree\n" : "plain " + std::to_string(i));
  std::string original = w.finish();
  std::string damaged = convert(original);
  LineEndingRestoration r = restore(damaged);
  REQUIRE(r.complete);
  REQUIRE(r.ambiguous == 1);
  Report report = check(damaged);
  CHECK(std::any_of(report.problems.begin(), report.problems.end(), [](const Problem& p) {
    return p.code == "mcap.crlf.ambiguous" && p.message.find("Message") != std::string::npos && p.message.find("no checksum tells them apart") != std::string::npos;
  }));
  MemoryOutputSink out;
  ExtractResult result = repair(damaged, out);
  REQUIRE(result.ok);
  CHECK(problems_of(out.bytes).empty());
  std::map<uint64_t, std::string> got = messages_of(out.bytes);
  CHECK(got.size() == 9);
  CHECK(!got.count(4));
  CHECK(std::any_of(result.dropped.begin(), result.dropped.end(), [](const std::string& s) { return s.find("line-ending conversion") != std::string::npos; }));
}

TEST_CASE("mcap line endings: a search over its cap leaves the chunk unresolved and keeps the rest") {
  WriterOptions o;
  o.chunk_size = 2048;
  Made made = binary_file(o, 120, 5);
  std::string damaged = convert(made.bytes);
  LineEndingLimits tight;
  tight.record_trials = 1;
  LineEndingRestoration r = restore(damaged, tight);
  CHECK(r.complete);  // the framing holds: each record's length still says how many bytes it lost
  CHECK(r.unresolved + r.ambiguous > 0);
  for (const DamagedRecord& d : r.records)
    if (d.outcome == RestoreOutcome::Unresolved) CHECK(d.how.find("cap") != std::string::npos);
  std::vector<Problem> problems;
  line_ending_problems(r, &problems);
  CHECK(std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return p.code == "mcap.crlf.unresolved"; }));
}

TEST_CASE("mcap line endings: the restored source reads any range") {
  std::string damaged = "\x89MCAP0\nab\ncd\n";
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(damaged.data()), damaged.size());
  RestoredSource restored(source, {6, 9, 12});
  REQUIRE(restored.size() == damaged.size() + 3);
  std::string all(restored.size(), '\0');
  REQUIRE(restored.read(0, all.data(), all.size()) == all.size());
  CHECK(all == std::string("\x89MCAP0\r\nab\r\ncd\r\n"));
  for (size_t from = 0; from < all.size(); ++from)
    for (size_t n = 0; from + n <= all.size() + 2; ++n) {
      std::string part(n, '\0');
      size_t got = restored.read(from, part.data(), n);
      CHECK(got == std::min(n, all.size() - from));
      CHECK(part.substr(0, got) == all.substr(from, got));
    }
  CHECK(restored.restored_offset(7) == 8);
  CHECK(restored.restored_offset(10) == 12);
}

TEST_CASE("mcap line endings: the real samples converted: every record restored is the original's") {
  if (!test_support::have_samples()) return;
  for (std::string name : {"Kawwshall__specops-clip-review__sample.mcap", "RISE-Maritime__keelson__test.mcap", "rerun-io__rerun__simple-protobuf.mcap",
                           "lichtblick-suite__lichtblick__example_logs.mcap", "ros2__rosbag2__wbag_0.mcap"}) {
    CAPTURE(name);
    std::string original = test_support::read_text(test_support::sample("mcap/" + name));
    REQUIRE(original.size() > 100);
    std::string damaged = convert(original);
    LineEndingRestoration r = restore(damaged);
    CHECK(r.complete);
    std::string restored = restored_bytes(damaged, r);
    REQUIRE(restored.size() == original.size());
    for (const DamagedRecord& d : r.records)
      if (d.outcome == RestoreOutcome::Restored) CHECK(restored.compare(d.restored_offset, kRecordPrefix + d.length, original, d.restored_offset, kRecordPrefix + d.length) == 0);
    if (r.ambiguous + r.unresolved == 0) CHECK(restored == original);
    MESSAGE(name << ": " << r.restored << " restored, " << r.ambiguous << " ambiguous, " << r.unresolved << " unresolved");
  }
}
