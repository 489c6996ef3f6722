#include "bddf/writer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstring>

#include "bddf.pb.h"
#include "bddf/format.h"
#include "core/paged_bytes.h"
#include "core/sha1.h"

namespace logscope::bddf {
namespace {

void set_timestamp(google::protobuf::Timestamp* t, int64_t ns) {
  int64_t seconds = ns / 1000000000, nanos = ns % 1000000000;
  if (nanos < 0) {
    nanos += 1000000000;
    --seconds;
  }
  t->set_seconds(seconds);
  t->set_nanos(static_cast<int32_t>(nanos));
}

// Field 3 (block_entries) of SeriesBlockIndex, and field 3 (series_block_index) of
// DescriptorBlock: both length-delimited.
constexpr uint8_t kBlockEntriesTag = (3 << 3) | 2, kSeriesBlockIndexTag = (3 << 3) | 2;

std::string serialized(const google::protobuf::MessageLite& message) {
  std::string bytes;
  message.SerializeToString(&bytes);
  return bytes;
}

struct SeriesState {
  SeriesOptions options;
  uint64_t descriptor_offset = 0;
  uint64_t hash = 0;
  uint64_t total_bytes = 0;
  size_t sample_size = 0;  // POD
  std::string pending;          // POD samples not yet written
  int64_t pending_timestamp = 0;
};

}  // namespace

struct Writer::State {
  Sink sink;
  Options options;
  Sha1 sha;
  uint64_t position = 0;
  bool ok = true;
  bool finished = false;
  std::vector<SeriesState> series;
  std::string scratch, entry_bytes;
  // Each series' BlockEntry records, as they will be written: tag, length, message.
  SpilledStreams entries{nullptr};
  std::string error;

  bool raw(const void* data, size_t size, bool hashed) {
    if (!ok) return false;
    if (hashed && options.sha1) sha.update(data, size);
    if (size && !sink(data, size)) ok = false;
    position += size;
    return ok;
  }
  bool header(uint8_t type, uint64_t size) {
    uint64_t h = make_header(type, size);
    return raw(&h, 8, true);
  }
  bool descriptor(const bosdyn::api::DescriptorBlock& block) {
    // Annotations are protobuf maps, written in hash order unless asked otherwise; that order
    // changes from one run to the next, so the same input would give other bytes (and SHA1).
    scratch.clear();
    {
      google::protobuf::io::StringOutputStream stream(&scratch);
      google::protobuf::io::CodedOutputStream coded(&stream);
      coded.SetSerializationDeterministic(true);
      block.SerializeToCodedStream(&coded);
    }
    return header(kDescriptorBlock, scratch.size()) && raw(scratch.data(), scratch.size(), true);
  }
  bool data(uint32_t series_index, int64_t ts, const void* payload, size_t size, const std::vector<int64_t>& additional) {
    bosdyn::api::DataDescriptor dd;
    dd.set_series_index(series_index);
    set_timestamp(dd.mutable_timestamp(), ts);
    for (int64_t x : additional) dd.add_additional_indexes(x);
    scratch.clear();
    dd.SerializeToString(&scratch);
    SeriesState& s = series[series_index];
    if (!add_entry(series_index, ts, additional)) return false;
    s.total_bytes += size;
    uint32_t descriptor_size = static_cast<uint32_t>(scratch.size());
    return header(kDataBlock, scratch.size() + size) && raw(&descriptor_size, 4, true) &&
           raw(scratch.data(), scratch.size(), true) && raw(payload, size, true);
  }
  bool add_entry(uint32_t series_index, int64_t ts, const std::vector<int64_t>& additional) {
    bosdyn::api::SeriesBlockIndex::BlockEntry entry;
    set_timestamp(entry.mutable_timestamp(), ts);
    entry.set_file_offset(position);
    for (int64_t x : additional) entry.add_additional_indexes(x);
    entry_bytes.clear();
    entry.SerializeToString(&entry_bytes);
    uint8_t head[11];
    head[0] = kBlockEntriesTag;
    size_t head_size = packed::put_varint(head + 1, entry_bytes.size()) - head;
    if (entries.append(series_index, head, head_size) &&
        entries.append(series_index, entry_bytes.data(), entry_bytes.size()))
      return true;
    error = "the block index could not be set aside: " + entries.error();
    return ok = false;
  }
  // One SeriesBlockIndex, its entries streamed from where they wait: the same bytes as
  // protobuf's serializer, which writes fields in number order (1, 2, the entries, 4).
  bool block_index(uint32_t index) {
    SeriesState& s = series[index];
    bosdyn::api::SeriesBlockIndex head, tail;
    head.set_series_index(index);
    head.set_descriptor_file_offset(s.descriptor_offset);
    tail.set_total_bytes(s.total_bytes);
    std::string before = serialized(head), after = serialized(tail);
    uint64_t inner = before.size() + entries.size(index) + after.size();
    uint8_t outer[11];
    outer[0] = kSeriesBlockIndexTag;
    size_t outer_size = packed::put_varint(outer + 1, inner) - outer;
    if (!header(kDescriptorBlock, outer_size + inner) || !raw(outer, outer_size, true) ||
        !raw(before.data(), before.size(), true))
      return false;
    bool drained = entries.drain(index, [this](const void* data, size_t size) { return raw(data, size, true); });
    if (!drained && ok) {
      error = "the block index could not be read back: " + entries.error();
      ok = false;
    }
    return ok && raw(after.data(), after.size(), true);
  }
  bool flush_pod(uint32_t index) {
    SeriesState& s = series[index];
    if (s.pending.empty()) return ok;
    std::string block;
    block.swap(s.pending);
    return data(index, s.pending_timestamp, block.data(), block.size(), {});
  }
};

Writer::Writer(Sink sink, Options options) : state_(new State) {
  state_->sink = std::move(sink);
  state_->options = std::move(options);
  state_->entries = SpilledStreams(state_->options.spill);
  state_->raw(kMagic, 4, true);
  bosdyn::api::DescriptorBlock block;
  auto* fd = block.mutable_file_descriptor();
  fd->mutable_version()->set_major_version(1);
  fd->mutable_version()->set_minor_version(0);
  fd->mutable_version()->set_patch_level(0);
  for (const auto& [k, v] : state_->options.annotations) (*fd->mutable_annotations())[k] = v;
  fd->set_checksum_type(state_->options.sha1 ? bosdyn::api::FileFormatDescriptor::CHECKSUM_TYPE_SHA1
                                             : bosdyn::api::FileFormatDescriptor::CHECKSUM_TYPE_NONE);
  fd->set_checksum_num_bytes(kDigestSize);
  state_->descriptor(block);
}

Writer::~Writer() = default;

bool Writer::ok() const { return state_->ok; }
std::string Writer::error() const { return state_->error; }
uint64_t Writer::bytes_written() const { return state_->position; }
uint64_t Writer::index_bytes_held() const { return state_->entries.held_bytes(); }
uint64_t Writer::index_bytes_spilled() const { return state_->entries.spilled_bytes(); }

int Writer::add_series(const SeriesOptions& options, std::string* error) {
  State& st = *state_;
  if (st.finished) {
    if (error) *error = "the writer is finished";
    return -1;
  }
  for (const SeriesState& s : st.series)
    if (s.options.spec == options.spec) {
      if (error) *error = "a series with this spec exists";
      return -1;
    }
  SeriesState s;
  s.options = options;
  if (options.pod_type != 0) {
    size_t n = 1;
    for (uint32_t d : options.dimension) n *= d;
    s.sample_size = n * pod_type_size(options.pod_type);
    if (s.sample_size == 0) {
      if (error) *error = "invalid POD type or dimensions";
      return -1;
    }
  }
  s.hash = identifier_hash(options.series_type, options.spec);
  s.descriptor_offset = st.position;
  uint32_t index = static_cast<uint32_t>(st.series.size());
  bosdyn::api::DescriptorBlock block;
  auto* sd = block.mutable_series_descriptor();
  sd->set_series_index(index);
  sd->mutable_series_identifier()->set_series_type(options.series_type);
  for (const auto& [k, v] : options.spec) (*sd->mutable_series_identifier()->mutable_spec())[k] = v;
  sd->set_identifier_hash(s.hash);
  if (options.pod_type != 0) {
    sd->mutable_pod_type()->set_pod_type(static_cast<bosdyn::api::PodTypeEnum>(options.pod_type));
    for (uint32_t d : options.dimension) sd->mutable_pod_type()->add_dimension(d);
  } else {
    sd->mutable_message_type()->set_content_type(options.content_type);
    sd->mutable_message_type()->set_type_name(options.type_name);
    sd->mutable_message_type()->set_is_metadata(options.is_metadata);
  }
  for (const auto& [k, v] : options.annotations) (*sd->mutable_annotations())[k] = v;
  for (const auto& name : options.additional_index_names) sd->add_additional_index_names(name);
  sd->set_description(options.description);
  st.series.push_back(std::move(s));
  if (!st.descriptor(block)) return -1;
  return static_cast<int>(index);
}

int Writer::add_message_channel(const std::string& channel, const std::string& type_name,
                                const std::map<std::string, std::string>& annotations) {
  SeriesOptions o;
  o.spec["bosdyn:channel"] = channel;
  o.type_name = type_name;
  o.annotations = annotations;
  return add_series(o);
}

int Writer::add_pod_channel(const std::string& channel, int pod_type, const std::vector<uint32_t>& dimension,
                            const std::map<std::string, std::string>& annotations, size_t block_size) {
  SeriesOptions o;
  o.spec["bosdyn:channel"] = channel;
  o.pod_type = pod_type;
  o.dimension = dimension;
  o.annotations = annotations;
  o.pod_block_size = block_size;
  return add_series(o);
}

bool Writer::write_block(int series, int64_t timestamp_ns, const void* data, size_t size,
                         const std::vector<int64_t>& additional_indexes) {
  State& st = *state_;
  if (st.finished || series < 0 || static_cast<size_t>(series) >= st.series.size()) return false;
  return st.data(static_cast<uint32_t>(series), timestamp_ns, data, size, additional_indexes);
}

size_t Writer::pod_sample_size(int series) const {
  return series >= 0 && static_cast<size_t>(series) < state_->series.size() ? state_->series[series].sample_size : 0;
}

bool Writer::write_pod_sample(int series, int64_t timestamp_ns, const void* sample) {
  State& st = *state_;
  if (st.finished || series < 0 || static_cast<size_t>(series) >= st.series.size()) return false;
  SeriesState& s = st.series[series];
  if (!s.sample_size) return false;
  size_t block_size = s.options.pod_block_size ? s.options.pod_block_size : st.options.pod_block_size;
  // Like the SDK: a sample as big as a block is written alone; otherwise samples are appended and
  // the block is written as soon as the next sample would not fit. A block keeps its first
  // sample's time.
  if (s.sample_size >= block_size) return st.data(static_cast<uint32_t>(series), timestamp_ns, sample, s.sample_size, {});
  if (s.pending.empty()) s.pending_timestamp = timestamp_ns;
  s.pending.append(static_cast<const char*>(sample), s.sample_size);
  if (s.pending.size() + s.sample_size > block_size) return st.flush_pod(static_cast<uint32_t>(series));
  return st.ok;
}

bool Writer::finish() {
  State& st = *state_;
  if (st.finished) return st.ok;
  for (uint32_t i = 0; i < st.series.size(); ++i) st.flush_pod(i);
  st.finished = true;
  std::vector<uint64_t> index_offsets;
  for (uint32_t i = 0; i < st.series.size(); ++i) {
    index_offsets.push_back(st.position);
    if (!st.block_index(i)) return false;
  }
  uint64_t index_offset = st.position;
  bosdyn::api::DescriptorBlock block;
  if (!st.series.empty()) {  // with no series the SDK leaves the oneof unset: a 0-byte body
    auto* fi = block.mutable_file_index();
    for (uint32_t i = 0; i < st.series.size(); ++i) {
      auto* id = fi->add_series_identifiers();
      id->set_series_type(st.series[i].options.series_type);
      for (const auto& [k, v] : st.series[i].options.spec) (*id->mutable_spec())[k] = v;
      fi->add_series_block_index_offsets(index_offsets[i]);
      fi->add_series_identifier_hashes(st.series[i].hash);
    }
  }
  st.descriptor(block);
  st.header(kEndBlock, kEndBlockSizeField);
  st.raw(&index_offset, 8, true);
  Sha1::Digest digest{};
  if (st.options.sha1) digest = st.sha.finish();
  st.raw(digest.data(), digest.size(), false);
  st.raw(kEndMagic, 4, false);
  return st.ok;
}

FileSink::FileSink(const std::string& path) : file_(std::fopen(path.c_str(), "wb")), buffer_(4u << 20) {
  if (file_) std::setvbuf(file_, buffer_.data(), _IOFBF, buffer_.size());
}

FileSink::~FileSink() { close(); }

bool FileSink::write(const void* data, size_t size) {
  if (!file_ || failed_) return false;
  if (std::fwrite(data, 1, size, file_) != size) failed_ = true;
  return !failed_;
}

bool FileSink::close() {
  if (!file_) return !failed_;
  if (std::fclose(file_) != 0) failed_ = true;
  file_ = nullptr;
  return !failed_;
}

}  // namespace logscope::bddf
