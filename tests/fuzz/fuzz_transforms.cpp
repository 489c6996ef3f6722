// libFuzzer harness: the transforms view (codec/views/transforms.h) over decoded messages of any
// shape. Input: "<type>\n<query arguments as JSON>\n<one decoded message as JSON per line>...";
// odd lines come on /tf_static, even ones on /tf, through a MessageSource as any format hands
// them. Checks the edges' updates add up, no update is from after the time asked (statics
// aside), and every finding names frames.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/message_source.h"
#include "harness_inputs.h"
#include "views/transforms.h"

using namespace logscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<fuzz_input::ViewMessages> in = fuzz_input::view_input(data, size);
  if (!in) return 0;
  const std::string& type = in->type;
  const std::string tf = "/tf", tf_static = "/tf_static", no_error;
  FunctionSource source(
      [&] { return std::vector<SourceTopic>{{tf, type, ""}, {tf_static, type, ""}, {"/other", "std_msgs/String", ""}}; },
      [&](const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit, const ProgressFn&, std::string*) {
        if (topics.count("/other")) __builtin_trap();  // only transform topics are walked
        for (size_t i = 2; i < in->messages.size() + 2; ++i) {
          uint64_t time = (i * 7919) % 13;  // out of order on purpose: the view sorts each edge
          if (time < options.t0_ns || time > options.t1_ns) continue;  // a slice of a sliced walk (slice_ms)
          std::optional<Json> message = Json::parse(in->messages[i - 2]);
          if (!visit(SourceMessage{i % 2 ? tf_static : tf, type, time, message ? &*message : nullptr, message ? no_error : std::string("not JSON")}))
            break;
        }
        return true;
      },
      [](const std::set<std::string>&, IndexedTimes* out) {
        *out = IndexedTimes{0, 12, {0, 3, 4, 9}};  // chunk starts, as a format's index gives them
        return true;
      });
  QuerySpec spec = views::transforms_query(source);
  Json answer = run_query({spec}, spec.name, in->args, nullptr);
  // Asked with slice_ms: asked again until it has read the whole range (13 ns: a slice is 1 ns at least).
  for (int asked = 1; answer.find("reading"); ++asked) {
    if (asked > 13) __builtin_trap();
    answer = run_query({spec}, spec.name, in->args, nullptr);
  }
  answer.dump();
  if (answer.find("error")) return 0;
  uint64_t at = std::stoull(answer.find("at_ns")->as_string()), updates = 0;
  for (const Json& e : answer.find("edges")->elements()) {
    updates += e.find("updates")->as_uint();
    const Json& when = *e.find("at");
    if (when.is_null()) continue;
    if (std::stoull(when.find("time_ns")->as_string()) > at && !e.find("static")->as_bool()) __builtin_trap();
    for (const char* angle : {"roll_deg", "pitch_deg", "yaw_deg"})
      if (!(std::fabs(when.find(angle)->as_double()) <= 180.0)) __builtin_trap();
  }
  if (updates != answer.find("updates")->as_uint()) __builtin_trap();
  if (answer.find("roots")->size() > answer.find("frames")->as_uint()) __builtin_trap();
  for (const Json& f : answer.find("findings")->elements())
    if (f.find("frames")->size() == 0) __builtin_trap();
  return 0;
}
