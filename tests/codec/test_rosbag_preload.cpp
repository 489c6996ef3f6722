// The later facts as the page reads them: the worker fetches FormatInspector::info_report_reads
// (a bag's chunk headers) all at once and preloads them into the cache (CachedByteSource::preload),
// then runs info_report(). The report must be the one info_report() gives alone, on our bags,
// damaged ones and the real ones, and the file must be asked for nothing more.
#include <dirent.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/inspector.h"
#include "inspector.h"
#include "rosbag/inspector.h"
#include "rosbag/model.h"
#include "rosbag/writer.h"
#include "test_support.h"

namespace {

using namespace logscope;

// Many small chunks (a few messages each) of every codec.
std::vector<uint8_t> chunky_bag(const std::string& compression) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = compression;
  options.chunk_threshold = 400;
  rosbag::BagWriter writer(sink, options);
  uint32_t id = writer.add_connection("/ticks", "std_msgs/UInt32", "304a39449588c7f8ce2df6e8001c5fce", "uint32 data\n");
  for (uint32_t i = 0; i < 600; ++i) REQUIRE(writer.write(id, rosbag::Time{1700000000u + i, 0}, std::string(4 + i % 90, char('a' + i % 7))));
  REQUIRE(writer.close());
  return std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end());
}

struct Outcome {
  std::string report;            // info_report's JSON
  uint64_t read_after_preload = 0;  // bytes info_report asked the file for
  size_t ranges = 0;
  size_t preloaded = 0;           // ranges the cache kept
};

// Opens `file` as the wasm bindings do (counting, then cached), and runs info_report, first
// preloading its reads (each cut to `keep` bytes) when `preload` is set.
Outcome later_facts(ByteSource& file, bool preload, size_t keep = SIZE_MAX, size_t capacity = 64u << 20) {
  CountingByteSource counting(file);
  CachedByteSource::Options options;
  options.block_size = 16 * 1024;
  options.capacity = capacity;
  options.max_fetch = std::min<size_t>(8u << 20, capacity / 2);
  CachedByteSource cached(counting, options);
  auto inspector = open_inspector(cached, detect(cached));
  REQUIRE(inspector);
  inspector->summary();
  Outcome out;
  if (preload) {
    std::vector<ByteRange> ranges = inspector->info_report_reads();
    out.ranges = ranges.size();
    for (const ByteRange& range : ranges) {
      std::vector<uint8_t> bytes = file.read_vector(range.offset, std::min<uint64_t>(range.length, keep));
      out.preloaded += cached.preload(range.offset, bytes.data(), bytes.size());
    }
  }
  counting.reset();
  out.report = inspector->info_report(nullptr).to_json().dump();
  out.read_after_preload = counting.bytes_read();
  CHECK(inspector->info_report_reads().empty());  // every header is known now
  return out;
}

size_t chunk_count(const std::vector<uint8_t>& bytes) {
  MemoryByteSource memory(bytes.data(), bytes.size());
  auto inspector = open_inspector(memory, detect(memory));
  return rosbag::opened_bag(*inspector)->chunks.size();
}

}  // namespace

TEST_CASE("later facts with their reads preloaded: the same report, and the file is asked for nothing more") {
  for (const char* compression : {"none", "lz4", "bz2"}) {
    CAPTURE(compression);
    std::vector<uint8_t> bytes = chunky_bag(compression);
    MemoryByteSource file(bytes.data(), bytes.size());
    Outcome alone = later_facts(file, false);
    Outcome preloaded = later_facts(file, true);
    CHECK(preloaded.ranges == chunk_count(bytes));  // one per chunk: they lie apart
    CHECK(preloaded.ranges > 50);
    CHECK(preloaded.preloaded == preloaded.ranges);
    CHECK(alone.read_after_preload > 0);
    CHECK(preloaded.read_after_preload == 0);
    CHECK(preloaded.report == alone.report);
    CHECK(preloaded.report.find("\"compression\"") != std::string::npos);
  }
}

TEST_CASE("later facts: a preloaded range too short for its header, or one the cache refuses, is read from the file") {
  std::vector<uint8_t> bytes = chunky_bag("lz4");
  MemoryByteSource file(bytes.data(), bytes.size());
  Outcome alone = later_facts(file, false);
  // 10 bytes hold the header length and a little of the header: the rest is read as before.
  Outcome cut = later_facts(file, true, 10);
  CHECK(cut.preloaded == cut.ranges);
  CHECK(cut.read_after_preload > 0);
  CHECK(cut.report == alone.report);
  // A cache of 32 KB keeps 8 KB of preloads (64 of the 124 headers' 128 bytes), then refuses.
  Outcome capped = later_facts(file, true, SIZE_MAX, 32 * 1024);
  CHECK(capped.preloaded > 0);
  CHECK(capped.preloaded < capped.ranges);
  CHECK(capped.read_after_preload > 0);
  CHECK(capped.report == alone.report);
}

TEST_CASE("later facts: damaged chunk headers give the same problems, preloaded or not") {
  std::vector<uint8_t> bytes = chunky_bag("none");
  MemoryByteSource intact(bytes.data(), bytes.size());
  auto inspector = open_inspector(intact, detect(intact));
  const auto& chunks = rosbag::opened_bag(*inspector)->chunks;
  REQUIRE(chunks.size() > 20);
  // An implausible header length, and a header that is not a chunk's.
  std::fill_n(bytes.begin() + chunks[3].pos, 4, 0xff);
  std::fill_n(bytes.begin() + chunks[7].pos + 4, 12, 'x');
  MemoryByteSource damaged(bytes.data(), bytes.size());
  Outcome alone = later_facts(damaged, false);
  Outcome preloaded = later_facts(damaged, true);
  CHECK(preloaded.report == alone.report);
  CHECK(alone.report.find("rosbag.chunk") != std::string::npos);
}

TEST_CASE("later facts preloaded on every sample bag: the same report as read one header at a time") {
  if (!test_support::have_samples()) return;
  int compared = 0;
  for (std::string folder : {"rosbag", "rosbag/real"}) {
    std::string dir = test_support::samples_dir() + "/" + folder;
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
      while (dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name.find(".bag") != std::string::npos && name.find(".txt") == std::string::npos) names.push_back(name);
      }
      ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      CAPTURE(name);
      std::string error;
      auto file = FileByteSource::open(dir + "/" + name, &error);
      REQUIRE(file);
      if (rosbag::format_of(detect(*file)) != rosbag::Format::RosbagV20) continue;
      Outcome alone = later_facts(*file, false);
      Outcome preloaded = later_facts(*file, true);
      CHECK(preloaded.report == alone.report);
      if (preloaded.preloaded == preloaded.ranges) CHECK(preloaded.read_after_preload == 0);
      ++compared;
    }
  }
  CHECK(compared >= 15);
}
