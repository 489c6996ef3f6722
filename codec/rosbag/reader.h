// Opening a bag: the readers that build its model (model.h): index-first for V2.0 and indexed
// V1.2, scanning for the rest and for recovery of unindexed or truncated V2.0 bags
// (reader.cpp: V2.0, reader_v1.cpp: V1.x).
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "core/byte_source.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

// Parses a connection's second header block (type, md5sum, message_definition, callerid, latching).
bool parse_connection_header(std::string_view bytes, Connection* connection);

// Builds the index of a bag. Never fails: damage is reported in bag->problems and whatever is
// complete is kept. V2.0 bags without a usable index are scanned (recovery).
void open_bag(ByteSource& source, Format format, Bag* bag, const ProgressFn& progress = nullptr);

// Reads each chunk's record header (compression, sizes) that is not read yet: one small read per
// chunk (cheap natively, ~1 ms each in a browser), so it reports progress and can be cancelled
// (returns false then; the chunks not reached stay unread).
bool read_chunk_headers(ByteSource& source, Bag* bag, const ProgressFn& progress = nullptr);
// One chunk's header (compression, sizes), read once; the views read only the chunks they show.
bool read_chunk_header(ByteSource& source, Bag* bag, size_t index);
// The bytes from a chunk's position that hold its head as writers write it (lengths, op,
// compression, size: about 60): the range a pass announces for read_chunk_header.
constexpr uint64_t kChunkHeadBytes = 512;
// Adds that range of chunk `index` to a plan (ByteSource::will_read_ranges), unless its header was
// read already.
void plan_chunk_head(const Bag& bag, size_t index, std::vector<ByteRange>* ranges);
// The IndexData records after chunk `index` (its header is read first), as (offset, length)
// pairs: at most one more than the chunk's ChunkInfo lists connections.
std::vector<std::pair<uint64_t, uint64_t>> chunk_index_records(ByteSource& source, Bag* bag, size_t index);

// The V2.0 scan that `rosbag reindex` performs, read-only: walks records from `from`, decompressing
// each chunk to rebuild its ChunkInfo; stops at the first bad chunk and says where and why.
void scan_v20(ByteSource& source, Bag* bag, uint64_t from, const ProgressFn& progress);

}  // namespace logscope::rosbag
