// libFuzzer harness: the scans view (codec/views/scans.h, scan_points.h) over decoded messages of
// any shape. Input: "<type>\n<query arguments as JSON>\n<one decoded message as JSON per line>...";
// the messages come on one topic, some at one time, through a MessageSource as any format hands
// them (whole, as walk_with's whole_bytes asks). Checks the scan at the time asked is at or before
// it, its counts add up, no more points are given than asked, every point and bound is finite, and
// a decimated scan says so.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/message_source.h"
#include "harness_inputs.h"
#include "views/scans.h"

using namespace logscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<fuzz_input::ViewMessages> in = fuzz_input::view_input(data, size);
  if (!in) return 0;
  const std::string& type = in->type;
  const std::string scan = "/scan", no_error;
  std::vector<std::optional<Json>> parsed;
  for (const std::string& line : in->messages) parsed.push_back(Json::parse(line));
  auto time_of = [](size_t i) -> uint64_t { return (i * 7919) % 5; };  // out of order, several at one time
  FunctionSource source(
      [&] { return std::vector<SourceTopic>{{scan, type, ""}, {"/other", "std_msgs/String", ""}}; },
      [&](const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit,
          const ProgressFn&, std::string*) {
        if (topics.count("/other")) __builtin_trap();  // only scan topics are walked
        for (size_t i = 0; i < parsed.size(); ++i) {
          uint64_t t = time_of(i);
          if (t < options.t0_ns || t > options.t1_ns) continue;
          const std::optional<Json>& m = parsed[i];
          if (!visit(SourceMessage{scan, type, t, m ? &*m : nullptr, m ? no_error : std::string("not JSON")})) break;
        }
        return true;
      });
  QuerySpec spec = views::scan_query(source);
  Json answer = run_query({spec}, spec.name, in->args, nullptr);
  answer.dump();
  if (answer.find("error") || answer.find("topic")->is_null()) return 0;
  const Json* s = answer.find("scan");
  if (!s || s->is_null()) return 0;
  uint64_t at = std::stoull(answer.find("at_ns")->as_string());
  if (std::stoull(s->find("time_ns")->as_string()) > at) __builtin_trap();
  if (s->find("error")) return 0;
  uint64_t count = s->find("count")->as_uint(), shown = s->find("shown")->as_uint();
  uint64_t limit = answer.find("max_points")->as_uint();
  if (shown != s->find("points")->size() || shown > limit || shown > count) __builtin_trap();
  if (s->find("decimated")->as_bool() != (count > limit)) __builtin_trap();
  if (!s->find("decimated")->as_bool() && shown != count) __builtin_trap();
  for (const Json& p : s->find("points")->elements())
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(p[i].as_double())) __builtin_trap();
  if (const Json* b = s->find("bounds"); b && b->is_object())
    for (const char* k : {"min_x", "max_x", "min_y", "max_y", "min_z", "max_z"})
      if (!std::isfinite(b->find(k)->as_double())) __builtin_trap();
  return 0;
}
