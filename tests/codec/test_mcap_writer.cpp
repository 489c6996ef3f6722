// Files from codec/mcap/writer.h in every layout (chunked none/lz4/zstd, unchunked, with and
// without summary, statistics, message indexes, CRCs) read back with what was written: counts,
// times, messages, attachments, metadata, the tree and the CRCs; the scan agrees with the index.
#include <set>
#include <string>

#include "core/node_id.h"
#include "mcap/decompress.h"
#include "mcap/format.h"
#include "mcap/records.h"
#include "test_mcap_support.h"
#include "test_support.h"

using namespace logscope;
using namespace logscope::mcap;
using mcap_test::small_file;

namespace {

struct Layout {
  const char* name;
  WriterOptions options;
};

std::vector<Layout> layouts() {
  std::vector<Layout> out;
  for (const char* compression : {"", "lz4", "zstd"}) {
    WriterOptions o;
    o.compression = compression;
    o.chunk_size = 2048;
    out.push_back({compression[0] ? compression : "none", o});
  }
  WriterOptions unchunked;
  unchunked.chunked = false;
  out.push_back({"unchunked", unchunked});
  WriterOptions bare;  // no summary at all, no CRCs
  bare.summary = false;
  bare.chunk_crc = bare.data_crc = bare.summary_crc = bare.attachment_crc = false;
  bare.chunk_size = 4096;
  out.push_back({"no summary, no CRC", bare});
  WriterOptions no_stats;
  no_stats.statistics = false;
  no_stats.message_indexes = false;
  no_stats.compression = "lz4";
  out.push_back({"no statistics, no message indexes", no_stats});
  return out;
}

uint64_t count_of(const Report& r, const char* name) {
  const Count* c = r.file.count(name);
  return c ? c->value : UINT64_MAX;
}

}  // namespace

TEST_CASE("mcap writer: every layout reads back as written") {
  for (const Layout& layout : layouts()) {
    CAPTURE(layout.name);
    mcap_test::Written w = small_file(layout.options);
    CHECK(looks_like_mcap(w.bytes.substr(0, 16)));
    MemoryByteSource source(reinterpret_cast<const uint8_t*>(w.bytes.data()), w.bytes.size());
    auto inspector = open_inspector(source);
    const FileModel& m = *file_model(*inspector);
    Report r = inspector->summary();
    CHECK(count_of(r, "messages") == w.messages);
    CHECK(count_of(r, "channels") == 3);
    CHECK(count_of(r, "schemas") == 2);
    CHECK(count_of(r, "attachments") == 1);
    CHECK(count_of(r, "metadata") == 1);
    REQUIRE(r.file.start_ns);
    CHECK(uint64_t(*r.file.start_ns) == w.first_time);
    CHECK(uint64_t(*r.file.end_ns) == w.last_time);
    CHECK(m.channel_counts == w.per_channel);
    CHECK(r.count(Severity::Error) == 0);
    CHECK_FALSE(r.recovery.performed);
    bool indexed = layout.options.summary && layout.options.statistics;
    CHECK(m.source == (indexed ? SummarySource::Index : SummarySource::Scan));
    uint64_t ledger_chunks = 0;
    for (const LedgerEntry& e : w.ledger) ledger_chunks += e.op == kOpChunk;
    CHECK(m.chunks.size() == ledger_chunks);

    // The doctor finds nothing wrong, and every CRC written matches.
    Report checked = inspector->check(nullptr);
    for (const Problem& p : checked.problems) CHECK_MESSAGE(p.severity == Severity::Info, (p.code + ": " + p.message));
    Json crc = inspector->checksum(nullptr);
    bool crcs = layout.options.chunk_crc || layout.options.data_crc;
    CHECK(crc.find("status")->as_string() == (crcs ? "valid" : "none"));
    // The data section CRC in one line for people: stored and computed in hex, or why not.
    const std::string data_text = crc.find("data_section_crc")->find("text")->as_string();
    if (layout.options.data_crc) {
      CHECK(data_text.rfind("stored 0x", 0) == 0);
      CHECK(data_text.find("(match)") != std::string::npos);
    } else {
      CHECK(data_text == "not stored (0 means not computed)");
    }
    if (layout.options.chunked)
      CHECK(crc.find("chunk_crcs")->find("text")->as_string() ==
            "chunk CRCs: " + std::string(layout.options.chunk_crc ? std::to_string(ledger_chunks) : "0") + " of " + std::to_string(ledger_chunks) + " present" +
                (layout.options.chunk_crc ? ", " + std::to_string(ledger_chunks) + " of " + std::to_string(ledger_chunks) + " checked match" : ""));

    // Every message, in file order, with its fields.
    Json page = inspector->query("messages", Json::parse("{\"count\": 10000}").value(), nullptr);
    const Json* list = page.find("messages");
    REQUIRE(list);
    REQUIRE(list->size() == w.messages);
    for (uint64_t i = 0; i < w.messages; ++i) {
      const Json& msg = list->elements()[i];
      CHECK(msg.find("sequence")->as_uint() == i);
      CHECK(msg.find("log_time")->as_string() == std::to_string(w.first_time + i * 10000000ull));
      CHECK(msg.find("size")->as_uint() == std::string("{\"i\":" + std::to_string(i) + ",\"pad\":\"" + std::string(i % 97, 'x') + "\"}").size());
    }
    Json one = inspector->query("messages", Json::parse("{\"channel\": 1, \"first\": 2, \"count\": 3}").value(), nullptr);
    REQUIRE(one.find("messages")->size() == 3);
    CHECK(one.find("messages")->elements()[0].find("sequence")->as_uint() == 7);  // channel 1 holds 1, 5, 7, 11, 13...
    CHECK(inspector->query("messages", Json::parse("{\"channel\": 9}").value(), nullptr).find("error"));
    Json attachments = inspector->query("attachments", Json::object(), nullptr);
    CHECK(attachments.find("attachments")->elements()[0].find("name")->as_string() == "calibration.yaml");
    Json metadata = inspector->query("metadata", Json::object(), nullptr);
    CHECK(metadata.find("metadata")->elements()[0].find("metadata")->find("serial")->as_string() == "R2-D2");
    Json timeline = inspector->query("timeline", Json::object(), nullptr);
    uint64_t total = 0;
    for (const Json& row : timeline.find("rows")->elements()) total += row.find("total")->as_uint();
    CHECK(total == w.messages);

    // The tree: one root node per record the writer wrote, each located at its offset.
    REQUIRE(inspector->child_count("") == w.ledger.size());
    std::vector<TreeNode> nodes = inspector->children("", 0, w.ledger.size());
    for (size_t k = 0; k < w.ledger.size(); ++k) {
      CHECK(nodes[k].offset == w.ledger[k].offset);
      CHECK(nodes[k].length == w.ledger[k].length);
      CHECK(inspector->locate(w.ledger[k].offset).front() == nodes[k].id);
      CHECK_FALSE(inspector->decode(nodes[k].id).find("error"));
      if (w.ledger[k].op == kOpChunk) {
        CHECK(inspector->child_count(nodes[k].id) >= w.ledger[k].messages);
        Json inner = inspector->decode(nodes[k].id + "/m0");
        CHECK_FALSE(inner.find("error"));
      }
    }
    CHECK(inspector->decode("r").find("error"));
    CHECK(inspector->decode("r1/mx").find("error"));
    CHECK(inspector->child_count("r-1") == 0);
    CHECK_FALSE(inspector->spans(0, w.bytes.size()).empty());
    CHECK(inspector->file_map(false, nullptr).error.empty());
    CHECK_FALSE(inspector->info_text({}).empty());

    // The scan agrees with the index.
    FileModel scanned = mcap_test::open_model(w.bytes, true);
    CHECK(scanned.message_count == m.message_count);
    CHECK(scanned.channel_counts == m.channel_counts);
    CHECK(scanned.start_time == m.start_time);
    CHECK(scanned.end_time == m.end_time);
    CHECK(scanned.chunks.size() == m.chunks.size());
    CHECK(scanned.attachments.size() == m.attachments.size());
    CHECK(scanned.metadata.size() == m.metadata.size());
  }
}

TEST_CASE("mcap decompression: stated sizes are checked before anything is allocated") {
  std::string records(100000, 'a');
  std::string z = compress_chunk("zstd", records), l = compress_chunk("lz4", records);
  CHECK(decompress_chunk("zstd", z, records.size()).status == mcap::DecompressStatus::Ok);
  CHECK(decompress_chunk("lz4", l, records.size()).status == mcap::DecompressStatus::Ok);
  // A frame holding more or less than stated is a mismatch, whatever the frame says of itself.
  CHECK(decompress_chunk("zstd", z, records.size() - 1).status == mcap::DecompressStatus::SizeMismatch);
  CHECK(decompress_chunk("zstd", z, records.size() + 1).status == mcap::DecompressStatus::SizeMismatch);
  CHECK(decompress_chunk("lz4", l, records.size() - 1).status == mcap::DecompressStatus::SizeMismatch);
  CHECK(decompress_chunk("lz4", l, records.size() + 1).status == mcap::DecompressStatus::SizeMismatch);
  // Over the cap, or more than the compressed bytes can make: refused, nothing allocated.
  CHECK(decompress_chunk("zstd", z, mcap::kMaxChunkUncompressed + 1).status == mcap::DecompressStatus::TooLarge);
  CHECK(decompress_chunk("zstd", "abcd", 1u << 20).status == mcap::DecompressStatus::Implausible);
  CHECK(decompress_chunk("lz4", "abcd", 1u << 20).status == mcap::DecompressStatus::Implausible);
  CHECK(decompress_chunk("brotli", "abcd", 4).status == mcap::DecompressStatus::Unsupported);
  CHECK(decompress_chunk("", "abcd", 5).status == mcap::DecompressStatus::SizeMismatch);
  std::string damaged = z;
  damaged[damaged.size() / 2] ^= 0x55;
  CHECK(decompress_chunk("zstd", damaged, records.size()).status != mcap::DecompressStatus::Ok);
  CHECK(decompress_chunk("lz4", l.substr(0, l.size() / 2), records.size()).status != mcap::DecompressStatus::Ok);
  // Frames one after another (a writer may flush mid-chunk): both codecs read them all.
  std::string first(records.substr(0, 40000)), second(records.substr(40000));
  Decompressed two_lz4 = decompress_chunk("lz4", compress_chunk("lz4", first) + compress_chunk("lz4", second), records.size());
  REQUIRE(two_lz4.status == mcap::DecompressStatus::Ok);
  CHECK(two_lz4.view() == records);
  Decompressed two_zstd = decompress_chunk("zstd", compress_chunk("zstd", first) + compress_chunk("zstd", second), records.size());
  REQUIRE(two_zstd.status == mcap::DecompressStatus::Ok);
  CHECK(two_zstd.view() == records);
}

TEST_CASE("mcap records: every parser refuses lengths that run past the content") {
  std::string out;
  append_channel(out, Channel{3, 1, "/topic", "cdr", {{"k", "v"}}});
  std::string content = out.substr(kRecordPrefix);
  Channel c;
  std::string why;
  REQUIRE(parse_channel(content, &c, &why));
  CHECK(c.topic == "/topic");
  CHECK(c.metadata.size() == 1);
  for (size_t cut = 0; cut < content.size(); ++cut) {
    Channel partial;
    CHECK_FALSE(parse_channel(content.substr(0, cut), &partial, &why));
  }
  std::string huge = content;
  huge[4] = '\xff', huge[5] = '\xff', huge[6] = '\xff', huge[7] = '\x7f';  // topic length 2^31
  CHECK_FALSE(parse_channel(huge, &c, &why));
  CHECK(op_name(0x80) == "private 0x80");
  CHECK(op_name(kOpChunkIndex) == "ChunkIndex");
}

TEST_CASE("mcap writer: the summary of an indexed file reads the header, the footer and the summary only") {
  WriterOptions o;
  o.chunk_size = 64 * 1024;
  mcap_test::Written w = small_file(o, 20000);
  REQUIRE(w.bytes.size() > 500000);
  uint64_t summary_bytes = 0;
  bool after_data_end = false;
  for (const LedgerEntry& e : w.ledger) {
    if (after_data_end) summary_bytes += e.length;
    after_data_end |= e.op == kOpDataEnd;
  }
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(w.bytes.data()), w.bytes.size());
  CountingByteSource counting(memory);
  auto inspector = open_inspector(counting);
  Report r = inspector->summary();
  CHECK(count_of(r, "messages") == w.messages);
  CHECK(file_model(*inspector)->source == SummarySource::Index);
  // magic + Header, the footer and closing magic, DataEnd + summary: nothing of the data section.
  CHECK(counting.bytes_read() <= 8 + 9 + 64 + 37 + 13 + summary_bytes + 64);
  CHECK(counting.read_calls() <= 5);
  // The timeline reads the message indexes, never a chunk.
  counting.reset();
  Json timeline = inspector->query("timeline", Json::object(), nullptr);
  uint64_t total = 0;
  for (const Json& row : timeline.find("rows")->elements()) total += row.find("total")->as_uint();
  CHECK(total == w.messages);
  CHECK(timeline.find("resolution")->as_string() == "message");
  uint64_t index_bytes = 0;
  for (const LedgerEntry& e : w.ledger) index_bytes += e.op == kOpMessageIndex ? e.length : 0;
  CHECK(counting.bytes_read() == index_bytes);
}

TEST_CASE("mcap timeline: a whole log of many chunks from the chunk index alone, a narrow range exact") {
  WriterOptions many, few;
  many.chunk_size = 1024;
  few.chunk_size = 256 * 1024;
  mcap_test::Written small = small_file(many, 20000), big = small_file(few, 20000);
  MemoryByteSource memory(reinterpret_cast<const uint8_t*>(small.bytes.data()), small.bytes.size());
  CountingByteSource counting(memory);
  auto inspector = open_inspector(counting);
  inspector->summary();
  REQUIRE(file_model(*inspector)->chunks.size() > 600);
  MemoryByteSource big_memory(reinterpret_cast<const uint8_t*>(big.bytes.data()), big.bytes.size());
  auto reference = open_inspector(big_memory);
  reference->summary();
  REQUIRE(file_model(*reference)->chunks.size() < 20);
  auto totals = [](const Json& timeline) {
    std::map<std::string, uint64_t> out;
    for (const Json& row : timeline.find("rows")->elements()) out[row.find("name")->as_string()] = row.find("total")->as_uint();
    return out;
  };

  // Past 512 chunks, the whole log spreads each chunk's count (from its MessageIndex records'
  // lengths) over its span, and reads nothing.
  counting.reset();
  Json whole = inspector->query("timeline", Json::object(), nullptr);
  CHECK(whole.find("resolution")->as_string() == "chunk");
  CHECK(counting.bytes_read() == 0);
  Json exact_whole = reference->query("timeline", Json::object(), nullptr);
  CHECK(exact_whole.find("resolution")->as_string() == "message");
  CHECK(totals(whole) == totals(exact_whole));
  CHECK(totals(whole)["/imu"] == small.per_channel.begin()->second);

  // 20 s of the 200 s: about a tenth of the chunks, read exactly, as the few-chunk file's.
  Json narrow = Json::object();
  narrow["t0_ns"] = small.first_time + 50000000000ull;
  narrow["t1_ns"] = small.first_time + 70000000000ull;
  narrow["bins"] = 200;
  counting.reset();
  Json got = inspector->query("timeline", narrow, nullptr);
  CHECK(got.find("resolution")->as_string() == "message");
  CHECK(counting.bytes_read() > 0);
  CHECK(counting.bytes_read() < small.bytes.size() / 5);
  Json want = reference->query("timeline", narrow, nullptr);
  CHECK(got.find("rows")->dump() == want.find("rows")->dump());

  // The tree's top level: every record the writer wrote, the chunks and their MessageIndex records
  // placed from the index; only what lies between chunks (the attachment, the metadata, the
  // summary) is walked, not a read a chunk.
  counting.reset();
  REQUIRE(inspector->child_count("") == small.ledger.size());
  std::vector<TreeNode> nodes = inspector->children("", 0, small.ledger.size());
  size_t between = 0;
  for (size_t k = 0; k < small.ledger.size(); ++k) {
    CHECK(nodes[k].offset == small.ledger[k].offset);
    CHECK(nodes[k].length == small.ledger[k].length);
    between += small.ledger[k].op != kOpChunk && small.ledger[k].op != kOpMessageIndex;
  }
  CHECK(counting.read_calls() <= between + 4);  // a record head each (the summary's ChunkIndexes among them)
}

TEST_CASE("mcap format: the magic, a magic cut short, and the info text's layout") {
  mcap_test::Written w = small_file(WriterOptions(), 30);
  CHECK(looks_like_mcap(w.bytes.substr(0, 8)));
  CHECK_FALSE(looks_like_mcap(w.bytes.substr(0, 7)));
  CHECK_FALSE(looks_like_mcap("#ROSBAG V2.0\n"));
  CHECK_FALSE(looks_like_mcap(std::string("PACM\x01\0\0\0", 8)));
  for (size_t n = 1; n < 8; ++n) CHECK(diagnose_mcap_head(w.bytes.substr(0, n), n) == "This looks like an MCAP file cut off inside its 8-byte magic (only " + std::to_string(n) + " bytes).");
  CHECK(diagnose_mcap_head("\x89PNG", 4).empty());
  CHECK(diagnose_mcap_head(w.bytes.substr(0, 4), 5000).empty());  // a longer file is not cut in its magic

  // A cut record is named with what it declares and what is there.
  uint64_t chunk_at = 0, chunk_length = 0;
  for (const LedgerEntry& e : w.ledger)
    if (e.op == kOpChunk && !chunk_at) chunk_at = e.offset, chunk_length = e.length;
  FileModel cut = mcap_test::open_model(w.bytes.substr(0, static_cast<size_t>(chunk_at + 100)));
  bool named = false;
  for (const Problem& p : cut.problems)
    if (p.code == "mcap.file.truncated")
      named = p.offset == chunk_at && p.message == "the file ends inside the Chunk record at byte " + std::to_string(chunk_at) + ": it declares " +
                                                       std::to_string(chunk_length - kRecordPrefix) + " bytes of content, 91 are there";
  CHECK(named);

  MemoryByteSource source(reinterpret_cast<const uint8_t*>(w.bytes.data()), w.bytes.size());
  std::string text = open_inspector(source)->info_text({});
  CHECK(text.rfind("library:  logscope mcap writer\nprofile:  \nmessages: 30\nduration: 290ms\nstart:    2023-11-14T22:13:20Z (1700000000.000000000)\n"
                   "end:      2023-11-14T22:13:20.29Z (1700000000.290000000)\ncompression:\n\tzstd: [2/2 chunks] ", 0) == 0);  // the attachment closed the first chunk
  CHECK(text.find("\t(0) /imu   15 msgs (48..52Hz) : demo/Imu [jsonschema]\n") != std::string::npos);
  CHECK(text.find("\t(2) /log    5 msgs (14..17Hz) : <no schema>\n") != std::string::npos);
  CHECK(text.find("attachments: 1\n\tcalibration.yaml [text/yaml] 1.46 KiB\nmetadata: 1\n\trobot\n") != std::string::npos);
}
