// Index queries: a series' block list (paged) and extraction by series and time span, both from
// the in-memory index; one block decoded; then the plot queries (plot_queries.cpp).
#include "bddf/queries.h"

#include <algorithm>
#include <queue>

#include "bddf/decode.h"
#include "bddf/format.h"
#include "bddf/plot_queries.h"
#include "bddf/summary.h"

namespace logscope::bddf {
namespace {

constexpr uint64_t kMaxPage = 100000;

Json error(const std::string& message) {
  Json j = Json::object();
  j["error"] = message;
  return j;
}

}  // namespace

Json query_blocks(const FileModel& model, QueryArgs& args) {
  if (!args.has("series")) return error("blocks needs {\"series\": index}");
  uint64_t series = args.u64("series", 0);
  if (series >= model.series.size())
    return error("series must be an index in [0, " + std::to_string(model.series.size()) + ")");
  const Series& s = model.series[series];
  uint64_t first = std::min<uint64_t>(args.u64("first", 0), s.entries.size());
  uint64_t count = std::min<uint64_t>({args.u64("count", 1000), kMaxPage, s.entries.size() - first});
  Json j = Json::object();
  j["series"] = series;
  j["total"] = s.entries.size();
  j["first"] = first;
  Json entries = Json::array();
  auto it = s.entries.at(static_cast<size_t>(first));
  for (uint64_t i = 0; i < count; ++i, ++it) entries.push_back(block_entry_json(it));
  j["entries"] = std::move(entries);
  return j;
}

Json query_extract(const FileModel& model, QueryArgs& args) {
  int64_t t0 = args.i64("t0_ns", INT64_MIN), t1 = args.i64("t1_ns", INT64_MAX);
  uint64_t limit = std::min<uint64_t>(args.u64("max", 10000), kMaxPage);
  std::vector<uint32_t> chosen;
  for (uint64_t s : args.u64_list("series")) {
    if (s >= model.series.size()) return error("no series " + std::to_string(s));
    chosen.push_back(static_cast<uint32_t>(s));
  }
  if (!args.has("series"))
    for (uint32_t s = 0; s < model.series.size(); ++s) chosen.push_back(s);
  // Per series: the entry range within [t0, t1] by binary search (a linear pass over the
  // in-memory index when a damaged series is out of order); then merged by time.
  struct Hit {
    int64_t ts;
    uint64_t offset;
    uint32_t series, entry;
  };
  std::vector<Hit> hits;
  uint64_t total = 0;
  for (uint32_t s : chosen) {
    const Series& series = model.series[s];
    const auto& e = series.entries;
    if (e.times_ascending()) {
      size_t lo = e.lower_bound_time(t0), hi = t1 < t0 ? lo : e.upper_bound_time(t1);
      if (hi <= lo) continue;
      total += hi - lo;
      for (auto it = e.at(lo); it.index() < hi && hits.size() < limit * chosen.size(); ++it)
        hits.push_back({it->timestamp_ns, it->file_offset, s, static_cast<uint32_t>(it.index())});
    } else {
      for (auto it = e.begin(); it != e.end(); ++it)
        if (it->timestamp_ns >= t0 && it->timestamp_ns <= t1) {
          ++total;
          if (hits.size() < limit * chosen.size()) hits.push_back({it->timestamp_ns, it->file_offset, s, static_cast<uint32_t>(it.index())});
        }
    }
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    return a.ts != b.ts ? a.ts < b.ts : a.offset < b.offset;
  });
  if (hits.size() > limit) hits.resize(limit);
  Json j = Json::object();
  j["t0_ns"] = t0;
  j["t1_ns"] = t1;
  j["total"] = total;
  j["truncated"] = hits.size() < total;
  Json blocks = Json::array();
  for (const Hit& h : hits) {
    Json b = Json::object();
    b["series"] = h.series;
    b["entry"] = h.entry;
    b["timestamp_ns"] = h.ts;
    b["file_offset"] = h.offset;
    blocks.push_back(std::move(b));
  }
  j["blocks"] = std::move(blocks);
  return j;
}

std::vector<QuerySpec> query_table(ByteSource& source, const FileModel& model, const protobuf::Schemas* schemas) {
  std::vector<QuerySpec> table = {
      {"blocks", "a page of one series' block index entries (time, offset, additional indexes)",
       {{"series", ArgType::U64, "series index"}, {"first", ArgType::U64, "first entry"}, {"count", ArgType::U64, "entries (at most 100000)"}},
       {{"series", Unit::Id}, {"total", Unit::Count}, {"first", Unit::Id}, {"entries.timestamp_ns", Unit::TimeNs},
        {"entries.file_offset", Unit::Offset}, {"entries.additional_indexes", Unit::Number}},
       [&model](QueryArgs& args, const ProgressFn&) { return query_blocks(model, args); }},
      {"extract", "the blocks of some series within [t0_ns, t1_ns], merged by time, from the index",
       {{"series", ArgType::U64List, "series index or list (default: all)"}, {"t0_ns", ArgType::I64, "from, ns since the epoch"},
        {"t1_ns", ArgType::I64, "to, ns since the epoch (inclusive)"}, {"max", ArgType::U64, "at most this many blocks (100000)"}},
       {{"t0_ns", Unit::TimeNs}, {"t1_ns", Unit::TimeNs}, {"total", Unit::Count}, {"truncated", Unit::Flag}, {"blocks.series", Unit::Id},
        {"blocks.entry", Unit::Id}, {"blocks.timestamp_ns", Unit::TimeNs}, {"blocks.file_offset", Unit::Offset}},
       [&model](QueryArgs& args, const ProgressFn&) { return query_extract(model, args); }},
      {"block", "one block decoded (descriptor and payload)",
       {{"offset", ArgType::U64, "the block's file offset"}, {"max_items", ArgType::U64, "samples or fields shown (at most 100000)"}},
       block_units(),
       [&source, &model, schemas](QueryArgs& args, const ProgressFn&) {
         if (!args.has("offset")) return error("block needs {\"offset\": N}");
         size_t items = static_cast<size_t>(std::min<uint64_t>(args.u64("max_items", kDecodeItems), 100000));
         return decode_block(source, model, args.u64("offset", 0), items, schemas);
       }},
  };
  for (QuerySpec& spec : plot_query_table(source, model, schemas)) table.push_back(std::move(spec));
  return table;
}

}  // namespace logscope::bddf
