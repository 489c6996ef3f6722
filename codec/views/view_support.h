// What every view's query shares (docs/views.md): one walk over the topics of the view's types,
// kept per file in the source's caches until the topics change, and the parts of the answer that
// say what was read (the topics, the messages not decoded, where reading stopped).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/message_source.h"
#include "core/query.h"

namespace logscope::views {

struct ViewTopic {
  std::string topic, type, note;  // note: why its messages cannot be decoded (empty when they can)
  uint64_t messages = 0;
};

struct ViewProblem {
  std::string topic, message;
  uint64_t time_ns = 0;
};

using IsViewType = bool (*)(std::string_view type);

// A view's cache: the walk's account, and the view's own content in a subclass, which takes each
// message (take) and finishes once after the walk (finish: sort, summarise).
class WalkedCache : public ViewCache {
 public:
  std::vector<SourceTopic> key;  // the source's topics when it was built: a new schema rebuilds it
  std::vector<ViewTopic> topics;
  std::vector<ViewProblem> problems;  // the first kProblemsKept
  uint64_t undecoded = 0;
  std::string stopped;    // where and why the file's reading stopped early (damage)
  std::string truncated;  // where the view stopped keeping (its memory budget), set by take()
  static constexpr size_t kProblemsKept = 20;
  // Read a slice of time at a time (walked_cache's slice_ms): the messages before next_ns are in,
  // those from next_ns to last_ns are still to read. Complete once they are all in.
  bool complete = true;
  uint64_t first_ns = 0, next_ns = 0, last_ns = 0, span_ns = 0;
  std::vector<uint64_t> chunk_starts;  // where a slice ends (IndexedTimes): a chunk is then read once

  // A message of one of the view's topics (topic_index into topics, its count already taken);
  // false stops the walk, with `truncated` said.
  virtual bool take(const SourceMessage& m, size_t topic_index) = 0;
  // After the walk, and after each slice of a sliced one: the messages taken since the last call
  // are all later than those before them.
  virtual void finish() {}
  // Counts a message that is not decoded, keeping the first problems.
  void not_decoded(const SourceMessage& m, const std::string& why);
};

// The cache `name` of `source`, built for its current topics by one walk over those whose type
// is_type accepts (with `options`); a new one from make() when there is none or the topics
// changed. Null when cancelled.
// slice_ms > 0, where the source can walk a time range from its index: the walk goes on a slice of
// time at a time for about slice_ms, and the cache answers with what is read so far (complete
// false); each call reads on. A long log's first rows then come in a fraction of a second, and
// the job worker is free between calls. 0: the whole walk now.
WalkedCache* walked_cache(MessageSource& source, const std::string& name, IsViewType is_type,
                          const std::function<std::unique_ptr<WalkedCache>()>& make, const ProgressFn& progress,
                          const WalkOptions& options = {}, uint64_t slice_ms = 0);

template <class Cache>
Cache* view_cache(MessageSource& source, const std::string& name, IsViewType is_type, const ProgressFn& progress,
                  const WalkOptions& options = {}, uint64_t slice_ms = 0) {
  return static_cast<Cache*>(walked_cache(source, name, is_type, [] { return std::make_unique<Cache>(); }, progress, options, slice_ms));
}

// {"topics": [{topic, type, note}]}: the view's topics from the index, no message read.
Json topics_only_answer(MessageSource& source, IsViewType is_type);
// [{topic, type, messages, note}]
Json topics_json(const WalkedCache& cache);
// Adds undecoded, problems, stopped and truncated: the end of every view's answer; and while a
// sliced walk reads on, "reading": {first_ns, through_ns, last_ns} (the times read so far).
void add_walk_account(Json& out, const WalkedCache& cache);

// The units of what topics_only_answer, topics_json and add_walk_account write, joined to the
// view's own.
ResultUnits with_walk_units(ResultUnits own);

// A byte field read whole (WalkOptions::whole_bytes) into `out`: {"length", "raw"} (ROS 1 and CDR
// as decoded for the views), {"length", "hex"}, or hex text (protobuf bytes). Ok, or why not:
// Missing (no field, or null), Preview (only its first bytes came), NotHex.
enum class WholeBytes { Ok, Missing, Preview, NotHex };
WholeBytes whole_bytes_of(const Json* field, std::string* out);

}  // namespace logscope::views
