// Extract, repair and export for the page: the codec's engines writing through a JS sink (the job
// worker's file in the Origin Private File System, or memory), with the CLI's argument rules.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "core/detect.h"
#include "core/inspector.h"

namespace logscope {

// options: {"mode": "extract"|"repair", "topics": [..], "series": [..], "from": "+1.5", "to": "..",
// "compression": "lz4"}. sink: {write(pointer, length) -> bool, patch(offset, pointer, length) -> bool,
// error: why the last call failed}. Returns {"ok", "error", "kept", "dropped", "bytes_written", "cancelled"}.
std::string run_extract(ByteSource& source, const Detection& detection, const std::string& options_json,
                        emscripten::val sink, const ProgressFn& progress);

// options: {"topic": T | "series": N | "actor": ID, "format": "csv"|"jsonl", "from", "to", "fields": [..]}.
// Returns {"rows", "bytes_written", "json_columns", "problems", "cancelled", "error"}.
std::string run_export(ByteSource& source, const Detection& detection, FormatInspector& inspector,
                       const std::string& options_json, emscripten::val sink, const ProgressFn& progress);

}  // namespace logscope
