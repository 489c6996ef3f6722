// Folder: the files of a log that is a folder (LogShape::Folder, core/format_table.h): a rosbag2
// bag's metadata.yaml and split .db3 files. A format reads its files by name through it, each as
// a ByteSource, never the whole folder at once. Natively a directory; tests and the fuzzers hold
// the files in memory; the page and remote folders can supply their own.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"

namespace logscope {

class FormatInspector;

class Folder {
 public:
  virtual ~Folder() = default;
  // The folder's name as the user gave it, for messages.
  virtual std::string name() const = 0;
  // The names of the files in it (not in subfolders), sorted.
  virtual std::vector<std::string> files() = 0;
  // One file's bytes, or null with `error` set.
  virtual std::unique_ptr<ByteSource> open(const std::string& file, std::string* error) = 0;
  bool has(const std::string& file);
};

// Where a folder's first view will read, for a caller that pays per read (a remote bag: a round
// trip each; a local one: a call each): ranges of its files to fetch at once, concurrently, and
// serve from then on. Wave by wave: each next() may read what the waves before it named (from the
// caller's fetched bytes) to name the following ones; empty when there is nothing more to name.
// A hint: reads it does not name still go to the files as before.
struct FolderRange {
  std::string file;
  uint64_t offset = 0, length = 0;
};
class FolderReadPlan {
 public:
  virtual ~FolderReadPlan() = default;
  virtual std::vector<FolderRange> next() = 0;
};

// Files held in memory (tests, fuzzers, demos).
class MemoryFolder : public Folder {
 public:
  explicit MemoryFolder(std::string name = "memory") : name_(std::move(name)) {}
  void add(const std::string& file, std::vector<uint8_t> bytes) { files_[file] = std::move(bytes); }
  std::string name() const override { return name_; }
  std::vector<std::string> files() override;
  std::unique_ptr<ByteSource> open(const std::string& file, std::string* error) override;

 private:
  std::string name_;
  std::map<std::string, std::vector<uint8_t>> files_;
};

// One source under one name, borrowed: a single file opened as a folder of its own.
class SingleSourceFolder : public Folder {
 public:
  SingleSourceFolder(std::string file, ByteSource& source) : file_(std::move(file)), source_(source) {}
  std::string name() const override { return file_; }
  std::vector<std::string> files() override { return {file_}; }
  std::unique_ptr<ByteSource> open(const std::string& file, std::string* error) override;

 private:
  std::string file_;
  ByteSource& source_;
};

// A native directory. `only`, when not empty, limits it to those names (a file given alone with
// its companions, such as its -wal).
class DirectoryFolder : public Folder {
 public:
  static std::unique_ptr<DirectoryFolder> open_directory(const std::string& path, std::vector<std::string> only,
                                                         std::string* error);
  std::string name() const override { return path_; }
  std::vector<std::string> files() override { return files_; }
  std::unique_ptr<ByteSource> open(const std::string& file, std::string* error) override;

 private:
  std::string path_;
  std::vector<std::string> files_;
};

// Tries every folder-shaped format of the table (FormatEntry::match_folder); otherwise an
// unknown detection with kind "folder" and a diagnosis.
Detection detect_folder(Folder& folder);

}  // namespace logscope
