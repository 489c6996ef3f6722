// libFuzzer harness: the robot log view (codec/views/robot_log.h) over decoded messages of any
// shape. Input: "<type>\n<query arguments as JSON>\n<one decoded message as JSON per line>...";
// the messages come through a MessageSource as any format hands them. Checks the totals agree
// with each other and with the page asked for.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/message_source.h"
#include "views/robot_log.h"

using namespace logscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (lines.size() < 2) return 0;
  const std::string type = lines[0], topic = "/rosout", no_error;
  std::optional<Json> args = Json::parse(lines[1]);
  if (!args || !args->is_object()) args = Json::object();
  FunctionSource source(
      [&] { return std::vector<SourceTopic>{{topic, type, ""}, {"/other", "std_msgs/String", ""}}; },
      [&](const std::set<std::string>& topics, const WalkOptions&, const std::function<bool(const SourceMessage&)>& visit, const ProgressFn&, std::string*) {
        if (!topics.count(topic) || topics.count("/other")) __builtin_trap();  // only log topics are walked
        for (size_t i = 2; i < lines.size(); ++i) {
          std::optional<Json> message = Json::parse(lines[i]);
          // Times out of order on purpose: the view sorts them.
          uint64_t time = (i * 7919) % 13;
          if (!visit(SourceMessage{topic, type, time, message ? &*message : nullptr, message ? no_error : std::string("not JSON")})) break;
        }
        return true;
      });
  QuerySpec spec = views::robot_log_query(source);
  Json answer = run_query({spec}, spec.name, *args, nullptr);
  answer.dump();
  if (answer.find("error")) return 0;
  uint64_t total = answer.find("total")->as_uint(), sum = 0, selected_levels = 0;
  for (const Json& l : answer.find("all_levels")->elements()) sum += l.find("count")->as_uint();
  for (const Json& l : answer.find("levels")->elements()) selected_levels += l.find("count")->as_uint();
  uint64_t selected = answer.find("selected")->as_uint();
  if (sum != total || selected_levels > total || selected > selected_levels) __builtin_trap();
  if (total + answer.find("undecoded")->as_uint() != lines.size() - 2 && views::is_log_type(type)) __builtin_trap();
  uint64_t previous = 0;
  for (const Json& row : answer.find("rows")->elements()) {
    uint64_t t = std::stoull(row.find("time_ns")->as_string());
    if (t < previous) __builtin_trap();  // time order
    previous = t;
  }
  return 0;
}
