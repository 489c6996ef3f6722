#include "js_folder.h"

#include <algorithm>

#include "core/format_table.h"
#include "core/json.h"

using emscripten::val;

namespace logscope {
namespace {

// One file of the folder: the JS read, counted, behind a block cache like the single file's.
class JsFile : public ByteSource {
 public:
  JsFile(val read, size_t index, uint64_t size, JsFolder::Counts* counts)
      : read_(std::move(read)),
        source_(size, [this, index, counts](uint64_t offset, void* destination, size_t length) -> size_t {
          val bytes = read_(static_cast<double>(index), static_cast<double>(offset), static_cast<double>(length),
                            static_cast<double>(reinterpret_cast<uintptr_t>(destination)));
          size_t n = 0;
          if (bytes.isNumber()) {
            n = std::min<size_t>(length, static_cast<size_t>(bytes.as<double>()));
          } else if (!bytes.isNull() && !bytes.isUndefined()) {
            size_t got = bytes["length"].as<size_t>();
            n = std::min<size_t>(length, got);
            val(emscripten::typed_memory_view(n, static_cast<uint8_t*>(destination)))
                .call<void>("set", n < got ? bytes.call<val>("subarray", 0, n) : bytes);
          }
          counts->bytes += n;
          counts->calls += 1;
          return n;
        }),
        cached_(source_, options()) {}
  uint64_t size() const override { return source_.size(); }
  size_t read(uint64_t offset, void* destination, size_t length) override { return cached_.read(offset, destination, length); }
  size_t read_once(uint64_t offset, void* destination, size_t length) override { return cached_.read_once(offset, destination, length); }
  void will_read(uint64_t offset, uint64_t length) override { cached_.will_read(offset, length); }
  void expect_run(uint64_t length) override { cached_.expect_run(length); }

 private:
  // SQLite asks for pages (4 KiB in rosbag2's databases) scattered over the file: blocks of one
  // page, not wasm/bindings.cpp's 16 KiB, which would fetch the overflow pages around each leaf
  // (a per-topic count read 47 % of a writer-made bag so, 9 % with 4 KiB; tests/codec/test_rosbag2_io.cpp).
  // Sequential reads still grow to 8 MiB. A smaller capacity: a bag has several files open at once.
  static CachedByteSource::Options options() {
    CachedByteSource::Options o;
    o.block_size = 4 * 1024;
    o.max_fetch = 8 * 1024 * 1024;
    o.capacity = 16 * 1024 * 1024;
    return o;
  }
  val read_;
  CallbackByteSource source_;
  CachedByteSource cached_;
};

}  // namespace

JsFolder::JsFolder(std::string name, const std::string& files_json, val read) : name_(std::move(name)), read_(std::move(read)) {
  auto parsed = Json::parse(files_json);
  if (parsed)
    for (const Json& f : parsed->elements()) {
      const Json* n = f.find("name");
      const Json* s = f.find("size");
      if (n && s) entries_.push_back({n->as_string(), s->as_uint()});
    }
}

std::vector<std::string> JsFolder::files() {
  std::vector<std::string> names;
  for (const Entry& e : entries_) names.push_back(e.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::unique_ptr<ByteSource> JsFolder::open(const std::string& file, std::string* error) {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].name == file) return std::make_unique<JsFile>(read_, i, entries_[i].size, &counts_);
  if (error) *error = file + " is not in " + name_;
  return nullptr;
}

int JsFolder::index_of(const std::string& file) const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].name == file) return static_cast<int>(i);
  return -1;
}

JsFolderReadPlan::JsFolderReadPlan(const std::string& name, const std::string& files_json, val read) : folder_(name, files_json, std::move(read)) {
  Detection detection = detect_folder(folder_);
  const FormatEntry* entry = find_format(detection.family);
  if (entry && entry->plan_first_reads) plan_ = entry->plan_first_reads(folder_);
}

std::string JsFolderReadPlan::next() {
  Json wave = Json::array();
  if (!plan_) return wave.dump();
  for (const FolderRange& r : plan_->next()) {
    int index = folder_.index_of(r.file);
    if (index < 0) continue;
    Json range = Json::array();
    range.push_back(index);
    range.push_back(static_cast<double>(r.offset));
    range.push_back(static_cast<double>(r.length));
    wave.push_back(std::move(range));
  }
  return wave.dump();
}

uint64_t JsFolder::total_size() const {
  uint64_t total = 0;
  for (const Entry& e : entries_) total += e.size;
  return total;
}

}  // namespace logscope
