// MCAP test helpers: files written by codec/mcap/writer.h with a few channels, and the opened model.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "mcap/inspector.h"
#include "mcap/model.h"
#include "mcap/reader.h"
#include "mcap/writer.h"

namespace mcap_test {

struct Written {
  std::string bytes;
  std::vector<logscope::mcap::LedgerEntry> ledger;
  uint64_t messages = 0;
  std::map<uint16_t, uint64_t> per_channel;
  uint64_t first_time = 0, last_time = 0;
};

// Three channels (two schemas, one channel without schema), `messages` messages spread over them
// at 10 ms steps from 1.7e18 ns, payloads of varying size; an attachment and a metadata record
// in the middle when `extras`.
inline Written small_file(logscope::mcap::WriterOptions options, uint64_t messages = 300, bool extras = true) {
  using namespace logscope::mcap;
  Writer w(options);
  uint16_t s1 = w.add_schema("demo/Imu", "jsonschema", "{\"type\":\"object\"}");
  uint16_t s2 = w.add_schema("demo/Pose", "ros2msg", "float64 x\nfloat64 y\n");
  uint16_t c0 = w.add_channel(s1, "/imu", "json", {{"rate", "100"}});
  uint16_t c1 = w.add_channel(s2, "/pose", "cdr");
  uint16_t c2 = w.add_channel(0, "/log", "json");
  uint16_t channels[] = {c0, c1, c0, c2, c0, c1};
  Written out;
  const uint64_t t0 = 1700000000000000000ull;
  for (uint64_t i = 0; i < messages; ++i) {
    uint16_t c = channels[i % 6];
    uint64_t t = t0 + i * 10000000ull;
    std::string data = "{\"i\":" + std::to_string(i) + ",\"pad\":\"" + std::string(i % 97, 'x') + "\"}";
    w.write_message(c, static_cast<uint32_t>(i), t, t + 5, data);
    ++out.per_channel[c];
    if (i == 0) out.first_time = t;
    out.last_time = t;
    if (extras && i == messages / 2) {
      w.write_attachment("calibration.yaml", "text/yaml", t, t - 1000, std::string(1500, 'c'));
      w.write_metadata("robot", {{"serial", "R2-D2"}, {"site", "lab"}});
    }
  }
  out.messages = messages;
  out.bytes = w.finish();
  out.ledger = w.ledger();
  return out;
}

// The layouts the cut tests walk record by record: zstd chunks of 2 KiB (200 messages), no chunks
// (60), lz4 chunks of 4 KiB (120).
inline std::vector<Written> cut_test_files() {
  logscope::mcap::WriterOptions zstd;
  zstd.chunk_size = 2048;
  logscope::mcap::WriterOptions unchunked;
  unchunked.chunked = false;
  logscope::mcap::WriterOptions lz4;
  lz4.compression = "lz4";
  lz4.chunk_size = 4096;
  return {small_file(zstd, 200), small_file(unchunked, 60), small_file(lz4, 120)};
}

inline logscope::mcap::FileModel open_model(const std::string& bytes, bool force_scan = false) {
  logscope::MemoryByteSource source(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  logscope::mcap::FileModel model;
  logscope::mcap::open_file(source, &model, nullptr, force_scan);
  return model;
}

}  // namespace mcap_test
