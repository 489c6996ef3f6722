// The MCAP doctor with the file pushed in (FormatInspector::check_feed and checksum_feed:
// mcap/doctor_feed.cpp over PushedWalk) against the pulled check() and checksum(): pieces of
// every size, writer-made layouts and the real files give the same JSON; every cut and random
// damage give the same JSON or an "incomplete" answer, after which the page pulls the pass.
#include <dirent.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/detect.h"
#include "core/inspector.h"
#include "inspector.h"
#include "mcap/crc32.h"
#include "mcap/format.h"
#include "test_mcap_support.h"
#include "test_support.h"

namespace {

using namespace logscope;
using namespace logscope::mcap;

enum class Pass { Check, Checksum };

std::string pulled_answer(Pass pass, const std::string& bytes) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(source, detect(source));
  REQUIRE(inspector);
  return pass == Pass::Check ? inspector->check(nullptr).to_json().dump() : inspector->checksum(nullptr).dump();
}

// The fed answer with pieces of `piece` bytes (0: random sizes from `seed`); nullopt without a feed.
std::optional<std::string> fed_answer(Pass pass, const std::string& bytes, size_t piece, uint32_t seed) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(source, detect(source));
  REQUIRE(inspector);
  std::unique_ptr<ByteFeed> feed = pass == Pass::Check ? inspector->check_feed() : inspector->checksum_feed();
  if (!feed) return std::nullopt;
  std::mt19937 random(seed);
  const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
  uint64_t end = std::min<uint64_t>(feed->end(), bytes.size());
  for (uint64_t at = feed->begin(); at < end;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(piece ? piece : 1 + random() % 5000, end - at));
    feed->update(data + at, n);
    at += n;
  }
  return feed->finish("", false).dump();
}

bool incomplete(const std::string& answer) { return answer.find("\"status\":\"incomplete\"") != std::string::npos; }

// The fed pass equals the pulled one, or is incomplete; true when it answered.
bool fed_equals_pulled(Pass pass, const std::string& bytes, size_t piece, uint32_t seed) {
  if (!looks_like_mcap(bytes.substr(0, 16))) return false;
  std::optional<std::string> fed = fed_answer(pass, bytes, piece, seed);
  if (!fed || incomplete(*fed)) return false;
  CHECK(*fed == pulled_answer(pass, bytes));
  return true;
}

std::vector<mcap_test::Written> layouts() {
  std::vector<mcap_test::Written> files = mcap_test::cut_test_files();
  WriterOptions big_chunks;  // chunks bigger than the page's 4 MB pushes are gathered across them
  big_chunks.compression = "";
  big_chunks.chunk_size = 6u << 20;
  files.push_back(mcap_test::small_file(big_chunks, 120000));
  uint64_t largest = 0;
  for (const LedgerEntry& e : files.back().ledger)
    if (e.op == kOpChunk) largest = std::max(largest, e.length);
  CHECK(largest > (4u << 20));
  return files;
}

}  // namespace

TEST_CASE("mcap check feed: pieces of any size give the pulled check and checksum") {
  for (const mcap_test::Written& w : layouts()) {
    CAPTURE(w.bytes.size());
    for (size_t piece : {size_t{1}, size_t{7}, size_t{100}, size_t{4096}, size_t{4} << 20, size_t{0}}) {
      CAPTURE(piece);
      if (piece == 1 && w.bytes.size() > 100000) continue;  // one byte at a time: the small layouts say enough
      CHECK(fed_equals_pulled(Pass::Check, w.bytes, piece, 1));
      CHECK(fed_equals_pulled(Pass::Checksum, w.bytes, piece, 2));
    }
  }
}

TEST_CASE("mcap check feed: a chunk whose CRC fails is reported by the fed check as by the pulled one") {
  mcap_test::Written w = mcap_test::small_file(WriterOptions(), 300);
  const LedgerEntry* chunk = nullptr;
  for (const LedgerEntry& e : w.ledger)
    if (e.op == kOpChunk) chunk = &e;
  REQUIRE(chunk);
  std::string bytes = w.bytes;
  bytes[static_cast<size_t>(chunk->offset + chunk->length - 3)] ^= 0x20;  // inside its compressed records
  std::optional<std::string> fed = fed_answer(Pass::Check, bytes, 1000, 1);
  REQUIRE(fed);
  CHECK(!incomplete(*fed));
  CHECK(*fed == pulled_answer(Pass::Check, bytes));
  CHECK(fed->find("mcap.chunk.") != std::string::npos);
}

TEST_CASE("mcap check feed: every cut and random damage give the pulled answer or ask for it") {
  size_t runs = 0, fed = 0, damaged_fed = 0;
  for (const mcap_test::Written& w : mcap_test::cut_test_files()) {
    for (size_t cut = 0; cut <= w.bytes.size(); cut += 53) {
      CAPTURE(cut);
      ++runs;
      fed += fed_equals_pulled(Pass::Check, w.bytes.substr(0, cut), 0, static_cast<uint32_t>(cut));
    }
    std::mt19937 random(7);
    for (int trial = 0; trial < 150; ++trial) {
      CAPTURE(trial);
      std::string bytes = w.bytes;
      for (int k = 0; k < 3; ++k) bytes[random() % bytes.size()] = static_cast<char>(random());
      ++runs;
      bool answered = fed_equals_pulled(trial % 2 ? Pass::Check : Pass::Checksum, bytes, 0, static_cast<uint32_t>(trial));
      fed += answered;
      damaged_fed += answered;
    }
  }
  MESSAGE(fed << " of " << runs << " cut or damaged MCAP files had their check fed");
  CHECK(damaged_fed > 0);  // damage that keeps the framing (CRCs, fields) is the feed's to report
}

TEST_CASE("mcap check feed: the real files give the pulled check and checksum") {
  if (!test_support::have_samples()) return;
  std::string dir = test_support::sample("mcap");
  DIR* d = opendir(dir.c_str());
  if (!d) {
    test_support::skip(dir + " is absent");
    return;
  }
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() > 5 && name.substr(name.size() - 5) == ".mcap") names.push_back(name);
  }
  closedir(d);
  size_t fed = 0;
  for (const std::string& name : names) {
    CAPTURE(name);
    std::vector<uint8_t> raw = test_support::read_file(dir + "/" + name);
    std::string bytes(raw.begin(), raw.end());
    fed += fed_equals_pulled(Pass::Check, bytes, 1u << 20, 1);
    fed_equals_pulled(Pass::Checksum, bytes, 0, 3);
  }
  CHECK(fed >= names.size() - 1);  // all but the impostor
}

TEST_CASE("mcap crc: a range whose CRC is known is combined in, to the value of hashing every byte") {
  std::mt19937 random(7);
  std::vector<uint8_t> bytes(100000);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
  Crc32 whole;
  whole.update(bytes.data(), bytes.size());
  Crc32 head;
  head.update(bytes.data(), 100);  // the stream starts at offset 100, as the walk does after the Header
  for (size_t piece : {size_t{1}, size_t{13}, size_t{4096}, size_t{100000}}) {
    CAPTURE(piece);
    Crc32Stream stream(head, 100);
    Crc32 range;
    range.update(bytes.data() + 30000, 20000);
    stream.known(30000, 20000, range.value());
    stream.known(60000, 10, 0);  // a second range while one waits: ignored (hashed)
    uint32_t crc = 0;
    for (size_t at = 100; at < bytes.size(); at += piece) {
      size_t n = std::min(piece, bytes.size() - at);
      if (at > 30000 && at < 50000) CHECK(!stream.value(&crc));  // inside the range: no value yet
      stream.update(bytes.data() + at, n);
    }
    REQUIRE(stream.value(&crc));
    CHECK(crc == whole.value());
  }
  Crc32Stream late(head, 100);
  late.update(bytes.data() + 100, 1000);
  late.known(500, 2000, 0);  // its start has passed already: ignored
  late.update(bytes.data() + 1100, bytes.size() - 1100);
  uint32_t crc = 0;
  REQUIRE(late.value(&crc));
  CHECK(crc == whole.value());
}
