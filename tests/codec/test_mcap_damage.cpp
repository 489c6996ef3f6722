// Damaged MCAP files made from the writer's output, each checked against the writer's ledger:
// cuts at every record boundary and inside every record, bit flips in chunks, a chunk length
// that lies, a damaged summary, a tail of zeros, "\r\n" -> "\n". Nothing crashes, the damaged
// record's offset is named, and every message before the damage is recovered.
#include <string>

#include "../fuzz/invariants.h"
#include "core/node_id.h"
#include "mcap/format.h"
#include "mcap/records.h"
#include "test_mcap_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::mcap;
using mcap_test::small_file;
using test_support::has_code;

namespace {

// Drives every entry point over the bytes; returns the check's report.
Report exercise(const std::string& bytes) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(source);
  Report summary = inspector->summary();
  CHECK(summary.format == "mcap");
  for (const Problem& p : summary.problems) CHECK(p.offset <= bytes.size());
  Report checked = inspector->check(nullptr);
  inspector->checksum(nullptr);
  inspector->info_text({});
  uint64_t roots = inspector->child_count("");
  for (const TreeNode& node : inspector->children("", 0, 64)) {
    CHECK(node.offset <= bytes.size());
    CHECK(node.offset + node.length <= bytes.size());
    inspector->decode(node.id);
    for (const TreeNode& inner : inspector->children(node.id, 0, 4)) inspector->decode(inner.id);
  }
  if (roots) inspector->decode(NodeId::one('r', {roots - 1}));
  for (uint64_t at : {uint64_t{0}, uint64_t{bytes.size() / 2}, uint64_t{bytes.size() ? bytes.size() - 1 : 0}}) {
    inspector->locate(at);
    inspector->spans(at, 256);
  }
  inspector->query("messages", Json::parse("{\"count\": 50}").value(), nullptr);
  inspector->query("timeline", Json::object(), nullptr);
  inspector->query("metadata", Json::object(), nullptr);
  inspector->file_map(false, nullptr);
  // The fuzzers' invariants: problems inside the file, nodes inside their parents, locate() and
  // spans() agreeing with the tree.
  logscope_fuzz::Invariants invariants = logscope_fuzz::check_inspector_invariants(inspector.get(), "mcap", bytes.size());
  for (const std::string& v : invariants.violations) FAIL_CHECK(v);
  return checked;
}

// Messages in records wholly before `cut`.
uint64_t messages_before(const mcap_test::Written& w, uint64_t cut) {
  uint64_t n = 0;
  for (const LedgerEntry& e : w.ledger)
    if (e.offset + e.length <= cut) n += e.messages;
  return n;
}

const Problem* find(const std::vector<Problem>& problems, const std::string& code) {
  for (const Problem& p : problems)
    if (p.code == code) return &p;
  return nullptr;
}

void check_cuts(const mcap_test::Written& w) {
  std::vector<uint64_t> cuts;
  for (const LedgerEntry& e : w.ledger) {
    for (uint64_t d : {uint64_t{0}, uint64_t{1}, uint64_t{8}, uint64_t{9}, e.length / 2, e.length - 1})
      if (d < e.length) cuts.push_back(e.offset + d);
  }
  for (uint64_t c = 0; c < kMagicSize; ++c) cuts.push_back(c);
  cuts.push_back(w.bytes.size() - 3);  // inside the closing magic
  for (uint64_t cut : cuts) {
    CAPTURE(cut);
    std::string bytes = w.bytes.substr(0, static_cast<size_t>(cut));
    if (cut > 0 && cut < kMagicSize) CHECK_FALSE(diagnose_mcap_head(bytes, bytes.size()).empty());
    FileModel m = mcap_test::open_model(bytes);
    if (cut < kMagicSize + kRecordPrefix) {
      CHECK(m.message_count == 0);
      CHECK((has_code(m.problems, "mcap.file.truncated") || cut == 0));
      continue;
    }
    if (cut >= w.ledger[0].offset + w.ledger[0].length) CHECK(m.source == SummarySource::Scan);
    CHECK(m.message_count == messages_before(w, cut));
    // The record the cut fell in is named, at its offset.
    const LedgerEntry* hit = nullptr;
    for (const LedgerEntry& e : w.ledger)
      if (e.offset < cut && cut < e.offset + e.length) hit = &e;
    if (hit) {
      const Problem* p = find(m.problems, "mcap.file.truncated");
      REQUIRE(p);
      CHECK(p->offset == hit->offset);
      CHECK(m.recovery.performed);
      CHECK(m.recovery.ends_at == hit->offset);
    } else {
      CHECK(has_code(m.problems, "mcap.file.no_footer"));
    }
    exercise(bytes);
  }
}

}  // namespace

TEST_CASE("mcap damage: a file cut anywhere keeps every complete record and names the cut one") {
  for (const mcap_test::Written& w : mcap_test::cut_test_files()) check_cuts(w);
}

TEST_CASE("mcap damage: a flipped byte in a chunk fails its CRC there, and the other chunks still count") {
  for (const char* compression : {"", "lz4", "zstd"}) {
    CAPTURE(compression);
    WriterOptions o;
    o.compression = compression;
    o.chunk_size = 2048;
    mcap_test::Written w = small_file(o, 200);
    for (const LedgerEntry& e : w.ledger) {
      if (e.op != kOpChunk) continue;
      CAPTURE(e.offset);
      std::string bytes = w.bytes;
      bytes[static_cast<size_t>(e.offset + e.length - 7)] ^= 0x10;  // inside the records, near their end
      Report r = exercise(bytes);
      const Problem* crc = find(r.problems, "mcap.chunk.crc_mismatch");
      const Problem* failed = find(r.problems, "mcap.chunk.decompress_failed");
      const Problem* size = find(r.problems, "mcap.chunk.size_mismatch");
      const Problem* p = crc ? crc : failed ? failed : size;
      REQUIRE(p);
      CHECK(p->offset == e.offset);
      CHECK(has_code(r.problems, "mcap.data_end.crc_mismatch"));
      // The index still serves the summary; a scan counts every other chunk.
      FileModel indexed = mcap_test::open_model(bytes);
      CHECK(indexed.source == SummarySource::Index);
      CHECK(indexed.message_count == w.messages);
      FileModel scanned = mcap_test::open_model(bytes, true);
      if (!crc) CHECK(scanned.message_count >= w.messages - e.messages);  // its MessageIndex records still count it
    }
  }
}

TEST_CASE("mcap damage: a chunk whose length lies is skipped to the next valid record") {
  WriterOptions o;
  o.chunk_size = 2048;
  mcap_test::Written w = small_file(o, 200);
  int tested = 0;
  for (const LedgerEntry& e : w.ledger) {
    if (e.op != kOpChunk) continue;
    CAPTURE(e.offset);
    std::string bytes = w.bytes;
    bytes[static_cast<size_t>(e.offset + 6)] = '\x7f';  // the length's 6th byte: far past the end
    Report r = exercise(bytes);
    const Problem* p = find(r.problems, "mcap.record.damaged");
    REQUIRE(p);
    CHECK(p->offset == e.offset);
    FileModel scanned = mcap_test::open_model(bytes, true);
    CHECK(scanned.message_count == w.messages - e.messages);
    CHECK(scanned.recovery.performed);  // the chunk is lost
    CHECK(scanned.recovery.reason == "damaged");
    uint64_t chunks = 0;
    for (const LedgerEntry& x : w.ledger) chunks += x.op == kOpChunk;
    CHECK(scanned.chunks.size() + 1 == chunks);
    ++tested;
  }
  CHECK(tested > 3);
}

TEST_CASE("mcap damage: a damaged summary is not trusted, the scan reads the same counts") {
  mcap_test::Written w = small_file(WriterOptions(), 300);
  uint64_t summary_start = 0;
  for (const LedgerEntry& e : w.ledger)
    if (e.op == kOpDataEnd) summary_start = e.offset + e.length;
  std::string bytes = w.bytes;
  bytes[static_cast<size_t>(summary_start + 20)] ^= 0x01;
  FileModel m = mcap_test::open_model(bytes);
  const Problem* p = find(m.problems, "mcap.summary.crc_mismatch");
  REQUIRE(p);
  CHECK(p->offset == summary_start);
  CHECK(m.source == SummarySource::Scan);
  CHECK(m.message_count == w.messages);
  CHECK(m.recovery.performed);
  exercise(bytes);
}

TEST_CASE("mcap damage: a file never finished, its tail zeros, is read up to the zeros") {
  WriterOptions o;
  o.chunk_size = 2048;
  mcap_test::Written w = small_file(o, 200);
  uint64_t data_end = 0;
  for (const LedgerEntry& e : w.ledger)
    if (e.op == kOpDataEnd) data_end = e.offset;
  std::string bytes = w.bytes.substr(0, static_cast<size_t>(data_end)) + std::string(4096, '\0');
  FileModel m = mcap_test::open_model(bytes);
  CHECK(m.message_count == w.messages);
  const Problem* p = find(m.problems, "mcap.record.damaged");
  REQUIRE(p);
  CHECK(p->offset == data_end);
  CHECK(m.recovery.ends_at == data_end);
  exercise(bytes);
}

TEST_CASE("mcap damage: \\r\\n turned into \\n is recognised and said") {
  mcap_test::Written w = small_file(WriterOptions(), 100);
  std::string bytes;
  for (size_t i = 0; i < w.bytes.size(); ++i)
    if (!(w.bytes[i] == '\r' && i + 1 < w.bytes.size() && w.bytes[i + 1] == '\n')) bytes += w.bytes[i];
  REQUIRE(bytes.size() < w.bytes.size());
  CHECK(looks_like_mcap(bytes.substr(0, 16)));
  FileModel m = mcap_test::open_model(bytes);
  const Problem* p = find(m.problems, "mcap.file.line_endings");
  REQUIRE(p);
  CHECK(p->offset == 6);
  CHECK(m.source == SummarySource::Scan);
  CHECK(m.recovery.performed);
  CHECK(m.message_count <= w.messages);
  exercise(bytes);
}

TEST_CASE("mcap damage: intact files and random byte flips keep the invariants") {
  for (const char* compression : {"", "lz4", "zstd"}) {
    WriterOptions o;
    o.compression = compression;
    o.chunk_size = 1024;
    mcap_test::Written w = small_file(o, 80);
    Report intact = exercise(w.bytes);
    CHECK(intact.count(Severity::Error) == 0);
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 150; ++round) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      std::string bytes = w.bytes;
      size_t at = kMagicSize + static_cast<size_t>((state >> 33) % (bytes.size() - kMagicSize));
      bytes[at] = static_cast<char>(bytes[at] ^ (1u << ((state >> 20) % 8)));
      CAPTURE(at);
      exercise(bytes);
    }
  }
}
