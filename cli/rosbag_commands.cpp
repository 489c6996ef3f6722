// ROS bag commands: `messages` (decoded messages as JSON lines) and `make-demo-rosbag`.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "rosbag/demo.h"

namespace logscope::cli {
namespace {

// Through the inspector's "messages" query, a page at a time: the same path as the page's Data tab.
int run_messages(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--topic", "--limit", "--preview"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("messages takes one FILE (see `logscope messages --help`)");
  uint64_t limit = UINT64_MAX, preview = 16;
  if (args.has("--limit") && !parse_u64(args.value("--limit"), &limit)) return fail("--limit needs a number");
  if (args.has("--preview") && !parse_u64(args.value("--preview"), &preview)) return fail("--preview needs a number");
  auto file = open_file(args.positional()[0]);
  if (!file) return kExitUnreadable;
  if (!file->inspector || file->detection.family != "rosbag") return fail(file->path + ": not a ROS bag (" + file->detection.diagnosis + ")");
  std::string topic = args.value("--topic");
  bool json = args.has("--json");
  ProgressFn progress = terminal_progress("reading");
  std::vector<Json> problems;
  for (uint64_t n = 0; n < limit;) {
    Json query = Json::object();
    if (!topic.empty()) query["topic"] = topic;
    query["first"] = n;
    query["count"] = std::min<uint64_t>(limit - n, 10000);
    query["preview"] = preview;
    Json page = file->inspector->query("messages", query, progress);
    if (const Json* error = page.find("error")) return fail(file->path + ": " + error->as_string());
    for (const Json& m : page.find("messages")->elements()) {
      if (json) {
        std::string line = m.dump();
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fputc('\n', stdout);
      } else {
        const Json* message = m.find("message");
        std::printf("%s %s [%s] %s\n", m.find("time")->as_string().c_str(), m.find("topic")->as_string().c_str(),
                    m.find("type")->as_string().c_str(), message ? message->dump().c_str() : "null");
        if (const Json* error = m.find("error")) std::printf("  ! %s\n", error->as_string().c_str());
      }
    }
    for (const Json& p : page.find("problems")->elements()) problems.push_back(p);
    n += page.find("count")->as_uint();
    if (!page.find("more")->as_bool() || page.find("count")->as_uint() == 0) break;
  }
  auto print_problem = [](const Json& p) {
    std::fprintf(stderr, "logscope: %s @%llu %s: %s\n", p.find("severity")->as_string().c_str(),
                 static_cast<unsigned long long>(p.find("offset")->as_uint()), p.find("code")->as_string().c_str(),
                 p.find("message")->as_string().c_str());
  };
  for (const Json& p : problems) print_problem(p);
  for (const Problem& p : file->inspector->summary().problems)
    if (p.severity != Severity::Info) print_problem(problem_to_json(p));
  return problems.empty() ? kExitClean : kExitProblems;
}

int run_make_demo(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--size-mb", "--compression", "--version"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-rosbag takes one OUT path");
  double size_mb = 3;
  if (args.has("--size-mb") && (!parse_double(args.value("--size-mb"), &size_mb) || size_mb <= 0)) return fail("--size-mb needs a positive number");
  rosbag::DemoOptions options;
  options.compression = args.value("--compression", "lz4");
  if (options.compression != "none" && options.compression != "lz4" && options.compression != "bz2")
    return fail("--compression is none, lz4 or bz2");
  options.tiny = args.has("--tiny");
  std::string version = args.value("--version", "2.0");
  if (version == "1.2") options.version = 102;
  else if (version != "2.0") return fail("--version is 2.0 or 1.2");
  std::string error;
  const std::string& out = args.positional()[0];
  if (!rosbag::write_demo_file(out, static_cast<uint64_t>(size_mb * 1024 * 1024), options, &error)) return fail(error);
  std::printf("%s\n", out.c_str());
  return kExitClean;
}

const CommandRegistrar kMessages({"messages", "ROS bag: decoded messages in time order",
                                  "usage: logscope messages FILE [--topic T] [--limit N] [--json] [--preview N]\n\n"
                                  "Prints every message (or those of topic T, at most N) in time order, decoded with\n"
                                  "the message definitions stored in the bag. --json prints one JSON object per line.\n"
                                  "Arrays longer than --preview elements (default 16) show their first elements and length.",
                                  run_messages});
const CommandRegistrar kMakeDemo({"make-demo-rosbag", "write a realistic demo ROS bag with logscope's writer",
                                  "usage: logscope make-demo-rosbag OUT [--size-mb N] [--compression none|lz4|bz2] [--tiny] [--version 2.0|1.2]\n\n"
                                  "Writes an outdoor-robot bag (IMU, odometry, lidar, TF, GPS, camera, cmd_vel, rosout)\n"
                                  "of about N MB (default 3). --tiny writes 4-byte messages only (benchmarks).",
                                  run_make_demo});

}  // namespace
}  // namespace logscope::cli
