// Mutation sweeps that can fail: cuts at many offsets, bit flips and hostile length stamps (32-bit
// and 64-bit: 2^32, 2^56, ...) over every writer-made tiny file and, when ../shared is present,
// every real sample. Each variant must keep the invariants of tests/fuzz/invariants.h (problem
// offsets inside the file, child nodes and spans inside their parents, locate() agreeing with
// children()); a cut copy never reports more messages/blocks/frames than the intact file; and
// `logscope check` exits 0, 1 or 2 on a spread of them.
#include <algorithm>
#include <cstdint>
#include <dirent.h>
#include <string>
#include <vector>

#include "../fuzz/invariants.h"
#include "../fuzz/tiny_files.h"
#include "test_support.h"

namespace {

using Bytes = std::vector<uint8_t>;

struct Lcg {
  uint64_t state;
  uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  }
};

// What a file holds, in the unit its format counts: bag messages, BDDF blocks, CARLA frames.
uint64_t content_count(const logscope_fuzz::Invariants& r) {
  const logscope::Report& s = r.summary;
  if (r.family == "rosbag") {
    const logscope::Json* m = s.details.find("messages");
    return m ? m->as_uint() : 0;
  }
  if (r.family == "carla") {
    const logscope::Json* f = s.facts.find("frames");
    return f ? f->as_uint() : 0;
  }
  uint64_t blocks = 0;
  if (const logscope::Json* series = s.details.find("series"))
    for (const logscope::Json& one : series->elements())
      if (const logscope::Json* n = one.find("num_blocks")) blocks += n->as_uint();
  return blocks;
}

struct Sweep {
  std::string name;
  Bytes original;
  std::string family;
  uint64_t intact_count = 0;
  size_t inputs = 0;
  std::vector<std::string> failures;

  Sweep(std::string n, Bytes bytes) : name(std::move(n)), original(std::move(bytes)) {
    logscope_fuzz::Invariants intact = logscope_fuzz::check_invariants(original.data(), original.size());
    family = intact.family;
    intact_count = content_count(intact);
    for (const std::string& v : intact.violations) failures.push_back(name + " (intact): " + v);
  }

  void expect(const Bytes& variant, const std::string& mutation, bool is_cut) {
    ++inputs;
    logscope_fuzz::Invariants r = logscope_fuzz::check_invariants(variant.data(), variant.size());
    for (const std::string& v : r.violations) failures.push_back(name + " " + mutation + ": " + v);
    if (is_cut && r.family == family && content_count(r) > intact_count)
      failures.push_back(name + " " + mutation + ": recovers " + std::to_string(content_count(r)) + ", the intact file holds " +
                         std::to_string(intact_count));
  }

  void cut(size_t length) { expect(Bytes(original.begin(), original.begin() + length), "cut at " + std::to_string(length), true); }

  // Cuts at every offset of the first 64 bytes, `spread` evenly spaced ones, and around the
  // boundaries of the top-level nodes (where framing bugs live).
  void cuts(size_t spread) {
    std::vector<size_t> at;
    for (size_t i = 0; i < 64 && i < original.size(); ++i) at.push_back(i);
    for (size_t i = 1; i <= spread; ++i) at.push_back(original.size() * i / (spread + 1));
    logscope::MemoryByteSource source(original);
    if (auto inspector = logscope::open_inspector(source, logscope::detect(source)))
      for (const logscope::TreeNode& node : inspector->children("", 0, 48))
        for (uint64_t edge : {node.offset, node.offset + node.length})
          for (uint64_t d : {edge - 1, edge, edge + 1, edge + 5}) at.push_back(d);
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    for (size_t length : at)
      if (length < original.size()) cut(length);
  }

  void flips(uint64_t seed, int count) {
    Lcg rng{seed};
    for (int i = 0; i < count; ++i) {
      Bytes b = original;
      size_t at = rng.next() % b.size();
      int bit = static_cast<int>(rng.next() % 8);
      b[at] ^= static_cast<uint8_t>(1u << bit);
      expect(b, "bit " + std::to_string(bit) + " flipped at " + std::to_string(at), false);
    }
  }

  // Little-endian 32- and 64-bit "lengths" written over the bytes at pseudo-random offsets.
  void stamps(uint64_t seed, int count) {
    const uint64_t huge[] = {0xFFFFFFFFull, 0x80000000ull, 0x7FFFFFFFull, original.size() + 1, 0x100000000ull /* 4 GB */,
                             1ull << 56, 0xFFFFFFFFFFFFFFFFull, 1ull << 63};
    Lcg rng{seed};
    for (int i = 0; i < count && original.size() > 8; ++i) {
      Bytes b = original;
      uint64_t value = huge[rng.next() % (sizeof huge / sizeof huge[0])];
      int width = value > 0xFFFFFFFFull || rng.next() % 2 ? 8 : 4;
      size_t at = rng.next() % (b.size() - width);
      for (int k = 0; k < width; ++k) b[at + k] = static_cast<uint8_t>(value >> (8 * k));
      expect(b, std::to_string(width * 8) + "-bit " + std::to_string(value) + " at " + std::to_string(at), false);
    }
  }

  void report() {
    MESSAGE(name << ": " << inputs << " variants, " << failures.size() << " invariant violations");
    for (size_t i = 0; i < failures.size() && i < 15; ++i) FAIL_CHECK(failures[i]);
    CHECK(failures.empty());
  }
};

void sweep_all(const std::string& name, const Bytes& bytes, uint64_t seed, size_t spread, int flips, int stamps) {
  Sweep s(name, bytes);
  REQUIRE_MESSAGE(!s.family.empty(), name << " is recognised");
  s.cuts(spread);
  s.flips(seed, flips);
  s.stamps(seed + 1000, stamps);
  s.report();
}

std::vector<std::pair<std::string, Bytes>> writer_files() {
  using logscope::carla::IdOrder;
  using logscope::carla::Variant;
  Variant doubles;
  doubles.doubles = true;
  Variant doors;
  doors.order = IdOrder::DevDoors;
  return {{"bddf sha1", logscope_fuzz::tiny_bddf(true)},         {"bddf none", logscope_fuzz::tiny_bddf(false)},
          {"bag v2.0 none", logscope_fuzz::tiny_bag(200, "none")}, {"bag v2.0 lz4", logscope_fuzz::tiny_bag(200, "lz4")},
          {"bag v2.0 bz2", logscope_fuzz::tiny_bag(200, "bz2")},   {"bag v1.2", logscope_fuzz::tiny_bag(102)},
          {"bag v1.1", logscope_fuzz::tiny_bag(101)},              {"carla ue4", logscope_fuzz::tiny_carla()},
          {"carla ue5", logscope_fuzz::tiny_carla(doubles)},       {"carla doors", logscope_fuzz::tiny_carla(doors)}};
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 4 && (name.find(".bag") != std::string::npos || name.rfind(".bddf") == name.size() - 5 ||
                              name.rfind(".log") == name.size() - 4) &&
          name.rfind(".txt") != name.size() - 4)
        out.push_back(dir + "/" + name);
    }
    ::closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void sweep_samples(const std::string& folder) {
  std::vector<std::string> files = files_in(test_support::sample(folder));
  REQUIRE(!files.empty());
  uint64_t seed = 100;
  for (const std::string& path : files) {
    Bytes bytes = test_support::read_file(path);
    if (bytes.empty() || bytes.size() > 4 * 1024 * 1024) continue;  // keep the run short
    std::string name = path.substr(path.rfind('/') + 1);
    Sweep s(name, bytes);
    if (s.family.empty()) continue;  // e.g. a header cut short: nothing to mutate
    size_t n = bytes.size() > (256u << 10) ? 3 : 8;  // each variant is checked whole: keep big files cheap
    for (size_t i = 1; i <= n; ++i) s.cut(bytes.size() * i / (n + 1));
    s.flips(++seed, static_cast<int>(n));
    s.stamps(++seed, static_cast<int>(n) - 2);
    s.report();
  }
}

}  // namespace

TEST_CASE("sweep: writer-made BDDF files keep the invariants under cuts, flips and hostile lengths") {
  for (auto& [name, bytes] : writer_files())
    if (name.rfind("bddf", 0) == 0) sweep_all(name, bytes, name.size(), 96, 96, 96);
}

TEST_CASE("sweep: writer-made bags (V2.0 none/lz4/bz2, V1.2, V1.1) keep the invariants under cuts, flips and hostile lengths") {
  for (auto& [name, bytes] : writer_files())
    if (name.rfind("bag", 0) == 0) sweep_all(name, bytes, name.size(), 96, 96, 96);
}

TEST_CASE("sweep: writer-made CARLA logs keep the invariants under cuts, flips and hostile lengths") {
  for (auto& [name, bytes] : writer_files())
    if (name.rfind("carla", 0) == 0) sweep_all(name, bytes, name.size(), 96, 96, 96);
}

TEST_CASE("sweep: `logscope check` exits 0, 1 or 2 on intact, cut, flipped and stamped files") {
  std::string dir = test_support::scratch_dir("sweep_check");
  int files = 0;
  for (auto& file : writer_files()) {
    const std::string& name = file.first;  // not structured bindings: CAPTURE takes them by reference
    const Bytes& bytes = file.second;
    Lcg rng{static_cast<uint64_t>(name.size())};
    std::vector<Bytes> variants = {bytes, Bytes(bytes.begin(), bytes.begin() + bytes.size() / 2), Bytes(bytes.begin(), bytes.begin() + 3)};
    for (int i = 0; i < 3; ++i) {
      Bytes b = bytes;
      b[rng.next() % b.size()] ^= 0x10;
      variants.push_back(b);
      Bytes s = bytes;
      size_t at = rng.next() % (s.size() - 4);
      for (int k = 0; k < 4; ++k) s[at + k] = 0xFF;
      variants.push_back(s);
    }
    for (size_t v = 0; v < variants.size(); ++v) {
      std::string path = dir + "/variant_" + std::to_string(files++);
      test_support::write_file(path, variants[v]);
      for (const char* json : {"", " --json"}) {
        int status = -1;
        std::string out = test_support::run_cli("check '" + path + "'" + json, &status);
        CAPTURE(name);
        CAPTURE(v);
        CAPTURE(out.substr(0, 400));
        CHECK((status == 0 || status == 1 || status == 2));
        if (v == 0) CHECK(status == 0);
        if (*json) CHECK(out.find('{') != std::string::npos);
      }
    }
  }
}

TEST_CASE("sweep: real BDDF samples") {
  if (!test_support::have_samples()) return;
  sweep_samples("bddf");
}

TEST_CASE("sweep: real bags") {
  if (!test_support::have_samples()) return;
  sweep_samples("rosbag");
}

TEST_CASE("sweep: real bags (rosbag/real)") {
  if (!test_support::have_samples()) return;
  sweep_samples("rosbag/real");
}

TEST_CASE("sweep: real CARLA logs") {
  if (!test_support::have_samples()) return;
  sweep_samples("carla");
}
