// Protobuf without a schema: the wire fields of a message read the way `protoc --decode_raw`
// reads them (its UnknownFieldSet parse and its text printer's guess that a length-delimited
// field holding well-formed fields is a nested message, at most 10 levels deep), as numeric
// leaves named by field-number paths: `1.3[2].5` (an index only where a number occurs more than
// once in its message). Plain C++, no libprotobuf: it runs in the lite wasm module too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "protobuf/leaves.h"

namespace logscope::protobuf {

// One wire field as UnknownFieldSet holds it. `data`/`size` point into the parsed bytes.
struct RawField {
  uint32_t number = 0;
  uint8_t wire_type = 0;  // 0 varint, 1 fixed64, 2 length-delimited, 3 group, 5 fixed32
  uint64_t value = 0;     // varint, fixed64, fixed32
  const uint8_t* data = nullptr;  // length-delimited
  size_t size = 0;
  std::vector<RawField> group;
};

// protobuf's own limits: a parse nests groups at most 100 deep; protoc's printer guesses nested
// messages at most 10 levels deep (kUnknownFieldRecursionLimit).
constexpr int kParseRecursionLimit = 100;
constexpr int kGuessDepth = 10;

// Parses `data` as a message's fields, as UnknownFieldSet::ParseFromCodedStream does: false (and
// `error`) on a bad tag, field number 0, wire type 6/7, an unmatched end-group, a cut field or
// groups deeper than `recursion_limit`.
bool parse_raw_fields(const uint8_t* data, size_t size, int recursion_limit, std::vector<RawField>* out,
                      std::string* error = nullptr);

// The numeric leaves of `fields` below `prefix` (path) / `key_prefix`, guessing nested messages
// up to `guess_depth` levels as protoc's printer does. Strings and bytes are not leaves.
void raw_leaves(const std::vector<RawField>& fields, int guess_depth, const std::string& prefix,
                const std::vector<uint32_t>& key_prefix, std::vector<Leaf>* out);

// A whole payload: false with `error` when it is not a well-formed message (protoc --decode_raw
// answers "Failed to parse input.").
bool raw_message_leaves(const uint8_t* data, size_t size, std::vector<Leaf>* out, std::string* error);

}  // namespace logscope::protobuf
