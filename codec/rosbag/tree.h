// The structure tree of a bag and its hex spans (tree.cpp; a node's record view: record_view.cpp),
// answered by BagInspector's tree members from the opened bag. Node ids:
//   "h" bag/file header, "c<i>" chunk i, "c<i>/r<k>" k-th record inside it, "c<i>/i<k>" k-th index
//   data record after it, "x<k>" k-th record of the index section, "r<k>" k-th record of a V1.x bag.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "rosbag/chunk_pipeline.h"

namespace logscope::rosbag {

// The number in a node id ("c12/r3": from 1 gives 12, from 4 gives 3); false unless it is digits.
bool parse_node_index(const std::string& text, size_t from, uint64_t* out);

// Offsets of the records inside a decompressed chunk, up to the first malformed one.
std::vector<uint32_t> chunk_record_offsets(const LoadedChunk& chunk);

// The length of the record at `offset` (header and data), 0 when it is unreadable.
uint64_t record_length(ByteSource& source, uint64_t offset);

}  // namespace logscope::rosbag
