// Decoding CDR messages by a parsed ROS 2 schema (cdr/schema.h): as JSON for the record view,
// or only checked. Shared by MCAP (codec/mcap) and rosbag2.
#pragma once

#include <cstdint>
#include <string>

#include "cdr/schema.h"
#include "core/json.h"

namespace logscope::cdr {

struct DecodeOptions {
  size_t array_preview = 16;  // arrays longer than this show their first elements and their length
  size_t bytes_preview = 64;  // uint8[] shows this many bytes as hex
  // uint8[] whole as {"length", "raw": the bytes themselves}, not hex: for the views, which read
  // them and never print them (rosbag/msgdef.h).
  bool raw_bytes = false;
};

// The JSON shapes (as the ROS 1 decoder's, rosbag/msgdef.h):
//   uint8[]/byte[]/char[]               -> {"length": N, "hex": "<first bytes_preview bytes>"}
//   arrays longer than array_preview     -> {"length": N, "first": [first array_preview elements]}
// On bytes that do not fit the schema: what was decoded, and `error` says where and why
// ("array 'ranges' of 4000000000 float32 needs at least 16000000000 bytes, 812 remain ...").
// `data` is the whole message, its 4-byte encapsulation header included.
Json decode_json(const Schema& schema, const uint8_t* data, size_t size, const DecodeOptions& options, std::string* error);

// True when decode_json() would give no error, without building anything.
bool validate(const Schema& schema, const uint8_t* data, size_t size, std::string* error);

}  // namespace logscope::cdr
