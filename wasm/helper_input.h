// The bytes a helper worker hands its module instance: JS copies them into the view
// helperInput(n) returns, then calls the helper's function (sha1Update in hash_offload.cpp,
// decompressChunk in decompress_offload.cpp). A helper does one kind of work, so one buffer serves.
#pragma once

#include <cstdint>
#include <vector>

namespace logscope {

std::vector<uint8_t>& helper_input();

}  // namespace logscope
