#include "rosbag2/writer.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "core/printf_text.h"
#include "core/time_math.h"

namespace logscope::rosbag2 {
namespace {

constexpr const char* kQos =
    "- history: 3\\n  depth: 0\\n  reliability: 1\\n  durability: 2\\n  deadline:\\n    sec: 9223372036\\n    nsec: 854775807\\n"
    "  lifespan:\\n    sec: 9223372036\\n    nsec: 854775807\\n  liveliness: 1\\n  liveliness_lease_duration:\\n"
    "    sec: 9223372036\\n    nsec: 854775807\\n  avoid_ros_namespace_conventions: false";

std::string qos_text() {
  std::string s = kQos, out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

// CDR little-endian: the 4-byte encapsulation header, then fields aligned to their size
// (relative to the end of the header).
struct Cdr {
  std::vector<uint8_t> bytes{0x00, 0x01, 0x00, 0x00};
  void align(size_t n) {
    while ((bytes.size() - 4) % n) bytes.push_back(0);
  }
  template <typename T>
  void put(T v) {
    align(sizeof(T));
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &v, sizeof(T));
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
  }
  void str(const std::string& s) {
    put<uint32_t>(static_cast<uint32_t>(s.size() + 1));
    bytes.insert(bytes.end(), s.begin(), s.end());
    bytes.push_back(0);
  }
  void header(int64_t ns, const std::string& frame) {
    put<int32_t>(static_cast<int32_t>(ns / 1000000000));
    put<uint32_t>(static_cast<uint32_t>(ns % 1000000000));
    str(frame);
  }
};

bool exec(sqlite3* db, const std::string& sql, std::string* error) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    if (error) *error = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    return false;
  }
  return true;
}

}  // namespace

std::vector<WriterTopic> demo_topics() {
  return {
      {"/imu", "demo_msgs/msg/Imu",
       "std_msgs/Header header\nfloat64[3] angular_velocity\nfloat64[3] linear_acceleration\n"
       "================================================================================\nMSG: std_msgs/Header\n"
       "builtin_interfaces/Time stamp\nstring frame_id\n"
       "================================================================================\nMSG: builtin_interfaces/Time\n"
       "int32 sec\nuint32 nanosec\n"},
      {"/chatter", "std_msgs/msg/String", "string data\n"},
      {"/camera/compressed", "sensor_msgs/msg/CompressedImage",
       "std_msgs/Header header\nstring format\nuint8[] data\n"
       "================================================================================\nMSG: std_msgs/Header\n"
       "builtin_interfaces/Time stamp\nstring frame_id\n"
       "================================================================================\nMSG: builtin_interfaces/Time\n"
       "int32 sec\nuint32 nanosec\n"},
  };
}

WriterMessage demo_message(uint64_t i, int64_t start_ns) {
  WriterMessage m;
  m.topic = i % 3;
  m.timestamp_ns = start_ns + static_cast<int64_t>(i) * 10000000;
  Cdr c;
  double t = static_cast<double>(i) * 0.01;
  if (m.topic == 0) {
    c.header(m.timestamp_ns, "imu_link");
    for (int k = 0; k < 3; ++k) c.put<double>(0.1 * k + 0.001 * static_cast<double>(i % 97));
    for (int k = 0; k < 3; ++k) c.put<double>(k == 2 ? 9.81 : 0.05 * t);
  } else if (m.topic == 1) {
    c.str("hello world " + std::to_string(i));
  } else {
    c.header(m.timestamp_ns, "camera");
    c.str("jpeg");
    // Sizes vary from 1 KB to about 64 KB, as compressed frames do.
    uint32_t size = 1024 + static_cast<uint32_t>((i * 7919) % (63 * 1024));
    c.put<uint32_t>(size);
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u;
    for (uint32_t k = 0; k < size; ++k) {
      x = x * 1103515245u + 12345u;
      c.bytes.push_back(static_cast<uint8_t>(x >> 24));
    }
  }
  m.data = std::move(c.bytes);
  return m;
}

bool create_tables(sqlite3* db, const std::vector<WriterTopic>& topics, std::string* error) {
  // The statements of rosbag2's sqlite3 storage plugin for schema version 4.
  if (!exec(db,
            "CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);"
            "CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);"
            "CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,"
            "offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL);"
            "CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,"
            "encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);"
            "CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL);"
            "CREATE INDEX timestamp_idx ON messages (timestamp ASC);"
            "INSERT INTO schema VALUES(4, 'jazzy');",
            error))
    return false;
  sqlite3_stmt* topic = nullptr;
  sqlite3_stmt* definition = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO topics(name, type, serialization_format, offered_qos_profiles, type_description_hash) VALUES(?,?,'cdr',?,'')", -1, &topic, nullptr);
  sqlite3_prepare_v2(db, "INSERT INTO message_definitions(topic_type, encoding, encoded_message_definition, type_description_hash) VALUES(?,'ros2msg',?,'')", -1, &definition, nullptr);
  bool ok = topic && definition;
  std::string qos = qos_text();
  for (const WriterTopic& t : topics) {
    if (!ok) break;
    sqlite3_bind_text(topic, 1, t.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(topic, 2, t.type.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(topic, 3, qos.c_str(), -1, SQLITE_TRANSIENT);
    ok = sqlite3_step(topic) == SQLITE_DONE && sqlite3_reset(topic) == SQLITE_OK;
    sqlite3_bind_text(definition, 1, t.type.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(definition, 2, t.definition.c_str(), -1, SQLITE_TRANSIENT);
    ok = ok && sqlite3_step(definition) == SQLITE_DONE && sqlite3_reset(definition) == SQLITE_OK;
  }
  if (!ok && error) *error = sqlite3_errmsg(db);
  sqlite3_finalize(topic);
  sqlite3_finalize(definition);
  return ok;
}

bool insert_messages(sqlite3* db, const std::vector<WriterMessage>& messages, std::string* error) {
  if (!exec(db, "BEGIN", error)) return false;
  sqlite3_stmt* insert = nullptr;
  bool ok = sqlite3_prepare_v2(db, "INSERT INTO messages(topic_id, timestamp, data) VALUES(?,?,?)", -1, &insert, nullptr) == SQLITE_OK;
  for (const WriterMessage& m : messages) {
    if (!ok) break;
    sqlite3_bind_int64(insert, 1, static_cast<sqlite3_int64>(m.topic + 1));
    sqlite3_bind_int64(insert, 2, m.timestamp_ns);
    sqlite3_bind_blob(insert, 3, m.data.data(), static_cast<int>(m.data.size()), SQLITE_STATIC);
    ok = sqlite3_step(insert) == SQLITE_DONE && sqlite3_reset(insert) == SQLITE_OK;
  }
  if (!ok && error) *error = sqlite3_errmsg(db);
  sqlite3_finalize(insert);
  return exec(db, ok ? "COMMIT" : "ROLLBACK", ok ? error : nullptr) && ok;
}

std::string metadata_yaml(const std::vector<WriterTopic>& topics, const YamlFacts& facts) {
  uint64_t total = 0;
  for (uint64_t c : facts.counts) total += c;
  std::string qos = kQos;
  // A span past int64 (test stamps at the edges) is written as 0.
  long long start = total ? facts.start_ns : INT64_MAX, duration = total ? time_math::span(facts.start_ns, facts.end_ns).value_or(0) : 0;
  std::string y = printf_string(
      "rosbag2_bagfile_information:\n  version: 8\n  storage_identifier: sqlite3\n  duration:\n    nanoseconds: %lld\n"
      "  starting_time:\n    nanoseconds_since_epoch: %lld\n  message_count: %llu\n  topics_with_message_count:\n",
      duration, start, static_cast<unsigned long long>(total));
  // Built by concatenation: printf_string stops at 512 bytes, and a QoS text alone is 400.
  for (size_t i = 0; i < topics.size(); ++i)
    y += "    - topic_metadata:\n        name: " + topics[i].name + "\n        type: " + topics[i].type +
         "\n        serialization_format: cdr\n        offered_qos_profiles: \"" + qos +
         "\"\n        type_description_hash: \"\"\n      message_count: " +
         std::to_string(i < facts.counts.size() ? facts.counts[i] : 0) + "\n";
  y += "  compression_format: \"\"\n  compression_mode: \"\"\n  relative_file_paths:\n    - " + facts.file +
       "\n  files:\n    - path: " + facts.file + "\n      starting_time:\n        nanoseconds_since_epoch: " +
       std::to_string(start) + "\n      duration:\n        nanoseconds: " + std::to_string(duration) +
       "\n      message_count: " + std::to_string(total) + "\n  custom_data: ~\n  ros_distro: jazzy\n";
  return y;
}

std::vector<uint8_t> small_demo_database() {
  sqlite3* db = nullptr;
  std::vector<uint8_t> bytes;
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return bytes;
  }
  std::string error;
  std::vector<WriterTopic> topics = demo_topics();
  std::vector<WriterMessage> messages;
  for (uint64_t i = 0; i < 30; ++i) {
    messages.push_back(demo_message(i, 1700000000000000000));
    if (messages.back().topic == 2) messages.back().data.resize(200);  // small: a seed, a warm-up
  }
  if (create_tables(db, topics, &error) && insert_messages(db, messages, &error)) {
    sqlite3_int64 size = 0;
    unsigned char* data = sqlite3_serialize(db, "main", &size, 0);
    if (data) bytes.assign(data, data + size);
    sqlite3_free(data);
  }
  sqlite3_close(db);
  return bytes;
}

bool write_demo_bag(const std::string& folder, uint64_t target_bytes, std::string* error) {
  return write_bag(folder, demo_topics(), target_bytes, [](uint64_t i) { return demo_message(i, 1700000000000000000); }, error);
}

bool write_bag(const std::string& folder, const std::vector<WriterTopic>& topics, uint64_t target_bytes,
               const std::function<WriterMessage(uint64_t)>& message, std::string* error) {
  ::mkdir(folder.c_str(), 0755);
  std::string name = folder;
  while (!name.empty() && name.back() == '/') name.pop_back();
  name = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
  std::string file = name + "_0.db3";
  std::string path = folder + "/" + file;
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    if (error) *error = path + ": " + (db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_close(db);
    return false;
  }
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> guard(db, sqlite3_close);
  if (!exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;", error) ||
      !create_tables(db, topics, error))
    return false;
  YamlFacts facts;
  facts.file = file;
  facts.counts.assign(topics.size(), 0);
  uint64_t written = 0, i = 0;
  std::vector<WriterMessage> batch;
  while (written < target_bytes || i == 0) {
    batch.clear();
    for (int k = 0; k < 300; ++k, ++i) {
      batch.push_back(message(i));
      if (i == 0) facts.start_ns = batch.back().timestamp_ns;
      written += batch.back().data.size() + 32;
      facts.counts[batch.back().topic]++;
      facts.end_ns = batch.back().timestamp_ns;
      if (written >= target_bytes) {
        ++i;
        break;
      }
    }
    if (!insert_messages(db, batch, error)) return false;
  }
  // rosbag2 keeps the yaml inside too (schema 3+, the `metadata` table).
  std::string yaml = metadata_yaml(topics, facts);
  sqlite3_stmt* meta = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO metadata(metadata_version, metadata) VALUES(8, ?)", -1, &meta, nullptr);
  sqlite3_bind_text(meta, 1, yaml.c_str(), -1, SQLITE_TRANSIENT);
  bool ok = meta && sqlite3_step(meta) == SQLITE_DONE;
  sqlite3_finalize(meta);
  if (!ok) {
    if (error) *error = sqlite3_errmsg(db);
    return false;
  }
  std::ofstream out(folder + "/metadata.yaml", std::ios::binary);
  out << yaml;
  if (!out) {
    if (error) *error = folder + "/metadata.yaml: cannot write";
    return false;
  }
  return true;
}

}  // namespace logscope::rosbag2
