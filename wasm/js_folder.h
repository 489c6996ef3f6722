// A log that is a folder (core/folder.h) over the page's files: a rosbag2 bag folder chosen,
// dropped or named by ?url=. The worker hands the names and sizes and one read function
// (index, offset, length, pointer), as WasmInspector's single file (bindings.cpp): each file is
// read in pieces on demand, never whole, behind its own block cache; reads are counted per folder.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "core/folder.h"

namespace logscope {

class JsFolder : public Folder {
 public:
  // `files_json`: [{"name", "size"}, ...] in any order; `read`: (index in that list, offset,
  // length, pointer) -> a Uint8Array of the bytes, or the count written at `pointer`.
  JsFolder(std::string name, const std::string& files_json, emscripten::val read);
  std::string name() const override { return name_; }
  std::vector<std::string> files() override;
  std::unique_ptr<ByteSource> open(const std::string& file, std::string* error) override;

  // The position of `file` in files_json, or -1.
  int index_of(const std::string& file) const;
  uint64_t bytes_read() const { return counts_.bytes; }
  uint64_t read_calls() const { return counts_.calls; }
  uint64_t total_size() const;

  struct Counts {
    uint64_t bytes = 0, calls = 0;
  };

 private:
  struct Entry {
    std::string name;
    uint64_t size = 0;
  };
  std::string name_;
  std::vector<Entry> entries_;
  emscripten::val read_;
  Counts counts_;
};

// The format's plan of a folder's first reads (core/folder.h FolderReadPlan), for the page to
// fetch wave by wave, concurrently, before it opens the folder (worker.js openFolder): next()
// gives the next wave as JSON [[file index, offset, length], ...], [] when there is no more. The
// plan reads through `read` like the folder's inspector, so the fetched waves serve it too.
class JsFolderReadPlan {
 public:
  JsFolderReadPlan(const std::string& name, const std::string& files_json, emscripten::val read);
  std::string next();

 private:
  JsFolder folder_;
  std::unique_ptr<FolderReadPlan> plan_;
};

}  // namespace logscope
