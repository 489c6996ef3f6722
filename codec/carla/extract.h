// Repair for CARLA recorder logs: the info header and every complete frame, byte for byte, up
// to the end of the last complete frame, whose duration field becomes -1 as in a log CARLA
// closed. The log's duration (the last FrameStart's elapsed time) is then that of the last
// complete frame; a partial frame (cut mid-frame) is dropped whole.
#pragma once

#include "core/byte_source.h"
#include "core/extract.h"

namespace logscope::carla {

// Two forward passes: the scan (where the last complete frame ends), then a copy in big windows.
ExtractResult repair_carla(ByteSource& source, OutputSink& out, const ProgressFn& progress = nullptr);

}  // namespace logscope::carla
