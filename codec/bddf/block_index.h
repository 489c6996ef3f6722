// A series' block index (SeriesBlockIndex) as plain arrays. Opening a file from its index reads
// one per series; a 1 GB file lists ~250 k blocks, and protobuf-lite allocates two objects per
// entry, which made parsing them most of the time to open (0.5 s in wasm). The common, canonical
// encoding is decoded straight from the wire here; anything else goes through protobuf as before,
// so the result is the same either way. Entries come out in the model's own packed form
// (BlockEntries, times in ns), so opening moves them into the Series instead of copying them again.
// A series' index at 100 GB is 300 MB: it is decoded as it is read, a window at a time, never held.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bddf.pb.h"
#include "bddf/model.h"
#include "core/byte_source.h"

namespace logscope::bddf {

struct PlainBlockIndex {
  uint32_t series_index = 0;
  uint64_t descriptor_file_offset = 0;
  uint64_t total_bytes = 0;
  BlockEntries entries;  // timestamp_ns = to_ns(seconds, nanos), as the index stores them
};

// The bytes of a DescriptorBlock holding a SeriesBlockIndex, decoded without protobuf. False (and
// `out` unspecified) for anything but the plain encoding: another descriptor type, unknown or
// repeated fields, other wire types, malformed varints or lengths. The caller then parses with
// protobuf, which decides what such bytes mean.
// The bytes are `size` at `offset` in `source`, read in windows as they are decoded. Without
// `keep_entries` they are checked and not kept (a scan that only names the block).
bool decode_block_index_fast(ByteSource& source, uint64_t offset, uint64_t size, PlainBlockIndex* out, bool keep_entries = true);
bool decode_block_index_fast(const std::string& descriptor_block, PlainBlockIndex* out);

// The same arrays from a parsed message.
void block_index_from_message(const bosdyn::api::SeriesBlockIndex& sbi, PlainBlockIndex* out);

}  // namespace logscope::bddf
