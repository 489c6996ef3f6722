// The first view's reads named ahead (rosbag2/first_reads.cpp, the format table's
// plan_first_reads): the page fetches each wave at once, then opens the bag. On a writer-made
// bag, behind the page's cache of a folder's file (wasm/js_folder.cpp: 4 KiB blocks), the summary
// is the same, and the reads that still go to the files one by one (each a round trip for a
// remote bag) are a few instead of one per index leaf.
#include <unistd.h>

#include <filesystem>
#include <cstring>
#include <map>

#include "core/format_table.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/writer.h"
#include "test_rosbag2_support.h"

using namespace logscope;

namespace {

// What the page holds after fetching waves: whole ranges of each file, served before the file.
struct Fetched {
  std::map<std::string, std::map<uint64_t, std::vector<uint8_t>>> ranges;  // file -> offset -> bytes
  uint64_t bytes = 0;
  // Serves [offset, offset + length) when fetched ranges cover it without a gap.
  bool serve(const std::string& file, uint64_t offset, uint8_t* out, size_t length) const {
    auto f = ranges.find(file);
    if (f == ranges.end()) return false;
    uint64_t at = offset, end = offset + length;
    while (at < end) {
      auto it = f->second.upper_bound(at);
      if (it == f->second.begin()) return false;
      --it;
      if (it->first + it->second.size() <= at) return false;
      size_t take = static_cast<size_t>(std::min<uint64_t>(end, it->first + it->second.size()) - at);
      std::memcpy(out + (at - offset), it->second.data() + (at - it->first), take);
      at += take;
    }
    return true;
  }
};

// A directory's files behind the page's block cache, counting the reads that reach the files.
class PageFolder : public Folder {
 public:
  PageFolder(const std::string& path, const Fetched& fetched) : fetched_(fetched) {
    std::string error;
    inner_ = DirectoryFolder::open_directory(path, {}, &error);
    REQUIRE_MESSAGE(inner_, error);
  }
  std::string name() const override { return inner_->name(); }
  std::vector<std::string> files() override { return inner_->files(); }
  std::unique_ptr<ByteSource> open(const std::string& file, std::string* error) override {
    auto source = inner_->open(file, error);
    if (!source) return nullptr;
    return std::make_unique<Cached>(std::move(source), file, this);
  }
  uint64_t requests = 0;

 private:
  class Cached : public ByteSource {
   public:
    Cached(std::unique_ptr<ByteSource> file, std::string name, PageFolder* folder)
        : file_(std::move(file)),
          counted_(file_->size(), [this, name = std::move(name), folder](uint64_t offset, void* destination, size_t length) -> size_t {
            length = static_cast<size_t>(std::min<uint64_t>(length, file_->size() - std::min(offset, file_->size())));
            if (folder->fetched_.serve(name, offset, static_cast<uint8_t*>(destination), length)) return length;
            ++folder->requests;
            return file_->read(offset, destination, length);
          }),
          cached_(counted_, options()) {}
    uint64_t size() const override { return file_->size(); }
    size_t read(uint64_t offset, void* destination, size_t length) override { return cached_.read(offset, destination, length); }

   private:
    static CachedByteSource::Options options() {  // wasm/js_folder.cpp's
      CachedByteSource::Options o;
      o.block_size = 4 * 1024;
      o.max_fetch = 8 * 1024 * 1024;
      o.capacity = 16 * 1024 * 1024;
      return o;
    }
    std::unique_ptr<ByteSource> file_;
    CallbackByteSource counted_;
    CachedByteSource cached_;
  };
  std::unique_ptr<Folder> inner_;
  const Fetched& fetched_;
};

struct Opened {
  std::string summary;
  uint64_t requests = 0;
  int waves = 0;
  uint64_t fetched_bytes = 0;
};

Opened open_summary(const std::string& bag, bool plan) {
  Fetched fetched;
  PageFolder folder(bag, fetched);
  Opened o;
  Detection detection = detect_folder(folder);
  REQUIRE(detection.family == "rosbag2");
  if (plan) {
    const FormatEntry* entry = find_format(detection.family);
    REQUIRE(entry);
    REQUIRE(entry->plan_first_reads);
    auto planner = entry->plan_first_reads(folder);
    for (std::vector<FolderRange> wave; !(wave = planner->next()).empty();) {
      ++o.waves;
      REQUIRE(o.waves < 10);
      std::string error;
      for (const FolderRange& r : wave) {  // the page fetches these concurrently: not counted as requests
        auto file = DirectoryFolder::open_directory(bag, {}, &error)->open(r.file, &error);
        REQUIRE(file);
        fetched.ranges[r.file][r.offset] = file->read_vector(r.offset, static_cast<size_t>(r.length));
        fetched.bytes += r.length;
      }
    }
  }
  auto inspector = open_folder_inspector(folder, detection);
  REQUIRE(inspector);
  o.summary = inspector->summary().to_json().dump();
  o.requests = folder.requests;
  o.fetched_bytes = fetched.bytes;
  return o;
}

}  // namespace

TEST_CASE("rosbag2 first reads: a 150 MB bag's summary is read in a few waves and a few requests, the same summary") {
  char templ[] = "/tmp/logscope-rosbag2-first-XXXXXX";
  REQUIRE(::mkdtemp(templ));
  std::string bag = std::string(templ) + "/demo_bag";
  std::string error;
  REQUIRE_MESSAGE(rosbag2::write_demo_bag(bag, 150u << 20, &error), error);
  uint64_t db_size = std::filesystem::file_size(bag + "/demo_bag_0.db3");

  Opened one_by_one = open_summary(bag, false);
  Opened planned = open_summary(bag, true);
  MESSAGE("one by one: " << one_by_one.requests << " requests; planned: " << planned.waves << " waves (" << planned.fetched_bytes
                         << " bytes) and " << planned.requests << " requests");
  CHECK(planned.summary == one_by_one.summary);
  CHECK(planned.waves >= 2);  // the root, then its leaves at least
  CHECK(planned.waves <= 5);
  CHECK(planned.requests * 4 < one_by_one.requests);
  CHECK(planned.fetched_bytes * 50 < db_size);  // the index's pages only: under 2 %
  std::filesystem::remove_all(templ);
}
