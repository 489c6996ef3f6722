// The doctor of a bag: the whole-file check, from the opened bag to the check's report (the
// summary with every finding and its byte offset), pulled (run_doctor) or with the file pushed in
// (doctor_feed); and the lz4 frame checksums, the only checksums a bag has. Both walk every chunk
// (doctor.cpp, chunk_feeds.cpp; the steps they share: check_run.h). They fill in the chunk headers
// they read, as any reader of the bag does, and keep nothing else.
#pragma once

#include <memory>

#include "core/byte_source.h"
#include "core/inspector.h"
#include "core/json.h"
#include "core/report.h"
#include "rosbag/model.h"

namespace logscope::rosbag {

// Every chunk decompressed and compared with its ChunkInfo and IndexData records, lz4 content
// checksums, every message validated against its definition, connections, topics, overlap; V1.x
// index entries against the records. The summary part has the compression facts once the walk
// has read every chunk header. Cancelled: what was found so far, with rosbag.check.cancelled.
Report run_doctor(ByteSource& source, Bag& bag, const ProgressFn& progress);

// The same check with the file pushed in (FormatInspector::check_feed): a V2.0 bag whose chunk
// spans the pulled walk would read alike, unless its first chunk is bz2; null otherwise.
std::unique_ptr<ByteFeed> doctor_feed(ByteSource& source, Bag& bag);

// The lz4 frame checksums ({"status": "valid" | "mismatch" | "not_applicable" | "cancelled", ...}):
// only lz4 chunks are read, and a chunk whose header is known not to be lz4 is not.
Json compute_checksum(ByteSource& source, Bag& bag, const ProgressFn& progress);
// The same with the file pushed in (FormatInspector::checksum_feed); null for a V1.x or encrypted
// bag, or when no chunk may be lz4.
std::unique_ptr<ByteFeed> checksum_feed(Bag& bag);

}  // namespace logscope::rosbag
