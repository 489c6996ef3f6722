// Extract, repair and export for the page: the codec's engines writing through a JS sink (the job
// worker's file in the Origin Private File System, or memory), with the CLI's argument rules.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "core/detect.h"
#include "core/inspector.h"

namespace logscope {

// options: {"mode": "extract"|"repair", "sources": [..], "from": "+1.5", "to": "..", "options":
// {"compression": "lz4"}}; the sources may also come under the format's noun ("topics": [..]) and
// its options at the top level. sink: {write(pointer, length) -> bool, patch(offset, pointer, length) -> bool,
// error: why the last call failed, spill: optional scratch storage, wasm/output_jobs.cpp's JsSpill}. Returns {"ok", "error", "kept", "dropped", "bytes_written", "cancelled"}.
// open: the worker's inspector of `source` (ExtractSelection::open: what it read is not read again).
std::string run_extract(ByteSource& source, const Detection& detection, const std::string& options_json,
                        emscripten::val sink, const ProgressFn& progress, const FormatInspector* open);

// options: {"source": T (or the format's noun: "topic", "series", "actor"), "format": "csv"|"jsonl", "from", "to", "fields": [..]}.
// Returns {"rows", "bytes_written", "json_columns", "problems", "cancelled", "error"}.
std::string run_export(const Detection& detection, FormatInspector& inspector,
                       const std::string& options_json, emscripten::val sink, const ProgressFn& progress);

}  // namespace logscope
