// A raw protobuf wire-format decoder: field number -> value tree, guessing what a
// length-delimited field holds the way `protoc --decode_raw` does (nested message, else text,
// else bytes). Bounded by depth and by a field budget; says when it cut.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/json.h"
#include "bddf/descriptor_schema.h"
#include "core/report.h"

namespace logscope::bddf {

struct WireLimits {
  size_t max_fields = 2000;  // over the whole tree
  int max_depth = 12;
  size_t max_string = 256;   // bytes of a string or bytes value shown
};

// True when `data` is a well-formed sequence of fields (every length in bounds).
bool is_wire_message(const uint8_t* data, size_t size, int depth_left = 12);

// {"fields": [...], "truncated": bool, "error": ...}. Each field: {"field", "wire_type", "offset",
// and "value" | "message" | "string" | "bytes_hex" (+ "length")}. Offsets are relative to
// `base_offset` (pass the file offset of data[0]).
Json decode_wire(const uint8_t* data, size_t size, uint64_t base_offset, const WireLimits& limits);

// Byte spans of the fields (nested messages down to `depth` levels), for the hex view. With a
// schema, fields are named and only known sub-messages are descended into.
std::vector<Span> wire_spans(const uint8_t* data, size_t size, uint64_t base_offset, int depth, size_t max_spans,
                             const WireSchema* schema = nullptr);

}  // namespace logscope::bddf
