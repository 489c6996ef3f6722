// FileMap: what each byte range of a file is (header, index, chunks/blocks/frames, padding,
// unreachable, damaged, missing), with the problems placed on it. Each format builds one from
// its index (FormatInspector::file_map); a full check refines it. The CLI prints it
// (`logscope map`); the page can draw it from to_json().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/report.h"

namespace logscope {

// Region kinds, shared by every format so the page colours them alike:
//   header, descriptor, chunk, block, frame, index, trailer, padding,
//   unreachable (bytes no index or walk reaches), damaged (cut or unreadable structure),
//   missing (past the end of a cut file: offset = file size, length = what the file says was there, or 0).
struct MapRegion {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string kind;
  std::string label;          // the first structure's name ("chunk 0")
  std::string last_label;     // the last one's, when several were merged ("chunk 41")
  uint64_t count = 1;         // structures merged into this run
  std::vector<size_t> problems;  // positions in FileMap::problems
};

struct FileMap {
  uint64_t file_size = 0;
  std::string source;  // "index" (built from the index alone), "scan" (a walk of the file), "check"
  std::vector<MapRegion> regions;  // in offset order, covering [0, file_size) without overlap
  std::vector<Problem> problems;
  std::string error;  // set when no map could be made (unknown format)

  Json to_json() const;
  std::string to_text() const;
};

// Collects structures in any order and makes the map: every structure started with start()
// runs to the next one that starts after it (or to `end` given with it); gaps become
// unreachable; runs of one kind are merged; problems are placed on the region holding them.
class FileMapBuilder {
 public:
  explicit FileMapBuilder(uint64_t file_size) : file_size_(file_size) {}
  // A structure at `offset`; `length` 0 = up to the next structure.
  void add(uint64_t offset, uint64_t length, const std::string& kind, const std::string& label);
  // Everything from `offset` to the end of the file is damaged (a cut, the first bad structure):
  // it overrides the structures from there on.
  void damaged_from(uint64_t offset, const std::string& label);
  // The structure holding `offset` is damaged (a chunk that does not decompress...).
  void damaged_at(uint64_t offset, const std::string& label) { damaged_at_.push_back({offset, 0, "damaged", label}); }
  // Error problems of a full check mark the structures they are in as damaged; a recovery that
  // stopped early makes the rest of the file damaged.
  void refine_with_check(const Report& report);
  // The file was cut: `expected_end` is where it should have ended (0 = unknown).
  void missing(uint64_t expected_end, const std::string& label);
  // Where the structures the index knows end; past it (to the file's end) is unreachable.
  void structures_end(uint64_t offset) { structures_end_ = offset; }
  FileMap finish(std::string source, std::vector<Problem> problems) const;
  // The map refined by a full check (refine_with_check), with the check's problems.
  FileMap finish_checked(Report report) {
    refine_with_check(report);
    return finish("check", std::move(report.problems));
  }

 private:
  struct Item {
    uint64_t offset, length;
    std::string kind, label;
  };
  uint64_t file_size_;
  uint64_t structures_end_ = UINT64_MAX;
  std::vector<Item> items_;
  std::vector<Item> damaged_at_;
  bool damaged_ = false;
  uint64_t damaged_from_ = 0;
  std::string damaged_label_;
  bool missing_ = false;
  uint64_t missing_end_ = 0;
  std::string missing_label_;
};

}  // namespace logscope
