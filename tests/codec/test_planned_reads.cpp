// A pass's planned reads (ByteSource::will_read_ranges): a plot's sampled chunks and an export's
// are announced, and a cache with a range fetcher (a remote file's) gets them a window at a time
// instead of one round trip each. Here the file below the cache counts its reads as a remote
// file counts requests, and the fetcher counts windows: the answers must be the ones read chunk
// by chunk, and the requests must not grow with the chunks read.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bddf/writer.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "core/export.h"
#include "core/inspector.h"
#include "core/message_source.h"
#include "inspector.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "rosbag/inspector.h"
#include "rosbag/iterate.h"
#include "rosbag/model.h"
#include "rosbag/writer.h"

using namespace logscope;

namespace {

constexpr uint64_t kStartNs = 1700000000000000000ull;

std::string float64(double value) { return std::string(reinterpret_cast<const char*>(&value), sizeof value); }

// 4 KB that lz4 cannot shrink, so that compressed chunks are as many as uncompressed ones.
std::string filler(uint32_t seed) {
  std::string out(4096, '\0');
  uint32_t x = seed * 2654435761u + 1;
  for (char& c : out) c = static_cast<char>((x = x * 1103515245u + 12345u) >> 24);
  return out;
}

// 2,000 messages of /x (float64), with 4 KB ones of /other between them, in chunks of 16 KB:
// a sample's chunks lie apart, so that each is a read of its own (a round trip) without a plan.
std::vector<uint8_t> chunky_bag(const std::string& compression) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = compression;
  options.chunk_threshold = 16 * 1024;
  rosbag::BagWriter writer(sink, options);
  uint32_t x = writer.add_connection("/x", "std_msgs/Float64", "fdb28210bfa9d7c91146260178d9a584", "float64 data\n");
  uint32_t other = writer.add_connection("/other", "std_msgs/Float64", "fdb28210bfa9d7c91146260178d9a584", "float64 data\n");
  for (uint32_t i = 0; i < 2000; ++i) {
    REQUIRE(writer.write(x, rosbag::Time{1700000000u + i / 10, (i % 10) * 100000000u}, float64(i * 0.5)));
    if (i % 3 == 0) REQUIRE(writer.write(other, rosbag::Time{1700000000u + i / 10, (i % 10) * 100000000u + 1}, float64(-1.0 * i) + filler(i)));
  }
  REQUIRE(writer.close());
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

// The same in an MCAP. `between(i, writer, &other)` may add records between messages.
using Between = std::function<void(uint32_t i, mcap::Writer& writer, uint16_t* other)>;
std::vector<uint8_t> chunky_mcap(bool summary = true, const Between& between = nullptr) {
  mcap::WriterOptions options;
  options.chunk_size = 16 * 1024;
  options.summary = summary;
  mcap::Writer writer(options);
  uint16_t schema = writer.add_schema("demo/Value", "ros2msg", "float64 x\n");
  uint16_t x = writer.add_channel(schema, "/x", "cdr");
  uint16_t other = writer.add_channel(schema, "/other", "cdr");
  for (uint32_t i = 0; i < 2000; ++i) {
    uint64_t t = kStartNs + i * 1000000ull;
    writer.write_message(x, i, t, t, std::string("\x00\x01\x00\x00", 4) + float64(i * 0.5));
    if (i % 3 == 0) writer.write_message(other, i, t + 1, t + 1, std::string("\x00\x01\x00\x00", 4) + float64(-1.0 * i) + filler(i));
    if (between) between(i, writer, &other);
  }
  std::string bytes = writer.finish();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

// A file read as the CLI reads a remote one: each read below the cache is a request; the fetcher
// (when `planned`) preloads a window in one request, as HttpByteSource::read_scattered does.
struct Remote {
  MemoryByteSource file;
  CountingByteSource requests{file};
  CachedByteSource cached;
  uint64_t windows = 0, window_ranges = 0, most_preloaded = 0;
  bool keep_every_other = false;  // the fetcher gets only every other range (a server that fails some)

  Remote(const std::vector<uint8_t>& bytes, bool planned, uint64_t window_bytes = 32u << 20)
      : file(bytes.data(), bytes.size()), cached(requests, options()) {
    if (!planned) return;
    cached.set_range_fetcher([this](const std::vector<ByteRange>& ranges) {
      CHECK(cached.preloaded_bytes() == 0);  // the window before is gone
      ++windows;
      window_ranges += ranges.size();
      for (size_t i = 0; i < ranges.size(); ++i) {
        if (keep_every_other && i % 2) continue;
        std::vector<uint8_t> bytes = file.read_vector(ranges[i].offset, static_cast<size_t>(ranges[i].length));
        CHECK(cached.preload(ranges[i].offset, bytes.data(), bytes.size()));
      }
      most_preloaded = std::max<uint64_t>(most_preloaded, cached.preloaded_bytes());
    }, window_bytes);
  }
  static CachedByteSource::Options options() {
    CachedByteSource::Options o;
    o.block_size = 4 * 1024;
    o.preload_capacity = 80u << 20;
    return o;
  }
};

// The file opened to its summary; then what the open cached (a small file's whole) is gone, as in a
// big one, and the requests are counted from zero.
std::unique_ptr<FormatInspector> open_remote(Remote& remote) {
  auto inspector = open_inspector(remote.cached, detect(remote.cached));
  REQUIRE(inspector);
  inspector->summary();
  remote.cached.clear();
  remote.requests.reset();
  return inspector;
}

struct Pass {
  std::string answer;
  uint64_t requests = 0, windows = 0, window_ranges = 0, most_preloaded = 0, left_preloaded = 0;
};

Json plot_args(uint64_t max_chunks, const char* field) {
  Json a = Json::object();
  a["topic"] = "/x";
  a["fields"] = field;
  if (max_chunks) a["max_chunks"] = max_chunks;
  return a;
}

// What a pass cost `remote`, with its answer.
Pass counted(const Remote& remote, Pass out) {
  out.requests = remote.requests.read_calls();
  out.windows = remote.windows;
  out.window_ranges = remote.window_ranges;
  out.most_preloaded = remote.most_preloaded;
  out.left_preloaded = remote.cached.preloaded_bytes();
  return out;
}

// A plot (sampled when `max_chunks`), or the whole export as CSV.
Pass run(const std::vector<uint8_t>& bytes, bool planned, uint64_t max_chunks, bool export_all, const char* field,
         bool keep_every_other = false, uint64_t window_bytes = 32u << 20) {
  Remote remote(bytes, planned, window_bytes);
  remote.keep_every_other = keep_every_other;
  auto inspector = open_remote(remote);
  Pass out;
  if (export_all) {
    StringSink sink;
    ExportResult result = inspector->export_rows("/x", ExportRequest(), sink, nullptr);
    REQUIRE(result.error == "");
    out.answer = sink.text();
  } else {
    out.answer = inspector->query("plot", plot_args(max_chunks, field), nullptr).dump();
  }
  return counted(remote, out);
}

void check_format(const std::vector<uint8_t>& bytes, const char* field, uint64_t chunks) {
  REQUIRE(chunks >= 100);
  SUBCASE("a sampled plot: the same points, its chunks in one window") {
    Pass alone = run(bytes, false, 40, false, field);
    Pass planned = run(bytes, true, 40, false, field);
    CHECK(alone.answer.find("\"sampled\"") != std::string::npos);
    CHECK(planned.answer == alone.answer);
    CHECK(alone.requests >= 40);  // a round trip per chunk
    CHECK(planned.windows == 1);
    CHECK(planned.window_ranges == 40);
    CHECK(planned.requests <= 2);
    CHECK(planned.left_preloaded == 0);  // released when the pass ends
  }
  SUBCASE("the whole export: the same rows, windows bounded by their bytes") {
    Pass alone = run(bytes, false, 0, true, field);
    Pass planned = run(bytes, true, 0, true, field, false, 64 * 1024);
    CHECK(planned.answer == alone.answer);
    CHECK(alone.answer.size() > 20000);
    CHECK(planned.windows >= 4);
    CHECK(planned.window_ranges >= chunks / 2);  // the chunks that hold /x: every one here
    CHECK(planned.most_preloaded <= 64 * 1024);
    CHECK(planned.requests <= 2);
    CHECK(planned.left_preloaded == 0);
  }
  SUBCASE("a fetcher that gets only some ranges: the rest are read as before, once") {
    Pass alone = run(bytes, false, 40, false, field);
    Pass partial = run(bytes, true, 40, false, field, true);
    CHECK(partial.answer == alone.answer);
    CHECK(partial.windows == 1);  // a window is offered once, not again for what it lacked
    CHECK(partial.requests >= 20);
    CHECK(partial.requests <= alone.requests);
  }
  SUBCASE("ranges larger than the window are read as before") {
    Pass alone = run(bytes, false, 40, false, field);
    Pass tiny = run(bytes, true, 40, false, field, false, 16);
    CHECK(tiny.answer == alone.answer);
    CHECK(tiny.windows == 0);
    CHECK(tiny.requests == alone.requests);
  }
}

}  // namespace

TEST_CASE("planned reads: a bag's sampled plot and export fetch their chunks a window at a time") {
  for (const char* compression : {"none", "lz4"}) {
    CAPTURE(compression);
    std::vector<uint8_t> bytes = chunky_bag(compression);
    MemoryByteSource memory(bytes.data(), bytes.size());
    auto inspector = open_inspector(memory, detect(memory));
    check_format(bytes, "data", rosbag::opened_bag(*inspector)->chunks.size());
  }
}

TEST_CASE("planned reads: an MCAP's sampled plot and export fetch their chunks a window at a time") {
  std::vector<uint8_t> bytes = chunky_mcap();
  MemoryByteSource memory(bytes.data(), bytes.size());
  auto inspector = open_inspector(memory, detect(memory));
  Json plot = inspector->query("plot", plot_args(1, "x"), nullptr);
  REQUIRE(plot.find("sampled"));
  check_format(bytes, "x", plot["sampled"]["chunks"].as_uint());
}

TEST_CASE("planned reads: reads outside the plan, and a cache without a fetcher") {
  std::vector<uint8_t> bytes(1 << 20);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + i / 251);
  MemoryByteSource file(bytes.data(), bytes.size());
  CountingByteSource requests(file);
  CachedByteSource::Options options;
  options.block_size = 4096;
  CachedByteSource cached(requests, options);
  auto read = [&](uint64_t offset, size_t length) {
    std::vector<uint8_t> out(length);
    REQUIRE(cached.read(offset, out.data(), length) == length);
    CHECK(std::equal(out.begin(), out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset)));
  };
  {
    PlannedReads plan(cached, {{100000, 5000}, {300000, 5000}});  // no fetcher: ignored
    read(100000, 5000);
    CHECK(cached.plan_windows() == 0);
  }
  uint64_t windows = 0;
  cached.set_range_fetcher([&](const std::vector<ByteRange>& ranges) {
    ++windows;
    for (const ByteRange& r : ranges) cached.preload(r.offset, bytes.data() + r.offset, static_cast<size_t>(r.length));
  }, 12000);
  {
    PlannedReads plan(cached, {{200000, 5000}, {400000, 5000}, {600000, 5000}, {800000, 5000}});
    read(10, 100);  // not planned: no window
    CHECK(windows == 0);
    requests.reset();
    read(200000, 5000);  // the first window: two ranges of 5,000 within 12,000 bytes
    read(400000 + 10, 4000);
    CHECK(windows == 1);
    CHECK(requests.read_calls() == 0);
    read(600000, 5000);  // the next window
    read(800000, 5000);
    CHECK(windows == 2);
    CHECK(requests.read_calls() == 0);
    read(200000, 5000);  // back to a range of a window that is gone: read as before
    CHECK(windows == 2);
    CHECK(requests.read_calls() == 1);
    CHECK(cached.preloaded_bytes() == 10000);
  }
  CHECK(cached.preloaded_bytes() == 0);
  CHECK(cached.plan_windows() == 2);
  CHECK(cached.plan_ranges_fetched() == 4);
}

// An MCAP's passes over messages take its chunks from the index, not from a walk of every record's
// head (a request each by URL: 27,808 for a plot of a 10 GB file), and walk only what lies
// between them. Records between chunks (an attachment, metadata, a channel added late) are walked
// and the rows are the scan's, of the same file written without a summary.
TEST_CASE("planned reads: an MCAP's export from its index equals the scan's, with records between its chunks") {
  const Between between = [](uint32_t i, mcap::Writer& writer, uint16_t* other) {
    uint64_t t = kStartNs + i * 1000000ull;
    if (i == 700) writer.write_attachment("note.txt", "text/plain", t, t, "between chunks");
    if (i == 900) writer.write_metadata("run", {{"site", "lab"}});
    if (i == 1200) *other = writer.add_channel(1, "/other", "cdr");
  };
  std::vector<uint8_t> indexed = chunky_mcap(true, between), bare = chunky_mcap(false, between);
  Pass from_index = run(indexed, false, 0, true, "x");
  Pass scanned = run(bare, false, 0, true, "x");
  CHECK(from_index.answer == scanned.answer);
  CHECK(std::count(from_index.answer.begin(), from_index.answer.end(), '\n') == 2001);
  // The chunks themselves (each a read, without a plan) and a few reads between them, not a read per record.
  MemoryByteSource memory(indexed.data(), indexed.size());
  auto inspector = open_inspector(memory, detect(memory));
  Json plot = inspector->query("plot", plot_args(1, "x"), nullptr);
  REQUIRE(plot.find("sampled"));
  const uint64_t chunks = plot["sampled"]["chunks"].as_uint();
  CHECK(chunks >= 100);
  CHECK(from_index.requests <= 2 * chunks + 10);
  // A plot of 10 chunks reads those (a record walk read every chunk's head: a request each).
  Pass sampled = run(indexed, false, 10, false, "x");
  CHECK(sampled.answer.find("\"chunks_read\":10") != std::string::npos);
  CHECK(sampled.requests <= 2 * 10 + 10);
  Pass planned = run(indexed, true, 0, true, "x");
  CHECK(planned.answer == scanned.answer);
  CHECK(planned.requests <= 10);
}

// A caller that stops after a message or few (the Data tab's page, one image) announces nothing:
// a remote file would fetch a window of chunks for one message.
TEST_CASE("planned reads: a walk without read-ahead fetches no window") {
  std::vector<uint8_t> bytes = chunky_bag("lz4");
  Remote remote(bytes, true);
  auto inspector = open_inspector(remote.cached, detect(remote.cached));
  rosbag::Bag& bag = *rosbag::opened_bag(*inspector);
  rosbag::IterateOptions options;
  options.read_ahead = false;
  uint64_t seen = 0;
  rosbag::for_each_message(remote.cached, bag, options, [&](const rosbag::MessageView&) { return ++seen < 3; }, nullptr);
  CHECK(seen == 3);
  CHECK(remote.windows == 0);
  options.read_ahead = true;
  seen = 0;
  rosbag::for_each_message(remote.cached, bag, options, [&](const rosbag::MessageView&) { return ++seen < 3; }, nullptr);
  CHECK(remote.windows == 1);
}

TEST_CASE("planned reads: the structure tree's first page of a remote file, not a round trip a chunk") {
  // The bag's chunk nodes read each chunk's header (their compression): one window for the page.
  for (bool planned : {false, true}) {
    CAPTURE(planned);
    std::vector<uint8_t> bytes = chunky_bag("lz4");
    Remote remote(bytes, planned);
    auto inspector = open_remote(remote);
    std::vector<TreeNode> page = inspector->children("", 0, 100);
    REQUIRE(page.size() == 100);
    CHECK(page[1].label.find("chunk 0 (lz4, ") == 0);
    CHECK(page[99].label.find("chunk 98 (lz4, ") == 0);
    if (planned) {
      CHECK(remote.windows == 1);
      CHECK(remote.window_ranges == 99);
      CHECK(remote.requests.read_calls() <= 2);
    } else {
      CHECK(remote.requests.read_calls() >= 99);
    }
  }
  // The MCAP's top-level records come from its chunk index: only what lies between chunks and the
  // summary are read, whatever the chunks.
  std::vector<uint8_t> bytes = chunky_mcap();
  Remote remote(bytes, true);
  auto inspector = open_remote(remote);
  uint64_t roots = inspector->child_count("");
  CHECK(roots > 3 * 100);  // the chunks and their MessageIndex records, and the summary's
  CHECK(inspector->children("", 0, 50).size() == 50);
  CHECK(remote.requests.read_calls() + remote.windows <= 4);
}

TEST_CASE("planned reads: a bag's listing of a topic's times (the images view) reads its heads, then its IndexData, a window at a time") {
  std::vector<uint8_t> bytes = chunky_bag("lz4");
  std::vector<uint64_t> want;
  for (bool planned : {false, true}) {
    CAPTURE(planned);
    Remote remote(bytes, planned);
    auto inspector = open_remote(remote);
    const size_t chunks = rosbag::opened_bag(*inspector)->chunks.size();
    REQUIRE(chunks >= 100);
    WalkOptions listing;
    listing.times_only = true;
    std::vector<uint64_t> times;
    std::string error;
    CHECK(message_source_of(*inspector)->walk_with({"/x"}, listing, [&](const SourceMessage& m) {
      times.push_back(m.time_ns);
      return true;
    }, nullptr, &error));
    CHECK(error == "");
    CHECK(times.size() == 2000);
    CHECK(std::is_sorted(times.begin(), times.end()));
    if (!planned) {
      want = times;
      CHECK(remote.requests.read_calls() >= chunks);  // a head and an IndexData each, a block or two
    } else {
      CHECK(times == want);
      CHECK(remote.windows == 2);
      CHECK(remote.window_ranges >= 2 * chunks - 2);
      CHECK(remote.requests.read_calls() <= 4);
    }
  }
}

// A BDDF file: 3,000 samples of a POD series (blocks of 4) and 1,000 protobuf messages, each
// block between 16 KB ones of another series, so that each is a request of its own by URL.
std::vector<uint8_t> spread_bddf() {
  std::vector<uint8_t> bytes;
  bddf::Writer writer([&bytes](const void* data, size_t size) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    return true;
  }, {});
  int imu = writer.add_pod_channel("imu", 9, {3}, {}, 48);
  int state = writer.add_message_channel("state", "demo.State");
  int other = writer.add_message_channel("other", "demo.Other");
  for (uint32_t i = 0; i < 3000; ++i) {
    int64_t ns = static_cast<int64_t>(kStartNs) + int64_t{i} * 1000000;
    float sample[3] = {0.5f * i, -1.0f * i, 9.8f};
    REQUIRE(writer.write_pod_sample(imu, ns, sample));
    if (i % 3) continue;
    // {1: i, 2: i / 4.0}: a message raw protobuf decoding reads by field number.
    std::string message = "\x08";
    for (uint32_t v = i; ; v >>= 7) {
      message += static_cast<char>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80) break;
    }
    message += "\x11" + float64(i / 4.0);
    REQUIRE(writer.write_block(state, ns, message.data(), message.size()));
    std::string pad = filler(i) + filler(i + 1) + filler(i + 2) + filler(i + 3);
    REQUIRE(writer.write_block(other, ns, pad.data(), pad.size()));
  }
  REQUIRE(writer.finish());
  return bytes;
}

TEST_CASE("planned reads: a BDDF series' export fetches its blocks a window at a time, not a request a block") {
  std::vector<uint8_t> bytes = spread_bddf();
  for (const char* series : {"imu", "state"}) {
    CAPTURE(series);
    auto export_of = [&](bool planned, uint64_t window_bytes) {
      Remote remote(bytes, planned, window_bytes);
      auto inspector = open_remote(remote);
      StringSink sink;
      ExportResult result = inspector->export_rows(series, ExportRequest(), sink, nullptr);
      REQUIRE(result.error == "");
      Pass out;
      out.answer = sink.text();
      return counted(remote, out);
    };
    Pass alone = export_of(false, 0);
    Pass planned = export_of(true, 16 * 1024);
    CHECK(planned.answer == alone.answer);
    CHECK(alone.answer.size() > 20000);
    CHECK(alone.requests >= 700);                // about a block a request: 750 of imu, 1,000 of state
    CHECK(planned.window_ranges >= 750);         // every block planned (state's two passes: twice)
    CHECK(planned.windows >= 4);                 // 16 KB at a time
    CHECK(planned.most_preloaded <= 16 * 1024);
    CHECK(planned.requests <= 4);                // the planned lengths hold each block whole
    CHECK(planned.left_preloaded == 0);          // released when the export ends
  }
}
