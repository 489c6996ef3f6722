// The format table: everything outside a format's folder learns about formats from here.
// Each format folder defines one entry (`codec/<format>/entry.cpp`); `codec/formats.cpp` lists
// them explicitly (self-registering globals in a static library are dropped by the linker).
// Detection, open_inspector, problem categories, warm_up, the CLI (commands, help, batch
// endings), the wasm module's formats() and the fuzz seeds all read this table.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/extract.h"
#include "core/json.h"

namespace logscope {

class FormatInspector;
class Folder;
class FolderReadPlan;

// What the format can do beyond reading and checking: export (FormatInspector::export_rows),
// extract and repair (FormatEntry::extract and repair), plot (the timeline/columns/plot queries).
enum class Operation { Export, Extract, Repair, Plot };
const char* operation_name(Operation operation);

// What one log is made of.
enum class LogShape {
  SingleFile,  // one file holds the whole log
  Folder,      // a folder: a sidecar (rosbag2's metadata.yaml) and split files
};

// What a user picks in a log for export and extract: a topic, a series, an actor.
struct SourceNoun {
  std::string one;   // "topic": `export --topic T`, the page's "Topic" list
  std::string many;  // "topics": `extract --topics a,b`
};

// A format-specific extract option (a bag's chunk compression): `--NAME VALUE` in the CLI, a
// choice in the page.
struct ExtractOption {
  std::string name;
  std::string help;
  std::vector<std::string> choices;  // the first is the default
};

// LogShape::Folder: the file names that make a folder one log of the format, as plain data, so
// that the codec (the format's match_folder) and the page (which cannot run the codec before it
// groups a folder's files: web/gen/folder-rules.js, written from formats_json by the build) apply
// one rule. A folder matches when one of its files meets a clause.
struct FolderRule {
  std::vector<std::string> names;          // a file of exactly this name ("metadata.yaml")
  std::vector<std::string> endings;        // a file whose name ends so (".db3")
  std::vector<std::string> companions;     // a file beside one named as it plus this ("-wal"),
                                           // itself not so named
  std::vector<std::string> split_endings;  // `<folder>_<N><ending>`: N decimal, no leading zero,
  size_t split_digits = 9;                 // at most this many digits

  // The clauses in the order above; match() names the first one a folder meets.
  enum class Clause { Name, Ending, Companion, Split };
  // `folder`: the folder's name or path (the part after its last '/' counts); `files`: the names
  // of the files directly in it.
  std::optional<Clause> match(const std::string& folder, const std::vector<std::string>& files) const;
  // Is `file` a split of `folder` (its base name), by split_endings.
  bool is_split(const std::string& folder, const std::string& file) const;
  bool empty() const;
  Json to_json() const;
};

// Helpers the page may start beside the codec for whole-file passes.
enum class Helper {
  Decompress,  // chunk decompression on other cores
  Hash,        // the file checksum beside the block walk
};
const char* helper_name(Helper helper);

struct FormatEntry {
  std::string name;     // "rosbag": Detection::family, Report::format, problem code prefix
  std::string label;    // "ROS bag": short, for tables and messages
  std::string summary;  // one line for `logscope --help`: versions, compressions

  // Detection by content: `head` is the first (up to) 512 bytes, `size` the file's size. A match
  // fills `version` and `label` (the label of this version, e.g. "ROS bag V2.0").
  struct Match {
    std::string version;
    std::string label;
  };
  std::function<std::optional<Match>(std::string_view head, uint64_t size)> match;
  // A file that is nearly this format (cut inside its magic, an unknown version): the stable
  // kind ("truncated-header", "unsupported-version") and a sentence the user can act on.
  struct NearMiss {
    std::string kind;
    std::string diagnosis;
  };
  std::function<std::optional<NearMiss>(std::string_view head, uint64_t size)> near_miss;

  // File names that are logs of this format, for finding logs in folders (`.bag`, `.bag.active`).
  std::vector<std::string> file_endings;
  // Problem codes that mean data was lost or found only by scanning (category "recovery").
  std::vector<std::string> recovery_codes;
  LogShape shape = LogShape::SingleFile;
  // LogShape::Folder: which folders hold a log of the format, by their file names alone.
  FolderRule folder_rule;
  // Its reading links a big library (SQLite): the page's view module lists the entry without
  // `open` and `open_folder` (set by the format's add_reading): it detects and names the format,
  // and the page reads the file in the full module, loaded on first use (docs/architecture.md,
  // "Two wasm modules").
  bool read_in_full_module = false;

  // Opens the inspector for a detected file; it reads through `source`, which must outlive it.
  std::function<std::unique_ptr<FormatInspector>(ByteSource& source, const Detection& detection)> open;

  // LogShape::Folder: does this folder hold one log of the format (a bag folder), and its inspector
  // over the folder's files (`open` above opens one file of it alone). The folder outlives it.
  std::function<std::optional<Match>(Folder& folder)> match_folder;
  std::function<std::unique_ptr<FormatInspector>(Folder& folder, const Detection& detection)> open_folder;
  // LogShape::Folder, optional: the reads of open_folder and its summary, named ahead in waves
  // (core/folder.h FolderReadPlan) for the page to fetch concurrently. Null: no plan.
  std::function<std::unique_ptr<FolderReadPlan>(Folder& folder)> plan_first_reads;

  // A small, valid, clean file of the format, in memory: the warm-up before the first file, the
  // fuzzers' seeds, tests that walk every format. The bytes are kept in the format's folder
  // (small_demo.inc), so reading needs no writer; a test asserts they are what make_small_demo
  // writes today.
  std::function<std::vector<uint8_t>()> small_demo;

  // --- Outputs: set by the format's add_outputs (codec/<format>/outputs.cpp), which the page's
  // view module does not link (codec/formats.cpp): writers and compressors load on first use.
  // The same small demo, written by the format's own writer.
  std::function<std::vector<uint8_t>()> make_small_demo;
  // A realistic demo file of about `target_bytes` at `path` (`logscope make-demo FORMAT`).
  std::function<bool(const std::string& path, uint64_t target_bytes, std::string* error)> write_demo;

  // A new file of the same format: the selected sources in the time range (extract), or an
  // indexed, valid copy of everything complete (repair). They read `source` themselves, in
  // bounded memory: no inspector is opened (a V1.x bag's would list every message first). The
  // caller re-checks what was written. Null where the format has no such operation.
  using WriteFn = std::function<ExtractResult(ByteSource& source, const Detection& detection, const ExtractSelection& selection,
                                              OutputSink& out, const ProgressFn& progress)>;
  WriteFn extract;
  WriteFn repair;
  // LogShape::Folder: repair of the whole folder (`folder`, as match_folder saw it) into a new
  // folder at the native path `out_folder`, which it creates. The caller re-checks the folder.
  using FolderWriteFn = std::function<ExtractResult(Folder& folder, const Detection& detection, const std::string& out_folder,
                                                    const ProgressFn& progress)>;
  FolderWriteFn repair_folder;

  std::vector<Operation> operations;
  SourceNoun source;                           // what export and extract select
  std::vector<ExtractOption> extract_options;  // beyond sources and time range
  std::string extract_summary;                 // what `extract` writes, in one sentence
  std::string repair_summary;                  // what `repair` keeps, in one sentence
  std::vector<Helper> helpers;                 // what the page may start for whole-file passes

  bool supports(Operation operation) const;
  bool uses(Helper helper) const;
  Json to_json() const;
};

// `entry` completed by each of `parts` (a format's add_reading, add_outputs: codec/formats.cpp).
FormatEntry with_parts(FormatEntry entry, std::initializer_list<void (*)(FormatEntry&)> parts);

// Every format, in the order detection tries them: the built-in list (codec/formats.cpp) and
// any added with add_format().
const std::vector<FormatEntry>& formats();
// The entry named `name`, or null.
const FormatEntry* find_format(std::string_view name);
// Adds a format at run time (tests register toy formats). Replaces an entry of the same name.
void add_format(FormatEntry entry);
// Removes a format added with add_format(); built-in entries stay.
void remove_format(std::string_view name);

// The table as JSON for the page and scripts: [{name, label, summary, endings, operations,
// source: {one, many}, extract_options, repair_summary, helpers, shape, module, and for a folder
// format folder_rule: {names, endings, companions, split_endings, split_digits}}].
Json formats_json();
// "BDDF, ROS bag, CARLA recorder log": the labels, for messages that list what logscope reads.
std::string format_labels();

// For entries' match and near_miss: does `head` start with `magic`; is it a proper prefix of it
// (the file ends inside the magic).
inline bool starts_with_magic(std::string_view head, std::string_view magic) {
  return head.size() >= magic.size() && head.substr(0, magic.size()) == magic;
}
inline bool is_cut_magic(std::string_view head, std::string_view magic) {
  return !head.empty() && head.size() < magic.size() && magic.substr(0, head.size()) == head;
}

// The built-in entries, in detection order (codec/formats.cpp).
std::vector<FormatEntry> builtin_formats();

}  // namespace logscope
