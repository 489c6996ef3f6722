// FileMapBuilder: structures that join runs as they are added make the same map as structures
// kept one by one, damage included.
#include <doctest/doctest.h>

#include <random>

#include "core/file_map.h"

using namespace logscope;

TEST_CASE("file map: structures joined into runs as added make the map they make one by one, damaged ones alone") {
  std::mt19937_64 random(17);
  for (int round = 0; round < 50; ++round) {
    CAPTURE(round);
    const uint64_t size = 1000000;
    FileMapBuilder plain(size), joined(size);
    joined.join_runs_as_added();
    std::vector<uint64_t> marks;
    for (int m = 0; m < round % 4; ++m) marks.push_back(random() % size);
    for (uint64_t mark : marks) {
      plain.damaged_at(mark, "bad");
      joined.damaged_at(mark, "bad");
    }
    if (round % 5 == 4) {
      plain.damaged_from(size - 1000, "cut");
      joined.damaged_from(size - 1000, "cut");
    }
    uint64_t at = 4;
    int n = 0;
    while (at < size - 100) {
      const char* kind = random() % 6 == 0 ? "index" : "block";
      uint64_t length = random() % 20 == 0 ? 1 + random() % 50 : 0;  // at times past the next one: overlaps
      std::string label = std::string(kind) + " " + std::to_string(n++);
      plain.add(at, length, kind, label);
      joined.add(at, length, kind, label);
      at += 1 + random() % 3000;
    }
    FileMap a = plain.finish("index", {}), b = joined.finish("index", {});
    REQUIRE(a.regions.size() == b.regions.size());
    for (size_t r = 0; r < a.regions.size(); ++r) {
      CAPTURE(r);
      CHECK(a.regions[r].offset == b.regions[r].offset);
      CHECK(a.regions[r].length == b.regions[r].length);
      CHECK(a.regions[r].kind == b.regions[r].kind);
      CHECK(a.regions[r].label == b.regions[r].label);
      CHECK(a.regions[r].last_label == b.regions[r].last_label);
      CHECK(a.regions[r].count == b.regions[r].count);
    }
  }
}
