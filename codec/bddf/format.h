// BDDF byte-layout constants and small helpers shared by the reader, doctor and writer.
// Layout facts follow the SDK's code (shared/spec/bddf.md §2), not its prose document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace logscope::bddf {

constexpr char kMagic[4] = {'B', 'D', 'D', 'F'};
constexpr char kEndMagic[4] = {'F', 'D', 'D', 'B'};
constexpr uint8_t kDataBlock = 0x00;
constexpr uint8_t kDescriptorBlock = 0x01;
constexpr uint8_t kEndBlock = 0x02;
constexpr uint64_t kSizeMask = 0x00FFFFFFFFFFFFFFull;
constexpr size_t kHeaderSize = 8;
constexpr size_t kDescriptorLengthSize = 4;  // u32 before a data block's DataDescriptor (not in the size field)
constexpr size_t kDigestSize = 20;
constexpr size_t kTrailerSize = 40;  // END header, index offset, SHA1, "FDDB"
constexpr uint64_t kEndBlockSizeField = 24;  // what the SDK writes; readers ignore it
constexpr uint64_t kFirstBlockOffset = 4;

// Checksum types (FileFormatDescriptor.CheckSumType).
constexpr int kChecksumUnknown = 0;
constexpr int kChecksumNone = 1;
constexpr int kChecksumSha1 = 2;

inline uint8_t header_type(uint64_t raw) { return static_cast<uint8_t>(raw >> 56); }
inline uint64_t header_size(uint64_t raw) { return raw & kSizeMask; }
inline uint64_t make_header(uint8_t type, uint64_t size) { return (uint64_t{type} << 56) | (size & kSizeMask); }

const char* block_type_name(uint8_t type);  // "data", "descriptor", "end", "unknown"
const char* checksum_type_name(int type);   // "CHECKSUM_TYPE_SHA1", ...

// POD types: name ("TYPE_FLOAT64"), element size in bytes (0 for unknown types).
const char* pod_type_name(int type);
size_t pod_type_size(int type);

// The SDK's series identifier hash: first 8 bytes of SHA1(type + k1 + v1 + ...) with keys
// sorted by their UTF-8 bytes, read big-endian.
uint64_t identifier_hash(const std::string& series_type, const std::map<std::string, std::string>& spec);

std::string hex_u64(uint64_t value);  // "0x93d9ece413e638f2"

// Timestamps: seconds/nanos to ns, and ns to ISO 8601 with microseconds as Python prints it
// ("2026-01-01T00:00:00.123457+00:00").
int64_t to_ns(int64_t seconds, int32_t nanos);
// last - first in seconds, exact for real spans and without signed overflow for damaged ones
// (timestamps of a corrupted file may lie anywhere in the int64 range).
inline double span_seconds(int64_t first, int64_t last) {
  return last >= first ? static_cast<double>(static_cast<uint64_t>(last) - static_cast<uint64_t>(first)) / 1e9
                       : -static_cast<double>(static_cast<uint64_t>(first) - static_cast<uint64_t>(last)) / 1e9;
}
std::string iso_time(int64_t ns);
// A short human time for tables, with ms: "2026-01-01 00:00:00.123".
std::string short_time(int64_t ns);

}  // namespace logscope::bddf
