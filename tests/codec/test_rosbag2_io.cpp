// rosbag2's reading budget (issue 27, "In headless Chromium"): a bag folder made by
// make-demo-rosbag2's writer, with its demo mix of message sizes (small IMU and text messages,
// camera frames of 1-64 KB), opens to its summary after reading under 5 % of its database: the
// totals and the first and last times from timestamp_idx, the per-topic counts from its
// metadata.yaml (they agree with the databases). The exact per-topic counts (info_report, the
// page's later read) then agree with Python's sqlite3. Reads are counted under SQLite (its page
// reads) and behind the page's cache of a folder's file (wasm/js_folder.cpp: 4 KiB blocks,
// sequential fetches grown to 8 MiB).
#include <unistd.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <set>

#include "core/message_source.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/writer.h"
#include "test_rosbag2_support.h"

using namespace logscope;
using namespace rosbag2_test;

namespace {

// A directory's files, each read through a counter, optionally behind the page's cache.
class CountingFolder : public Folder {
 public:
  CountingFolder(std::unique_ptr<Folder> inner, bool page_cache) : inner_(std::move(inner)), page_cache_(page_cache) {}
  std::string name() const override { return inner_->name(); }
  std::vector<std::string> files() override { return inner_->files(); }
  std::unique_ptr<ByteSource> open(const std::string& file, std::string* error) override {
    auto source = inner_->open(file, error);
    if (!source) return nullptr;
    return std::make_unique<Chain>(std::move(source), page_cache_, &bytes_read_[file], &read_calls_[file]);
  }
  uint64_t bytes_read(const std::string& file) const {
    auto it = bytes_read_.find(file);
    return it == bytes_read_.end() ? 0 : it->second;
  }
  uint64_t read_calls(const std::string& file) const {
    auto it = read_calls_.find(file);
    return it == read_calls_.end() ? 0 : it->second;
  }

 private:
  class Chain : public ByteSource {
   public:
    Chain(std::unique_ptr<ByteSource> inner, bool page_cache, uint64_t* total, uint64_t* calls)
        : inner_(std::move(inner)), counting_(*inner_, total, calls) {
      if (page_cache) {
        CachedByteSource::Options options;  // wasm/js_folder.cpp's
        options.block_size = 4 * 1024;
        options.max_fetch = 8 * 1024 * 1024;
        options.capacity = 16 * 1024 * 1024;
        cached_ = std::make_unique<CachedByteSource>(counting_, options);
      }
    }
    uint64_t size() const override { return inner_->size(); }
    size_t read(uint64_t offset, void* destination, size_t length) override {
      return cached_ ? cached_->read(offset, destination, length) : counting_.read(offset, destination, length);
    }
    void will_read(uint64_t offset, uint64_t length) override {
      if (cached_) cached_->will_read(offset, length);
    }
    void expect_run(uint64_t length) override {
      if (cached_) cached_->expect_run(length);
    }

   private:
    struct Counter : ByteSource {
      Counter(ByteSource& inner, uint64_t* total, uint64_t* calls) : inner(inner), total(total), calls(calls) {}
      uint64_t size() const override { return inner.size(); }
      size_t read(uint64_t offset, void* destination, size_t length) override {
        size_t n = inner.read(offset, destination, length);
        *total += n;
        ++*calls;
        return n;
      }
      ByteSource& inner;
      uint64_t* total;
      uint64_t* calls;
    };
    std::unique_ptr<ByteSource> inner_;
    Counter counting_;
    std::unique_ptr<CachedByteSource> cached_;
  };

  std::unique_ptr<Folder> inner_;
  bool page_cache_;
  std::map<std::string, uint64_t> bytes_read_, read_calls_;
};

struct TempBag {
  std::string dir, bag;
  explicit TempBag(uint64_t bytes) {
    char templ[] = "/tmp/logscope-rosbag2-io-XXXXXX";
    REQUIRE(::mkdtemp(templ));
    dir = templ;
    bag = dir + "/demo_bag";
    std::string error;
    REQUIRE_MESSAGE(rosbag2::write_demo_bag(bag, bytes, &error), error);
  }
  ~TempBag() { std::filesystem::remove_all(dir); }
};

}  // namespace

TEST_CASE("rosbag2 io: a writer-made 150 MB bag shows its summary after reading under 5 % of its database") {
  TempBag temp(150u << 20);
  const std::string db = "demo_bag_0.db3";
  uint64_t db_size = std::filesystem::file_size(temp.bag + "/" + db);
  REQUIRE(db_size > (140u << 20));
  for (bool page_cache : {false, true}) {
    INFO(std::string(page_cache ? "behind the page's cache" : "SQLite's page reads"));
    std::string error;
    auto directory = DirectoryFolder::open_directory(temp.bag, {}, &error);
    REQUIRE_MESSAGE(directory, error);
    CountingFolder folder(std::move(directory), page_cache);
    Detection detection = detect_folder(folder);
    REQUIRE(detection.family == "rosbag2");
    auto inspector = open_folder_inspector(folder, detection);
    REQUIRE(inspector);
    Report summary = inspector->summary();
    uint64_t read = folder.bytes_read(db);
    MESSAGE("summary read " << read << " of " << db_size << " bytes (" << 100.0 * read / db_size << " %)");
    CHECK(read * 20 < db_size);
    // What the first view says: the yaml's counts, marked so, with the exact ones to come.
    const Json* from = summary.facts.find("counts_from");
    REQUIRE(from);
    CHECK(from->as_string() == "metadata.yaml");
    REQUIRE(summary.later.size() == 1);
    CHECK(summary.later[0] == "topic_counts");
    REQUIRE(summary.file.start_ns.has_value());
    REQUIRE(summary.file.end_ns.has_value());

    // The exact numbers, read later: the same totals and span, and the yaml's counts were right.
    Report exact = inspector->info_report(nullptr);
    CHECK(exact.facts.find("counts_from") == nullptr);
    CHECK(exact.facts.find("topic_counts") != nullptr);
    CHECK(exact.file.start_ns == summary.file.start_ns);
    CHECK(exact.file.end_ns == summary.file.end_ns);
    REQUIRE(exact.file.counts.size() == summary.file.counts.size());
    for (size_t i = 0; i < exact.file.counts.size(); ++i) CHECK(exact.file.counts[i].value == summary.file.counts[i].value);
    REQUIRE(exact.tables.size() >= 1);
    REQUIRE(summary.tables.size() >= 1);
    REQUIRE(exact.tables[0].rows.size() == summary.tables[0].rows.size());
    for (size_t i = 0; i < exact.tables[0].rows.size(); ++i) {
      CHECK(exact.tables[0].rows[i][0] == summary.tables[0].rows[i][0]);  // topic
      CHECK(exact.tables[0].rows[i][2] == summary.tables[0].rows[i][2]);  // messages
    }
    MESSAGE("with the exact per-topic counts: " << folder.bytes_read(db) << " bytes");
  }
}

TEST_CASE("rosbag2 io: the first view's totals and times agree with Python's sqlite3") {
  if (!have_python_reference()) return;
  TempBag temp(12u << 20);
  // check_agreement compares bag_totals (exact) with the reference; here the first view's.
  Json reference = python_reading(temp.bag);
  OpenBag open = open_bag_path(temp.bag);
  bool from_yaml = false;
  rosbag2::BagTotals first = rosbag2::first_view_totals(*open.bag, &from_yaml);
  CHECK(from_yaml);
  uint64_t count = 0;
  long long lo = 0, hi = 0;
  std::map<long long, uint64_t> per_topic;
  for (const auto& file : reference.find("files")->items())
    for (const Json& m : file.second.find("messages")->elements()) {
      long long t = m[2].as_int();
      lo = count ? std::min(lo, t) : t;
      hi = count ? std::max(hi, t) : t;
      ++count;
      per_topic[m[1].as_int()]++;
    }
  CHECK(first.messages == count);
  REQUIRE(first.start_ns.has_value());
  CHECK(*first.start_ns == lo);
  CHECK(*first.end_ns == hi);
  rosbag2::BagTotals exact = rosbag2::bag_totals(*open.bag);
  REQUIRE(exact.topics.size() == first.topics.size());
  for (size_t i = 0; i < exact.topics.size(); ++i) {
    INFO(exact.topics[i].name);
    CHECK(exact.topics[i].count == first.topics[i].count);
    // The writer's topics take turns: the index's ends decide every topic's first and last.
    REQUIRE(first.topics[i].first_ns.has_value());
    REQUIRE(first.topics[i].last_ns.has_value());
    CHECK(*first.topics[i].first_ns == *exact.topics[i].first_ns);
    CHECK(*first.topics[i].last_ns == *exact.topics[i].last_ns);
  }
  check_agreement(temp.bag);
}

TEST_CASE("rosbag2 io: on the real bags, what the first view says agrees with the exact pass") {
  if (!test_support::have_samples()) return;
  std::string root = test_support::sample("rosbag2");
  if (!std::filesystem::is_directory(root)) {
    test_support::skip(root + " is absent");
    return;
  }
  int from_yaml_bags = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    INFO(entry.path().string());
    OpenBag open = open_bag_path(entry.path().string());
    bool from_yaml = false;
    rosbag2::BagTotals first = rosbag2::first_view_totals(*open.bag, &from_yaml);
    from_yaml_bags += from_yaml;
    rosbag2::BagTotals exact = rosbag2::bag_totals(*open.bag);
    if (exact.from_yaml) continue;  // nothing readable (a .db3.zstd): both are the yaml's
    CHECK(first.messages == exact.messages);
    CHECK(first.start_ns == exact.start_ns);
    CHECK(first.end_ns == exact.end_ns);
    REQUIRE(first.topics.size() == exact.topics.size());
    for (size_t i = 0; i < exact.topics.size(); ++i) {
      INFO(exact.topics[i].name);
      CHECK(first.topics[i].name == exact.topics[i].name);
      CHECK(first.topics[i].count == exact.topics[i].count);
      // Left out where the index's ends do not decide them, never different.
      if (first.topics[i].first_ns) CHECK(first.topics[i].first_ns == exact.topics[i].first_ns);
      if (first.topics[i].last_ns) CHECK(first.topics[i].last_ns == exact.topics[i].last_ns);
    }
  }
  MESSAGE(from_yaml_bags << " sample bags took their per-topic counts from metadata.yaml");
}

namespace {

constexpr int64_t kSparseStart = 1767225600000000000;

// Message i of a bag of two topics in turn: /a's 20 KB strings (their bodies in overflow pages), /b's
// 20 bytes; pair 20 is written late, at pair 5's time, so the rows' order is not their times'.
rosbag2::WriterMessage sparse_message(uint64_t i) {
  const uint64_t pair = i / 2;
  rosbag2::WriterMessage m;
  m.topic = i % 2;
  m.timestamp_ns = kSparseStart + static_cast<int64_t>(pair == 20 ? 5 : pair) * 10000000;
  std::string text = "message " + std::to_string(pair) + " ";
  text.resize(m.topic == 0 ? 20000 : 20, static_cast<char>('a' + pair % 26));
  const uint32_t n = static_cast<uint32_t>(text.size() + 1);  // CDR: the length counts the NUL
  m.data = {0, 1, 0, 0};
  for (int b = 0; b < 4; ++b) m.data.push_back(static_cast<uint8_t>(n >> (8 * b)));
  m.data.insert(m.data.end(), text.begin(), text.end());
  m.data.push_back(0);
  return m;
}

struct Walked {
  std::string topic;
  uint64_t time_ns;
  std::string message;
  bool operator==(const Walked& o) const { return topic == o.topic && time_ns == o.time_ns && message == o.message; }
  bool operator<(const Walked& o) const { return time_ns < o.time_ns; }
};

std::vector<Walked> walk_bag(MessageSource& source, const std::set<std::string>& topics, const WalkOptions& options, size_t limit = SIZE_MAX) {
  std::vector<Walked> seen;
  std::string stopped;
  REQUIRE(source.walk_with(topics, options, [&](const SourceMessage& m) {
    if (options.times_only) CHECK(m.error.empty());
    seen.push_back({m.topic, m.time_ns, options.times_only ? "" : m.message ? m.message->dump() : "error: " + m.error});
    return seen.size() < limit;
  }, nullptr, &stopped));
  CHECK(stopped.empty());
  return seen;
}

}  // namespace

// The views' sparse reads (core/message_source.h): a walk that stops after a few (a thumbnail, the
// frame at a clicked time) reads in time order through timestamp_idx, so it reads the index there
// and the rows it hands on, not every row before its span; a listing of times (times_only) reads the
// rows' leaf cells, never their bodies. Both hand on what the walk that decodes in stored order does.
TEST_CASE("rosbag2 io: a few messages are read from timestamp_idx, and a listing of times reads no message body") {
  char templ[] = "/tmp/logscope-rosbag2-sparse-XXXXXX";
  REQUIRE(::mkdtemp(templ));
  const std::string dir = templ, bag = dir + "/sparse";
  const std::vector<rosbag2::WriterTopic> topics = {{"/a", "std_msgs/msg/String", "string data\n"}, {"/b", "std_msgs/msg/String", "string data\n"}};
  std::string error;
  REQUIRE_MESSAGE(rosbag2::write_bag(bag, topics, 1u << 20, sparse_message, &error), error);
  const std::string db = "sparse_0.db3";
  const uint64_t db_size = std::filesystem::file_size(bag + "/" + db);
  auto directory = DirectoryFolder::open_directory(bag, {}, &error);
  REQUIRE_MESSAGE(directory, error);
  CountingFolder folder(std::move(directory), false);  // SQLite's own page reads, counted
  auto inspector = open_folder_inspector(folder, detect_folder(folder));
  REQUIRE(inspector);
  MessageSource* source = message_source_of(*inspector);
  REQUIRE(source);
  auto time_of = [](uint64_t pair) { return static_cast<uint64_t>(kSparseStart) + pair * 10000000; };

  const uint64_t pairs = walk_bag(*source, {"/a"}, WalkOptions()).size();
  REQUIRE(pairs > 40);
  const std::vector<std::set<std::string>> topic_sets = {{"/a"}, {"/b"}, {"/a", "/b"}};
  const std::vector<std::pair<uint64_t, uint64_t>> spans = {{0, UINT64_MAX}, {time_of(3), time_of(30)}, {time_of(5), time_of(5)},
                                                            {time_of(pairs / 2), time_of(pairs / 2)}, {time_of(pairs - 5), UINT64_MAX}, {0, time_of(0) - 1}};
  for (const auto& set : topic_sets)
    for (const auto& span : spans) {
      const uint64_t t0 = span.first, t1 = span.second;  // (plain copies for CAPTURE)
      CAPTURE(*set.begin());
      CAPTURE(set.size());
      CAPTURE(t0);
      CAPTURE(t1);
      WalkOptions stored, few, listing, decoded_listing;
      stored.t0_ns = few.t0_ns = listing.t0_ns = decoded_listing.t0_ns = t0;
      stored.t1_ns = few.t1_ns = listing.t1_ns = decoded_listing.t1_ns = t1;
      few.read_ahead = false;
      listing.times_only = true;
      std::vector<Walked> in_stored_order = walk_bag(*source, set, stored);
      std::vector<Walked> by_time = in_stored_order;
      std::stable_sort(by_time.begin(), by_time.end());
      CHECK(walk_bag(*source, set, few) == by_time);
      // The first message of a span is its earliest (the one written late among them).
      std::vector<Walked> first = walk_bag(*source, set, few, 1);
      CHECK(first.size() == std::min<size_t>(1, by_time.size()));
      if (!first.empty()) CHECK(first[0] == by_time[0]);
      std::vector<Walked> times = walk_bag(*source, set, listing), decoded_times = walk_bag(*source, set, decoded_listing);
      for (Walked& w : decoded_times) w.message.clear();
      CHECK(times == decoded_times);
    }

  // Reads, each on a bag opened afresh (SQLite keeps the pages it read): the first message of a
  // late span, the listing of /a's times, and the walk that decodes them.
  auto read_of = [&](const WalkOptions& options, size_t limit) {
    auto fresh = DirectoryFolder::open_directory(bag, {}, &error);
    REQUIRE(fresh);
    CountingFolder counted(std::move(fresh), false);
    auto opened = open_folder_inspector(counted, detect_folder(counted));
    REQUIRE(opened);
    const uint64_t before = counted.bytes_read(db);
    CHECK(!walk_bag(*message_source_of(*opened), {"/a"}, options, limit).empty());
    return counted.bytes_read(db) - before;
  };
  WalkOptions thumbnail;
  thumbnail.t0_ns = time_of(pairs - 5);
  thumbnail.read_ahead = false;
  WalkOptions all, times;
  times.times_only = true;
  const uint64_t one = read_of(thumbnail, 1), whole = read_of(all, SIZE_MAX), listed = read_of(times, SIZE_MAX);
  MESSAGE("database " << db_size << " bytes; the first message of the last 5 pairs read " << one << ", the walk " << whole << ", the listing of times " << listed);
  CHECK(whole * 10 > db_size * 8);
  CHECK(one < 64 * 1024);       // the index's pages there, the row and its 5 overflow pages
  CHECK(listed * 3 < db_size);  // leaf cells, no overflow page
  std::filesystem::remove_all(dir);
}

// A camera frame of 1 MB (issue 35's thumbnails): its body lies in ~250 overflow pages, which SQLite
// reads one by one. Behind the page's cache, they come in one read (the walk announces the body's
// length: ByteSource::expect_run), not a run doubling from one page: each read is 1-2 ms in a browser.
TEST_CASE("rosbag2 io: a large message read alone fetches its overflow pages in one read") {
  char templ[] = "/tmp/logscope-rosbag2-frames-XXXXXX";
  REQUIRE(::mkdtemp(templ));
  const std::string dir = templ, bag = dir + "/frames";
  const std::vector<rosbag2::WriterTopic> topics = {{"/a", "std_msgs/msg/String", "string data\n"}};
  auto frame = [](uint64_t i) {
    rosbag2::WriterMessage m;
    m.topic = 0;
    m.timestamp_ns = kSparseStart + static_cast<int64_t>(i) * 10000000;
    std::string text(1000000, static_cast<char>('a' + i % 26));
    const uint32_t n = static_cast<uint32_t>(text.size() + 1);
    m.data = {0, 1, 0, 0};
    for (int b = 0; b < 4; ++b) m.data.push_back(static_cast<uint8_t>(n >> (8 * b)));
    m.data.insert(m.data.end(), text.begin(), text.end());
    m.data.push_back(0);
    return m;
  };
  std::string error;
  REQUIRE_MESSAGE(rosbag2::write_bag(bag, topics, 12u << 20, frame, &error), error);
  auto directory = DirectoryFolder::open_directory(bag, {}, &error);
  REQUIRE_MESSAGE(directory, error);
  CountingFolder folder(std::move(directory), true);
  auto inspector = open_folder_inspector(folder, detect_folder(folder));
  REQUIRE(inspector);
  MessageSource* source = message_source_of(*inspector);
  REQUIRE(source);
  for (uint64_t i : {3u, 7u, 1u}) {
    CAPTURE(i);
    const uint64_t calls = folder.read_calls("frames_0.db3"), bytes = folder.bytes_read("frames_0.db3");
    WalkOptions one;
    one.t0_ns = one.t1_ns = static_cast<uint64_t>(kSparseStart) + i * 10000000;
    one.read_ahead = false;
    one.whole_bytes = true;
    std::vector<Walked> got = walk_bag(*source, {"/a"}, one, 1);
    REQUIRE(got.size() == 1);
    CHECK(got[0].message.find(std::string(100, static_cast<char>('a' + i % 26))) != std::string::npos);
    // The row's leaf (its interior pages were read at open), then its body in one read.
    CHECK(folder.read_calls("frames_0.db3") - calls <= 2);
    CHECK(folder.bytes_read("frames_0.db3") - bytes < 1100000);
  }
  std::filesystem::remove_all(dir);
}
