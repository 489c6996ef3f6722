#include "core/folder.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>

#include "core/format_table.h"

namespace logscope {

namespace {

// A borrowed source handed out under the Folder interface (the owner keeps the real one).
class BorrowedSource : public ByteSource {
 public:
  explicit BorrowedSource(ByteSource& inner) : inner_(inner) {}
  uint64_t size() const override { return inner_.size(); }
  size_t read(uint64_t offset, void* destination, size_t length) override { return inner_.read(offset, destination, length); }
  size_t read_once(uint64_t offset, void* destination, size_t length) override { return inner_.read_once(offset, destination, length); }
  const uint8_t* mapped_data() const override { return inner_.mapped_data(); }
  void will_read(uint64_t offset, uint64_t length) override { inner_.will_read(offset, length); }

 private:
  ByteSource& inner_;
};

}  // namespace

bool Folder::has(const std::string& file) {
  std::vector<std::string> names = files();
  return std::find(names.begin(), names.end(), file) != names.end();
}

std::vector<std::string> MemoryFolder::files() {
  std::vector<std::string> names;
  for (const auto& f : files_) names.push_back(f.first);
  return names;
}

std::unique_ptr<ByteSource> MemoryFolder::open(const std::string& file, std::string* error) {
  auto it = files_.find(file);
  if (it == files_.end()) {
    if (error) *error = file + ": no such file in the folder";
    return nullptr;
  }
  return std::make_unique<MemoryByteSource>(it->second.data(), it->second.size());
}

std::unique_ptr<ByteSource> SingleSourceFolder::open(const std::string& file, std::string* error) {
  if (file != file_) {
    if (error) *error = file + ": no such file in the folder";
    return nullptr;
  }
  return std::make_unique<BorrowedSource>(source_);
}

std::unique_ptr<DirectoryFolder> DirectoryFolder::open_directory(const std::string& path, std::vector<std::string> only,
                                                                 std::string* error) {
  DIR* dir = ::opendir(path.c_str());
  if (!dir) {
    if (error) *error = path + ": cannot open the folder";
    return nullptr;
  }
  std::unique_ptr<DirectoryFolder> folder(new DirectoryFolder());
  folder->path_ = path;
  while (dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
    struct stat info {};
    if (::stat((path + "/" + name).c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    folder->files_.push_back(name);
  }
  ::closedir(dir);
  std::sort(folder->files_.begin(), folder->files_.end());
  return folder;
}

std::unique_ptr<ByteSource> DirectoryFolder::open(const std::string& file, std::string* error) {
  if (file.find('/') != std::string::npos || std::find(files_.begin(), files_.end(), file) == files_.end()) {
    if (error) *error = file + ": no such file in " + path_;
    return nullptr;
  }
  std::string why;
  auto source = FileByteSource::open(path_ + "/" + file, &why);
  if (!source && error) *error = path_ + "/" + file + ": " + why;
  return source;
}

Detection detect_folder(Folder& folder) {
  Detection detection;
  for (const FormatEntry& entry : formats()) {
    if (entry.shape != LogShape::Folder || !entry.match_folder) continue;
    if (auto match = entry.match_folder(folder)) {
      detection.family = entry.name;
      detection.version = match->version;
      detection.label = match->label;
      return detection;
    }
  }
  detection.kind = "folder";
  detection.diagnosis = "a folder that holds no log logscope reads as a whole (such as a bag folder with metadata.yaml); "
                        "give its files instead";
  return detection;
}

}  // namespace logscope
