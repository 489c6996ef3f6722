// A series' block index (SeriesBlockIndex) as plain arrays. Opening a file from its index reads
// one per series; a 1 GB file lists ~250 k blocks, and protobuf-lite allocates two objects per
// entry, which made parsing them most of the time to open (0.5 s in wasm). The common, canonical
// encoding is decoded straight from the wire here; anything else goes through protobuf as before,
// so the result is the same either way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bddf.pb.h"

namespace logscope::bddf {

struct BlockIndexEntry {
  int64_t seconds = 0;
  int32_t nanos = 0;
  uint64_t file_offset = 0;
  uint32_t extra_first = 0;  // additional_indexes: extra[extra_first, extra_first + extra_count)
  uint32_t extra_count = 0;
};

struct PlainBlockIndex {
  uint32_t series_index = 0;
  uint64_t descriptor_file_offset = 0;
  uint64_t total_bytes = 0;
  std::vector<BlockIndexEntry> entries;
  std::vector<int64_t> extra;
};

// The bytes of a DescriptorBlock holding a SeriesBlockIndex, decoded without protobuf. False (and
// `out` unspecified) for anything but the plain encoding: another descriptor type, unknown or
// repeated fields, other wire types, malformed varints or lengths. The caller then parses with
// protobuf, which decides what such bytes mean.
bool decode_block_index_fast(const std::string& descriptor_block, PlainBlockIndex* out);

// The same arrays from a parsed message.
void block_index_from_message(const bosdyn::api::SeriesBlockIndex& sbi, PlainBlockIndex* out);

}  // namespace logscope::bddf
