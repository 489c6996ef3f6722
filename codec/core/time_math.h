// Arithmetic on a file's time stamps that holds for any value a damaged or hostile file can
// carry: spans, offsets, rates and unit conversions either give the value or say there is none
// (std::nullopt), never a signed overflow or a cast of a float out of range.
//
// A stamp is "in range" within ±2^62 ns of the epoch (about the years 1823 to 2116, which holds
// every ROS 1 time, u32 seconds, and every date a recorder writes). Beyond that a stamp is a
// sentinel (rosbag2 writes INT64_MAX as an empty bag's start) or damage: the readers report it as
// `<format>.time.out_of_range` (report_out_of_range_times) and compute nothing with it. The
// difference of two stamps in range always fits in int64.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

namespace logscope::time_math {

constexpr int64_t kLimitNs = int64_t{1} << 62;  // exclusive bound of |stamp|

constexpr bool in_range(int64_t ns) { return ns > -kLimitNs && ns < kLimitNs; }
constexpr bool in_range_u(uint64_t ns) { return ns < static_cast<uint64_t>(kLimitNs); }

// end - start; none when it does not fit in int64.
inline std::optional<int64_t> span(int64_t start, int64_t end) {
  int64_t out = 0;
  if (__builtin_sub_overflow(end, start, &out)) return std::nullopt;
  return out;
}

// t + offset; none when it does not fit in int64.
inline std::optional<int64_t> add(int64_t t, int64_t offset) {
  int64_t out = 0;
  if (__builtin_add_overflow(t, offset, &out)) return std::nullopt;
  return out;
}

// t + offset for unsigned stamps (MCAP, the queries' ranges); none past UINT64_MAX.
inline std::optional<uint64_t> add_u(uint64_t t, uint64_t offset) {
  uint64_t out = 0;
  if (__builtin_add_overflow(t, offset, &out)) return std::nullopt;
  return out;
}

// t + offset clamped to [0, UINT64_MAX]: a range's end past the last stamp a file can hold.
inline uint64_t saturating_add_u(uint64_t t, uint64_t offset) { return add_u(t, offset).value_or(UINT64_MAX); }

// seconds * 1e9 + nanoseconds (ROS times, protobuf Timestamps); none when it does not fit.
inline std::optional<int64_t> from_sec_nsec(int64_t seconds, int64_t nanoseconds) {
  int64_t whole = 0;
  if (__builtin_mul_overflow(seconds, int64_t{1000000000}, &whole)) return std::nullopt;
  return add(whole, nanoseconds);
}

// Seconds as a float (CARLA's dates and elapsed times) in ns; none for NaN, infinities and
// values whose ns do not fit in int64 (the cast would be undefined).
inline std::optional<int64_t> from_seconds(double seconds) {
  if (!std::isfinite(seconds)) return std::nullopt;
  double ns = std::round(seconds * 1e9);
  // 2^63 is exact as a double; every double below it converts.
  if (!(ns > -9223372036854775808.0 && ns < 9223372036854775808.0)) return std::nullopt;
  return static_cast<int64_t>(ns);
}

// A span in seconds, for display; none when the span does not fit in int64.
inline std::optional<double> span_seconds(int64_t start, int64_t end) {
  std::optional<int64_t> d = span(start, end);
  if (!d) return std::nullopt;
  return static_cast<double>(*d) / 1e9;
}

// `count` events over `span_ns` as a rate in Hz; none for a span of 0 or less (one message, or
// stamps out of order), where a rate means nothing.
inline std::optional<double> rate_hz(uint64_t count, int64_t span_ns) {
  if (span_ns <= 0) return std::nullopt;
  return static_cast<double>(count) / (static_cast<double>(span_ns) / 1e9);
}

// The same over [start, end]: none when the span overflows or is not positive.
inline std::optional<double> rate_hz(uint64_t count, int64_t start, int64_t end) {
  std::optional<int64_t> d = span(start, end);
  if (!d) return std::nullopt;
  return rate_hz(count, *d);
}

// Splits ns into whole seconds (floor) and 0..999999999 ns, for text; exact for every int64.
struct SecondsAndNanos {
  int64_t seconds = 0;
  int64_t nanos = 0;
};
inline SecondsAndNanos split_seconds(int64_t ns) {
  SecondsAndNanos out{ns / 1000000000, ns % 1000000000};  // truncates toward zero: no overflow
  if (out.nanos < 0) out.nanos += 1000000000, out.seconds -= 1;
  return out;
}

}  // namespace logscope::time_math
