#include "command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "http_source.h"
#include "core/format_table.h"
#include "inspector.h"

namespace logscope::cli {

static std::vector<Command>& registry() {
  static std::vector<Command> all;
  return all;
}

void register_command(Command command) { registry().push_back(std::move(command)); }
const std::vector<Command>& commands() { return registry(); }

Arguments::Arguments(const std::vector<std::string>& args, const std::vector<std::string>& valued, int max_values_per_flag) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() > 1 && arg[0] == '-' && !(arg.size() > 1 && std::isdigit(static_cast<unsigned char>(arg[1])))) {
      std::string name = arg, inline_value;
      bool has_inline = false;
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        name = arg.substr(0, eq);
        inline_value = arg.substr(eq + 1);
        has_inline = true;
      }
      bool takes_value = false;
      for (const auto& v : valued) takes_value |= v == name;
      std::vector<std::string> vals;
      if (has_inline) {
        vals.push_back(inline_value);
      } else if (takes_value) {
        for (int k = 0; k < max_values_per_flag && i + 1 < args.size(); ++k) {
          const std::string& next = args[i + 1];
          if (k > 0 && !next.empty() && next[0] == '-') break;
          vals.push_back(next);
          ++i;
        }
        if (vals.empty()) error_ = name + " needs a value";
      }
      flags_.emplace_back(name, vals);
    } else {
      positional_.push_back(arg);
    }
  }
}

bool Arguments::has(const std::string& flag) const {
  for (const auto& f : flags_)
    if (f.first == flag) return true;
  return false;
}

std::string Arguments::value(const std::string& flag, const std::string& fallback) const {
  for (const auto& f : flags_)
    if (f.first == flag && !f.second.empty()) return f.second.front();
  return fallback;
}

std::vector<std::string> Arguments::values(const std::string& flag) const {
  for (const auto& f : flags_)
    if (f.first == flag) return f.second;
  return {};
}

int fail(const std::string& message) {
  std::fprintf(stderr, "logscope: %s\n", message.c_str());
  return kExitUnreadable;
}

int write_demo_output(const std::string& path, const std::string& bytes) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) return fail(path + ": cannot write: " + std::strerror(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  ok = std::fclose(out) == 0 && ok;
  if (!ok) return fail(path + ": the file could not be written");
  std::printf("wrote %s\n", path.c_str());
  return kExitClean;
}

std::unique_ptr<OpenFile> open_file(const std::string& path, bool with_inspector) {
  std::string error;
  auto open = try_open_file(path, &error, with_inspector);
  if (!open) fail(error);
  return open;
}

RemoteOptions& remote_options() {
  static RemoteOptions options;
  return options;
}

std::unique_ptr<OpenFile> try_open_file(const std::string& path, std::string* error, bool with_inspector) {
  auto open = std::make_unique<OpenFile>();
  open->path = path;
  CachedByteSource::Options cache;
  if (is_url(path) && remote_options().download) {
    open->file = download_to_temp(path, error);
    if (!open->file) return nullptr;
  } else if (is_url(path)) {
    bool no_range = false;
    auto http = HttpByteSource::open(path, error, &no_range);
    if (!http) return nullptr;
    HttpByteSource* raw = http.get();
    open->read_failure = [raw] { return raw->failure(); };
    open->file = std::move(http);
    // Each miss is a request: small blocks keep scattered header reads (a bag's chunk headers)
    // small, and sequential passes still grow to max_fetch.
    cache.block_size = 4 * 1024;
    // The chunk headers of a 100 GB bag (~130,000 reads of 512 bytes) fit, read many at a time.
    cache.preload_capacity = 80u << 20;
    open->prefetch = [raw, open = open.get()](const std::vector<ByteRange>& ranges) {
      raw->read_scattered(ranges, [open](uint64_t offset, const uint8_t* data, size_t size) {
        return open->cached->preload(offset, data, size);
      });
    };
    // A pass's planned chunks (a plot's sample, an export's) come 32 MB at a time, many requests
    // in flight, instead of one round trip each.
    open->plan_fetch = [raw, open = open.get()](const std::vector<ByteRange>& ranges) {
      raw->read_scattered(ranges, [open](uint64_t offset, const uint8_t* data, size_t size) {
        return open->cached->preload(offset, data, size);
      }, kPlanWindowBytes);
    };
  } else if (struct stat info {}; ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    return open_folder(path, error, with_inspector);
  } else {
    open->file = FileByteSource::open(path, error);
    if (!open->file) {
      *error = path + ": " + *error;
      return nullptr;
    }
    cache = CachedByteSource::for_local_file();
    // The scattered reads `info` makes (a bag's chunk headers: 77,000 at 50 GB) are announced to
    // the kernel first, so that they are read from the disk together instead of one seek after
    // another: a cold 50 GB bag's info took 11.9 s (docs/benchmarks-local.md).
    open->prefetch = [path](const std::vector<ByteRange>& ranges) {
      int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return;  // only a hint: the reads themselves report any failure
      for (const ByteRange& r : ranges) ::posix_fadvise(fd, static_cast<off_t>(r.offset), static_cast<off_t>(r.length), POSIX_FADV_WILLNEED);
      ::close(fd);
    };
  }
  open->cached = std::make_unique<CachedByteSource>(*open->file, cache);
  if (open->plan_fetch) open->cached->set_range_fetcher(open->plan_fetch, kPlanWindowBytes);
  open->detection = detect(*open->cached);
  const FormatEntry* entry = find_format(open->detection.family);
  if (entry && entry->shape == LogShape::Folder && entry->open_folder && !is_url(path)) {
    // A file of a folder-shaped format given alone: that file with its companions (a -wal).
    size_t slash = path.find_last_of('/');
    std::string dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    open->folder = DirectoryFolder::open_directory(dir, {base, base + "-wal"}, error);
    if (!open->folder) return nullptr;
    for (const std::string& name : open->folder->files())
      if (auto source = open->folder->open(name, nullptr)) open->folder_bytes += source->size();
    if (with_inspector) open->inspector = entry->open_folder(*open->folder, open->detection);
  } else if (with_inspector) {
    open->inspector = open_inspector(*open->cached, open->detection);
  }
  // A remote file that changed or failed while its index was read: say so, not "unknown format".
  if (std::string why = remote_failure(*open); !why.empty()) {
    *error = why;
    return nullptr;
  }
  return open;
}

std::unique_ptr<OpenFile> open_folder(const std::string& path, std::string* error, bool with_inspector) {
  auto open = std::make_unique<OpenFile>();
  open->path = path;
  open->folder = DirectoryFolder::open_directory(path, {}, error);
  if (!open->folder) return nullptr;
  open->detection = detect_folder(*open->folder);
  if (!open->detection.known()) {
    *error = path + ": " + open->detection.diagnosis;
    return nullptr;
  }
  // The first file stands for the folder where one file is needed (hex).
  std::vector<std::string> names = open->folder->files();
  for (const std::string& name : names)
    if (auto source = open->folder->open(name, nullptr)) open->folder_bytes += source->size();
  for (const std::string& name : names)
    if (name != "metadata.yaml") {
      open->file = open->folder->open(name, error);
      break;
    }
  if (!open->file) open->file = std::make_unique<MemoryByteSource>(std::vector<uint8_t>());
  open->cached = std::make_unique<CachedByteSource>(*open->file, CachedByteSource::Options());
  if (with_inspector) open->inspector = open_folder_inspector(*open->folder, open->detection);
  return open;
}

Json file_json(const OpenFile& file) {
  Json j = Json::object();
  j["path"] = file.path;
  j["size"] = file.size();
  j["detection"] = file.detection.to_json();
  return j;
}

bool parse_u64(const std::string& text, uint64_t* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  int base = (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) ? 16 : 10;
  if (text[0] == '-') return false;
  unsigned long long v = std::strtoull(text.c_str(), &end, base);
  if (*end != '\0') return false;
  *value = v;
  return true;
}

bool parse_double(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (*end != '\0') return false;
  *value = v;
  return true;
}

ProgressFn terminal_progress(const std::string& what) {
  if (!::isatty(STDERR_FILENO)) return nullptr;
  auto start = std::chrono::steady_clock::now();
  return [what, start](uint64_t done, uint64_t total) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double percent = total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0;
    double rate = seconds > 0 ? static_cast<double>(done) / seconds / 1e6 : 0;
    std::fprintf(stderr, "\r%s: %5.1f%%  %.0f MB/s ", what.c_str(), percent, rate);
    if (done >= total) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    return true;
  };
}

}  // namespace logscope::cli
