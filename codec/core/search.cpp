#include "core/search.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace logscope {

std::optional<std::vector<uint8_t>> parse_hex_pattern(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    digits += c;
  }
  if (digits.empty() || digits.size() % 2) return std::nullopt;
  std::vector<uint8_t> out;
  for (size_t i = 0; i < digits.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return out;
}

namespace {

// First occurrence of `pattern` in [data, data+size): memchr on the first byte, then compare.
// (Emscripten's libc++ has no std::boyer_moore_horspool_searcher.)
const uint8_t* find_pattern(const uint8_t* data, size_t size, const std::vector<uint8_t>& pattern) {
  const size_t n = pattern.size();
  const uint8_t* end = data + size;
  for (const uint8_t* at = data; at + n <= end;) {
    at = static_cast<const uint8_t*>(std::memchr(at, pattern[0], static_cast<size_t>(end - at) - n + 1));
    if (!at) return nullptr;
    if (std::memcmp(at, pattern.data(), n) == 0) return at;
    ++at;
  }
  return nullptr;
}

}  // namespace

SearchResult search_bytes(ByteSource& source, const std::vector<uint8_t>& pattern, uint64_t from,
                          bool backward, const ProgressFn& progress) {
  SearchResult result;
  const uint64_t size = source.size();
  if (pattern.empty() || pattern.size() > size) return result;
  constexpr size_t kWindow = 4 * 1024 * 1024;
  const size_t overlap = pattern.size() - 1;
  std::vector<uint8_t> buffer(kWindow + overlap);
  ProgressTicker ticker(progress, backward ? std::min(from, size) : size - std::min(from, size));
  uint64_t scanned = 0;
  if (!backward) {
    for (uint64_t at = from; at + pattern.size() <= size; at += kWindow) {
      if (!ticker.update(scanned)) return result.cancelled = true, result;
      size_t n = source.read(at, buffer.data(), static_cast<size_t>(std::min<uint64_t>(kWindow + overlap, size - at)));
      if (const uint8_t* hit = find_pattern(buffer.data(), n, pattern)) {
        result.found = true;
        result.offset = at + static_cast<uint64_t>(hit - buffer.data());
        return result;
      }
      if (n < std::min<uint64_t>(kWindow + overlap, size - at)) break;  // unreadable range
      scanned += kWindow;
    }
    return result;
  }
  // Backward: windows ending at `from` (exclusive of matches starting at `from`).
  uint64_t end = std::min(from + overlap, size);
  while (end >= pattern.size()) {
    if (!ticker.update(scanned)) return result.cancelled = true, result;
    uint64_t start = end > kWindow + overlap ? end - kWindow - overlap : 0;
    size_t want = static_cast<size_t>(end - start);
    size_t n = source.read(start, buffer.data(), want);
    if (n < want) break;
    // Last match in the window: search the reversed pattern in the reversed window.
    auto rbegin = std::make_reverse_iterator(buffer.begin() + n);
    auto rend = std::make_reverse_iterator(buffer.begin());
    auto hit = std::search(rbegin, rend, pattern.rbegin(), pattern.rend());
    if (hit != rend) {
      result.found = true;
      result.offset = start + static_cast<uint64_t>(hit.base() - buffer.begin()) - pattern.size();
      return result;
    }
    if (start == 0) break;
    end = start + overlap;
    scanned += kWindow;
  }
  return result;
}

}  // namespace logscope
