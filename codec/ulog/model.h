// What the ULog reader knows after its one streamed pass (reader.h): the header and flag bits,
// formats, info, multi-info, parameters and defaults, subscriptions with their counts and
// times, logged strings, dropouts, and message positions kept sparsely (every kCheckpointEvery-th
// message) for the tree and paging. No data payloads are kept.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/report.h"
#include "ulog/format.h"

namespace logscope::ulog {

constexpr uint64_t kCheckpointEvery = 1024;

struct FlagBits {
  bool present = false;
  uint64_t offset = 0;
  uint8_t compat[8] = {};
  uint8_t incompat[8] = {};
  uint64_t appended[3] = {};
  bool data_appended() const { return (incompat[0] & kIncompatDataAppended) != 0; }
  bool unknown_incompatible() const;
};

// An 'I' info or a 'P' parameter ('Q' default: with default_types), by its "type name" key.
struct KeyValue {
  std::string name;
  std::string type;  // "char[9]", "int32_t", "float"
  Json value;
  uint64_t offset = 0;
  bool in_data = false;           // after the first subscription (a change in flight)
  uint64_t timestamp_us = 0;      // in the data section: the last data timestamp before it
  uint8_t default_types = 0;      // 'Q': bit 0 system default, bit 1 current configuration's default
};

// 'M' messages of one key: each value is one message, with its continuations ('is_continued')
// joined onto it, in file order.
struct MultiInfo {
  std::string name;
  std::string type;
  std::vector<Json> values;  // text for char[N], else the value of each piece
  std::vector<uint64_t> offsets;
};

struct Subscription {
  uint16_t msg_id = 0;
  uint8_t multi_id = 0;
  std::string name;
  int format = -1;  // into FileModel::formats.formats; -1: no such format
  uint64_t offset = 0;  // of its 'A' message
  uint64_t messages = 0;
  uint64_t bytes = 0;   // payload bytes (without msg_id)
  std::optional<uint64_t> first_us, last_us, min_us, max_us;
  uint64_t backwards = 0;  // timestamps smaller than the previous one
  uint64_t bad_size = 0;   // data shorter than its format
  bool removed = false;
};

struct LoggedString {
  uint8_t level = 0;  // '0' (emergency) .. '7' (debug) as ASCII digits
  bool tagged = false;
  uint16_t tag = 0;
  uint64_t timestamp_us = 0;
  std::string text;
  uint64_t offset = 0;
};

struct Dropout {
  uint64_t offset = 0;
  uint16_t duration_ms = 0;
  uint64_t after_us = 0;  // the last data timestamp before it
};

// A section of messages: the main one after the header, or one appended at a flag-bits offset.
struct Section {
  uint64_t begin = 0, end = 0;  // [begin, end): where its messages may be
  uint64_t walked_to = 0;       // the end of the last complete message
  uint64_t messages = 0;
  bool appended = false;
};

// Every kCheckpointEvery-th message: its index over all sections and its offset.
struct Checkpoint {
  uint64_t index = 0;
  uint64_t offset = 0;
  size_t section = 0;
};

struct FileModel {
  uint64_t file_size = 0;
  bool header_ok = false;
  uint8_t version = 0;
  uint64_t header_timestamp_us = 0;
  FlagBits flags;
  FormatSet formats;
  std::vector<KeyValue> infos;
  std::vector<MultiInfo> multi_infos;
  std::vector<KeyValue> parameters;  // initial ones, then changes in the data section
  std::vector<KeyValue> defaults;
  std::vector<Subscription> subscriptions;  // in the order declared
  std::map<uint16_t, size_t> active;        // msg_id -> subscriptions index, as the walk left it
  std::vector<LoggedString> strings;
  std::vector<Dropout> dropouts;
  uint64_t syncs = 0;
  uint64_t string_count = 0;   // every logged string, kept or not (reader.cpp caps what it keeps)
  uint64_t multi_values = 0;   // 'M' values kept
  uint64_t data_messages = 0;
  uint64_t messages = 0;  // every message of every section
  std::map<uint8_t, uint64_t> type_counts;
  uint64_t definitions_end = 0;  // the first data-section message (0: none)
  std::optional<uint64_t> min_us, max_us;  // over data timestamps and logged strings
  std::vector<Section> sections;
  std::vector<Checkpoint> checkpoints;
  std::vector<Problem> problems;
  Recovery recovery;
  // Damage found by the walk, kept for the map: [offset, where the walk went on).
  std::vector<std::pair<uint64_t, uint64_t>> damaged;

  const Subscription* subscription(const std::string& name, uint8_t multi_id) const;
  std::optional<Json> info(const std::string& name) const;
  std::string info_text(const std::string& name) const;
  uint64_t total_messages() const { return messages; }
  // The start and end as the summary states them: the header's timestamp, the last data timestamp.
  uint64_t start_us() const { return header_timestamp_us; }
  uint64_t end_us() const { return max_us ? std::max(*max_us, header_timestamp_us) : header_timestamp_us; }
};

}  // namespace logscope::ulog
