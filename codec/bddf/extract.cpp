#include "bddf/extract.h"

#include <algorithm>
#include <map>

#include "bddf/blocks.h"
#include "bddf/model.h"
#include "bddf/reader.h"
#include "bddf/writer.h"
#include "core/sequential.h"

namespace logscope::bddf {
namespace {

std::string bytes_at(uint64_t offset) { return "byte " + std::to_string(offset); }

// The writer's options for a series as the source describes it; false for kinds it cannot write.
bool series_options(const Series& s, SeriesOptions* o) {
  if (!s.described || (s.data_type != "message_type" && s.data_type != "pod_type")) return false;
  o->series_type = s.series_type;
  o->spec = s.spec;
  o->content_type = s.content_type;
  o->type_name = s.type_name;
  o->is_metadata = s.is_metadata;
  o->pod_type = s.data_type == "pod_type" ? s.pod_type : 0;
  o->dimension = s.dimension;
  o->annotations = s.annotations;
  o->additional_index_names = s.additional_index_names;
  o->description = s.description;
  return true;
}

ExtractResult extract_from(const FileModel& model, ByteSource& source, OutputSink& out, const BddfExtractOptions& options,
                           const ProgressFn& progress);

}  // namespace

ExtractResult extract_bddf(ByteSource& source, OutputSink& out, const BddfExtractOptions& options,
                           const ProgressFn& progress, const FileModel* open) {
  if (open) return extract_from(*open, source, out, options, progress);
  FileModel model = open_file_model(source);
  return extract_from(model, source, out, options, progress);
}

namespace {

ExtractResult extract_from(const FileModel& model, ByteSource& source, OutputSink& out, const BddfExtractOptions& options,
                           const ProgressFn& progress) {
  ExtractResult result;
  if (!model.magic_ok) {
    result.error = "no BDDF magic at byte 0; nothing to recover";
    return result;
  }
  for (uint32_t wanted : options.series)
    if (wanted >= model.series.size()) {
      result.error = "there is no series " + std::to_string(wanted) + " (the file has " + std::to_string(model.series.size()) + ")";
      return result;
    }
  int64_t start = INT64_MAX;
  for (const Series& s : model.series) {
    if (s.entries.times_ascending()) {
      if (!s.entries.empty()) start = std::min(start, s.entries.front().timestamp_ns);
      continue;
    }
    for (const BlockEntry& e : s.entries) start = std::min(start, e.timestamp_ns);
  }
  uint64_t start_ns = start == INT64_MAX || start < 0 ? 0 : static_cast<uint64_t>(start);
  uint64_t from = options.from.resolve(start_ns, 0), to = options.to.resolve(start_ns, UINT64_MAX);

  Writer::Options writer_options;
  writer_options.annotations = model.annotations;
  writer_options.spill = options.spill;
  Writer writer([&out](const void* data, size_t size) { return out.write(data, size); }, writer_options);
  std::map<uint32_t, int> new_index;  // source series position -> new series index
  for (uint32_t i = 0; i < model.series.size(); ++i) {
    if (!options.series.empty() && std::find(options.series.begin(), options.series.end(), i) == options.series.end()) continue;
    const Series& s = model.series[i];
    SeriesOptions o;
    std::string error;
    if (!series_options(s, &o)) {
      result.dropped.push_back("series " + std::to_string(i) + " (" + s.channel() + ", " + std::to_string(s.entries.size()) +
                               " blocks): " + (s.described ? "a " + s.data_type + " series cannot be written yet" : "its descriptor was not found"));
      continue;
    }
    int index = writer.add_series(o, &error);
    if (index < 0) {
      result.dropped.push_back("series " + std::to_string(i) + " (" + s.channel() + "): " + error);
      continue;
    }
    new_index[i] = index;
  }

  // Data blocks of the chosen series in the span, in file order: one forward pass.
  SequentialReader reader(source, 0, source.size());
  SequentialByteSource sequential(reader, source);
  ProgressTicker ticker(progress, source.size());
  uint64_t blocks = 0, outside = 0;
  std::map<uint32_t, uint64_t> per_series;
  for (BlockList::Cursor rows = model.blocks().cursor(); !rows.done(); rows.next()) {
    const BlockRef& ref = rows.ref();
    const BlockEntry* entry = rows.entry();
    if (!entry) continue;
    auto it = new_index.find(ref.series);
    if (it == new_index.end()) continue;
    const BlockEntry& e = *entry;
    if (e.timestamp_ns < 0 || static_cast<uint64_t>(e.timestamp_ns) < from || static_cast<uint64_t>(e.timestamp_ns) > to) {
      ++outside;
      continue;
    }
    if (!ticker.update(ref.offset)) {
      result.cancelled = true;
      result.error = "cancelled";
      return result;
    }
    BlockFrame frame;
    std::string why;
    if (read_frame(sequential, ref.offset, source.size(), &frame, &why) != FrameStatus::Ok || frame.type != 0 ||
        frame.descriptor_too_big) {
      result.dropped.push_back("data block at " + bytes_at(ref.offset) + ": " + (why.empty() ? "not a data block" : why));
      continue;
    }
    const uint8_t* payload = reader.view(frame.payload_offset(), frame.payload_size());
    if (!payload && frame.payload_size()) {
      result.dropped.push_back("data block at " + bytes_at(ref.offset) + ": " + reader.error());
      continue;
    }
    if (!writer.write_block(it->second, e.timestamp_ns, payload, frame.payload_size(), rows.extra())) {
      result.error = "writing the new file failed: " + (writer.error().empty() ? out.error() : writer.error());
      return result;
    }
    ++blocks;
    ++per_series[ref.series];
  }
  if (!writer.finish()) {
    result.error = "writing the new file failed: " + (writer.error().empty() ? out.error() : writer.error());
    return result;
  }
  result.kept.push_back(std::to_string(blocks) + " data blocks of " + std::to_string(new_index.size()) +
                        " series, with fresh descriptors, a rebuilt index and a new SHA1");
  for (const auto& [series, count] : per_series)
    result.kept.push_back("  series " + std::to_string(series) + " (" + model.series[series].channel() + ") -> " +
                          std::to_string(new_index[series]) + ": " + std::to_string(count) + " blocks");
  if (outside) result.kept.push_back(std::to_string(outside) + " blocks of these series lie outside the time span");
  if (writer.index_bytes_spilled())
    result.kept.push_back("the new block index waited in a scratch file while the blocks were written: " +
                          std::to_string(writer.index_bytes_spilled()) + " bytes");
  if (model.recovery.performed) {
    result.kept.push_back("input read by scanning: " + model.recovery.reason);
    if (model.recovery.ends_at < model.size)
      result.dropped.push_back(std::to_string(model.size - model.recovery.ends_at) + " bytes from " +
                               bytes_at(model.recovery.ends_at) + " to the end: " + model.recovery.ended);
  }
  result.bytes_written = out.written();
  result.ok = true;
  return result;
}

}  // namespace

}  // namespace logscope::bddf
