// A bag folder repaired into a new folder, and the metadata.yaml written from what came back.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "core/printf_text.h"
#include "core/time_math.h"
#include "rosbag2/inspector_impl.h"
#include "rosbag2/repair.h"

namespace logscope::rosbag2 {
namespace {

// A YAML double-quoted scalar (yaml-cpp reads these escapes back).
std::string yaml_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20) continue;
    else out += c;
  }
  return out + "\"";
}

std::string ns(int64_t v) { return std::to_string(v); }

}  // namespace

std::string metadata_yaml_of(const Bag& bag, const BagMetadata* original) {
  BagTotals totals = bag_totals(bag);
  std::optional<int64_t> span = totals.start_ns && totals.end_ns ? time_math::span(*totals.start_ns, *totals.end_ns) : std::nullopt;
  bool empty = totals.messages == 0 || !span;  // a span past int64 is written as rosbag2 writes an empty bag's
  int64_t start = empty ? INT64_MAX : *totals.start_ns, duration = empty ? 0 : *span;
  std::string y = "rosbag2_bagfile_information:\n  version: 8\n  storage_identifier: sqlite3\n";
  y += "  duration:\n    nanoseconds: " + ns(duration) + "\n  starting_time:\n    nanoseconds_since_epoch: " + ns(start) +
       "\n  message_count: " + std::to_string(totals.messages) + "\n  topics_with_message_count:";
  if (totals.topics.empty()) y += " []";
  y += "\n";
  for (const TopicRow& row : totals.topics) {
    // QoS and type hash: the first database that has the topic.
    const Topic* stored = nullptr;
    for (const BagFile& f : bag.files)
      for (const Topic& t : f.tables.topics)
        if (!stored && t.name == row.name) stored = &t;
    y += "    - topic_metadata:\n        name: " + yaml_quoted(row.name) + "\n        type: " + yaml_quoted(row.type) +
         "\n        serialization_format: " + yaml_quoted(row.serialization_format) +
         "\n        offered_qos_profiles: " + yaml_quoted(stored ? stored->offered_qos_profiles : "") +
         "\n        type_description_hash: " + yaml_quoted(stored ? stored->type_description_hash : "") +
         "\n      message_count: " + std::to_string(row.count) + "\n";
  }
  std::string compression_format = original ? original->compression_format : "";
  std::string compression_mode = original && original->compression_mode != "FILE" ? original->compression_mode : "";
  if (compression_mode.empty()) compression_format.clear();
  y += "  compression_format: " + yaml_quoted(compression_format) + "\n  compression_mode: " + yaml_quoted(compression_mode) +
       "\n  relative_file_paths:";
  if (bag.files.empty()) y += " []";
  y += "\n";
  for (const BagFile& f : bag.files) y += "    - " + yaml_quoted(f.name) + "\n";
  y += "  files:";
  if (bag.files.empty()) y += " []";
  y += "\n";
  for (const BagFile& f : bag.files) {
    const DatabaseTables& t = f.tables;
    std::optional<int64_t> span = t.first_ns && t.last_ns ? time_math::span(*t.first_ns, *t.last_ns) : std::nullopt;
    bool none = t.message_count == 0 || !span;
    y += "    - path: " + yaml_quoted(f.name) + "\n      starting_time:\n        nanoseconds_since_epoch: " +
         ns(none ? INT64_MAX : *t.first_ns) + "\n      duration:\n        nanoseconds: " + ns(none ? 0 : *span) +
         "\n      message_count: " + std::to_string(t.message_count) + "\n";
  }
  std::string distro;
  for (const BagFile& f : bag.files)
    if (distro.empty()) distro = f.tables.ros_distro;
  if (distro.empty() && original) distro = original->ros_distro;
  y += "  custom_data: ~\n  ros_distro: " + yaml_quoted(distro) + "\n";
  return y;
}

ExtractResult repair_bag(Folder& folder, const std::string& out_dir, const ProgressFn& progress) {
  ExtractResult result;
  struct stat info {};
  if (::stat(out_dir.c_str(), &info) == 0) {
    auto existing = DirectoryFolder::open_directory(out_dir, {}, &result.error);
    if (!S_ISDIR(info.st_mode) || !existing || !existing->files().empty()) {
      result.error = out_dir + " exists and is not an empty folder; repair writes a new bag folder";
      return result;
    }
  } else if (::mkdir(out_dir.c_str(), 0755) != 0) {
    result.error = out_dir + ": cannot create the folder";
    return result;
  }
  std::unique_ptr<Bag> bag = open_bag(folder);
  for (const std::string& missing : bag->missing_files)
    result.dropped.push_back(missing + ": named by metadata.yaml, not in the folder");
  uint64_t total = bag->total_size(), done = 0;
  size_t written = 0;
  for (BagFile& f : bag->files) {
    if (progress && !progress(done, total)) {
      result.cancelled = true;
      result.error = "cancelled";
      return result;
    }
    done += f.size + f.wal_size;
    if (f.zstd_file) {
      result.dropped.push_back(f.name + ": compressed whole (zstd): decompress it, then repair the copy");
      continue;
    }
    if (!f.reader) {
      result.dropped.push_back(f.name + ": SQLite cannot open it (" + f.error + ")");
      continue;
    }
    std::string path = out_dir + "/" + f.name, error;
    std::remove(path.c_str());
    RepairedDatabase repaired;
    if (!repair_database(*f.reader, path, &repaired, &error)) {
      std::remove(path.c_str());
      result.dropped.push_back(f.name + ": " + error);
      continue;
    }
    describe_repair(f.name, repaired, &result);
    ++written;
  }
  if (written == 0) {
    result.error = "no database of the bag could be recovered";
    return result;
  }
  // The yaml describes the databases as written: read them back.
  std::string error;
  auto out = DirectoryFolder::open_directory(out_dir, {}, &error);
  if (!out) {
    result.error = error;
    return result;
  }
  std::unique_ptr<Bag> repaired = open_bag(*out);
  for (const BagFile& f : repaired->files)
    if (!f.tables_read) {
      result.error = f.name + ": the repaired database cannot be read back: " + f.error;
      return result;
    }
  std::string yaml = metadata_yaml_of(*repaired, bag->metadata ? &*bag->metadata : nullptr);
  std::ofstream file(out_dir + "/metadata.yaml", std::ios::binary);
  file << yaml;
  file.close();
  if (!file) {
    result.error = out_dir + "/metadata.yaml: cannot write";
    return result;
  }
  result.bytes_written = yaml.size();
  for (const BagFile& f : repaired->files) result.bytes_written += f.size;
  result.kept.push_back(printf_string("metadata.yaml: %zu database%s, %llu messages", repaired->files.size(),
                                      repaired->files.size() == 1 ? "" : "s",
                                      static_cast<unsigned long long>(bag_totals(*repaired).messages)));
  result.ok = true;
  return result;
}

}  // namespace logscope::rosbag2
