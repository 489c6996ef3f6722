// Byte-pattern search over a ByteSource, in bounded memory, with progress and cancellation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"

namespace logscope {

// Parses "de ad be ef" / "deadbeef" into bytes; nullopt on odd length or a non-hex character.
std::optional<std::vector<uint8_t>> parse_hex_pattern(const std::string& text);

struct SearchResult {
  bool found = false;
  bool cancelled = false;
  uint64_t offset = 0;
};

// First occurrence of `pattern` at or after `from`; with `backward`, the last one before `from`.
SearchResult search_bytes(ByteSource& source, const std::vector<uint8_t>& pattern, uint64_t from,
                          bool backward, const ProgressFn& progress);

}  // namespace logscope
