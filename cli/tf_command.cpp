// `logscope tf FILE [--at S]`: the frame tree of any format's transforms (tf2_msgs/TFMessage,
// tf/tfMessage, foxglove.FrameTransform(s)) at a time, through the transforms query
// (codec/views/transforms.h), and the tree's findings.
#include <cstdio>
#include <map>
#include <set>

#include "command.h"
#include "view_command.h"
#include "core/export.h"
#include "core/message_source.h"
#include "schema_options.h"

namespace logscope::cli {
namespace {

std::string edge_text(const Json& e) {
  const Json& at = *e.find("at");
  char text[256];
  std::snprintf(text, sizeof text, "xyz %.3f %.3f %.3f m  rpy %.1f %.1f %.1f deg", at.find("x")->as_double(), at.find("y")->as_double(),
                at.find("z")->as_double(), at.find("roll_deg")->as_double(), at.find("pitch_deg")->as_double(), at.find("yaw_deg")->as_double());
  std::string out = text;
  if (e.find("static")->as_bool()) return out + "  static";
  uint64_t age = 0;
  parse_u64(at.find("age_ns")->as_string(), &age);
  if (const Json* rate = e.find("rate_hz"); rate && rate->is_number()) {
    std::snprintf(text, sizeof text, "  %.1f Hz", rate->as_double());
    out += text;
  }
  std::snprintf(text, sizeof text, ", updated %.3f s before", static_cast<double>(age) / 1e9);
  out += text;
  if (e.find("stale")->as_bool()) out += "  STALE";
  return out;
}

// The tree from its roots, depth first; a frame met twice (two parents, a cycle) is printed once.
void print_tree(const Json& answer) {
  std::map<std::string, std::vector<const Json*>> children;
  for (const Json& e : answer.find("edges")->elements())
    if (!e.find("at")->is_null()) children[e.find("parent")->as_string()].push_back(&e);
  std::set<std::string> printed;
  std::vector<std::pair<const Json*, int>> stack;  // an edge (null: a root) and its depth
  auto push_children = [&](const std::string& frame, int depth) {
    auto it = children.find(frame);
    if (it == children.end()) return;
    for (auto e = it->second.rbegin(); e != it->second.rend(); ++e) stack.push_back({*e, depth});
  };
  for (const Json& root : answer.find("roots")->elements()) {
    std::printf("%s\n", root.as_string().c_str());
    printed.insert(root.as_string());
    push_children(root.as_string(), 1);
    while (!stack.empty()) {
      auto [e, depth] = stack.back();
      stack.pop_back();
      const std::string& child = e->find("child")->as_string();
      bool again = !printed.insert(child).second;
      std::printf("%*s%s  (%s)%s\n", depth * 2, "", child.c_str(), edge_text(*e).c_str(), again ? "  [seen above]" : "");
      if (!again) push_children(child, depth + 1);
    }
  }
}

int run_tf_command(const std::vector<std::string>& raw) {
  Arguments args(raw, view_flags({"--at"}));
  if (!args.ok()) return fail(args.error());
  int exit = 0;
  auto file = open_view_file(args, "tf", "transforms", &exit);
  if (!file) return exit;
  std::string error;
  Json query = Json::object();
  if (args.has("--at")) {
    uint64_t ns = 0;
    if (!view_time(args, "--at", *file, &ns, &error)) return fail(error);
    query["at_ns"] = ns;
  }
  Json answer = file->inspector->query("transforms", query, terminal_progress("reading the transforms"));
  if (std::string why = view_answer_failure(answer, *file); !why.empty()) return fail(why);
  if (args.has("--json")) {
    std::printf("%s\n", answer.dump(2).c_str());
  } else {
    std::printf("frames at %s: %llu frames, %zu edges, %llu updates\n", seconds_text(answer.find("at_ns")).c_str(),
                static_cast<unsigned long long>(answer.find("frames")->as_uint()), answer.find("edges")->size(),
                static_cast<unsigned long long>(answer.find("updates")->as_uint()));
    print_tree(answer);
    print_findings(answer);
  }
  print_walk_account(answer, "transform");  // topics without a schema, messages that did not decode, damage
  if (answer.find("topics")->size() == 0) std::fprintf(stderr, "logscope: %s holds no transform topics\n", file->path.c_str());
  return kExitClean;
}

const CommandRegistrar kTf({"tf", "the frame tree of the transforms (/tf, /tf_static, foxglove.FrameTransform) at a time",
                            "usage: logscope tf FILE [--at S] [--json]\n"
                            "                   [--msg-path DIR | --definitions-from FILE] [--descriptors FILE | --proto-path DIR]\n\n"
                            "The frame tree at a time (default: the last update): each parent -> child edge with its\n"
                            "translation (m), roll/pitch/yaw (deg), rate and the age of its last update; an edge is\n"
                            "STALE after 5 of its periods without an update. Then the findings: a frame with two\n"
                            "parents, a cycle, an edge whose updates stopped (docs/views.md).\n"
                            "  --at S     seconds: +12.5 after the start, or absolute like 1700000000.25\n"
                            "  --json     the transforms query's answer\n" +
                                definition_flags_help() + schema_flags_help() +
                                "Transform topics without a schema, undecodable messages and damage are named on stderr.\n"
                                "Exit status: 0 read, 2 unreadable file, unknown format or bad arguments.",
                            run_tf_command});

}  // namespace
}  // namespace logscope::cli
