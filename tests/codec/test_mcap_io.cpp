// MCAP's reading budgets (issue 26, "Speed"): a zstd MCAP from make-demo-mcap's writer opens to
// its summary in at most 4 reads of the file, of no more than its summary section plus 64 KiB,
// with the codec's own reads and behind the wasm module's cache (the page); behind the CLI's cache
// (64 KiB blocks for local files) in as many reads, each a whole block; and `iterate_all` (what
// `npm run bench` times against @mcap/core) visits every message the writer wrote, with its
// bytes, in every layout.
#include <cstring>
#include <string>

#include "core/output_sink.h"
#include "mcap/demo.h"
#include "test_mcap_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::mcap;

namespace {

uint64_t load_u64(const std::string& bytes, size_t at) {
  uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}

// The summary section's size read from the file's own last 37 bytes (Footer + magic), not from
// the reader under test: [summary_start, summary_offset_start or the Footer).
uint64_t summary_section_bytes(const std::string& bytes) {
  REQUIRE(bytes.size() > 8 + 37);
  size_t footer = bytes.size() - 8 - 29;
  REQUIRE(static_cast<uint8_t>(bytes[footer]) == kOpFooter);
  uint64_t summary_start = load_u64(bytes, footer + 9), offsets_start = load_u64(bytes, footer + 17);
  REQUIRE(summary_start > 0);
  uint64_t end = offsets_start ? offsets_start : footer;
  REQUIRE(end > summary_start);
  return end - summary_start;
}

// Every byte of a payload in 8-byte little-endian words, then the tail byte by byte: what
// iterate_all's `touch` sums.
uint64_t touch_sum(const std::string& data) {
  uint64_t sum = 0, word;
  size_t i = 0;
  for (; i + 8 <= data.size(); i += 8) std::memcpy(&word, data.data() + i, 8), sum += word;
  for (; i < data.size(); ++i) sum += static_cast<uint8_t>(data[i]);
  return sum;
}

}  // namespace

TEST_CASE("mcap io: a writer-made 6 MB zstd MCAP opens to its summary in at most 4 reads of the summary section plus 64 KiB") {
  MemoryOutputSink sink;
  DemoOptions options;
  options.compression = "zstd";
  std::string error;
  REQUIRE_MESSAGE(write_demo(sink, 6u << 20, options, &error), error);
  const std::string& bytes = sink.bytes;
  uint64_t summary_bytes = summary_section_bytes(bytes);
  REQUIRE(bytes.size() > 20 * summary_bytes);  // a data section worth not reading
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());

  CachedByteSource::Options wasm;  // as wasm/bindings.cpp
  wasm.block_size = 16 * 1024;
  wasm.max_fetch = 8 * 1024 * 1024;
  wasm.capacity = 64 * 1024 * 1024;
  CachedByteSource::Options cli;  // as cli/command.cpp for a local file
  for (const char* how : {"no cache", "wasm cache", "CLI cache"}) {
    CAPTURE(how);
    CountingByteSource counting(memory);  // the file's reads: under the cache
    CachedByteSource cached(counting, std::string(how) == "wasm cache" ? wasm : cli);
    ByteSource& source = std::string(how) == "no cache" ? static_cast<ByteSource&>(counting) : cached;
    auto inspector = open_inspector(source);
    Report summary = inspector->summary();
    INFO(counting.read_calls() << " reads, " << counting.bytes_read() << " bytes; summary section " << summary_bytes);
    REQUIRE(file_model(*inspector)->source == SummarySource::Index);
    REQUIRE(summary.file.count("messages"));
    CHECK(summary.file.count("messages")->value > 1000);
    CHECK(counting.read_calls() <= 4);
    // The CLI's cache fetches whole 64 KiB blocks: the head's, and the tail's from a block start.
    uint64_t slack = std::string(how) == "CLI cache" ? 2 * cli.block_size : 64 * 1024;
    CHECK(counting.bytes_read() <= summary_bytes + slack);
  }
}

TEST_CASE("mcap io: iterate_all visits every message the writer wrote, with its bytes, in every layout") {
  struct Layout {
    const char* name;
    bool chunked;
    const char* compression;
  };
  for (const Layout& layout : {Layout{"zstd", true, "zstd"}, Layout{"lz4", true, "lz4"}, Layout{"none", true, ""}, Layout{"unchunked", false, ""}}) {
    CAPTURE(layout.name);
    WriterOptions o;
    o.chunked = layout.chunked;
    o.compression = layout.compression;
    o.chunk_size = 4096;
    const uint64_t n = 3000;
    mcap_test::Written w = mcap_test::small_file(o, n);
    // small_file's payloads, rebuilt from its recipe.
    uint64_t expected_bytes = 0, expected_sum = 0;
    for (uint64_t i = 0; i < n; ++i) {
      std::string data = "{\"i\":" + std::to_string(i) + ",\"pad\":\"" + std::string(i % 97, 'x') + "\"}";
      expected_bytes += data.size();
      expected_sum += touch_sum(data);
    }
    MemoryByteSource memory(reinterpret_cast<const uint8_t*>(w.bytes.data()), w.bytes.size());
    auto inspector = open_inspector(memory);
    Json seen = inspector->query("iterate_all", Json::object(), nullptr);
    CHECK(seen.find("messages")->as_uint() == n);
    CHECK(seen.find("message_bytes")->as_uint() == expected_bytes);
    CHECK(seen.find("problems")->as_uint() == 0);
    CHECK_FALSE(seen.find("cancelled")->as_bool());
    Json args = Json::object();
    args["touch"] = true;
    Json touched = inspector->query("iterate_all", args, nullptr);
    CHECK(touched.find("messages")->as_uint() == n);
    CHECK(touched.find("checksum")->as_string() == std::to_string(expected_sum));
  }
}

TEST_CASE("mcap io: iterate_all stops when cancelled and reports a damaged chunk") {
  WriterOptions o;
  o.chunk_size = 4096;
  mcap_test::Written w = mcap_test::small_file(o, 3000);
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(w.bytes.data()), w.bytes.size());
  auto inspector = open_inspector(memory);
  Json cancelled = inspector->query("iterate_all", Json::object(), [](uint64_t, uint64_t) { return false; });
  CHECK(cancelled.find("cancelled")->as_bool());
  CHECK(cancelled.find("messages")->as_uint() < 3000);

  // A chunk that states one byte more than its records decompress to: that chunk's messages are
  // missing and counted as a problem, every other chunk's are there.
  const LedgerEntry* chunk = nullptr;
  uint64_t chunks = 0;
  for (const LedgerEntry& e : w.ledger)
    if (e.op == kOpChunk && ++chunks == 3) chunk = &e;
  REQUIRE(chunk);
  std::string damaged = w.bytes;
  size_t stated = static_cast<size_t>(chunk->offset + 9 + 16);  // after the opcode, length, start and end times
  uint64_t size = load_u64(damaged, stated) + 1;
  std::memcpy(&damaged[stated], &size, 8);
  MemoryByteSource damaged_memory(reinterpret_cast<const uint8_t*>(damaged.data()), damaged.size());
  auto damaged_inspector = open_inspector(damaged_memory);
  Json seen = damaged_inspector->query("iterate_all", Json::object(), nullptr);
  CHECK(seen.find("problems")->as_uint() == 1);
  CHECK(seen.find("messages")->as_uint() == 3000 - chunk->messages);
}
