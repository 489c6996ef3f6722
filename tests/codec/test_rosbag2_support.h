// Helpers of the rosbag2 tests: the Python reference reader, opening a bag folder.
#pragma once

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/folder.h"
#include "core/json.h"
#include "core/sha1.h"
#include "inspector.h"
#include "rosbag2/bag.h"
#include "rosbag2/inspector.h"
#include "test_support.h"

namespace rosbag2_test {

using namespace logscope;

inline bool have_python_reference() {
  bool ok = std::system("/usr/bin/python3 -c 'import sqlite3, zstandard' 2>/dev/null") == 0;
  if (!ok) test_support::skip("/usr/bin/python3 with sqlite3 and zstandard (python3-zstandard) is missing: no reference reading");
  return ok;
}

// What tests/reference/rosbag2_reference.py reads (from a copy of the folder).
inline Json python_reading(const std::string& path) {
  std::string command = "/usr/bin/python3 '" + std::string(LOGSCOPE_SOURCE_DIR) + "/tests/reference/rosbag2_reference.py' '" + path + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  int status = ::pclose(pipe);
  REQUIRE_MESSAGE(WEXITSTATUS(status) == 0, "the reference reader failed on " << path);
  std::string error;
  auto json = Json::parse(out, &error);
  REQUIRE_MESSAGE(json.has_value(), error);
  return *json;
}

struct OpenBag {
  std::unique_ptr<Folder> folder;
  std::unique_ptr<FormatInspector> inspector;
  rosbag2::Bag* bag = nullptr;
};

// A folder opened as the CLI opens it; a file with its -wal.
inline OpenBag open_bag_path(const std::string& path) {
  OpenBag open;
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  std::string error;
  if (S_ISDIR(info.st_mode)) {
    open.folder = DirectoryFolder::open_directory(path, {}, &error);
  } else {
    size_t slash = path.find_last_of('/');
    std::string base = path.substr(slash + 1);
    open.folder = DirectoryFolder::open_directory(path.substr(0, slash), {base, base + "-wal"}, &error);
  }
  REQUIRE_MESSAGE(open.folder, error);
  Detection detection = detect_folder(*open.folder);
  REQUIRE_MESSAGE(detection.family == "rosbag2", path);
  open.inspector = open_folder_inspector(*open.folder, detection);
  REQUIRE(open.inspector);
  open.bag = rosbag2::bag_of(*open.inspector);
  REQUIRE(open.bag);
  return open;
}

// Every message of our reading as the reference lists them: file -> [[rowid, topic_id, time, sha1]].
inline std::map<std::string, Json> our_messages(rosbag2::Bag& bag) {
  std::map<std::string, Json> files;
  for (const auto& f : bag.files)
    if (f.tables_read) files[f.name] = Json::array();
  std::string error;
  bool ok = rosbag2::for_each_bag_message(bag, [&](const rosbag2::BagMessage& m) {
    Json row = Json::array();
    row.push_back(static_cast<long long>(m.stored.row_id));
    row.push_back(static_cast<long long>(m.stored.topic_id));
    row.push_back(static_cast<long long>(m.stored.timestamp_ns));
    row.push_back(Sha1::hex(Sha1::of(m.data, m.size)));
    files[bag.files[m.file].name].push_back(std::move(row));
    return true;
  }, &error);
  REQUIRE_MESSAGE(ok, error);
  return files;
}

// Topic names, types, per-topic counts, first and last times, and every message's SHA1 agree
// with the reference reading of the same path.
inline void check_agreement(const std::string& path) {
  Json reference = python_reading(path);
  OpenBag open = open_bag_path(path);
  const Json& ref_files = *reference.find("files");
  std::map<std::string, Json> ours = our_messages(*open.bag);
  size_t readable = 0;
  for (const auto& f : open.bag->files) readable += f.tables_read;
  CHECK_MESSAGE(ref_files.size() == readable, path);
  // Per topic name, from the reference's rows: count, first, last.
  struct Span {
    uint64_t count = 0;
    long long first = 0, last = 0;
    std::string type;
  };
  std::map<std::string, Span> ref_topics;
  for (const auto& file : ref_files.items()) {
    INFO(path << " / " << file.first);
    const Json& rf = file.second;
    auto it = ours.find(file.first);
    REQUIRE_MESSAGE(it != ours.end(), "we did not read " << file.first);
    CHECK(it->second == *rf.find("messages"));
    // Topics: id, name, type.
    const rosbag2::BagFile* bf = nullptr;
    for (const auto& f : open.bag->files)
      if (f.name == file.first) bf = &f;
    REQUIRE(bf);
    const Json& rtopics = *rf.find("topics");
    REQUIRE(rtopics.size() == bf->tables.topics.size());
    std::map<long long, std::string> names;
    for (size_t i = 0; i < rtopics.size(); ++i) {
      CHECK(rtopics[i][0].as_int() == bf->tables.topics[i].id);
      CHECK(rtopics[i][1].as_string() == bf->tables.topics[i].name);
      CHECK(rtopics[i][2].as_string() == bf->tables.topics[i].type);
      names[rtopics[i][0].as_int()] = rtopics[i][1].as_string();
      ref_topics[rtopics[i][1].as_string()].type = rtopics[i][2].as_string();
    }
    for (const Json& m : rf.find("messages")->elements()) {
      auto name = names.find(m[1].as_int());
      if (name == names.end()) continue;
      Span& s = ref_topics[name->second];
      long long t = m[2].as_int();
      s.first = s.count ? std::min(s.first, t) : t;
      s.last = s.count ? std::max(s.last, t) : t;
      ++s.count;
    }
  }
  if (readable == 0) return;  // nothing either side could read (a .db3.zstd): the yaml's numbers
  rosbag2::BagTotals totals = rosbag2::bag_totals(*open.bag);
  REQUIRE(totals.topics.size() == ref_topics.size());
  for (const auto& row : totals.topics) {
    INFO(path << " topic " << row.name);
    auto it = ref_topics.find(row.name);
    REQUIRE(it != ref_topics.end());
    CHECK(row.type == it->second.type);
    CHECK(row.count == it->second.count);
    if (it->second.count) {
      CHECK(row.first_ns == it->second.first);
      CHECK(row.last_ns == it->second.last);
    }
  }
}

}  // namespace rosbag2_test
