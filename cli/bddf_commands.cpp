// BDDF-specific commands: `blocks` (extraction by series and time span through the index)
// and `make-demo-bddf`.
#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bddf/demo.h"
#include "bddf/format.h"
#include "core/time_math.h"
#include "command.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

// A time bound: absolute ns, or "+S" seconds after the file's first block.
bool parse_time(const std::string& text, int64_t file_start, int64_t* out) {
  if (!text.empty() && text[0] == '+') {
    double seconds;
    if (!parse_double(text.substr(1), &seconds) || seconds < 0) return false;
    // Past every time a file can hold when the sum does not fit (never an overflow).
    std::optional<int64_t> offset = time_math::from_seconds(seconds);
    std::optional<int64_t> at = offset ? time_math::add(file_start, *offset) : std::nullopt;
    *out = at.value_or(INT64_MAX);
    return true;
  }
  uint64_t ns;
  if (!parse_u64(text, &ns) || ns > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = static_cast<int64_t>(ns);
  return true;
}

int run_blocks(const std::vector<std::string>& raw) {
  std::vector<std::string> valued{"--series", "--from", "--to", "--max"};
  for (const std::string& flag : schema_flags()) valued.push_back(flag);
  Arguments args(raw, valued);
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("blocks takes one FILE (see `logscope blocks --help`)");
  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  if (file->detection.family != "bddf") return fail(file->path + ": not a BDDF file (" + file->detection.label + file->detection.kind + ")");
  std::string schema_error;
  if (!apply_schema_flags(args, *file, &schema_error)) return fail(schema_error);
  Report report = file->inspector->summary();
  const Json& series = *report.details.find("series");
  int64_t file_start = INT64_MAX;
  for (const Json& s : series.elements())
    if (const Json* first = s.find("min_timestamp_ns"); first && first->is_number())
      file_start = std::min<int64_t>(file_start, static_cast<int64_t>(first->as_uint()));
  if (file_start == INT64_MAX) file_start = 0;

  Json query = Json::object();
  if (args.has("--series")) {
    Json chosen = Json::array();
    std::string list = args.value("--series") + ",";
    for (size_t start = 0, comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1) {
      std::string text = list.substr(start, comma - start);
      uint64_t index;
      if (!parse_u64(text, &index) || index >= series.size())
        return fail("--series needs a series index in [0, " + std::to_string(series.size()) + "), got '" + text + "'");
      chosen.push_back(index);
    }
    query["series"] = std::move(chosen);
  }
  int64_t t;
  if (args.has("--from")) {
    if (!parse_time(args.value("--from"), file_start, &t)) return fail("--from needs ns since the epoch or +SECONDS");
    query["t0_ns"] = t;
  }
  if (args.has("--to")) {
    if (!parse_time(args.value("--to"), file_start, &t)) return fail("--to needs ns since the epoch or +SECONDS");
    query["t1_ns"] = t;
  }
  uint64_t max = 100000;
  if (args.has("--max") && !parse_u64(args.value("--max"), &max)) return fail("--max needs a number");
  query["max"] = max;
  Json result = file->inspector->query("extract", query, nullptr);
  if (const Json* error = result.find("error")) return fail(error->as_string());
  if (args.has("--decode")) {  // each block decoded, one JSON object a line
    for (const Json& b : result.find("blocks")->elements()) {
      Json block_query = Json::object();
      block_query["offset"] = b.find("file_offset")->as_uint();
      block_query["max_items"] = 100000;
      std::printf("%s\n", file->inspector->query("block", block_query, nullptr).dump().c_str());
    }
    return kExitClean;
  }
  if (args.has("--json")) {
    std::printf("%s\n", result.dump(2).c_str());
    return kExitClean;
  }
  const Json& blocks = *result.find("blocks");
  std::printf("%-6s  %-5s  %-32s  %-20s  %12s\n", "series", "entry", "time (UTC)", "timestamp_ns", "offset");
  for (const Json& b : blocks.elements()) {
    const std::string& text = b.find("timestamp_ns")->as_string();  // exact ns as decimal digits
    int64_t ts = 0;
    std::from_chars(text.data(), text.data() + text.size(), ts);
    std::printf("%6llu  %5llu  %-32s  %-20lld  %12llu\n", b.find("series")->as_uint(), b.find("entry")->as_uint(),
                bddf::iso_time(ts).c_str(), static_cast<long long>(ts), b.find("file_offset")->as_uint());
  }
  std::printf("%zu of %llu matching block%s%s\n", blocks.size(), result.find("total")->as_uint(),
              result.find("total")->as_uint() == 1 ? "" : "s", result.find("truncated")->as_bool() ? " (raise --max for more)" : "");
  return kExitClean;
}

int run_make_demo(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--size-mb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-bddf takes one OUT path");
  double size_mb = 3;
  if (args.has("--size-mb") && (!parse_double(args.value("--size-mb"), &size_mb) || size_mb <= 0))
    return fail("--size-mb needs a positive number");
  std::string error;
  if (!bddf::write_demo_file(args.positional()[0], static_cast<uint64_t>(size_mb * 1024 * 1024), &error)) return fail(error);
  std::printf("wrote %s\n", args.positional()[0].c_str());
  return kExitClean;
}

const CommandRegistrar kBlocks({"blocks", "BDDF: list the blocks of chosen series within a time span (through the index)",
                                "usage: logscope blocks FILE [--series N[,M...]] [--from T] [--to T] [--max N] [--json | --decode]\n"
                                "                       [--descriptors FILE | --proto-path DIR]\n\n"
                                "Finds blocks through the file's index, without scanning the data.\n"
                                "  --series N  series indexes, comma-separated (default all series)\n"
                                "  --from/--to T  ns since the epoch, or +SECONDS after the first block\n"
                                "  --max N     at most N blocks (default 100000)\n"
                                "  --json      the blocks as JSON\n"
                                "  --decode    each block decoded, one JSON object a line: POD samples, protobuf\n"
                                "              messages by field name with a schema, wire fields always:\n" +
                                    schema_flags_help(),
                                run_blocks});
const CommandRegistrar kMakeDemo({"make-demo-bddf", "write a realistic demo BDDF file with logscope's writer",
                                  "usage: logscope make-demo-bddf OUT [--size-mb N]\n\n"
                                  "Writes a Spot-like log (robot state, camera images, comments, POD sensors) of about\n"
                                  "N MiB (default 3), streamed to disk.",
                                  run_make_demo});

}  // namespace
}  // namespace logscope::cli
