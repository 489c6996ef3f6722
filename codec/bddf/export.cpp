#include "bddf/export.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "bddf/blocks.h"
#include "bddf/format.h"
#include "bddf/message_export.h"
#include "bddf/read_plan.h"

namespace logscope::bddf {

namespace {

constexpr size_t kReadWindow = 1 << 20;  // payload bytes read at a time

const Series* find_series(const FileModel& model, const std::string& wanted, std::string* error) {
  for (const Series& s : model.series)
    if (s.channel() == wanted) return &s;
  uint64_t index = 0;
  auto [end, ec] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), index);
  if (ec == std::errc() && end == wanted.data() + wanted.size() && index < model.series.size()) return &model.series[index];
  std::string names;
  for (size_t i = 0; i < model.series.size(); ++i) names += (i ? ", " : "") + std::to_string(i) + " " + model.series[i].channel();
  *error = "the file has no series \"" + wanted + "\" (series: " + (names.empty() ? "none" : names) + ")";
  return nullptr;
}

// Column names of one sample, row-major: value[0][0], value[0][1], ...
void sample_columns(const std::vector<uint32_t>& dims, size_t level, const std::string& name, std::vector<std::string>* out) {
  if (level == dims.size()) {
    out->push_back(name);
    return;
  }
  for (uint32_t i = 0; i < dims[level]; ++i) sample_columns(dims, level + 1, name + "[" + std::to_string(i) + "]", out);
}

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void write_element(int type, const uint8_t* p, TableWriter& out) {
  switch (type) {
    case 1: out.integer(load<int8_t>(p)); break;
    case 2: out.integer(load<int16_t>(p)); break;
    case 3: out.integer(load<int32_t>(p)); break;
    case 4: out.integer(load<int64_t>(p)); break;
    case 5: out.unsigned_integer(load<uint8_t>(p)); break;
    case 6: out.unsigned_integer(load<uint16_t>(p)); break;
    case 7: out.unsigned_integer(load<uint32_t>(p)); break;
    case 8: out.unsigned_integer(load<uint64_t>(p)); break;
    case 9: out.f32(load<float>(p)); break;
    case 10: out.f64(load<double>(p)); break;
    default: out.empty();
  }
}

void append_element(int type, const uint8_t* p, std::string& cell) {
  char buffer[32];
  auto put = [&](auto v) { cell.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, v).ptr); };
  switch (type) {
    case 1: put(static_cast<int>(load<int8_t>(p))); break;
    case 2: put(load<int16_t>(p)); break;
    case 3: put(load<int32_t>(p)); break;
    case 4: put(load<int64_t>(p)); break;
    case 5: put(static_cast<unsigned>(load<uint8_t>(p))); break;
    case 6: put(load<uint16_t>(p)); break;
    case 7: put(load<uint32_t>(p)); break;
    case 8: put(load<uint64_t>(p)); break;
    case 9: append_json_f32(cell, load<float>(p)); break;
    case 10: append_json_f64(cell, load<double>(p)); break;
  }
}

// A sample as nested JSON arrays, row-major.
void append_sample(int type, const std::vector<uint32_t>& dims, size_t level, const uint8_t*& p, std::string& cell) {
  if (level == dims.size()) {
    append_element(type, p, cell);
    p += pod_type_size(type);
    return;
  }
  cell += '[';
  for (uint32_t i = 0; i < dims[level]; ++i) {
    if (i) cell += ',';
    append_sample(type, dims, level + 1, p, cell);
  }
  cell += ']';
}

}  // namespace

ExportResult export_series(ByteSource& source, const FileModel& model, const std::string& wanted, const ExportRequest& request,
                           ExportSink& sink, const ProgressFn& progress) {
  ExportResult result;
  const Series* series = find_series(model, wanted, &result.error);
  if (!series) return result;
  return export_series(source, model, *series, request, sink, progress);
}

ExportResult export_series(ByteSource& source, const FileModel& model, const std::string& wanted, const ExportRequest& request,
                           ExportSink& sink, const ProgressFn& progress, const protobuf::Schemas* schemas) {
  ExportResult result;
  const Series* series = find_series(model, wanted, &result.error);
  if (!series) return result;
  return export_series(source, model, *series, request, sink, progress, schemas);
}

std::vector<std::string> series_columns(const Series& series, std::string* error) {
  size_t sample_size = series.pod_sample_size();
  if (series.data_type != "pod_type") {
    *error = "series \"" + series.channel() + "\" holds " + series.type_label() + " messages; only POD and protobuf series can be exported";
    return {};
  }
  if (sample_size == 0 || sample_size > kReadWindow) {
    *error = "series \"" + series.channel() + "\" has no usable sample size (" + series.type_label() + ")";
    return {};
  }
  std::vector<std::string> columns{"sample"};
  if (sample_size / pod_type_size(series.pod_type) <= kExportArrayColumns) sample_columns(series.dimension, 0, "value", &columns);
  else columns.push_back("value");
  return columns;
}

ExportResult export_series(ByteSource& source, const FileModel& model, const Series& chosen, const ExportRequest& request,
                           ExportSink& sink, const ProgressFn& progress, const protobuf::Schemas* schemas) {
  if (is_protobuf_series(chosen)) return export_messages(source, model, chosen, schemas, request, sink, progress);
  ExportResult result;
  const Series* series = &chosen;
  std::vector<std::string> value_columns = series_columns(*series, &result.error);
  if (value_columns.empty()) return result;
  size_t sample_size = series->pod_sample_size();
  size_t elements = sample_size / pod_type_size(series->pod_type);
  bool spread = elements <= kExportArrayColumns;
  std::vector<std::string> columns{"time_ns"};
  columns.insert(columns.end(), value_columns.begin(), value_columns.end());
  if (!spread) result.json_columns.push_back("value");
  TableWriter table(sink, request);
  if (!table.start(columns, &result.error)) {
    result.sink_failed = table.failed();
    return result;
  }
  result.json_columns = table.written(result.json_columns);

  EntriesInSpan blocks(series->entries, request.from_ns, request.to_ns);
  std::vector<uint8_t> window;
  std::string cell, why;
  SeriesReadPlan plan(source, *series, blocks);
  blocks.each([&](size_t b, const BlockEntry& entry) {
    // In bytes of the file, as the other formats' exports count: a rate and a time left.
    if (progress && !progress(std::min(entry.file_offset, model.size), model.size)) {
      result.cancelled = true;
      return false;
    }
    plan.before(b);
    BlockFrame frame;
    if (read_frame(source, entry.file_offset, model.size, &frame, &why) != FrameStatus::Ok || frame.type != 0) {
      result.problems.push_back(Problem{Severity::Warning, entry.file_offset, "bddf.export.bad_block",
                                        "the data block at byte " + std::to_string(entry.file_offset) + " is left out: " +
                                            (why.empty() ? "not a data block" : why)});
      return true;
    }
    uint64_t payload = frame.payload_size();
    if (payload % sample_size)
      result.problems.push_back(Problem{Severity::Warning, entry.file_offset, "bddf.export.partial_sample",
                                        "the data block at byte " + std::to_string(entry.file_offset) + " ends " +
                                            std::to_string(payload % sample_size) + " bytes into a sample; that part is left out"});
    uint64_t samples = payload / sample_size, per_window = kReadWindow / sample_size;
    for (uint64_t first = 0; first < samples && !table.failed(); first += per_window) {
      uint64_t count = std::min(per_window, samples - first);
      window.resize(static_cast<size_t>(count * sample_size));
      uint64_t at = frame.payload_offset() + first * sample_size;
      if (source.read(at, window.data(), window.size()) != window.size()) {
        result.problems.push_back(Problem{Severity::Error, at, "bddf.export.short_read", "the file ends inside the block at byte " +
                                                                                              std::to_string(entry.file_offset)});
        break;
      }
      for (uint64_t i = 0; i < count; ++i) {
        const uint8_t* p = window.data() + i * sample_size;
        table.begin_row();
        table.integer(entry.timestamp_ns);
        table.unsigned_integer(first + i);
        if (spread) {
          for (size_t k = 0; k < elements; ++k) write_element(series->pod_type, p + k * pod_type_size(series->pod_type), table);
        } else {
          cell.clear();
          append_sample(series->pod_type, series->dimension, 0, p, cell);
          table.json(cell);
        }
        if (!table.end_row()) break;
        ++result.rows;
      }
    }
    return !table.failed();
  });
  result.sink_failed = table.failed();
  return result;
}

}  // namespace logscope::bddf
