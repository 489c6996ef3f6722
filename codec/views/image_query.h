// The images view's query (docs/views.md, "Images"): the image topics, per topic the times of its
// frames (one light walk per file, kept in the source's caches: 12 bytes a frame, never pixels),
// and one frame at a time or by index, read alone (walk_with over its own time, whole bytes: only
// the chunk that holds it). Its pixels (RGBA, then a depth image's values) or its stored
// compressed bytes do not go into the JSON answer: they wait in last_frame_bytes() for the caller
// (the wasm module hands them to JS as one typed array).
#pragma once

#include <string>

#include "core/message_source.h"
#include "core/query.h"

namespace logscope::views {

QuerySpec images_query(MessageSource& source);

// The bytes of the frame the last images query answered: for pixels, width * height * 4 RGBA bytes,
// then for depth width * height float32 values (little-endian, NaN where nothing was measured); for
// a compressed frame, its bytes as stored. Empty when that answer had no frame (or a damaged one).
const std::string& last_frame_bytes();

}  // namespace logscope::views
