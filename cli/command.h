// CLI plumbing shared by the common commands (main.cpp) and format-specific ones
// (carla_commands.cpp, ...). A command registers itself with a static CommandRegistrar.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/folder.h"
#include "core/inspector.h"

namespace logscope::cli {

// Exit statuses of every command.
constexpr int kExitClean = 0;     // done, nothing wrong
constexpr int kExitProblems = 1;  // done, problems found
constexpr int kExitUnreadable = 2;  // could not read the file, or bad usage

struct Command {
  std::string name;
  std::string summary;  // one line for `logscope --help`
  std::string usage;    // full text for `logscope NAME --help`
  int (*run)(const std::vector<std::string>& args);
};

void register_command(Command command);
const std::vector<Command>& commands();

struct CommandRegistrar {
  explicit CommandRegistrar(Command command) { register_command(std::move(command)); }
};

// Parsed arguments: positionals in order, --flags with optional values.
class Arguments {
 public:
  // `valued` lists the flags that take a value (e.g. {"--offset", "--length"}).
  Arguments(const std::vector<std::string>& args, const std::vector<std::string>& valued, int max_values_per_flag = 1);
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& flag) const;
  std::string value(const std::string& flag, const std::string& fallback = "") const;
  std::vector<std::string> values(const std::string& flag) const;

 private:
  std::vector<std::string> positional_;
  std::vector<std::pair<std::string, std::vector<std::string>>> flags_;
  std::string error_;
};

// An opened file: the native source, a read-ahead cache in front, detection and inspector.
struct OpenFile {
  std::string path;
  std::unique_ptr<ByteSource> file;
  std::unique_ptr<CachedByteSource> cached;
  Detection detection;
  std::unique_ptr<FormatInspector> inspector;  // null for unknown formats
  // A log that is a folder (a rosbag2 bag): its files; `file` is then its first file (hex, map).
  std::unique_ptr<Folder> folder;
  uint64_t folder_bytes = 0;  // the sizes of the folder's files
  // The log's size: the file's, or every file's of a folder.
  uint64_t size() const { return folder ? folder_bytes : cached->size(); }
  // Why reading stopped when the source can fail mid-way (a remote file that changed); "" else.
  std::function<std::string()> read_failure;
  // Reads scattered ranges ahead, many at a time, into `cached` where each read is a round trip
  // (a remote file); null where reading them one by one costs little.
  std::function<void(const std::vector<ByteRange>&)> prefetch;
  // Fetches the next window of a pass's planned reads the same way (CachedByteSource::set_range_fetcher).
  std::function<void(const std::vector<ByteRange>&)> plan_fetch;
};

// How far ahead a remote pass's planned chunks are fetched: 32 lanes of 1 MB requests.
constexpr uint64_t kPlanWindowBytes = 32u << 20;

// "" when every read succeeded; otherwise the reason, and the command exits 2.
inline std::string remote_failure(const OpenFile& file) { return file.read_failure ? file.read_failure() : ""; }

// Options for remote files, taken by main() before the command runs (any command).
struct RemoteOptions {
  bool download = false;  // --download: read the whole file into a temporary file first
  bool stats = false;     // --stats: bytes transferred, on stderr at the end
};
RemoteOptions& remote_options();

// Opens `path` (a file, or an http(s) URL read by Range requests); on failure prints "logscope: FILE: cause" to stderr and returns null.
// `with_inspector` false: detection only, for commands that read the file themselves (extract and
// repair: opening a V1.x bag's inspector would first scan it into a list of every message).
std::unique_ptr<OpenFile> open_file(const std::string& path, bool with_inspector = true);
// Same, but sets `error` ("FILE: cause") instead of printing, for batches.
std::unique_ptr<OpenFile> try_open_file(const std::string& path, std::string* error, bool with_inspector = true);
// A folder that is one log (core/folder.h: a rosbag2 bag folder); try_open_file calls it for folders.
std::unique_ptr<OpenFile> open_folder(const std::string& path, std::string* error, bool with_inspector = true);

// What `info --json` and `check --json` print for every file: path, size, detection.
Json file_json(const OpenFile& file);

// Prints "logscope: message" to stderr and returns kExitUnreadable.
int fail(const std::string& message);

// Writes a file a make-demo command made in memory to `path` and says so; the command's exit status.
int write_demo_output(const std::string& path, const std::string& bytes);

// Parses an unsigned number (decimal or 0x hex); nullopt-style: returns false on junk.
bool parse_u64(const std::string& text, uint64_t* value);
bool parse_double(const std::string& text, double* value);

// A progress line on stderr for long work, only when stderr is a terminal.
ProgressFn terminal_progress(const std::string& what);

}  // namespace logscope::cli
