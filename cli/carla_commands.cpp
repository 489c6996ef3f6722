// CARLA commands: the official recorder queries (collisions, actors blocked), the actor table and
// the demo generator. `info FILE [--all]` is in main.cpp and calls the inspector's info_text.
#include <cstdio>
#include <string>
#include <vector>

#include "carla/demo.h"
#include "command.h"

namespace logscope::cli {
namespace {

// Opens FILE and checks it is a CARLA log; null (after printing why) otherwise.
std::unique_ptr<OpenFile> open_carla(const std::string& path, int* status) {
  auto file = open_file(path);
  if (!file) {
    *status = kExitUnreadable;
    return nullptr;
  }
  if (file->detection.family != "carla" || !file->inspector) {
    *status = fail(path + ": not a CARLA recorder log (" + (file->detection.label.empty() ? file->detection.kind : file->detection.label) + ")");
    return nullptr;
  }
  return file;
}

int print_query(OpenFile& file, const std::string& name, const Json& query_args, bool json, const char* what) {
  Json result = file.inspector->query(name, query_args, terminal_progress(what));
  if (const Json* error = result.find("error")) return fail(error->as_string());
  if (json) {  // without CARLA's text (and its unit)
    Json out = Json::object();
    for (const auto& [key, value] : result.items())
      if (key != "text" && key != "units") out[key] = value;
    Json& units = out["units"];
    units = Json::object();
    if (const Json* typed = result.find("units"))
      for (const auto& [path, unit] : typed->items())
        if (path != "text") units[path] = unit;
    std::printf("%s\n", out.dump(2).c_str());
  } else if (const Json* text = result.find("text")) {
    std::fwrite(text->as_string().data(), 1, text->as_string().size(), stdout);
  }
  return kExitClean;
}

int run_collisions(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--types"}, 2);
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("collisions takes one FILE (see `logscope collisions --help`)");
  Json query = Json::object();
  query["type1"] = "a";
  query["type2"] = "a";
  if (args.has("--types")) {
    std::vector<std::string> types = args.values("--types");
    if (types.size() != 2 || types[0].size() != 1 || types[1].size() != 1)
      return fail("--types needs two category letters: h (hero), v (vehicle), w (walker), t (traffic light), o (other), a (any)");
    query["type1"] = types[0];
    query["type2"] = types[1];
  }
  int status = 0;
  auto file = open_carla(args.positional()[0], &status);
  if (!file) return status;
  return print_query(*file, "collisions", query, args.has("--json"), "collisions");
}

int run_blocked(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--min-time", "--min-distance"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("blocked takes one FILE (see `logscope blocked --help`)");
  double min_time = 30, min_distance = 10;
  if (args.has("--min-time") && !parse_double(args.value("--min-time"), &min_time)) return fail("--min-time needs a number of seconds");
  if (args.has("--min-distance") && !parse_double(args.value("--min-distance"), &min_distance)) return fail("--min-distance needs a number of centimetres");
  Json query = Json::object();
  query["min_time"] = min_time;
  query["min_distance"] = min_distance;
  int status = 0;
  auto file = open_carla(args.positional()[0], &status);
  if (!file) return status;
  return print_query(*file, "blocked", query, args.has("--json"), "blocked actors");
}

int run_actors(const std::vector<std::string>& raw) {
  Arguments args(raw, {});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("actors takes one FILE (see `logscope actors --help`)");
  int status = 0;
  auto file = open_carla(args.positional()[0], &status);
  if (!file) return status;
  Json query = Json::object();
  query["text"] = !args.has("--json");
  return print_query(*file, "actors", query, args.has("--json"), "actors");
}

int run_make_demo(const std::vector<std::string>& raw) {
  Arguments args(raw, {"--size-mb"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("make-demo-carla takes one OUT path");
  uint64_t size_mb = 3;
  if (args.has("--size-mb") && !parse_u64(args.value("--size-mb"), &size_mb)) return fail("--size-mb needs a whole number");
  std::string error;
  if (!carla::write_demo_file(args.positional()[0], size_mb << 20, &error)) return fail(error);
  return kExitClean;
}

const CommandRegistrar kCollisions({"collisions", "CARLA: collisions, like show_recorder_collisions",
                                    "usage: logscope collisions FILE [--types A B] [--json]\n\n"
                                    "Lists collisions as they start (CARLA's show_recorder_collisions layout).\n"
                                    "  --types A B  filter both sides: h hero, v vehicle, w walker, t traffic light, o other, a any (default a a)\n"
                                    "  --json       the rows as JSON\n"
                                    "Unlike CARLA, traffic signs and sensors count as 'o' (CARLA shows them as 'h' and 'a'),\n"
                                    "and a destroyed actor is forgotten (CARLA forgets the last created one instead).",
                                    run_collisions});
const CommandRegistrar kBlocked({"blocked", "CARLA: actors that stood still, like show_recorder_actors_blocked",
                                 "usage: logscope blocked FILE [--min-time S] [--min-distance CM] [--json]\n\n"
                                 "Lists actors that moved less than CM centimetres (default 10) for at least S seconds (default 30),\n"
                                 "longest first (CARLA's show_recorder_actors_blocked layout).\n"
                                 "Unlike CARLA, the last frame's unknown duration (-1) is not subtracted, and an actor destroyed\n"
                                 "while blocked is reported.",
                                 run_blocked});
const CommandRegistrar kActors({"actors", "CARLA: every actor with blueprint, role, spawn/destroy frame and parent",
                                "usage: logscope actors FILE [--json]\n\nOne row per actor life (an id reused after a destroy gives two rows).",
                                run_actors});
const CommandRegistrar kMakeDemo({"make-demo-carla", "write a demo CARLA recorder log",
                                  "usage: logscope make-demo-carla OUT [--size-mb N]\n\n"
                                  "Writes a realistic Town03 recording (20 Hz, hero car, traffic, pedestrians, traffic lights) of about N MiB (default 3).",
                                  run_make_demo});

}  // namespace
}  // namespace logscope::cli
