// libFuzzer harness: the robot log view (codec/views/robot_log.h) over decoded messages of any
// shape. Input: "<type>\n<query arguments as JSON>\n<one decoded message as JSON per line>...";
// the messages come through a MessageSource as any format hands them, whole or a slice of time at a
// time (slice_ms). Checks the totals agree with each other and with the page asked for.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/message_source.h"
#include "harness_inputs.h"
#include "views/robot_log.h"

using namespace logscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<fuzz_input::ViewMessages> in = fuzz_input::view_input(data, size);
  if (!in) return 0;
  const std::string& type = in->type;
  const std::string topic = "/rosout", no_error;
  FunctionSource source(
      [&] { return std::vector<SourceTopic>{{topic, type, ""}, {"/other", "std_msgs/String", ""}}; },
      [&](const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit, const ProgressFn&, std::string*) {
        if (!topics.count(topic) || topics.count("/other")) __builtin_trap();  // only log topics are walked
        for (size_t i = 2; i < in->messages.size() + 2; ++i) {
          // Times out of order on purpose: the view sorts them.
          uint64_t time = (i * 7919) % 13;
          if (time < options.t0_ns || time > options.t1_ns) continue;  // a slice of a sliced walk (slice_ms)
          std::optional<Json> message = Json::parse(in->messages[i - 2]);
          if (!visit(SourceMessage{topic, type, time, message ? &*message : nullptr, message ? no_error : std::string("not JSON")})) break;
        }
        return true;
      },
      [](const std::set<std::string>&, IndexedTimes* out) {
        *out = IndexedTimes{0, 12, {0, 3, 4, 9}};  // chunk starts, as a format's index gives them
        return true;
      });
  QuerySpec spec = views::robot_log_query(source);
  Json answer = run_query({spec}, spec.name, in->args, nullptr);
  // Asked with slice_ms: asked again until it has read the whole range (13 ns: a slice is 1 ns at least).
  for (int asked = 1; answer.find("reading"); ++asked) {
    if (asked > 13) __builtin_trap();
    answer = run_query({spec}, spec.name, in->args, nullptr);
  }
  answer.dump();
  if (answer.find("error")) return 0;
  uint64_t total = answer.find("total")->as_uint(), sum = 0, selected_levels = 0;
  for (const Json& l : answer.find("all_levels")->elements()) sum += l.find("count")->as_uint();
  for (const Json& l : answer.find("levels")->elements()) selected_levels += l.find("count")->as_uint();
  uint64_t selected = answer.find("selected")->as_uint();
  if (sum != total || selected_levels > total || selected > selected_levels) __builtin_trap();
  if (total + answer.find("undecoded")->as_uint() != in->messages.size() && views::is_log_type(type)) __builtin_trap();
  uint64_t previous = 0;
  for (const Json& row : answer.find("rows")->elements()) {
    uint64_t t = std::stoull(row.find("time_ns")->as_string());
    if (t < previous) __builtin_trap();  // time order
    previous = t;
  }
  return 0;
}
