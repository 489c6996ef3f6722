// A bag of MCAP splits' messages for the views: each split's own source (its MCAP inspector's),
// topics merged by name, messages split after split.
#include "rosbag2/mcap_folder_impl.h"

namespace logscope::rosbag2 {

MessageSource* McapBagInspector::message_source() {
  if (message_source_) return message_source_.get();
  auto topics = [this] {
    std::vector<SourceTopic> list;
    std::set<std::string> seen;
    for (Split& split : splits_) {
      MessageSource* source = split.inspector ? message_source_of(*split.inspector) : nullptr;
      if (!source) continue;
      for (SourceTopic& t : source->topics())
        if (seen.insert(t.topic).second) list.push_back(std::move(t));
    }
    return list;
  };
  auto walk = [this](const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit,
                     const ProgressFn& progress, std::string* error) {
    uint64_t total = 0, before = 0;
    for (const Split& split : splits_) total += split.source ? split.source->size() : 0;
    bool go_on = true;
    for (Split& split : splits_) {
      MessageSource* source = split.inspector ? message_source_of(*split.inspector) : nullptr;
      uint64_t size = split.source ? split.source->size() : 0;
      if (source) {
        std::string stop;
        bool walked = source->walk_with(topics, options, [&](const SourceMessage& m) { return go_on = visit(m); }, split_progress(progress, before, total), &stop);
        if (!stop.empty() && error) *error = split.name + ": " + stop;
        if (!walked) return false;
        if (!go_on) return true;
      }
      before += size;
    }
    return true;
  };
  message_source_ = std::make_unique<FunctionSource>(topics, walk);
  return message_source_.get();
}

}  // namespace logscope::rosbag2
