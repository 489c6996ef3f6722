// Extract and repair of V1.2 and V1.1 bags (extract_v1.cpp), behind extract_bag: one pass over the
// records in file order, in bounded memory, into a V2.0 bag.
#pragma once

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/extract.h"
#include "core/output_sink.h"
#include "rosbag/extract.h"
#include "rosbag/writer.h"

namespace logscope::rosbag {

// The bag writer's sink on top of the engine's OutputSink.
class OutputSinkAdapter : public ByteSink {
 public:
  explicit OutputSinkAdapter(OutputSink& out) : out_(out) {}
  bool write(const void* data, size_t size) override { return out_.write(data, size); }
  bool write_at(uint64_t offset, const void* data, size_t size) override { return out_.patch(offset, data, size); }
  uint64_t position() const override { return out_.written(); }

 private:
  OutputSink& out_;
};

// Walks the records (reader_v1.cpp's walk, the one the reader's scan uses) through a sequential
// read and writes every complete message that matches `options` with `writer_options`. An index
// is not read: an indexed V1.2 bag gives the same messages, and its index is rebuilt anyway.
ExtractResult extract_v1(ByteSource& source, Format format, OutputSink& out, const BagExtractOptions& options,
                         const WriterOptions& writer_options, const ProgressFn& progress);

}  // namespace logscope::rosbag
