// A ULog writer: the header, then any messages in the order they are called (tests, the demo,
// repair). Every message is framed with its 3-byte header; a body over 65535 bytes is refused.
// `ledger` (when set) records where each message starts and ends, for the damage tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/output_sink.h"

namespace logscope::ulog {

struct LedgerEntry {
  uint64_t offset = 0, end = 0;
  char type = 0;
};

class Writer {
 public:
  explicit Writer(OutputSink& out) : out_(out) {}
  std::vector<LedgerEntry>* ledger = nullptr;

  bool header(uint64_t timestamp_us, uint8_t version = 1);
  bool flag_bits(const uint8_t compat[8], const uint8_t incompat[8], const uint64_t appended[3]);
  bool format(std::string_view text);  // "name:type field;..."
  bool info(std::string_view key, std::string_view value);  // key "char[N] name" or "int32_t name"...
  bool info_multiple(bool continued, std::string_view key, std::string_view value);
  bool parameter(std::string_view key, std::string_view value);
  bool default_parameter(uint8_t default_types, std::string_view key, std::string_view value);
  bool add_subscription(uint8_t multi_id, uint16_t msg_id, std::string_view name);
  bool remove_subscription(uint16_t msg_id);
  bool data(uint16_t msg_id, std::string_view payload);
  bool logging(uint8_t level, uint64_t timestamp_us, std::string_view text);
  bool tagged_logging(uint8_t level, uint16_t tag, uint64_t timestamp_us, std::string_view text);
  bool sync();
  bool dropout(uint16_t duration_ms);
  // Any message, as given (repair copies messages through this).
  bool message(uint8_t type, std::string_view body);

  uint64_t written() const { return out_.written(); }
  const std::string& error() const { return error_.empty() ? out_.error() : error_; }

 private:
  bool key_value(uint8_t type, std::string_view prefix, std::string_view key, std::string_view value);
  OutputSink& out_;
  std::string error_;
  std::string scratch_;
};

// The bytes of a scalar as ULog stores it (little-endian; hosts are x86 and wasm), for payloads and values.
template <typename T>
std::string le_bytes(T value) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &value, sizeof(T));
  return s;
}

}  // namespace logscope::ulog
