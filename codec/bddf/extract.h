// Extract and repair for BDDF: a new file with fresh descriptors, index and SHA1, whose data
// blocks carry the source's payloads, timestamps and additional indexes unchanged. Repair keeps
// every complete block the reader recovers (no trailer, no index, cut mid-block).
#pragma once

#include <cstdint>
#include <vector>

#include "core/byte_source.h"
#include "core/extract.h"

namespace logscope::bddf {

struct BddfExtractOptions {
  std::vector<uint32_t> series;  // positions as `logscope info` lists them; empty = all
  TimeBound from, to;            // inclusive, on block timestamps
  SpillFile* spill = nullptr;    // where the new index waits (Writer::Options::spill)
};

struct FileModel;

// One pass in file order through a SequentialReader; memory: one block, and the new index
// unless `spill` holds it.
// Needs no patch(): every offset of a BDDF file is written after the data it points to.
// `open`: the file's model as an inspector of `source` read it, used instead of reading it again.
ExtractResult extract_bddf(ByteSource& source, OutputSink& out, const BddfExtractOptions& options,
                           const ProgressFn& progress = nullptr, const FileModel* open = nullptr);

}  // namespace logscope::bddf
