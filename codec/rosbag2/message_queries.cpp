#include "rosbag2/message_queries.h"

#include <utility>

#include "core/plot.h"

namespace logscope::rosbag2 {

void add_message_queries(std::vector<QuerySpec>& list, QueryRun decoded, QueryRun columns, QueryRun plot) {
  list.push_back({"decoded", "messages in stored order, a page at a time, decoded by their topic's definition (the bag's, else one supplied)",
                  {{"topic", ArgType::String, "only this topic"}, {"channel", ArgType::U64, "only this topic, by its row in the topics table"},
                   {"first", ArgType::U64, "index of the first message (in the selection)"}, {"count", ArgType::U64, "messages (at most 1000)"},
                   {"t0_ns", ArgType::U64, "from this time, ns"}, {"t1_ns", ArgType::U64, "to this time, ns"}},
                  {{"first", Unit::Id}, {"count", Unit::Count}, {"more", Unit::Flag}, {"cancelled", Unit::Flag}, {"messages.index", Unit::Id},
                   {"messages.channel", Unit::Id}, {"messages.topic", Unit::Text}, {"messages.sequence", Unit::Id},
                   {"messages.log_time", Unit::TimeNs}, {"messages.publish_time", Unit::TimeNs}, {"messages.size", Unit::Bytes},
                   {"messages.offset", Unit::Offset}, {"messages.offset_in_chunk", Unit::Offset}, {"messages.file", Unit::Text},
                   {"messages.row", Unit::Id}, {"messages.message", Unit::Data}, {"messages.decode_error", Unit::Text},
                   {"messages.decode_note", Unit::Text}, {"messages.hex", Unit::Text}, {"problems.offset", Unit::Offset},
                   {"problems.message", Unit::Text}},
                  std::move(decoded)});
  list.push_back({"columns", "the columns of `logscope export --topic` and what each holds (number, bool, text, json)",
                  {{"topic", ArgType::String, "the topic"}},
                  {{"topic", Unit::Text}, {"type", Unit::Text}, {"columns.name", Unit::Text}, {"columns.kind", Unit::Text}},
                  std::move(columns)});
  std::vector<ArgSpec> plot_args{{"topic", ArgType::String, "the topic"}};
  for (ArgSpec& spec : plot_arg_specs()) plot_args.push_back(std::move(spec));
  list.push_back({"plot", "numeric columns of a topic over time, as `logscope export` writes them: every point, or per-bucket first/last/min/max beyond max_points, and the exact count",
                  plot_args, plot_units(), std::move(plot)});
}

}  // namespace logscope::rosbag2
