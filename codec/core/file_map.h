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
  // Structures then come in offset order, and each one of the kind of the one before joins its
  // run as it comes (both of length 0, or the one starting where the other ends): memory for
  // runs, not structures (a 100 GB BDDF file has 16.5 million data blocks; kept one by one they
  // took 1.6 GB, and a 10 GB CARLA log's 2.8 million frames 480 MB). A damaged structure stays alone, so
  // the damage (refine_with_check, damaged_at) must be known before the structures are added.
  void join_runs_as_added() { join_runs_ = true; }
  // Everything from `offset` to the end of the file is damaged (a cut, the first bad structure):
  // it overrides the structures from there on.
  void damaged_from(uint64_t offset, const std::string& label);
  // The structure holding `offset` is damaged (a chunk that does not decompress...).
  void damaged_at(uint64_t offset, const std::string& label) { damaged_at_.push_back({offset, 0, "damaged", label, label, 1}); }
  // Error problems of a full check mark the structures they are in as damaged; a recovery that
  // stopped early makes the rest of the file damaged.
  void refine_with_check(const Report& report);
  // The file was cut: `expected_end` is where it should have ended (0 = unknown).
  void missing(uint64_t expected_end, const std::string& label);
  // Where the structures the index knows end; past it (to the file's end) is unreachable.
  void structures_end(uint64_t offset) { structures_end_ = offset; }
  FileMap finish(std::string source, std::vector<Problem> problems);
  // The map refined by a full check (refine_with_check), with the check's problems.
  FileMap finish_checked(Report report) {
    refine_with_check(report);
    return finish("check", std::move(report.problems));
  }

 private:
  struct Item {
    uint64_t offset, length;
    std::string kind, label;
    std::string last_label;  // of the last structure in a joined run (join_runs_as_added)
    uint64_t count = 1;
  };
  void settle_pending(uint64_t next_offset);  // the pending structure joins the run before it, or starts one
  uint64_t file_size_;
  uint64_t structures_end_ = UINT64_MAX;
  std::vector<Item> items_;
  std::vector<Item> damaged_at_;
  bool join_runs_ = false;
  bool pending_ = false;  // join_runs_: the last structure added, until the next one says where it ends
  Item pending_item_;
  bool last_alone_ = false;  // the last item is damaged, overlapped or past the end: nothing joins it
  uint64_t covered_to_ = 0;  // the end of the structures of a given length so far
  std::vector<uint64_t> mark_offsets_;  // damaged_at_'s offsets, sorted
  bool damaged_ = false;
  uint64_t damaged_from_ = 0;
  std::string damaged_label_;
  bool missing_ = false;
  uint64_t missing_end_ = 0;
  std::string missing_label_;
};

}  // namespace logscope
