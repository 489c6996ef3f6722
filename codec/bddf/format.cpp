#include "bddf/format.h"

#include <cstdio>
#include <ctime>

#include "core/sha1.h"

namespace logscope::bddf {

const char* block_type_name(uint8_t type) {
  switch (type) {
    case kDataBlock: return "data";
    case kDescriptorBlock: return "descriptor";
    case kEndBlock: return "end";
  }
  return "unknown";
}

const char* checksum_type_name(int type) {
  switch (type) {
    case kChecksumUnknown: return "CHECKSUM_TYPE_UNKNOWN";
    case kChecksumNone: return "CHECKSUM_TYPE_NONE";
    case kChecksumSha1: return "CHECKSUM_TYPE_SHA1";
  }
  return "CHECKSUM_TYPE_INVALID";
}

const char* pod_type_name(int type) {
  static const char* names[] = {"TYPE_UNSPECIFIED", "TYPE_INT8",   "TYPE_INT16",  "TYPE_INT32",
                                "TYPE_INT64",       "TYPE_UINT8",  "TYPE_UINT16", "TYPE_UINT32",
                                "TYPE_UINT64",      "TYPE_FLOAT32", "TYPE_FLOAT64"};
  return type >= 0 && type <= 10 ? names[type] : "TYPE_INVALID";
}

size_t pod_type_size(int type) {
  static const size_t sizes[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
  return type >= 0 && type <= 10 ? sizes[type] : 0;
}

uint64_t identifier_hash(const std::string& series_type, const std::map<std::string, std::string>& spec) {
  Sha1 sha;
  sha.update(series_type.data(), series_type.size());
  for (const auto& [key, value] : spec) {  // std::map orders by bytes, as Python sorts str keys
    sha.update(key.data(), key.size());
    sha.update(value.data(), value.size());
  }
  Sha1::Digest digest = sha.finish();
  uint64_t hash = 0;
  for (int i = 0; i < 8; ++i) hash = (hash << 8) | digest[i];
  return hash;
}

std::string hex_u64(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

int64_t to_ns(int64_t seconds, int32_t nanos) {
  // Saturate instead of overflowing on junk seconds.
  const int64_t limit = INT64_MAX / 1000000000 - 1;
  if (seconds > limit) return INT64_MAX;
  if (seconds < -limit) return INT64_MIN;
  int64_t whole = seconds * 1000000000;
  // nanos is any int32 in a damaged file: up to 2.1 s more, which can still pass the limits.
  if (nanos > 0 && whole > INT64_MAX - nanos) return INT64_MAX;
  if (nanos < 0 && whole < INT64_MIN - nanos) return INT64_MIN;
  return whole + nanos;
}

namespace {
bool split_utc(int64_t seconds, std::tm* out) {
  time_t t = static_cast<time_t>(seconds);
  return gmtime_r(&t, out) != nullptr;
}
int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
}  // namespace

std::string iso_time(int64_t ns) {
  // Python rounds to the microsecond, half to even.
  int64_t micros = floor_div(ns, 1000);
  int64_t rest = ns % 1000;  // ns - micros * 1000, which overflows near INT64_MIN
  if (rest < 0) rest += 1000;
  if (rest > 500 || (rest == 500 && (micros & 1))) ++micros;
  int64_t seconds = floor_div(micros, 1000000);
  int64_t fraction = micros - seconds * 1000000;
  std::tm tm{};
  if (!split_utc(seconds, &tm)) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
  std::string out = text;
  if (fraction) {
    std::snprintf(text, sizeof text, ".%06lld", static_cast<long long>(fraction));
    out += text;
  }
  return out + "+00:00";
}

std::string short_time(int64_t ns) {
  int64_t millis = floor_div(ns, 1000000);
  int64_t seconds = floor_div(millis, 1000);
  std::tm tm{};
  if (!split_utc(seconds, &tm)) return std::to_string(ns);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d.%03lld", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(millis - seconds * 1000));
  return text;
}

}  // namespace logscope::bddf
