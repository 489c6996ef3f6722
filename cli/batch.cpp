#include "batch.h"

#include "core/folder.h"
#include "core/format_table.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>

#include "http_source.h"

namespace logscope::cli {
namespace {

bool is_directory(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// A folder that is one log (a rosbag2 bag folder): a row of its own, not a walk.
bool is_log_folder(const std::string& path) {
  std::string error;
  auto folder = DirectoryFolder::open_directory(path, {}, &error);
  return folder && detect_folder(*folder).known();
}

void walk(const std::string& dir, std::vector<ExpandedPath>* out) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) {
    out->push_back({dir, true, dir + ": cannot list the directory"});
    return;
  }
  std::vector<std::string> names;
  while (dirent* entry = ::readdir(d)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  std::string prefix = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  for (const std::string& name : names) {
    std::string path = prefix + name;
    if (is_directory(path) && !is_log_folder(path)) walk(path, out);
    else out->push_back({path, true, ""});
  }
}

// Files found in a folder that are not logs (a README, a .json) are listed but do not make the
// batch fail; a file with a log's name that cannot be read does.
bool has_log_name(const std::string& path) {
  for (const FormatEntry& entry : formats())
    for (const std::string& e : entry.file_endings)
      if (path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0) return true;
  return false;
}

struct FileResult {
  int status = kExitClean;
  bool counted = true;  // false: not a log, found by a walk
  size_t errors = 0, warnings = 0;
  uint64_t size = 0;
  std::string output;  // what is printed for the file, whole lines
  bool is_error = false;  // output is an error message (info's "logscope: ..."): printed on stderr
};

std::string verdict(const FileResult& r) {
  if (!r.counted) return "not a log";
  return r.status == kExitClean ? "clean" : r.status == kExitProblems ? "problems" : "unreadable";
}

FileResult process(const ExpandedPath& item, BatchCommand command, bool json) {
  FileResult result;
  std::string error = item.error;
  std::unique_ptr<OpenFile> file;
  if (error.empty()) file = try_open_file(item.path, &error);
  if (!file) {
    result.status = kExitUnreadable;
    if (json) {
      Json j = Json::object();
      j["path"] = item.path;
      j["error"] = error;
      result.output = j.dump() + "\n";
    } else {
      // check's line is the file's verdict in the report (stdout); info has only an error to say.
      result.output = command == BatchCommand::Check ? item.path + ": unreadable - " + error + "\n" : "logscope: " + error + "\n";
      result.is_error = command != BatchCommand::Check;
    }
    return result;
  }
  result.size = file->size();
  Json out = file_json(*file);
  std::string format = file->detection.label.empty() ? "unknown (" + file->detection.kind + ")" : file->detection.label;
  if (!file->inspector) {
    result.status = kExitUnreadable;
    result.counted = !item.from_directory || has_log_name(item.path);
    if (json) result.output = out.dump() + "\n";
    else if (command == BatchCommand::Check)
      result.output = item.path + ": " + format + ", " + format_bytes(result.size) + ", " + verdict(result) + " - " +
                      file->detection.diagnosis + "\n";
    else
      result.output = "==> " + item.path + " <==\nformat:    " + format + "\ndiagnosis: " + file->detection.diagnosis + "\n\n";
    return result;
  }
  Report report = command == BatchCommand::Check ? file->inspector->check(nullptr) : file->inspector->info_report(nullptr);
  if (std::string why = remote_failure(*file); !why.empty()) {
    result.status = kExitUnreadable;
    result.output = json ? [&] { Json j = Json::object(); j["path"] = item.path; j["error"] = why; return j.dump() + "\n"; }()
                         : item.path + ": unreadable - " + why + "\n";
    return result;
  }
  result.errors = report.count(Severity::Error);
  result.warnings = report.count(Severity::Warning);
  if (command == BatchCommand::Check) result.status = result.errors + result.warnings ? kExitProblems : kExitClean;
  if (json) {
    out[command == BatchCommand::Check ? "report" : "summary"] = report.to_json();
    result.output = out.dump() + "\n";
  } else if (command == BatchCommand::Check) {
    char counts[96];
    std::snprintf(counts, sizeof counts, ", %zu error%s, %zu warning%s, ", result.errors, result.errors == 1 ? "" : "s",
                  result.warnings, result.warnings == 1 ? "" : "s");
    result.output = item.path + ": " + report.format_label + ", " + format_bytes(result.size) + counts + verdict(result) + "\n";
  } else {
    InfoOptions options;
    options.path = item.path;
    result.output = "==> " + item.path + " <==\n" + file->inspector->info_text(options) + "\n";
  }
  return result;
}

}  // namespace

bool is_batch(const Arguments& args) {
  if (args.positional().size() != 1 || args.has("--recursive") || args.has("--jobs")) return true;
  return is_directory(args.positional()[0]) && !is_log_folder(args.positional()[0]);
}

std::vector<ExpandedPath> expand_paths(const std::vector<std::string>& paths, bool recursive) {
  std::vector<ExpandedPath> out;
  for (const std::string& path : paths) {
    if (!is_url(path) && is_directory(path) && !is_log_folder(path)) {
      if (recursive) walk(path, &out);
      else
        out.push_back({path, false,
                       path + ": is a directory that holds no log read as a whole (a rosbag2 bag folder holds a metadata.yaml, "
                              ".db3 or .db3.zstd databases, or .mcap splits named <folder>_<N>.mcap); add --recursive to check "
                              "the files in it"});
    } else {
      out.push_back({path, false, ""});
    }
  }
  return out;
}

int run_batch(const Arguments& args, BatchCommand command) {
  if (args.positional().empty()) return fail("no FILE given (see `logscope --help`)");
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  if (args.has("--jobs")) {
    uint64_t n = 0;
    if (!parse_u64(args.value("--jobs"), &n) || n == 0 || n > 256) return fail("--jobs needs a number from 1 to 256");
    jobs = static_cast<unsigned>(n);
  }
  bool json = args.has("--json");
  std::vector<ExpandedPath> items = expand_paths(args.positional(), args.has("--recursive"));
  jobs = std::min<unsigned>(jobs, std::max<size_t>(1, items.size()));

  // Workers take the next file; the main thread prints results in order as they are ready, so
  // memory holds at most the results finished ahead of the one being waited for.
  std::vector<std::optional<FileResult>> results(items.size());
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < jobs; ++w)
    workers.emplace_back([&] {
      for (size_t i; (i = next++) < items.size();) {
        FileResult r = process(items[i], command, json);
        std::lock_guard<std::mutex> lock(mutex);
        results[i] = std::move(r);
        ready.notify_all();
      }
    });

  bool progress = ::isatty(STDERR_FILENO) && items.size() > 1;
  int worst = kExitClean;
  size_t clean = 0, problems = 0, unreadable = 0, not_logs = 0, errors = 0, warnings = 0;
  uint64_t bytes = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    FileResult r;
    {
      std::unique_lock<std::mutex> lock(mutex);
      ready.wait(lock, [&] { return results[i].has_value(); });
      r = std::move(*results[i]);
      results[i].reset();
    }
    if (progress) std::fprintf(stderr, "\r\033[K");
    std::FILE* to = r.is_error ? stderr : stdout;
    std::fwrite(r.output.data(), 1, r.output.size(), to);
    std::fflush(to);
    if (progress) std::fprintf(stderr, "%s %zu/%zu files", command == BatchCommand::Check ? "checked" : "read", i + 1, items.size());
    if (!r.counted) {
      ++not_logs;
      continue;
    }
    worst = std::max(worst, r.status);
    (r.status == kExitClean ? clean : r.status == kExitProblems ? problems : unreadable)++;
    errors += r.errors;
    warnings += r.warnings;
    bytes += r.size;
  }
  for (auto& t : workers) t.join();
  if (progress) std::fprintf(stderr, "\r\033[K");

  if (command == BatchCommand::Check) {
    if (json) {
      Json totals = Json::object();
      Json t = Json::object();
      t["files"] = static_cast<uint64_t>(items.size());
      t["clean"] = static_cast<uint64_t>(clean);
      t["problems"] = static_cast<uint64_t>(problems);
      t["unreadable"] = static_cast<uint64_t>(unreadable);
      t["not_logs"] = static_cast<uint64_t>(not_logs);
      t["errors"] = static_cast<uint64_t>(errors);
      t["warnings"] = static_cast<uint64_t>(warnings);
      t["size_bytes"] = bytes;
      t["exit_status"] = static_cast<int64_t>(worst);
      totals["totals"] = t;
      std::printf("%s\n", totals.dump().c_str());
    } else {
      std::printf("total: %zu file%s, %s: %zu clean, %zu with problems, %zu unreadable, %zu not logs; %zu errors, %zu warnings\n",
                  items.size(), items.size() == 1 ? "" : "s", format_bytes(bytes).c_str(), clean, problems, unreadable,
                  not_logs, errors, warnings);
    }
  }
  return worst;
}

}  // namespace logscope::cli
