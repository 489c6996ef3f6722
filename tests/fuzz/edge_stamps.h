// Small files of every format whose time stamps are the ones a writer chooses, for stamps at the
// edges of what each format stores (INT64_MIN, INT64_MAX, u32 and u64 extremes, NaN and infinite
// seconds): tests/codec/test_time_edges.cpp runs them through every entry point, and
// tests/fuzz/make_seeds.cpp writes some as fuzz seeds. Empty bytes mean a writer refused.
#pragma once

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bddf/writer.h"
#include "carla/writer.h"
#include "mcap/writer.h"
#include "rosbag/writer.h"
#include "rosbag2/writer.h"

namespace logscope_fuzz {

constexpr int64_t kStampMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kStampMax = std::numeric_limits<int64_t>::max();

// A POD series (index 0, one float64 per block) and a message series, a block of each per stamp.
inline std::vector<uint8_t> stamped_bddf(const std::vector<int64_t>& stamps) {
  using namespace logscope::bddf;
  std::vector<uint8_t> out;
  Writer writer([&](const void* data, size_t size) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    out.insert(out.end(), p, p + size);
    return true;
  }, Writer::Options{});
  int voltage = writer.add_pod_channel("power/battery_voltage", 10);
  int state = writer.add_message_channel("bosdyn.api.RobotState", "bosdyn.api.RobotState");
  bool ok = true;
  for (size_t i = 0; i < stamps.size(); ++i) {
    double v = 24.0 + static_cast<double>(i);
    ok &= writer.write_pod_sample(voltage, stamps[i], &v);
    uint8_t payload[] = {0x08, static_cast<uint8_t>(i)};
    ok &= writer.write_block(state, stamps[i], payload, sizeof payload);
  }
  ok &= writer.finish();
  return ok ? out : std::vector<uint8_t>();
}

// One std_msgs/Float64 topic, /value, a message per stamp, small chunks (V2.0) so that chunk
// infos span the stamps.
inline std::vector<uint8_t> stamped_bag(int version, const std::vector<logscope::rosbag::Time>& stamps) {
  using namespace logscope::rosbag;
  MemorySink sink;
  WriterOptions options;
  options.version = version;
  options.chunk_threshold = 64;
  BagWriter writer(sink, options);
  uint32_t c = writer.add_connection("/value", "std_msgs/Float64", "fdb28210bfa9d7c91146260178d9a584", "float64 data\n");
  bool ok = true;
  for (size_t i = 0; i < stamps.size(); ++i) {
    double v = static_cast<double>(i) / 4;
    ok &= writer.write(c, stamps[i], std::string_view(reinterpret_cast<const char*>(&v), sizeof v));
  }
  ok &= writer.close();
  return ok ? std::vector<uint8_t>(sink.bytes.begin(), sink.bytes.end()) : std::vector<uint8_t>();
}

// Frames whose elapsed times (and durations) are `elapsed`, after the header's `date`; actor 10
// is added in the first frame and moves in every frame.
inline std::vector<uint8_t> stamped_carla(int64_t date, const std::vector<double>& elapsed) {
  using namespace logscope::carla;
  LogWriter w;
  w.header(date, "Town01");
  for (size_t f = 0; f < elapsed.size(); ++f) {
    w.frame_start(f + 1, elapsed[f], elapsed[f]);
    EventAddRecord car;
    car.id = 10, car.type = 1, car.blueprint = "vehicle.tesla.model3";
    w.write(packets::EventAdd, f == 0 ? std::vector<EventAddRecord>{car} : std::vector<EventAddRecord>{});
    w.write(packets::Position, {{10, {1.0 * static_cast<double>(f), 2, 0}, {0, 0, 90}}});
    w.write(packets::PlatformTime, {elapsed[f]});
    w.frame_end();
  }
  return w.take();
}

// A CDR float64 per message on /value: log_time from `stamps`, publish_time from them reversed.
inline std::vector<uint8_t> stamped_mcap(const std::vector<uint64_t>& stamps, const std::string& compression, bool chunked) {
  using namespace logscope::mcap;
  WriterOptions options;
  options.compression = compression;
  options.chunked = chunked;
  options.chunk_size = 64;
  Writer writer(options);
  uint16_t channel = writer.add_channel(writer.add_schema("std_msgs/msg/Float64", "ros2msg", "float64 data\n"), "/value", "cdr");
  for (size_t i = 0; i < stamps.size(); ++i) {
    std::string m("\x00\x01\x00\x00", 4);  // CDR, little-endian
    double v = static_cast<double>(i);
    m.append(reinterpret_cast<const char*>(&v), sizeof v);
    writer.write_message(channel, static_cast<uint32_t>(i), stamps[i], stamps[stamps.size() - 1 - i], m);
  }
  std::string bytes = writer.finish();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

// The rosbag2 demo messages (rosbag2/writer.h), one per stamp, into the empty database `db`; the
// yaml our writer writes for them (an empty bag: starting_time INT64_MAX) in `yaml`.
inline bool stamped_rosbag2(sqlite3* db, const std::string& file_name, const std::vector<int64_t>& stamps, std::string* yaml,
                            std::string* error) {
  using namespace logscope::rosbag2;
  std::vector<WriterTopic> topics = demo_topics();
  std::vector<WriterMessage> messages;
  YamlFacts facts;
  facts.file = file_name;
  facts.counts.assign(topics.size(), 0);
  for (size_t i = 0; i < stamps.size(); ++i) {
    WriterMessage m = demo_message(i, 0);
    m.timestamp_ns = stamps[i];
    facts.counts[m.topic]++;
    facts.start_ns = i ? std::min(facts.start_ns, stamps[i]) : stamps[i];
    facts.end_ns = i ? std::max(facts.end_ns, stamps[i]) : stamps[i];
    messages.push_back(std::move(m));
  }
  if (yaml) *yaml = metadata_yaml(topics, facts);
  return create_tables(db, topics, error) && (messages.empty() || insert_messages(db, messages, error));
}

// The same database in memory, as its bytes (SQLite's serialization), for seeds.
inline std::vector<uint8_t> stamped_rosbag2_bytes(const std::vector<int64_t>& stamps) {
  sqlite3* db = nullptr;
  std::vector<uint8_t> out;
  std::string error;
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY, nullptr) == SQLITE_OK &&
      stamped_rosbag2(db, "bag_0.db3", stamps, nullptr, &error)) {
    sqlite3_int64 size = 0;
    if (unsigned char* data = sqlite3_serialize(db, "main", &size, 0)) {
      out.assign(data, data + size);
      sqlite3_free(data);
    }
  }
  sqlite3_close(db);
  return out;
}

}  // namespace logscope_fuzz
