// Helpers of the ULog tests: a feature file made by our writer with its ledger, and opening bytes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/inspector.h"
#include "core/output_sink.h"
#include "ulog/inspector.h"
#include "ulog/model.h"
#include "ulog/writer.h"

namespace ulog_test {

using namespace logscope;

// Bytes and an inspector over them.
struct Opened {
  std::string bytes;
  std::unique_ptr<MemoryByteSource> source;
  std::unique_ptr<FormatInspector> inspector;
  const ulog::FileModel& model() const { return *ulog::file_model(*inspector); }
};

inline Opened open_bytes(std::string bytes) {
  Opened o;
  o.bytes = std::move(bytes);
  o.source = std::make_unique<MemoryByteSource>(reinterpret_cast<const uint8_t*>(o.bytes.data()), o.bytes.size());
  o.inspector = ulog::open_inspector(*o.source);
  return o;
}

// The formats of the feature file: nested types, arrays, char[N], padding in the middle and at the end.
inline const char* const kFeatureFormats[] = {
    "inner:float[2] v;uint8_t flag;uint8_t[3] _padding0;",
    "pose:uint64_t timestamp;double lat;double lon;inner[2] parts;char[6] label;int16_t[3] counts;uint8_t[2] _padding1;bool ok;uint8_t[7] _padding2;",
    "tick:uint64_t timestamp;uint32_t n;",
};

// One 'pose' payload: 8+8+8+2*12+6+6+2+1 = 63 bytes (the last padding left out, as PX4's logger does).
inline std::string pose_payload(uint64_t t, double lat, double lon, const std::string& label, bool with_tail_padding = false) {
  std::string p = ulog::le_bytes(t) + ulog::le_bytes(lat) + ulog::le_bytes(lon);
  for (int i = 0; i < 2; ++i) p += ulog::le_bytes(1.5f * static_cast<float>(i + 1)) + ulog::le_bytes(-2.0f) + std::string(1, static_cast<char>(i)) + std::string(3, '\0');
  std::string l = label.substr(0, 6);
  l.resize(6, '\0');
  p += l + ulog::le_bytes(int16_t{-1}) + ulog::le_bytes(int16_t{2}) + ulog::le_bytes(int16_t{300}) + std::string(2, '\0') + std::string(1, '\1');
  if (with_tail_padding) p += std::string(7, '\0');
  return p;
}

inline std::string tick_payload(uint64_t t, uint32_t n) { return ulog::le_bytes(t) + ulog::le_bytes(n); }

// Every message type: flag bits (default parameters), formats, info, multi-info with a continued
// piece, parameters and defaults, two instances of one topic, data, strings plain and tagged,
// sync, dropout, a parameter change and an info in the data section, a remove. `ledger` gets
// every message's span.
inline std::string feature_file(std::vector<ulog::LedgerEntry>* ledger = nullptr) {
  MemoryOutputSink sink;
  ulog::Writer w(sink);
  w.ledger = ledger;
  w.header(1000000);
  uint8_t compat[8] = {1}, incompat[8] = {};
  uint64_t appended[3] = {};
  w.flag_bits(compat, incompat, appended);
  for (const char* f : kFeatureFormats) w.format(f);
  w.info("char[3] sys_name", "PX4");
  w.info("char[8] ver_hw", "TEST_HW1");
  w.info("uint32_t ver_sw_release", ulog::le_bytes(uint32_t{0x010d0000}));
  w.info_multiple(false, "char[5] perf", "first");
  w.info_multiple(true, "char[5] perf", "-more");
  w.info_multiple(false, "char[6] perf", "second");
  w.parameter("int32_t MAV_TYPE", ulog::le_bytes(int32_t{2}));
  w.parameter("float MPC_XY_CRUISE", ulog::le_bytes(7.5f));
  w.default_parameter(1, "float MPC_XY_CRUISE", ulog::le_bytes(5.0f));
  w.default_parameter(3, "int32_t MAV_TYPE", ulog::le_bytes(int32_t{2}));
  w.add_subscription(0, 0, "pose");
  w.add_subscription(1, 1, "pose");
  w.add_subscription(0, 2, "tick");
  for (uint32_t i = 0; i < 20; ++i) {
    uint64_t t = 1000000 + i * 10000;
    w.data(0, pose_payload(t, 47.0 + i * 1e-5, 8.0 + i * 1e-5, "abc", i % 2 == 0));
    if (i % 2) w.data(1, pose_payload(t + 1, 1, 2, "second"));
    w.data(2, tick_payload(t + 2, i));
    if (i == 5) w.logging('6', t, "[commander] Takeoff detected");
    if (i == 6) w.tagged_logging('3', 7, t, "[battery] Low battery");
    if (i == 7) w.sync();
    if (i == 8) w.dropout(35);
    if (i == 9) w.parameter("float MPC_XY_CRUISE", ulog::le_bytes(9.0f));
    if (i == 10) w.info("char[4] note", "late");
  }
  w.remove_subscription(2);
  return sink.bytes;
}

// How many of the ledger's messages of `type` end at or before `end`.
inline uint64_t complete_before(const std::vector<ulog::LedgerEntry>& ledger, char type, uint64_t end) {
  uint64_t n = 0;
  for (const ulog::LedgerEntry& e : ledger) n += e.type == type && e.end <= end;
  return n;
}

}  // namespace ulog_test
