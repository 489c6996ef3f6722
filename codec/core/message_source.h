// The decoded messages of a file as views see them (codec/views, docs/views.md): each format that
// carries messages answers this one interface, so a view (the robot's log, diagnostics) is written
// once for every format and no view names a format.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/report.h"

namespace logscope {

struct SourceTopic {
  std::string topic, type;
  // Why this topic's messages cannot be decoded (no stored schema, no decoder in this build);
  // empty when they can.
  std::string note;
};

struct SourceMessage {
  const std::string& topic;
  const std::string& type;
  uint64_t time_ns;        // the file's time of the message (a bag's record time, MCAP's log_time)
  const Json* message;     // the decoded message (its fields), or null with `error`
  const std::string& error;
  // Where it is in the file: its record's byte offset, or its chunk's when the record lies in a
  // chunk (`in_chunk` then its offset in the chunk's data); kNoOffset where the format has no
  // byte offsets (a database row).
  uint64_t offset = kNoOffset;
  uint64_t in_chunk = 0;
  static constexpr uint64_t kNoOffset = UINT64_MAX;
};

// What a walk reads (walk_with): a time range, which the formats' indexes use to read only the
// chunks or pages that hold it, and whether byte arrays come whole.
struct WalkOptions {
  uint64_t t0_ns = 0, t1_ns = UINT64_MAX;  // inclusive
  // uint8[] (and protobuf bytes) fields whole, as hex, not the first bytes a record view shows:
  // for a view that reads them (camera images).
  bool whole_bytes = false;
  // False for a visitor that stops after a message or few (a thumbnail, one frame): a format that
  // reads ahead in large grouped reads reads only what it hands on.
  bool read_ahead = true;
  // The visitor reads only each message's topic, type, time and place (a view listing frame
  // times): a source may hand messages on undecoded (message null, error empty), listed from its
  // index without reading them.
  bool times_only = false;
};

// The times of some topics from a format's index (MessageSource::indexed_times).
struct IndexedTimes {
  uint64_t first_ns = 0, last_ns = 0;  // of their first and last messages
  // The first message times of the chunks that hold them, sorted: a time range that ends just
  // before one reads no chunk that the next range reads too (where chunks do not overlap in time).
  std::vector<uint64_t> chunk_starts;
};

// What a view keeps between queries of one file (its cache), owned by the file's source.
class ViewCache {
 public:
  virtual ~ViewCache() = default;
};

class MessageSource {
 public:
  virtual ~MessageSource() = default;
  // Every topic of the file with its type.
  virtual std::vector<SourceTopic> topics() = 0;
  // The messages of `topics` in the file's order, each decoded; false when cancelled. `error`:
  // where and why reading stopped early (damage), with what came before it handed on.
  virtual bool walk(const std::set<std::string>& topics, const std::function<bool(const SourceMessage&)>& visit,
                    const ProgressFn& progress, std::string* error) = 0;
  // The same with options. A source that does not override it walks everything and drops what
  // lies outside the range, and gives byte arrays as walk() does.
  virtual bool walk_with(const std::set<std::string>& topics, const WalkOptions& options,
                         const std::function<bool(const SourceMessage&)>& visit, const ProgressFn& progress, std::string* error) {
    return walk(topics, [&](const SourceMessage& m) { return m.time_ns < options.t0_ns || m.time_ns > options.t1_ns || visit(m); },
                progress, error);
  }
  // What the index says of the times of `topics`, where a walk of a time range reads only the
  // chunks that hold it: a view may then read a long file a slice of time at a time
  // (views/view_support.h). False where a walk reads the whole file whatever its range.
  virtual bool indexed_times(const std::set<std::string>& /*topics*/, IndexedTimes* /*out*/) { return false; }

  // By view name; the views make and read them (codec/views).
  std::map<std::string, std::unique_ptr<ViewCache>> caches;
};

// What a format's inspector also is when its file carries messages (a bag, an MCAP...). Kept
// beside FormatInspector, not in it: a view asks any inspector through message_source_of().
class MessageSourceOwner {
 public:
  virtual ~MessageSourceOwner() = default;
  // Owned by the inspector, made on first use.
  virtual MessageSource* message_source() = 0;
};

// The source of `inspector`'s messages; null where its format carries none.
template <typename Inspector>
MessageSource* message_source_of(Inspector& inspector) {
  auto* owner = dynamic_cast<MessageSourceOwner*>(&inspector);
  return owner ? owner->message_source() : nullptr;
}

// A source made of two functions, for a format whose walk needs its inspector's private parts.
class FunctionSource : public MessageSource {
 public:
  using Topics = std::function<std::vector<SourceTopic>()>;
  using Walk = std::function<bool(const std::set<std::string>&, const WalkOptions&, const std::function<bool(const SourceMessage&)>&,
                                  const ProgressFn&, std::string*)>;
  using Times = std::function<bool(const std::set<std::string>&, IndexedTimes*)>;
  FunctionSource(Topics topics, Walk walk, Times times = nullptr) : topics_(std::move(topics)), walk_(std::move(walk)), times_(std::move(times)) {}
  std::vector<SourceTopic> topics() override { return topics_(); }
  bool walk(const std::set<std::string>& topics, const std::function<bool(const SourceMessage&)>& visit, const ProgressFn& progress,
            std::string* error) override {
    return walk_(topics, WalkOptions(), visit, progress, error);
  }
  bool walk_with(const std::set<std::string>& topics, const WalkOptions& options, const std::function<bool(const SourceMessage&)>& visit,
                 const ProgressFn& progress, std::string* error) override {
    return walk_(topics, options, visit, progress, error);
  }
  bool indexed_times(const std::set<std::string>& topics, IndexedTimes* out) override { return times_ && times_(topics, out); }

 private:
  Topics topics_;
  Walk walk_;
  Times times_;
};

}  // namespace logscope
