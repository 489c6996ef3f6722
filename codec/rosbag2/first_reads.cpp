// The first view's reads named ahead (core/folder.h FolderReadPlan): a bag's summary counts each
// database's messages from timestamp_idx (count(*) walks the index's leaves, database.h), and those
// leaves lie scattered among the table's pages; then it reads the first and last rows by time
// (walk_index_ends), which lie in the table's first and last leaves. Read one SQLite page at a
// time, that is one round trip per page: 520 Range requests for a 1.18 GB bag. The plan names the
// index's pages and the table's edges level by level from their roots, each level from the
// interior pages of the one before (their child page numbers,
// https://www.sqlite.org/fileformat2.html#b_tree_pages), so the page fetches a level at once: a
// few waves instead of hundreds of reads. SQLite still does all the reading; the plan only says
// where it will read, and a read it did not name goes to the file as before.
#include <algorithm>
#include <optional>

#include "rosbag2/bag.h"
#include "rosbag2/database.h"
#include "rosbag2/inspector.h"
#include "rosbag2/sqlite_vfs.h"

namespace logscope::rosbag2 {
namespace {

// More than this in all (the index of a bag of ~50 GB) and the plan stops: the rest is read as before.
constexpr uint64_t kMaxPlannedBytes = 64ull << 20;
constexpr int kMaxDepth = 8;  // a b-tree of 4 KiB pages this deep would hold billions of rows

uint32_t be32(const uint8_t* p) { return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3]; }
uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }

// Rows by time at each end of the table (walk_index_ends reads 48 each way): as many leaves at
// each edge, for leaves of a single row (camera frames).
constexpr size_t kEdgeLeaves = 48;

// One b-tree of a database: its pages named last, in key order.
struct Tree {
  uint8_t interior = 0, leaf = 0;  // page types: 2 and 10 for an index, 5 and 13 for a table
  size_t edge = 0;                 // 0: every page; else the first and last `edge` of each level
  std::vector<uint32_t> level;
};

class FirstReadsPlan : public FolderReadPlan {
 public:
  explicit FirstReadsPlan(Folder& folder) {
    std::vector<std::string> names = folder.files();
    for (const std::string& name : names) {
      if (!ends_with(name, ".db3")) continue;
      Database d;
      d.name = name;
      std::string error;
      // A -wal with rows may hold newer copies of the trees' pages than the database: no plan.
      if (std::find(names.begin(), names.end(), name + "-wal") != names.end()) {
        auto wal = folder.open(name + "-wal", &error);
        if (!wal || wal->size() > 0) continue;
      }
      d.source = folder.open(name, &error);
      if (!d.source) continue;
      auto reader = SqliteReader::open(*d.source, nullptr, &error);
      if (!reader) continue;
      auto page_size = query_integer(*reader, "PRAGMA page_size", &error);
      auto index = query_integer(*reader, "SELECT rootpage FROM sqlite_schema WHERE type = 'index' AND name = 'timestamp_idx'", &error);
      auto table = query_integer(*reader, "SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'messages'", &error);
      if (!page_size || *page_size < 512 || *page_size > 65536) continue;
      d.page_size = static_cast<uint32_t>(*page_size);
      d.pages = d.source->size() / d.page_size;
      auto root = [&](const std::optional<int64_t>& page) { return page && *page >= 2 && static_cast<uint64_t>(*page) <= d.pages; };
      if (!root(index)) continue;  // no count from the index: the summary reads every row (read_topic_stats)
      d.trees.push_back(Tree{2, 10, 0, {static_cast<uint32_t>(*index)}});
      if (root(table)) d.trees.push_back(Tree{5, 13, kEdgeLeaves, {static_cast<uint32_t>(*table)}});
      databases_.push_back(std::move(d));
    }
  }

  // The first call names the roots; each later one reads the levels named before and names their children.
  std::vector<FolderRange> next() override {
    std::vector<FolderRange> wave;
    for (Database& d : databases_) {
      std::vector<uint32_t> named;
      for (Tree& t : d.trees) {
        if (t.level.empty()) continue;
        if (d.depth > 0) t.level = children(d, t);
        named.insert(named.end(), t.level.begin(), t.level.end());
      }
      if (++d.depth > kMaxDepth) named.clear();
      std::sort(named.begin(), named.end());  // file order, each page once
      named.erase(std::unique(named.begin(), named.end()), named.end());
      for (uint32_t page : named) {
        if (planned_ + d.page_size > kMaxPlannedBytes) {
          for (Tree& t : d.trees) t.level.clear();
          break;
        }
        planned_ += d.page_size;
        wave.push_back({d.name, uint64_t{page - 1} * d.page_size, d.page_size});
      }
    }
    return wave;
  }

 private:
  struct Database {
    std::string name;
    std::unique_ptr<ByteSource> source;
    uint32_t page_size = 0;
    uint64_t pages = 0;
    std::vector<Tree> trees;
    int depth = 0;
  };

  // The child pages of the interior pages in `t.level`, in key order (each cell's left child, then
  // the right-most pointer), cut to the tree's edges; none below leaves. A page of another kind,
  // or a child out of bounds, ends the plan for that tree.
  static std::vector<uint32_t> children(Database& d, const Tree& t) {
    std::vector<uint32_t> next;
    std::vector<uint8_t> page(d.page_size);
    for (uint32_t number : t.level) {
      if (d.source->read(uint64_t{number - 1} * d.page_size, page.data(), page.size()) != page.size()) return {};
      if (page[0] == t.leaf) continue;
      if (page[0] != t.interior) return {};
      uint16_t cells = be16(&page[3]);
      if (12 + size_t{cells} * 2 > page.size()) return {};
      auto add = [&](uint32_t child) {
        if (child < 2 || child > d.pages) return false;
        next.push_back(child);
        return true;
      };
      for (uint16_t i = 0; i < cells; ++i) {
        uint16_t at = be16(&page[12 + size_t{i} * 2]);
        if (size_t{at} + 4 > page.size() || !add(be32(&page[at]))) return {};
      }
      if (!add(be32(&page[8]))) return {};
    }
    if (t.edge && next.size() > 2 * t.edge) next.erase(next.begin() + static_cast<std::ptrdiff_t>(t.edge), next.end() - static_cast<std::ptrdiff_t>(t.edge));
    return next;
  }

  std::vector<Database> databases_;
  uint64_t planned_ = 0;
};

}  // namespace

std::unique_ptr<FolderReadPlan> plan_first_reads(Folder& folder) { return std::make_unique<FirstReadsPlan>(folder); }

}  // namespace logscope::rosbag2
