#include "bddf/message_export.h"

#include <algorithm>
#include <map>

#include "bddf/blocks.h"
#include "bddf/read_plan.h"
#include "protobuf/raw.h"
#include "protobuf/schemas.h"

namespace logscope::bddf {

namespace {

constexpr uint64_t kMaxMessage = 64u << 20;  // a bigger message is left out, with a problem
constexpr size_t kMaxColumns = 20000;        // beyond, further paths are left out, with a problem

// Reads each block's message and hands its leaves to `use`; problems for blocks left out.
// False when cancelled. `step`/`steps` place this pass in the progress of the whole export.
template <typename Use>
bool for_each_message(ByteSource& source, const FileModel& model, const Series& series, const MessageReading& reading,
                      const EntriesInSpan& blocks, ExportResult* result, const ProgressFn& progress,
                      uint64_t step, uint64_t steps, Use use) {
  std::vector<uint8_t> payload;
  std::vector<protobuf::Leaf> leaves;
  std::string why;
  bool cancelled = false;
  SeriesReadPlan plan(source, series, blocks);
  blocks.each([&](size_t b, const BlockEntry& entry) {
    // In bytes of the file, a pass after another, as an MCAP's export counts.
    if (progress && !progress(step * model.size + std::min(entry.file_offset, model.size), steps * model.size)) return !(cancelled = true);
    plan.before(b);
    BlockFrame frame;
    why.clear();
    if (read_frame(source, entry.file_offset, model.size, &frame, &why) != FrameStatus::Ok || frame.type != 0) {
      if (step == 0)
        result->problems.push_back(Problem{Severity::Warning, entry.file_offset, "bddf.export.bad_block",
                                           "the data block at byte " + std::to_string(entry.file_offset) + " is left out: " +
                                               (why.empty() ? "not a data block" : why)});
      return true;
    }
    uint64_t size = frame.payload_size();
    if (size > kMaxMessage) {
      if (step == 0)
        result->problems.push_back(Problem{Severity::Warning, entry.file_offset, "bddf.export.message_too_big",
                                           "the message at byte " + std::to_string(entry.file_offset) + " (" + std::to_string(size) +
                                               " bytes) is left out: messages above 64 MB are not exported"});
      return true;
    }
    payload = source.read_vector(frame.payload_offset(), static_cast<size_t>(size));
    if (payload.size() != size) {
      if (step == 0)
        result->problems.push_back(Problem{Severity::Error, frame.payload_offset(), "bddf.export.short_read",
                                           "the file ends inside the block at byte " + std::to_string(entry.file_offset)});
      return true;
    }
    leaves.clear();
    why.clear();
    if (!reading.leaves(payload.data(), payload.size(), &leaves, &why)) {
      if (step == 0)
        result->problems.push_back(Problem{Severity::Warning, frame.payload_offset(), "bddf.export.bad_message",
                                           "the message at byte " + std::to_string(frame.payload_offset()) + " is left out: " + why});
      return true;
    }
    return static_cast<bool>(use(entry, leaves));
  });
  return !cancelled;
}

}  // namespace

bool is_protobuf_series(const Series& series) {
  return series.data_type == "message_type" && series.content_type.find("protobuf") != std::string::npos;
}

bool MessageReading::leaves(const uint8_t* data, size_t size, std::vector<protobuf::Leaf>* out, std::string* error) const {
  if (schemas) return schemas->numeric_leaves(type_name, data, size, out, error);
  return protobuf::raw_message_leaves(data, size, out, error);
}

MessageReading message_reading(const Series& series, const protobuf::Schemas* schemas) {
  MessageReading reading;
  reading.type_name = series.type_name;
  if (!schemas) {
    reading.note = "no schema given (--descriptors FILE or --proto-path DIR): columns are field numbers";
  } else if (!schemas->has_type(series.type_name)) {
    reading.note = "the schemas (" + schemas->description() + ") have no type " + series.type_name + ": columns are field numbers";
  } else {
    reading.schemas = schemas;
  }
  return reading;
}

std::vector<std::string> message_columns(ByteSource& source, const FileModel& model, const Series& series,
                                         const protobuf::Schemas* schemas, const ExportRequest& request, ExportResult* result,
                                         const ProgressFn& progress) {
  MessageReading reading = message_reading(series, schemas);
  EntriesInSpan blocks(series.entries, request.from_ns, request.to_ns);
  std::map<std::string, std::vector<uint32_t>> keys;
  bool capped = false;
  bool done = for_each_message(source, model, series, reading, blocks, result, progress, 0, 1, [&](const BlockEntry&, const std::vector<protobuf::Leaf>& leaves) {
    for (const protobuf::Leaf& leaf : leaves) {
      if (keys.size() >= kMaxColumns && !keys.count(leaf.path)) {
        capped = true;
        continue;
      }
      keys.emplace(leaf.path, leaf.key);
    }
    return true;
  });
  if (!done) {
    result->cancelled = true;
    return {};
  }
  if (capped)
    result->problems.push_back(Problem{Severity::Warning, 0, "bddf.export.too_many_columns",
                                       "the messages have more than " + std::to_string(kMaxColumns) + " numeric paths; the rest are left out"});
  std::vector<std::pair<std::vector<uint32_t>, std::string>> order;
  for (auto& [path, key] : keys) order.emplace_back(key, path);
  std::sort(order.begin(), order.end());
  std::vector<std::string> columns;
  for (auto& [key, path] : order) columns.push_back(path);
  return columns;
}

ExportResult export_messages(ByteSource& source, const FileModel& model, const Series& series, const protobuf::Schemas* schemas,
                             const ExportRequest& request, ExportSink& sink, const ProgressFn& progress) {
  ExportResult result;
  MessageReading reading = message_reading(series, schemas);
  if (!reading.note.empty()) result.problems.push_back(Problem{Severity::Info, 0, "bddf.export.field_numbers", reading.note});
  // Two passes: the progress of each is half the export's.
  ProgressFn first_half = progress ? ProgressFn([&](uint64_t done, uint64_t total) { return progress(done, 2 * total); }) : nullptr;
  std::vector<std::string> paths = message_columns(source, model, series, schemas, request, &result, first_half);
  if (result.cancelled) return result;
  std::vector<std::string> columns{"time_ns"};
  columns.insert(columns.end(), paths.begin(), paths.end());
  TableWriter table(sink, request);
  if (!table.start(columns, &result.error)) {
    result.sink_failed = table.failed();
    return result;
  }
  protobuf::LeafRowWriter row(paths);
  EntriesInSpan blocks(series.entries, request.from_ns, request.to_ns);
  ExportResult second;  // the first pass reported the blocks left out
  bool done = for_each_message(source, model, series, reading, blocks, &second, progress, 1, 2, [&](const BlockEntry& entry, const std::vector<protobuf::Leaf>& leaves) {
    table.begin_row();
    table.integer(entry.timestamp_ns);
    row.write(leaves, table);
    if (!table.end_row()) return false;
    ++result.rows;
    return true;
  });
  if (!done) result.cancelled = true;
  result.sink_failed = table.failed();
  return result;
}

}  // namespace logscope::bddf
