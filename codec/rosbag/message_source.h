// A bag's messages for the views (core/message_source.h): each connection's topic and type, and
// its messages in time order decoded by their connection's definition.
#pragma once

#include "core/message_source.h"
#include "rosbag/decode.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

class BagMessageSource : public MessageSource {
 public:
  BagMessageSource(ByteSource& source, Bag& bag) : source_(source), bag_(bag) {}
  std::vector<SourceTopic> topics() override;
  bool walk(const std::set<std::string>& topics, const std::function<bool(const SourceMessage&)>& visit, const ProgressFn& progress,
            std::string* error) override;
  bool walk_with(const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit,
                 const ProgressFn& progress, std::string* error) override;
  bool indexed_times(const std::set<std::string>& topics, IndexedTimes* out) override;

 private:
  ByteSource& source_;
  Bag& bag_;
  MessageDecoder decoder_;
  MessageDecoder whole_decoder_{whole_bytes()};  // WalkOptions::whole_bytes

  static DecodeOptions whole_bytes() {
    DecodeOptions options;
    options.bytes_preview = SIZE_MAX;
    options.array_preview = SIZE_MAX;
    options.raw_bytes = true;
    return options;
  }
};

}  // namespace logscope::rosbag
