// `logscope scan FILE [--topic T] [--at S] [--json]`: a scan or point cloud of any format
// (sensor_msgs/LaserScan, PointCloud2, PointCloud, foxglove.LaserScan, foxglove.PointCloud) at a
// time as points, through the scan query (codec/views/scans.h).
#include <cstdio>

#include "command.h"
#include "view_command.h"
#include "core/export.h"
#include "core/message_source.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

constexpr size_t kPointsPrinted = 10;

std::string range_text(const Json& bounds, const char* name) {
  const Json* lo = bounds.find(std::string("min_") + name);
  const Json* hi = bounds.find(std::string("max_") + name);
  if (!lo || !hi || !lo->is_number() || !hi->is_number()) return "-";
  char text[96];
  std::snprintf(text, sizeof text, "[%.3f, %.3f]", lo->as_double(), hi->as_double());
  return text;
}

void print_scan(const Json& answer) {
  const Json& scan = *answer.find("scan");
  std::printf("%s (%s): message %llu of %llu, at %s\n", answer.find("topic")->as_string().c_str(), answer.find("type")->as_string().c_str(),
              static_cast<unsigned long long>(answer.find("index")->as_uint() + 1),
              static_cast<unsigned long long>(answer.find("messages")->as_uint()), seconds_text(scan.find("time_ns")).c_str());
  if (const Json* error = scan.find("error")) {
    std::printf("  not readable as a scan: %s\n", error->as_string().c_str());
    return;
  }
  const Json* value = scan.find("value");
  std::printf("  frame \"%s\", %llu points (%llu not points: out of range or not finite), %llu declared\n",
              scan.find("frame_id")->as_string().c_str(), static_cast<unsigned long long>(scan.find("count")->as_uint()),
              static_cast<unsigned long long>(scan.find("invalid")->as_uint()), static_cast<unsigned long long>(scan.find("declared")->as_uint()));
  if (const Json* bounds = scan.find("bounds"); bounds && bounds->is_object()) {
    std::printf("  x %s  y %s  z %s m", range_text(*bounds, "x").c_str(), range_text(*bounds, "y").c_str(), range_text(*bounds, "z").c_str());
    if (value->is_string()) std::printf("  %s %s", value->as_string().c_str(), range_text(*bounds, "value").c_str());
    std::printf("\n");
  }
  const Json& points = *scan.find("points");
  if (scan.find("decimated")->as_bool())
    std::printf("  %zu of the points given, spread evenly (--max-points)\n", points.size());
  size_t shown = std::min(points.size(), kPointsPrinted);
  if (shown) std::printf("  the first %zu points (x y z in m%s%s):\n", shown, value->is_string() ? ", " : "", value->is_string() ? value->as_string().c_str() : "");
  for (size_t i = 0; i < shown; ++i) {
    const Json& p = points[i];
    std::printf("  %10.4f %10.4f %10.4f", p[0].as_double(), p[1].as_double(), p[2].as_double());
    if (p[3].is_number()) std::printf("   %g", p[3].as_double());
    std::printf("\n");
  }
  for (const Json& p : scan.find("problems")->elements())
    std::printf("  problem %s: %s\n", p.find("code")->as_string().c_str(), p.find("message")->as_string().c_str());
}

int run_scan_command(const std::vector<std::string>& raw) {
  Arguments args(raw, view_flags({"--topic", "--at", "--max-points"}));
  if (!args.ok()) return fail(args.error());
  int exit = 0;
  auto file = open_view_file(args, "scan", "scans", &exit);
  if (!file) return exit;
  std::string error;
  Json query = Json::object();
  if (args.has("--topic")) query["topic"] = args.value("--topic");
  if (args.has("--max-points")) {
    uint64_t n = 0;
    if (!parse_u64(args.value("--max-points"), &n) || n < 1 || n > 1000000) return fail("--max-points needs a count from 1 to 1000000");
    query["max_points"] = n;
  }
  if (args.has("--at")) {
    uint64_t ns = 0;
    if (!view_time(args, "--at", *file, &ns, &error)) return fail(error);
    query["at_ns"] = ns;
  }
  Json answer = file->inspector->query("scan", query, terminal_progress("reading the scans"));
  if (std::string why = view_answer_failure(answer, *file); !why.empty()) return fail(why);
  if (args.has("--json")) {
    std::printf("%s\n", answer.dump(2).c_str());
  } else if (answer.find("topic")->is_null()) {
    // Said on stderr below.
  } else if (!answer.find("scan")) {
    std::printf("%s (%s): no message at or before %s (the first is at %s)\n", answer.find("topic")->as_string().c_str(),
                answer.find("type")->as_string().c_str(), seconds_text(answer.find("at_ns")).c_str(), seconds_text(answer.find("first_ns")).c_str());
  } else {
    print_scan(answer);
  }
  print_walk_account(answer, "scan");  // topics without a schema, messages that did not decode, damage
  if (answer.find("topics")->size() == 0) std::fprintf(stderr, "logscope: %s holds no scan or point cloud topics\n", file->path.c_str());
  return kExitClean;
}

const CommandRegistrar kScan({"scan", "a laser scan or point cloud at a time, as points in the sensor's frame",
                              "usage: logscope scan FILE [--topic T] [--at S] [--max-points N] [--json]\n"
                              "                     [--msg-path DIR | --definitions-from FILE] [--descriptors FILE | --proto-path DIR]\n\n"
                              "The message of a scan topic (sensor_msgs/LaserScan, PointCloud2, PointCloud,\n"
                              "foxglove.LaserScan, foxglove.PointCloud) at or before a time, as points in its frame:\n"
                              "x, y, z in metres and a value (the intensity, or the cloud's first other field). A range\n"
                              "outside [range_min, range_max] or a coordinate that is not finite is no point (counted).\n"
                              "  --topic T        the scan topic (default: the first with messages)\n"
                              "  --at S           seconds: +12.5 after the start, or absolute like 1700000000.25\n"
                              "                   (default: the topic's first message)\n"
                              "  --max-points N   points given at most, spread evenly (default 20000)\n"
                              "  --json           the scan query's answer (its points too, up to --max-points)\n" +
                                  definition_flags_help() + schema_flags_help() +
                                  "Scan topics without a schema, undecodable messages and damage are named on stderr.\n"
                                  "Exit status: 0 read, 2 unreadable file, unknown format or bad arguments.",
                              run_scan_command});

}  // namespace
}  // namespace logscope::cli
