// Extract and repair for CARLA recorder logs.
//
// Repair: the info header and every complete frame, byte for byte, up to the end of the last
// complete frame, whose duration field becomes -1 as in a log CARLA closed. The log's duration
// (the last FrameStart's elapsed time) is then that of the last complete frame; a partial frame
// (cut mid-frame) is dropped whole.
//
// Extract: the complete frames in a time span, renumbered from the cut (frame 1 at elapsed 0, the
// last with duration -1), optionally only the records of chosen actors. The actors alive when the
// span starts are created again in its first frame, so the cut log stands on its own
// (docs/extract.md lists what is kept and dropped).
#pragma once

#include <cstdint>
#include <vector>

#include "core/byte_source.h"
#include "core/extract.h"

namespace logscope::carla {

// Two forward passes: the scan (where the last complete frame ends), then a copy in big windows.
ExtractResult repair_carla(ByteSource& source, OutputSink& out, const ProgressFn& progress = nullptr);

struct CarlaExtractOptions {
  TimeBound from, to;            // inclusive, on frame times: the header's date plus the frame's elapsed time
  std::vector<uint32_t> actors;  // actor ids; empty = every actor
};

// Forward passes only: the scan (frame index, layout variant), with --actors a pass over the span
// for the parents it names, then one pass from the header to the span's end that follows the
// actors' lives up to the cut and copies the span. Memory: the scan's frame index, the actors
// alive at the cut (their creation records) and one packet; never the log. Nothing is written
// before the span and the actors are known to be valid (an empty span, an actor that never
// exists in it: `error`, nothing written).
ExtractResult extract_carla(ByteSource& source, OutputSink& out, const CarlaExtractOptions& options,
                            const ProgressFn& progress = nullptr);

}  // namespace logscope::carla
