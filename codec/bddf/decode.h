// One block decoded for the record view and the block query (decode.cpp): descriptors as fields,
// POD payloads as samples, protobuf payloads as a raw wire tree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bddf/model.h"
#include "core/byte_source.h"
#include "core/json.h"
#include "core/query.h"

namespace logscope::protobuf {
class Schemas;
}

namespace logscope::bddf {

constexpr size_t kDecodeItems = 500;  // samples / protobuf fields shown by decode() and the block query

// The block at `offset` as JSON (descriptor, payload decoded); `max_items` caps samples/fields.
// A protobuf payload is its wire fields, and its message by name when `schemas` know its type.
Json decode_block(ByteSource& source, const FileModel& model, uint64_t offset, size_t max_items,
                  const protobuf::Schemas* schemas = nullptr);
// The units of decode_block's answer, and of decode()'s (which adds the node's kind and part).
ResultUnits block_units();
// A POD payload's samples (`bytes` holds the first bytes of `payload_size`).
Json decode_pod(const Series& series, const std::vector<uint8_t>& bytes, uint64_t payload_size, size_t max_items);

}  // namespace logscope::bddf
