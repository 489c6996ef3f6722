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

}  // namespace logscope
