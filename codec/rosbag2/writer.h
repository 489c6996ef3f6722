// A rosbag2 writer through SQLite itself: schema version 4 (topics with QoS and type hash,
// messages, schema, metadata, message_definitions) and a metadata.yaml (version 8), for fixtures
// and demos. Messages are CDR (little-endian) of the demo types below.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct sqlite3;

namespace logscope::rosbag2 {

struct WriterTopic {
  std::string name, type, definition;  // definition: ros2msg text
};

struct WriterMessage {
  size_t topic = 0;  // index in the topic list
  int64_t timestamp_ns = 0;
  std::vector<uint8_t> data;
};

// What a demo bag holds: its topics and a deterministic stream of messages of mixed sizes.
std::vector<WriterTopic> demo_topics();
// The i-th demo message (0-based), at `start_ns` + i * 10 ms, topics in turn.
WriterMessage demo_message(uint64_t i, int64_t start_ns);

// Creates the version-4 tables in `db` (empty, writable).
bool create_tables(sqlite3* db, const std::vector<WriterTopic>& topics, std::string* error);
// Inserts messages in one transaction.
bool insert_messages(sqlite3* db, const std::vector<WriterMessage>& messages, std::string* error);

// metadata.yaml (version 8) for one database file holding these counts.
struct YamlFacts {
  std::string file;
  int64_t start_ns = 0, end_ns = 0;
  std::vector<uint64_t> counts;  // per topic
};
std::string metadata_yaml(const std::vector<WriterTopic>& topics, const YamlFacts& facts);

// A small demo database in memory (the format table's small_demo): 3 topics, 30 messages.
std::vector<uint8_t> small_demo_database();

// A bag folder at `folder` (created): `<name>_0.db3` of about `target_bytes` plus metadata.yaml.
bool write_demo_bag(const std::string& folder, uint64_t target_bytes, std::string* error);
// The same of `topics`, with message(i) the i-th message (in time order), until about `target_bytes`.
bool write_bag(const std::string& folder, const std::vector<WriterTopic>& topics, uint64_t target_bytes,
               const std::function<WriterMessage(uint64_t)>& message, std::string* error);

}  // namespace logscope::rosbag2
