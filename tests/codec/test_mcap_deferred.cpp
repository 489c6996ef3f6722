// Issue 36 ("Any size"): an MCAP whose summary holds more than 4 MiB of chunk indexes (a 100 GB
// file of 1 MiB chunks holds 13.5 MiB) opens to its summary without them, placed by its summary
// offsets, in a few reads of under a MiB; the compression facts come later (info_report), and
// every other use reads the whole summary first and answers as a whole open does. Offsets that
// do not place the groups fall back to the whole summary, which says what is wrong.
#include <cstring>
#include <string>

#include "core/query.h"
#include "mcap/summary.h"
#include "test_mcap_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::mcap;

namespace {

// 60,000 messages, one per uncompressed chunk: about 5.2 MB of ChunkIndex records.
const mcap_test::Written& many_chunks() {
  static const mcap_test::Written written = [] {
    WriterOptions options;
    options.compression = "";
    options.chunk_size = 1;
    return mcap_test::small_file(options, 60000);
  }();
  return written;
}

uint64_t load_u64(const std::string& bytes, size_t at) {
  uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}

// The ChunkIndex group's SummaryOffset record, found in the file's own bytes (not by the reader).
size_t chunk_group_offset_record(const std::string& bytes) {
  size_t footer = bytes.size() - 8 - 29;
  size_t at = static_cast<size_t>(load_u64(bytes, footer + 17));
  while (at < footer) {
    REQUIRE(static_cast<uint8_t>(bytes[at]) == kOpSummaryOffset);
    if (static_cast<uint8_t>(bytes[at + 9]) == kOpChunkIndex) return at;
    at += 9 + static_cast<size_t>(load_u64(bytes, at + 1));
  }
  FAIL("no ChunkIndex group offset");
  return 0;
}

Json without(Json j, std::initializer_list<const char*> keys) {
  for (const char* key : keys) j.erase(key);
  return j;
}

}  // namespace

TEST_CASE("mcap deferred: more than 4 MiB of chunk indexes open to the summary without them, in under a MiB of reads") {
  const std::string& bytes = many_chunks().bytes;
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  FileModel whole = mcap_test::open_model(bytes);
  REQUIRE(whole.chunks.size() == 60000);
  REQUIRE(whole.problems.empty());
  size_t group = chunk_group_offset_record(bytes);
  uint64_t group_length = load_u64(bytes, group + 9 + 1 + 8);
  REQUIRE(group_length > kDeferChunkIndexesAbove);

  CachedByteSource::Options wasm;  // as wasm/bindings.cpp
  wasm.block_size = 16 * 1024;
  wasm.max_fetch = 8 * 1024 * 1024;
  wasm.capacity = 64 * 1024 * 1024;
  CountingByteSource counting(memory);
  CachedByteSource cached(counting, wasm);
  auto inspector = open_inspector(cached);
  const FileModel& quick = *file_model(*inspector);
  Report summary = inspector->summary();
  INFO(counting.read_calls() << " reads, " << counting.bytes_read() << " bytes");

  CHECK(quick.chunk_indexes_deferred);
  CHECK(quick.chunks.empty());
  CHECK(counting.read_calls() <= 6);
  CHECK(counting.bytes_read() < (1u << 20));
  CHECK(quick.problems.empty());

  // What it shows: the counts, channels, schemas, attachments and metadata of a whole open, and
  // the compression facts later.
  Report full = summary_report(whole);
  CHECK(summary.later == std::vector<std::string>{"compression", "compressed", "uncompressed", "compression_ratio"});
  CHECK(summary.facts.find("compression") == nullptr);
  CHECK(file_facts_to_json(summary.file) == file_facts_to_json(full.file));
  CHECK(summary.file.count("chunks")->value == 60000);
  CHECK(summary.facts.find("indexed")->get<bool>());
  for (const char* table : {"channels", "schemas", "attachments", "metadata"}) {
    CAPTURE(table);
    auto named = [&](const Report& r) {
      for (const Table& t : r.tables)
        if (t.name == table) return table_to_json(t);
      return Json();
    };
    CHECK(named(summary) == named(full));
  }
  Json details = summary.to_json()["details"];
  CHECK(details["chunk_indexes_deferred"]["length"] == group_length);
  CHECK(without(details, {"chunk_indexes_deferred"}) == full.to_json()["details"]);

  // info_report reads the whole summary: the report of a whole open, compression included.
  Report later = inspector->info_report(nullptr);
  CHECK(!quick.chunk_indexes_deferred);
  CHECK(quick.chunks.size() == 60000);
  CHECK(later.later.empty());
  CHECK(later.to_json() == full.to_json());
  CHECK(counting.bytes_read() > group_length);
}

TEST_CASE("mcap deferred: every other use reads the whole summary first and answers as a whole open") {
  const std::string& bytes = many_chunks().bytes;
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  MemoryByteSource memory2(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto reference = open_inspector(memory2);
  REQUIRE(reference->info_report(nullptr).later.empty());  // read whole: the answers to match
  SUBCASE("timeline") {
    auto inspector = open_inspector(memory);
    Json args = Json::parse("{\"bins\": 50}").value();
    Json got = inspector->query("timeline", args, nullptr);
    CHECK(!file_model(*inspector)->chunk_indexes_deferred);
    CHECK(got == reference->query("timeline", args, nullptr));
    CHECK(!got.contains("error"));
  }
  SUBCASE("messages") {
    auto inspector = open_inspector(memory);
    Json args = Json::parse("{\"first\": 59990, \"count\": 10}").value();
    Json got = inspector->query("messages", args, nullptr);
    CHECK(got == reference->query("messages", args, nullptr));
    CHECK(got["messages"].size() == 10);
  }
  SUBCASE("check") {
    auto inspector = open_inspector(memory);
    Report check = inspector->check(nullptr);
    CHECK(check.to_json() == reference->check(nullptr).to_json());
    CHECK(check.problems.empty());
  }
  SUBCASE("tree") {
    auto inspector = open_inspector(memory);
    CHECK(inspector->child_count("") == reference->child_count(""));
    CHECK(inspector->children("", 0, 5).size() == 5);
  }
  SUBCASE("info text") {
    auto inspector = open_inspector(memory);
    std::string text = inspector->info_text(InfoOptions{});
    CHECK(text == reference->info_text(InfoOptions{}));
    CHECK(text.find("[60000/60000 chunks]") != std::string::npos);
  }
}

TEST_CASE("mcap deferred: summary offsets that do not place the groups fall back to the whole summary") {
  std::string bytes = many_chunks().bytes;
  size_t group = chunk_group_offset_record(bytes);
  SUBCASE("the group's length runs past the summary") {
    uint64_t huge = 1ull << 40;
    std::memcpy(&bytes[group + 9 + 1 + 8], &huge, 8);
  }
  SUBCASE("the group starts a record late") {
    uint64_t start = load_u64(bytes, group + 9 + 1);
    start += 9 + load_u64(bytes, static_cast<size_t>(start) + 1);
    std::memcpy(&bytes[group + 9 + 1], &start, 8);
  }
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto inspector = open_inspector(memory);
  const FileModel& m = *file_model(*inspector);
  CHECK(!m.chunk_indexes_deferred);
  // The summary CRC covers the offsets: the whole summary is not trusted, and the file is scanned.
  bool crc = false;
  for (const Problem& p : m.problems) crc |= p.code == "mcap.summary.crc_mismatch";
  CHECK(crc);
  CHECK(inspector->summary().file.count("messages")->value == 60000);
}

TEST_CASE("mcap deferred: any summary with a ChunkIndex group can open without it (threshold 0), with a whole open's counts") {
  WriterOptions zstd, lz4, unchunked;
  zstd.chunk_size = 2048;
  lz4.compression = "lz4";
  unchunked.chunked = false;
  for (const WriterOptions& options : {zstd, lz4, unchunked}) {
    CAPTURE(options.compression);
    CAPTURE(options.chunked);
    std::string bytes = mcap_test::small_file(options, 500).bytes;
    MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    FileModel first, whole = mcap_test::open_model(bytes);
    open_file(source, &first, nullptr, false, 0);
    CHECK(first.chunk_indexes_deferred == options.chunked);  // unchunked: no group to leave
    CHECK(first.problems.empty());
    CHECK(file_facts_to_json(summary_report(first).file) == file_facts_to_json(summary_report(whole).file));
    CHECK(first.channels.size() == whole.channels.size());
    CHECK(first.schemas.size() == whole.schemas.size());
    CHECK(first.has_data_end == whole.has_data_end);
  }
}
