// Opening a BDDF file: index first (trailer -> FileIndex -> SeriesBlockIndex -> descriptors),
// or, when the index is missing or damaged, a forward scan that recovers every complete block.
#pragma once

#include "bddf/model.h"
#include "core/byte_source.h"

namespace logscope::bddf {

FileModel open_file_model(ByteSource& source);

}  // namespace logscope::bddf
