#include "ulog/export.h"

#include <cstring>

#include "ulog/reader.h"

namespace logscope::ulog {

bool topic_leaves(const FileModel& model, const Subscription& s, std::vector<Leaf>* leaves, std::string* error) {
  if (s.format < 0) {
    *error = "'" + s.name + "' has no format in the file";
    return false;
  }
  const Format& f = model.formats.formats[static_cast<size_t>(s.format)];
  if (!flatten(model.formats, f, leaves, error)) return false;
  auto it = std::find_if(leaves->begin(), leaves->end(), [](const Leaf& l) { return l.name == "timestamp"; });
  if (it == leaves->end()) {
    *error = "'" + s.name + "' has no timestamp field";
    return false;
  }
  Leaf t = *it;
  leaves->erase(it);
  leaves->insert(leaves->begin(), t);
  return true;
}

bool for_each_topic_message(ByteSource& source, const FileModel& model, const std::string& topic, uint8_t multi_id,
                            const ProgressFn& progress, const PayloadFn& fn) {
  std::vector<uint8_t> selected(65536, 0);
  ProgressTicker ticker(progress, model.file_size);
  for (const Section& section : model.sections) {
    MessageWalker walker(source, section.begin, section.walked_to);
    RawMessage msg;
    while (walker.next(&msg)) {
      if (msg.type == 'D') {
        if (msg.size >= 2) {
          uint16_t id = static_cast<uint16_t>(msg.body[0] | (msg.body[1] << 8));
          if (selected[id] && !fn(msg.body + 2, msg.size - 2u, msg.offset)) return true;
        }
      } else if (msg.type == 'A' && msg.size >= 4) {
        uint16_t id = static_cast<uint16_t>(msg.body[1] | (msg.body[2] << 8));
        selected[id] = msg.body[0] == multi_id && char_string(msg.body + 3, msg.size - 3u) == topic;
      } else if (msg.type == 'R' && msg.size >= 2) {
        selected[static_cast<uint16_t>(msg.body[0] | (msg.body[1] << 8))] = 0;
      }
      if (!ticker.update(msg.end())) return false;
    }
  }
  return true;
}

namespace {

void write_cell(TableWriter& table, const Leaf& leaf, const uint8_t* p) {
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (leaf.base) {
    case BaseType::Int8: table.integer(get(int8_t{})); break;
    case BaseType::UInt8: table.unsigned_integer(get(uint8_t{})); break;
    case BaseType::Int16: table.integer(get(int16_t{})); break;
    case BaseType::UInt16: table.unsigned_integer(get(uint16_t{})); break;
    case BaseType::Int32: table.integer(get(int32_t{})); break;
    case BaseType::UInt32: table.unsigned_integer(get(uint32_t{})); break;
    case BaseType::Int64: table.integer(get(int64_t{})); break;
    case BaseType::UInt64: table.unsigned_integer(get(uint64_t{})); break;
    case BaseType::Float: table.f32(get(float{})); break;
    case BaseType::Double: table.f64(get(double{})); break;
    case BaseType::Bool: table.unsigned_integer(get(uint8_t{}) ? 1 : 0); break;  // ulog2csv prints bools as 0/1 (int8)
    case BaseType::Char:
      if (leaf.chars) table.text(char_string(p, leaf.chars));
      else table.integer(get(int8_t{}));
      break;
    case BaseType::Nested: table.empty(); break;
  }
}

}  // namespace

ExportResult export_topic(ByteSource& source, const FileModel& model, const std::string& topic, uint8_t multi_id,
                          const ExportRequest& request, ExportSink& sink, const ProgressFn& progress, bool time_ns_first) {
  ExportResult result;
  const Subscription* s = model.subscription(topic, multi_id);
  if (!s) {
    result.error = "no subscription \"" + topic + "\" with multi_id " + std::to_string(multi_id);
    return result;
  }
  std::vector<Leaf> leaves;
  if (!topic_leaves(model, *s, &leaves, &result.error)) return result;
  const Format& f = model.formats.formats[static_cast<size_t>(s->format)];
  std::vector<std::string> columns;
  if (time_ns_first) columns.push_back("time_ns");
  for (const Leaf& l : leaves) columns.push_back(l.name);
  TableWriter table(sink, request);
  if (!table.start(columns, &result.error)) return result;
  uint32_t timestamp_at = leaves[0].offset;
  uint64_t short_messages = 0, first_short = 0;
  bool done = for_each_topic_message(source, model, topic, multi_id, progress, [&](const uint8_t* p, size_t size, uint64_t offset) {
    if (size < timestamp_at + 8u) {
      if (!short_messages++) first_short = offset;
      return true;
    }
    uint64_t t;
    std::memcpy(&t, p + timestamp_at, 8);
    uint64_t ns = t > UINT64_MAX / 1000 ? UINT64_MAX : t * 1000;
    if (ns < request.from_ns || ns > request.to_ns) return true;
    if (size < f.data_size && !short_messages++) first_short = offset;
    table.begin_row();
    if (time_ns_first) table.unsigned_integer(ns);
    for (const Leaf& leaf : leaves) {
      size_t width = leaf.chars ? leaf.chars : base_size(leaf.base);
      if (leaf.offset + width > size) table.empty();
      else write_cell(table, leaf, p + leaf.offset);
    }
    if (!table.end_row()) {
      result.sink_failed = true;
      return false;
    }
    ++result.rows;
    return true;
  });
  if (!done) result.cancelled = true;
  if (short_messages)
    result.problems.push_back(Problem{Severity::Warning, first_short, "ulog.data.size_mismatch",
                                      std::to_string(short_messages) + " '" + topic + "' message(s) are shorter than their format: missing cells are empty"});
  return result;
}

}  // namespace logscope::ulog
