#include "rosbag2/bag.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "rosbag2/entry.h"

namespace logscope::rosbag2 {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

namespace {

constexpr uint64_t kMaxYamlBytes = 16u * 1024 * 1024;

void open_file(Folder& folder, const std::vector<std::string>& names, BagFile& file, Bag& bag) {
  std::string error;
  file.source = folder.open(file.name, &error);
  if (!file.source) {
    file.error = error;
    bag.problems.push_back({Severity::Error, 0, "rosbag2.file.unreadable", file.name + ": " + error});
    return;
  }
  file.size = file.source->size();
  if (file.zstd_file) return;
  uint8_t header[20] = {};
  size_t got = file.source->read(0, header, sizeof header);
  file.wal_mode = got == sizeof header && std::memcmp(header, "SQLite format 3", 16) == 0 && header[18] == 2 && header[19] == 2;
  std::string wal = file.name + "-wal";
  if (std::find(names.begin(), names.end(), wal) != names.end()) {
    file.wal = folder.open(wal, &error);
    if (file.wal) {
      file.wal_name = wal;
      file.wal_size = file.wal->size();
    }
  }
  if (file.wal_mode && !file.wal)
    // A note, not a warning: rosbag2 closing a bag checkpoints and deletes its -wal, so a WAL-mode
    // database alone is the usual state; only a recording that crashed leaves rows in a -wal.
    bag.problems.push_back({Severity::Info, 18, "rosbag2.wal.missing",
                            file.name + ": the database is in WAL mode and no " + wal +
                                " lies beside it: if the recording did not end cleanly, rows written after its last "
                                "checkpoint may be missing"});
  if (file.wal && file.wal_size > 0)
    bag.problems.push_back({Severity::Info, 0, "rosbag2.wal.applied",
                            file.name + ": " + wal + " (" + format_bytes(file.wal_size) + ") is applied, read-only"});
  file.reader = SqliteReader::open(*file.source, file.wal.get(), &error);
  if (!file.reader) {
    file.error = error;
    bag.problems.push_back({Severity::Error, 0, "rosbag2.db.unreadable", file.name + ": SQLite cannot open it: " + error});
    return;
  }
  if (!read_tables(*file.reader, &file.tables, &error)) {
    file.error = error;
    bag.problems.push_back({Severity::Error, 0, "rosbag2.db.tables", file.name + ": " + error});
    return;
  }
  file.tables_read = true;
}

}  // namespace

uint64_t Bag::total_size() const {
  uint64_t total = 0;
  for (const BagFile& f : files) total += f.size + f.wal_size;
  return total;
}

void read_topic_stats(Bag& bag) {
  for (BagFile& f : bag.files) {
    if (!f.tables_read || f.tables.topic_stats_read || f.topic_stats_tried) continue;
    f.topic_stats_tried = true;
    std::string error;
    if (!read_topic_stats(*f.reader, &f.tables, &error))
      bag.problems.push_back({Severity::Error, 0, "rosbag2.db.topic_stats", f.name + ": the per-topic counts could not be read: " + error});
  }
}

bool topic_stats_read(const Bag& bag) {
  for (const BagFile& f : bag.files)
    if (f.tables_read && !f.tables.topic_stats_read) return false;
  return true;
}

std::optional<uint64_t> split_index(const std::string& file) {
  std::string stem = file;
  for (const char* ending : {".db3.zstd", ".db3", ".mcap"})
    if (ends_with(stem, ending)) {
      stem.resize(stem.size() - std::strlen(ending));
      break;
    }
  size_t underscore = stem.find_last_of('_');
  if (underscore == std::string::npos || underscore + 1 == stem.size() || stem.size() - underscore > 10) return std::nullopt;
  uint64_t n = 0;
  for (size_t i = underscore + 1; i < stem.size(); ++i) {
    if (stem[i] < '0' || stem[i] > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(stem[i] - '0');
  }
  return n;
}

namespace {

bool is_storage_file(const std::string& name, const std::string& storage) {
  return storage == "mcap" ? ends_with(name, ".mcap") : ends_with(name, ".db3") || ends_with(name, ".db3.zstd");
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::string line_prefix(uint64_t line) { return line ? "metadata.yaml line " + std::to_string(line) + ": " : "metadata.yaml: "; }

}  // namespace

FolderYaml read_folder_yaml(Folder& folder) {
  FolderYaml y;
  if (!folder.has("metadata.yaml")) return y;
  y.present = true;
  std::string error;
  auto yaml = folder.open("metadata.yaml", &error);
  if (yaml && yaml->size() > kMaxYamlBytes) error = "metadata.yaml is larger than 16 MB: not read";
  if (!yaml || !error.empty()) {
    y.problems.push_back({Severity::Warning, 0, "rosbag2.yaml.unreadable", error + "; the bag is read from its files"});
    return y;
  }
  std::vector<uint8_t> bytes = yaml->read_vector(0, static_cast<size_t>(yaml->size()));
  BagMetadata m;
  std::vector<std::string> problems;
  bool read = parse_metadata(std::string(bytes.begin(), bytes.end()), &m, &problems);
  if (read) y.metadata = std::move(m);
  for (const std::string& p : problems)
    y.problems.push_back({Severity::Warning, 0, read ? "rosbag2.yaml.invalid" : "rosbag2.yaml.unreadable",
                          "metadata.yaml " + p + (read ? "" : "; the bag is read from its files")});
  // A yaml that breaks off is read in part: its first problem says where it stopped.
  if (read && !problems.empty() && problems[0].find("not YAML") != std::string::npos) y.problems[0].code = "rosbag2.yaml.unreadable";
  return y;
}

std::optional<std::string> bag_storage(Folder& folder, const FolderYaml* known) {
  std::vector<std::string> names = folder.files();
  // The table's rule (entry.cpp), which the page applies too: by file names alone.
  std::optional<FolderRule::Clause> clause = bag_folder_rule().match(folder.name(), names);
  if (!clause) return std::nullopt;
  if (*clause == FolderRule::Clause::Name) {
    bool db = std::any_of(names.begin(), names.end(), [](const std::string& n) { return is_storage_file(n, "sqlite3"); });
    bool mcap = std::any_of(names.begin(), names.end(), [](const std::string& n) { return is_storage_file(n, "mcap"); });
    FolderYaml read;
    const FolderYaml& yaml = known ? *known : (read = read_folder_yaml(folder));
    std::string said = yaml.metadata ? yaml.metadata->storage_identifier : "";
    if (said == "mcap" && (mcap || !db)) return std::string("mcap");
    if (said == "sqlite3" && (db || !mcap)) return std::string("sqlite3");
    return std::string(mcap && !db ? "mcap" : "sqlite3");
  }
  // Without a yaml, databases (by ending or beside their -wal) come before MCAP splits.
  return std::string(*clause == FolderRule::Clause::Split ? "mcap" : "sqlite3");
}

void check_storage(const FolderYaml& yaml, const std::string& storage, std::vector<Problem>* problems) {
  if (!yaml.metadata) return;
  const BagMetadata& m = *yaml.metadata;
  if (m.storage_identifier == storage) return;
  problems->push_back({Severity::Warning, 0, "rosbag2.yaml.storage_mismatch",
                       line_prefix(m.storage_line) + "storage_identifier \"" + m.storage_identifier + "\", the folder holds " +
                           (storage == "mcap" ? "MCAP files (.mcap)" : "SQLite databases (.db3)") + ": read as " + storage});
}

SplitFiles split_files(const std::vector<std::string>& names, const BagMetadata* m, const std::string& storage,
                       std::vector<Problem>* problems) {
  SplitFiles s;
  std::vector<std::string> there;
  for (const std::string& n : names)
    if (is_storage_file(n, storage)) there.push_back(n);
  auto listed = [&] {
    std::string list;
    for (const std::string& n : there) list += (list.empty() ? "" : ", ") + n;
    return list.empty() ? std::string("no ") + (storage == "mcap" ? ".mcap" : ".db3") + " file" : list;
  };
  if (m) {
    for (size_t i = 0; i < m->relative_file_paths.size(); ++i) {
      const std::string& path = m->relative_file_paths[i];
      // Older bags (v1-v4 of some releases) name files with the bag folder in front.
      std::string name = contains(names, path) ? path : base_name(path);
      if (!contains(names, name)) {
        s.missing.push_back(path);
        problems->push_back({Severity::Warning, 0, "rosbag2.file.missing",
                             line_prefix(i < m->relative_file_path_lines.size() ? m->relative_file_path_lines[i] : 0) +
                                 "relative_file_paths names " + path + ", which is not in the folder (it holds " + listed() +
                                 "): the bag is read from the files there"});
        continue;
      }
      if (!contains(s.order, name)) s.order.push_back(name);
    }
  }
  std::vector<std::string> rest;
  for (const std::string& n : there)
    if (!contains(s.order, n)) rest.push_back(n);
  std::stable_sort(rest.begin(), rest.end(), [](const std::string& a, const std::string& b) {
    auto ia = split_index(a), ib = split_index(b);
    if (ia && ib && *ia != *ib) return *ia < *ib;
    return a < b;
  });
  for (const std::string& n : rest) {
    if (m) {
      s.extra.push_back(n);
      problems->push_back({Severity::Warning, 0, "rosbag2.file.extra",
                           n + " is in the folder but metadata.yaml's relative_file_paths (" +
                               std::to_string(m->relative_file_paths.size()) + " file" +
                               (m->relative_file_paths.size() == 1 ? "" : "s") +
                               ") does not name it: it is read as part of the bag, after the files named"});
    }
    s.order.push_back(n);
  }
  return s;
}

std::unique_ptr<Bag> open_bag(Folder& folder) {
  auto bag = std::make_unique<Bag>();
  bag->folder_name = folder.name();
  std::vector<std::string> names = folder.files();
  FolderYaml yaml = read_folder_yaml(folder);
  bag->has_yaml = yaml.present;
  bag->metadata = yaml.metadata;
  bag->problems = yaml.problems;
  if (yaml.present && !yaml.metadata && !yaml.problems.empty()) bag->yaml_error = yaml.problems[0].message;
  check_storage(yaml, "sqlite3", &bag->problems);
  if (bag->metadata) {
    const BagMetadata& m = *bag->metadata;
    bag->message_compression = m.compression_format == "zstd" && (m.compression_mode == "MESSAGE" || m.compression_mode == "message");
  } else if (!yaml.present) {
    bag->problems.push_back({Severity::Info, 0, "rosbag2.yaml.missing",
                             "no metadata.yaml: the bag's facts come from its databases alone (rosbag2 itself needs "
                             "`ros2 bag reindex` to open it)"});
  }
  SplitFiles split = split_files(names, bag->metadata ? &*bag->metadata : nullptr, "sqlite3", &bag->problems);
  bag->missing_files = split.missing;
  bag->extra_files = split.extra;
  std::vector<std::string> order = split.order;
  if (order.empty() && !yaml.present) {
    // A database given alone may have any name (the 2018 `test.bag`): every file but companions.
    for (const std::string& n : names)
      if (!ends_with(n, "-wal") && !ends_with(n, "-shm") && !ends_with(n, "-journal") && !ends_with(n, ".yaml")) order.push_back(n);
  }
  for (const std::string& name : order) {
    BagFile file;
    file.name = name;
    file.zstd_file = ends_with(name, ".zstd");
    if (file.zstd_file)
      bag->problems.push_back({Severity::Info, 0, "rosbag2.file.zstd_compressed",
                               name + " is compressed whole (compression_mode FILE): its summary comes from metadata.yaml; "
                                      "reading its rows needs a decompressed copy"});
    open_file(folder, names, file, *bag);
    bag->files.push_back(std::move(file));
  }
  return bag;
}

}  // namespace logscope::rosbag2

namespace logscope::rosbag2 {

bool for_each_bag_message(Bag& bag, const std::function<bool(const BagMessage&)>& visit, std::string* error) {
  std::vector<uint8_t> decoded;
  bool stopped = false;
  for (size_t i = 0; i < bag.files.size() && !stopped; ++i) {
    BagFile& file = bag.files[i];
    if (!file.reader || !file.tables_read) continue;
    std::map<int64_t, const Topic*> topics;
    for (const Topic& t : file.tables.topics) topics[t.id] = &t;
    std::string why;
    bool ok = for_each_message(*file.reader, [&](const StoredMessage& m) {
      BagMessage message;
      message.file = i;
      auto it = topics.find(m.topic_id);
      message.topic = it == topics.end() ? nullptr : it->second;
      message.stored = m;
      message.data = m.data;
      message.size = m.size;
      if (bag.message_compression || is_zstd_frame(m.data, m.size)) {
        std::string zerror;
        if (zstd_decompress_message(m.data, m.size, &decoded, &zerror)) {
          message.data = decoded.data();
          message.size = decoded.size();
          message.decompressed = true;
        } else {
          message.decode_error = zerror;
        }
      }
      if (!visit(message)) stopped = true;
      return !stopped;
    }, &why);
    if (!ok) {
      if (error) *error = file.name + ": " + why;
      return false;
    }
  }
  return true;
}

}  // namespace logscope::rosbag2
