// rosbag2 commands: `make-demo-rosbag2`, `convert` (a bag folder into an MCAP), and `decompress`
// (a copy of a bag whose databases are compressed whole, that SQLite can open).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "command.h"
#include "core/file_output_sink.h"
#include "rosbag2/convert.h"
#include "core/folder.h"
#include "rosbag2/bag.h"
#include "rosbag2/inspector.h"
#include "rosbag2/repair.h"
#include "rosbag2/zstd_copy.h"
#include "rosbag2/writer.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

int run_make_demo(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--size-mb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-rosbag2 takes one OUT folder");
  double size_mb = 3;
  if (args.has("--size-mb") && (!parse_double(args.value("--size-mb"), &size_mb) || size_mb <= 0))
    return fail("--size-mb needs a positive number");
  std::string error;
  if (!rosbag2::write_demo_bag(args.positional()[0], static_cast<uint64_t>(size_mb * 1024 * 1024), &error)) return fail(error);
  std::printf("wrote %s\n", args.positional()[0].c_str());
  return kExitClean;
}

const CommandRegistrar kMakeDemo({"make-demo-rosbag2", "write a demo rosbag2 bag folder (SQLite, schema 4) with logscope's writer",
                                  "usage: logscope make-demo-rosbag2 OUT_FOLDER [--size-mb N]\n\n"
                                  "Writes OUT_FOLDER/metadata.yaml and OUT_FOLDER/<name>_0.db3 of about N MiB (default 3):\n"
                                  "an IMU, a chatter and compressed camera frames of 1 to 64 KB, with their definitions.",
                                  run_make_demo});

int run_convert(const std::vector<std::string>& raw) {
  std::vector<std::string> valued{"--compression"};
  for (const std::string& flag : schema_flags()) valued.push_back(flag);
  Arguments args(raw, valued);
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 2) return fail("convert takes a BAG (folder or .db3) and an OUT.mcap");
  const std::string& in = args.positional()[0];
  const std::string& out = args.positional()[1];
  rosbag2::ConvertOptions options;
  options.compression = args.value("--compression", "zstd");
  if (options.compression == "none") options.compression = "";
  if (options.compression != "" && options.compression != "zstd" && options.compression != "lz4")
    return fail("--compression is zstd, lz4 or none");
  auto file = open_file(in);
  if (!file) return kExitUnreadable;
  if (!file->inspector || !rosbag2::bag_of(*file->inspector))
    return fail(in + ": convert reads rosbag2 bags; this is " + (file->inspector ? file->detection.label : file->detection.diagnosis));
  std::string schema_error;
  if (!apply_schema_flags(args, *file, &schema_error)) return fail(schema_error);
  FileOutputSink sink;
  if (!sink.open(out)) return fail(sink.error());
  rosbag2::ConvertResult result = rosbag2::convert_to_mcap(*file->inspector, options, sink, terminal_progress("converting"));
  bool closed = sink.close();
  if (!result.ok || !closed) {
    std::remove(out.c_str());
    return fail(in + ": " + (result.ok ? sink.error() : result.error) + "; nothing written");
  }
  std::printf("convert: %s -> %s: %llu messages, %llu channels, %llu schemas\n", in.c_str(), out.c_str(),
              static_cast<unsigned long long>(result.messages), static_cast<unsigned long long>(result.channels),
              static_cast<unsigned long long>(result.schemas));
  for (const std::string& s : result.schemaless) std::printf("no schema (written as cdr bytes, schema id 0): %s\n", s.c_str());
  for (const Problem& p : result.problems)
    std::fprintf(stderr, "logscope: %s %s: %s\n", severity_name(p.severity), p.code.c_str(), p.message.c_str());
  if (result.cancelled) return fail("convert cancelled; the MCAP holds the messages before it");
  // The written file, read back with the MCAP check.
  auto written = open_file(out);
  if (!written || !written->inspector) return fail(out + ": the written file is not recognised");
  Report report = written->inspector->check(terminal_progress("checking the output"));
  size_t errors = report.count(Severity::Error), warnings = report.count(Severity::Warning);
  std::printf("check of %s: %zu errors, %zu warnings\n", out.c_str(), errors, warnings);
  for (const Problem& p : report.problems)
    if (p.severity != Severity::Info) std::printf("  %s %s: %s\n", severity_name(p.severity), p.code.c_str(), p.message.c_str());
  return errors + warnings + result.skipped + result.problems.size() ? kExitProblems : kExitClean;
}

const CommandRegistrar kConvert(
    {"convert", "a rosbag2 bag folder into an MCAP (ros2 profile, chunked, indexed)",
     "usage: logscope convert BAG OUT.mcap [--compression zstd|lz4|none] [--msg-path DIR | --definitions-from FILE]\n\n"
     "Streams every message of BAG (a bag folder or one .db3) into OUT.mcap, in bounded memory: one\n"
     "channel per topic and type (message encoding cdr, the topic's QoS in its metadata), chunks of\n"
     "4 MiB compressed with zstd (default) or lz4, message and chunk indexes, statistics and CRCs;\n"
     "then checks OUT.mcap with `logscope check`'s MCAP check.\n\n"
     "Schemas: each type's definition as the bag stores it (message_definitions, Iron and later),\n"
     "else the one given by:\n" +
         definition_flags_help() +
         "A type defined nowhere is still written: its channel has no schema (schema id 0, which MCAP\n"
         "allows), so its messages stay CDR bytes for any reader; convert lists those types.\n"
         "Exit status: 0 written and valid, 1 written with problems (messages left out, findings of\n"
         "the check), 2 nothing written. See docs/rosbag2.md.",
     run_convert});

// Copies one file of the bag into `dir` under `name`: streamed through zstd when `zstd`.
bool copy_bag_file(Folder& folder, const std::string& from, const std::string& dir, const std::string& name, bool zstd, std::string* error) {
  std::unique_ptr<ByteSource> in = folder.open(from, error);
  if (!in) return false;
  FileOutputSink sink;
  if (!sink.open(dir + "/" + name)) return *error = sink.error(), false;
  if (zstd) {
    rosbag2::ZstdCopy copy = rosbag2::decompress_zstd_file(*in, sink, terminal_progress("decompressing " + from));
    bool closed = sink.close();
    if (!copy.ok) return *error = from + ": " + copy.error, false;
    if (!closed) return *error = sink.error(), false;
    std::printf("decompressed %s (%llu bytes) -> %s (%llu bytes)\n", from.c_str(), static_cast<unsigned long long>(copy.read), name.c_str(),
                static_cast<unsigned long long>(copy.written));
    return true;
  }
  std::vector<uint8_t> buffer(4u << 20);
  for (uint64_t at = 0; at < in->size();) {
    size_t got = in->read(at, buffer.data(), static_cast<size_t>(std::min<uint64_t>(buffer.size(), in->size() - at)));
    if (got == 0) return *error = from + ": byte " + std::to_string(at) + " could not be read", false;
    if (!sink.write(buffer.data(), got)) return *error = sink.error(), false;
    at += got;
  }
  if (!sink.close()) return *error = sink.error(), false;
  return true;
}

int run_decompress(const std::vector<std::string>& raw) {
  Arguments args(raw, {});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 2) return fail("decompress takes a BAG folder and an OUT folder");
  const std::string& in = args.positional()[0];
  const std::string& out = args.positional()[1];
  auto file = open_file(in);
  if (!file) return kExitUnreadable;
  rosbag2::Bag* bag = file->inspector ? rosbag2::bag_of(*file->inspector) : nullptr;
  if (!bag || !file->folder) return fail(in + ": decompress reads rosbag2 bag folders; this is " + (file->inspector ? file->detection.label : file->detection.diagnosis));
  bool any = false;
  for (const rosbag2::BagFile& f : bag->files) any |= f.zstd_file;
  if (!any) return fail(in + ": no database of this bag is compressed whole (.db3.zstd): it opens as it is");
  std::error_code ec;
  if (std::filesystem::exists(out, ec)) return fail(out + " exists: decompress writes a new folder");
  if (!std::filesystem::create_directories(out, ec)) return fail(out + ": " + ec.message());
  std::string error;
  for (const rosbag2::BagFile& f : bag->files) {
    std::string name = f.zstd_file ? f.name.substr(0, f.name.size() - 5) : f.name;  // without ".zstd"
    if (!copy_bag_file(*file->folder, f.name, out, name, f.zstd_file, &error) ||
        (!f.wal_name.empty() && !copy_bag_file(*file->folder, f.wal_name, out, f.wal_name, false, &error))) {
      std::filesystem::remove_all(out, ec);
      return fail(error + "; nothing kept");
    }
  }
  // metadata.yaml as the copies are (compression_mode FILE dropped), the rest from the original.
  std::string dir_error;
  auto copy_folder = DirectoryFolder::open_directory(out, {}, &dir_error);
  if (!copy_folder) return fail(out + ": " + dir_error);
  std::unique_ptr<rosbag2::Bag> copied = rosbag2::open_bag(*copy_folder);
  std::string yaml = rosbag2::metadata_yaml_of(*copied, bag->metadata ? &*bag->metadata : nullptr);
  FileOutputSink sink;
  if (!sink.open(out + "/metadata.yaml") || !sink.write(yaml.data(), yaml.size()) || !sink.close()) return fail(sink.error());
  // The copy opens with random access: its summary, read from the databases.
  auto opened = open_file(out);
  if (!opened || !opened->inspector) return fail(out + ": the copy does not open");
  std::fputs(opened->inspector->info_text(InfoOptions()).c_str(), stdout);
  return kExitClean;
}

const CommandRegistrar kDecompress(
    {"decompress", "rosbag2: a copy of a bag whose databases are compressed whole (.db3.zstd), that opens",
     "usage: logscope decompress BAG OUT_FOLDER\n\n"
     "A bag recorded with compression_mode FILE stores each database as one zstd stream, which SQLite\n"
     "cannot read page by page: logscope shows its summary from metadata.yaml only. This streams each\n"
     ".db3.zstd through zstd into OUT_FOLDER (a new folder) in bounded memory, copies the other files,\n"
     "writes metadata.yaml for the copies (compression mode FILE dropped), and prints the copy's info.\n"
     "A stream cut inside a zstd frame is an error naming the byte; nothing is kept then.",
     run_decompress});

}  // namespace
}  // namespace logscope::cli
