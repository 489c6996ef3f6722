// No allocation trusts a length from the file: lengths of 2^56 and 2^32 stamped over every writer
// file, chunks that claim 4 GB, and bz2 and lz4 bombs (a few KB that decompress to 32 MB while
// the chunk declares 4 KB). This executable replaces operator new to record the largest single
// allocation, and each case asserts it stays under a fixed cap. Under ASan (build/sanitize) the
// sanitizer owns operator new: the inputs still run, the sizes are not measured.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "../fuzz/exercise.h"
#include "bddf/inspector.h"
#include "bddf/model.h"
#include "bddf/writer.h"
#include "../fuzz/tiny_files.h"
#include "test_support.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOGSCOPE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LOGSCOPE_ASAN 1
#endif

namespace {
std::atomic<size_t> g_largest{0};
}

#ifndef LOGSCOPE_ASAN
void* operator new(size_t size) {
  size_t seen = g_largest.load(std::memory_order_relaxed);
  while (size > seen && !g_largest.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
  }
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
#endif

namespace {

using Bytes = std::vector<uint8_t>;
constexpr bool kMeasured =
#ifdef LOGSCOPE_ASAN
    false;
#else
    true;
#endif

// The largest single allocation made while `run` ran.
template <typename Run>
size_t largest_during(Run&& run) {
  g_largest = 0;
  run();
  return g_largest.load();
}

// A V2.0 bag with one chunk holding one message of `zeros` zero bytes, its chunk header's `size`
// (the declared uncompressed size) then overwritten with `declared`.
Bytes bomb_bag(const std::string& compression, size_t zeros, uint32_t declared) {
  logscope::rosbag::MemorySink sink;
  logscope::rosbag::WriterOptions options;
  options.compression = compression;
  options.chunk_threshold = zeros + 4096;
  logscope::rosbag::BagWriter writer(sink, options);
  uint32_t c = writer.add_connection("/zeros", "std_msgs/UInt8MultiArray", "82373f1612381bb6ee473b5cd6f5d89c", "uint8[] data\n");
  std::string message(4 + zeros, '\0');
  uint32_t n = static_cast<uint32_t>(zeros);
  for (int k = 0; k < 4; ++k) message[k] = static_cast<char>(n >> (8 * k));
  writer.write(c, logscope::rosbag::Time{1700000000, 0}, message);
  writer.close();
  Bytes bag(sink.bytes.begin(), sink.bytes.end());
  std::string text(bag.begin(), bag.end());
  size_t at = text.find("compression=");
  at = text.find("size=", at);
  REQUIRE(at != std::string::npos);
  for (int k = 0; k < 4; ++k) bag[at + 5 + k] = static_cast<uint8_t>(declared >> (8 * k));
  return bag;
}

logscope::Report check_of(const Bytes& bytes) {
  logscope::MemoryByteSource source(bytes);
  auto inspector = logscope::open_inspector(source, logscope::detect(source));
  REQUIRE(inspector);
  return inspector->check(nullptr);
}

}  // namespace

TEST_CASE("allocation caps: 2^56, 2^63 and 2^32 lengths stamped over every writer file allocate at most 32 MB") {
  using logscope::carla::Variant;
  Variant ue5;
  ue5.doubles = true;
  const std::vector<std::pair<std::string, Bytes>> files = {
      {"bddf", logscope_fuzz::tiny_bddf()},          {"bag none", logscope_fuzz::tiny_bag(200, "none")},
      {"bag lz4", logscope_fuzz::tiny_bag(200, "lz4")}, {"bag bz2", logscope_fuzz::tiny_bag(200, "bz2")},
      {"bag v1.2", logscope_fuzz::tiny_bag(102)},     {"carla", logscope_fuzz::tiny_carla()},
      {"carla ue5", logscope_fuzz::tiny_carla(ue5)}};
  const uint64_t values[] = {1ull << 56, 1ull << 63, 0x100000000ull, 0xFFFFFFFFull};
  constexpr size_t kCap = 32u << 20;
  for (const auto& file : files) {
    const std::string& name = file.first;  // not structured bindings: the message macros capture them
    const Bytes& original = file.second;
    size_t worst = 0, worst_at = 0, variants = 0;
    // Every offset of the first 128 bytes (headers), then every 7th: lengths live everywhere.
    // Under ASan, which measures nothing here and costs four times as much per run, every 21st
    // (still odd, so the four values and both widths keep turning).
    const size_t stride = kMeasured ? 7 : 21;
    for (size_t at = 0; at + 8 <= original.size(); at += at < 128 ? 1 : stride) {
      for (uint64_t value : {values[at % 4]}) {  // the four in turn
        Bytes b = original;
        int width = value > 0xFFFFFFFFull || at % 2 ? 8 : 4;
        if (at + width > b.size()) continue;
        for (int k = 0; k < width; ++k) b[at + k] = static_cast<uint8_t>(value >> (8 * k));
        size_t largest = largest_during([&] { logscope_fuzz::exercise(b.data(), b.size()); });
        ++variants;
        if (largest > worst) worst = largest, worst_at = at;
      }
    }
    MESSAGE(name << ": " << variants << " variants, largest allocation " << worst << " bytes (stamp at " << worst_at << ")");
    if (kMeasured) CHECK_MESSAGE(worst <= kCap, name << ": " << worst << " bytes allocated for a stamp at " << worst_at);
  }
}

TEST_CASE("allocation caps: a chunk claiming 4 GB is refused without allocating it") {
  for (const char* compression : {"bz2", "lz4", "none"}) {
    CAPTURE(compression);
    Bytes bag = bomb_bag(compression, 1000, 0xFFFFFFFFu);
    logscope::Report report;
    size_t largest = largest_during([&] { report = check_of(bag); });
    MESSAGE(std::string(compression) << ": largest allocation " << largest << " bytes");
    CHECK(report.count(logscope::Severity::Error) > 0);
    if (kMeasured) CHECK(largest <= (16u << 20));
    logscope_fuzz::exercise(bag.data(), bag.size());
  }
}

TEST_CASE("allocation caps: bz2 and lz4 bombs stop at the declared size") {
  for (const char* compression : {"bz2", "lz4"}) {
    CAPTURE(compression);
    // 32 MB of zeros compress to a few KB; the chunk declares 4 KB.
    Bytes bag = bomb_bag(compression, 32u << 20, 4096);
    CHECK(bag.size() < (1u << 20));
    logscope::Report report;
    size_t largest = largest_during([&] { report = check_of(bag); });
    MESSAGE(std::string(compression) << " bomb of " << bag.size() << " bytes: largest allocation " << largest << " bytes");
    CHECK(report.count(logscope::Severity::Error) > 0);
    // bz2 output grows only up to the declared size + 1; lz4 gets one maximum block (4 MB) of slack.
    if (kMeasured) CHECK(largest <= (16u << 20));
  }
}

// A BDDF file's series block index grows with its blocks (300 MB at 100 GB). Opening decodes it a
// window at a time; the check walks every block for the checksum and must not then hold and parse
// the index whole, in the pulled check or in the page's pushed one.
namespace {
// 600,000 one-byte blocks of one series: its block index is 11 MiB, the file's last third.
Bytes many_block_bddf() {
  Bytes file;
  logscope::bddf::Writer writer([&file](const void* data, size_t size) {
    file.insert(file.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    return true;
  }, {});
  int series = writer.add_message_channel("tick", "Tick");
  for (int64_t i = 0; i < 600000; ++i) {
    uint8_t payload = static_cast<uint8_t>(i);
    REQUIRE(writer.write_block(series, 1700000000000000000ll + i * 1000, &payload, 1));
  }
  REQUIRE(writer.finish());
  return file;
}
}  // namespace

TEST_CASE("allocation caps: a BDDF check passes over an 11 MiB block index instead of holding it") {
  Bytes file = many_block_bddf();
  logscope::MemoryByteSource source(file);
  auto inspector = logscope::open_inspector(source, logscope::detect(source));
  REQUIRE(inspector);
  logscope::Report pulled;
  size_t largest = largest_during([&] { pulled = inspector->check(nullptr); });
  MESSAGE("a " << file.size() << "-byte file; largest allocation of its check " << largest << " bytes");
  CHECK(pulled.count(logscope::Severity::Error) == 0);
  CHECK(pulled.details.find("checksum")->find("status")->as_string() == "valid");
  // The index runs from its block to the FileIndex, whose offset the trailer holds.
  uint64_t index_at = logscope::bddf::file_model(*inspector)->series.at(0).block_index_file_offset, file_index_at = 0;
  std::memcpy(&file_index_at, &file[file.size() - 32], 8);
  CHECK(file_index_at - index_at > (11u << 20));
  if (kMeasured) CHECK(largest < (10u << 20));

  std::unique_ptr<logscope::ByteFeed> feed = inspector->check_feed();
  REQUIRE(feed);
  logscope::Json fed;
  largest = largest_during([&] {
    for (size_t at = 0; at < file.size(); at += 1u << 20) feed->update(file.data() + at, std::min<size_t>(1u << 20, file.size() - at));
    fed = feed->finish("", false);
  });
  MESSAGE("largest allocation of its pushed check " << largest << " bytes");
  CHECK(fed.dump() == pulled.to_json().dump());
  if (kMeasured) CHECK(largest < (2u << 20));
}

// The same file with its trailer's index offset broken opens by a scan of every block; the scan
// checks the large index a window at a time (it names the block, it does not need its entries)
// instead of reading it whole.
TEST_CASE("allocation caps: a BDDF opened by a scan checks an 11 MiB block index in windows") {
  Bytes file = many_block_bddf();
  uint64_t nowhere = 123;
  std::memcpy(&file[file.size() - 32], &nowhere, 8);
  logscope::MemoryByteSource source(file);  // (its own copy of the bytes: before the measure)
  logscope::Report report;
  size_t largest = largest_during([&] {
    auto inspector = logscope::open_inspector(source, logscope::detect(source));
    REQUIRE(inspector);
    report = inspector->check(nullptr);
  });
  MESSAGE("largest allocation of the scan and its check " << largest << " bytes");
  std::vector<std::string> codes;
  for (const logscope::Problem& p : report.problems)
    if (p.severity == logscope::Severity::Error) codes.push_back(p.code);
  // The offset, and the checksum it changed: nothing about the index block itself.
  CHECK(codes == std::vector<std::string>{"bddf.index.bad_offset", "bddf.checksum.mismatch"});
  CHECK(report.details.find("recovery")->find("recovered_blocks")->as_uint() == 600000);
  if (kMeasured) CHECK(largest < (10u << 20));
}

// A CARLA log has no index: its map comes from the scan, one structure a frame. Kept one by one
// they took 480 MB for a 10 GB log's 2.8 million frames; they now join their run as they are
// added (FileMapBuilder::join_runs_as_added), with and without the full check, and the map is the
// same: the header, one run of every frame, and a cut's damage.
TEST_CASE("allocation caps: a CARLA log's map joins its 60,000 frames as they come") {
  using namespace logscope::carla;
  LogWriter w{Variant()};
  w.header(1637671165, "Town05");
  const uint64_t frames = 60000;
  for (uint64_t f = 1; f <= frames; ++f) {
    w.frame_start(f, f == frames ? -1.0 : 0.05, (f - 1) * 0.05);
    w.write(packets::FrameCounter, {f});
    w.frame_end();
  }
  Bytes file = w.take();
  for (bool cut : {false, true}) {
    CAPTURE(cut);
    Bytes bytes(file.begin(), file.end() - (cut ? 7 : 0));
    logscope::MemoryByteSource source(bytes);
    auto inspector = logscope::open_inspector(source, logscope::detect(source));
    REQUIRE(inspector);
    for (bool full_check : {false, true}) {
      CAPTURE(full_check);
      inspector->file_map(false, nullptr);  // the scan, kept by the inspector, outside the measure
      logscope::FileMap map;
      size_t largest = largest_during([&] { map = inspector->file_map(full_check, nullptr); });
      MESSAGE("largest allocation of the map of " << frames << " frames: " << largest << " bytes");
      if (kMeasured) CHECK(largest < (256u << 10));
      REQUIRE(map.regions.size() >= 2);
      CHECK(map.regions[0].kind == "header");
      CHECK(map.regions[1].kind == "frame");
      CHECK(map.regions[1].count == (cut ? frames - 1 : frames));
      CHECK(map.regions[1].label == "frame 1");
      CHECK(map.regions[1].last_label == "frame " + std::to_string(cut ? frames - 1 : frames));
      if (cut) {
        CHECK(map.regions[2].kind == "damaged");
        CHECK(map.regions[2].offset == map.regions[1].offset + map.regions[1].length);
        CHECK(map.regions[2].offset + map.regions[2].length == bytes.size());
      } else {
        CHECK(map.regions[1].offset + map.regions[1].length == bytes.size());
      }
    }
  }
}
