// libFuzzer harness: the diagnostics view (codec/views/diagnostics.h) over decoded messages of any
// shape. Input: "<type>\n<query arguments as JSON>\n<one decoded message as JSON per line>...";
// the messages come on /diagnostics out of time order, through a MessageSource as any format
// hands them. Checks each component's runs tile its span in time order, its updates add up to the
// statuses, no status at the time is from after it, and every finding has a code.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/message_source.h"
#include "harness_inputs.h"
#include "views/diagnostics.h"

using namespace logscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<fuzz_input::ViewMessages> in = fuzz_input::view_input(data, size);
  if (!in) return 0;
  const std::string& type = in->type;
  const std::string topic = "/diagnostics", no_error, not_json = "not JSON";
  FunctionSource source(
      [&] { return std::vector<SourceTopic>{{topic, type, ""}, {"/other", "std_msgs/String", ""}}; },
      [&](const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit, const ProgressFn&, std::string*) {
        if (topics.count("/other")) __builtin_trap();  // only diagnostics topics are walked
        for (size_t i = 0; i < in->messages.size(); ++i) {
          uint64_t time = (i * 7919) % 13;  // out of order on purpose: runs are placed by time
          if (time < options.t0_ns || time > options.t1_ns) continue;  // a slice (slice_ms), or the window of the values
          std::optional<Json> message = Json::parse(in->messages[i]);
          SourceMessage m{topic, type, time, message ? &*message : nullptr, message ? no_error : not_json};
          m.offset = i * 100;
          if (!visit(m)) break;
        }
        return true;
      },
      [](const std::set<std::string>&, IndexedTimes* out) {
        *out = IndexedTimes{0, 12, {0, 3, 4, 9}};  // chunk starts, as a format's index gives them
        return true;
      });
  QuerySpec spec = views::diagnostics_query(source);
  Json answer = run_query({spec}, spec.name, in->args, nullptr);
  // Asked with slice_ms: asked again until it has read the whole range (13 ns: a slice is 1 ns at least).
  for (int asked = 1; answer.find("reading"); ++asked) {
    if (asked > 13) __builtin_trap();
    answer = run_query({spec}, spec.name, in->args, nullptr);
  }
  answer.dump();
  if (answer.find("error")) return 0;
  uint64_t at = std::stoull(answer.find("at_ns")->as_string()), updates = 0;
  for (const Json& c : answer.find("components")->elements()) {
    updates += c.find("updates")->as_uint();
    uint64_t in_runs = 0, previous_end = 0;
    bool first = true;
    for (const Json& r : c.find("runs")->elements()) {
      uint64_t start = std::stoull(r.find("start_ns")->as_string()), end = std::stoull(r.find("end_ns")->as_string());
      if (end < start || (!first && start != previous_end)) __builtin_trap();
      previous_end = end;
      first = false;
      in_runs += r.find("updates")->as_uint();
    }
    if (c.find("runs")->size() == c.find("run_count")->as_uint() && in_runs != c.find("updates")->as_uint()) __builtin_trap();
    const Json& when = *c.find("at");
    if (!when.is_null() && std::stoull(when.find("time_ns")->as_string()) > at) __builtin_trap();
  }
  if (updates > answer.find("statuses")->as_uint()) __builtin_trap();
  for (const Json& f : answer.find("findings")->elements())
    if (f.find("code")->as_string().rfind("diagnostics.", 0) != 0) __builtin_trap();
  return 0;
}
