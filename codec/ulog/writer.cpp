#include "ulog/writer.h"

#include "ulog/format.h"

namespace logscope::ulog {

bool Writer::message(uint8_t type, std::string_view body) {
  if (body.size() > 65535) {
    error_ = "a ULog message body is at most 65535 bytes (this one has " + std::to_string(body.size()) + ")";
    return false;
  }
  uint64_t at = out_.written();
  uint8_t head[3] = {static_cast<uint8_t>(body.size() & 0xff), static_cast<uint8_t>(body.size() >> 8), type};
  if (!out_.write(head, 3) || !out_.write(body.data(), body.size())) return false;
  if (ledger) ledger->push_back(LedgerEntry{at, out_.written(), static_cast<char>(type)});
  return true;
}

bool Writer::header(uint64_t timestamp_us, uint8_t version) {
  std::string h(kMagic, kMagicSize);
  h += static_cast<char>(version);
  h += le_bytes(timestamp_us);
  return out_.write(h.data(), h.size());
}

bool Writer::flag_bits(const uint8_t compat[8], const uint8_t incompat[8], const uint64_t appended[3]) {
  std::string body(reinterpret_cast<const char*>(compat), 8);
  body.append(reinterpret_cast<const char*>(incompat), 8);
  for (int i = 0; i < 3; ++i) body += le_bytes(appended[i]);
  return message('B', body);
}

bool Writer::format(std::string_view text) { return message('F', text); }

bool Writer::key_value(uint8_t type, std::string_view prefix, std::string_view key, std::string_view value) {
  if (key.size() > 255) {
    error_ = "a ULog key is at most 255 bytes";
    return false;
  }
  scratch_.assign(prefix);
  scratch_ += static_cast<char>(key.size());
  scratch_.append(key);
  scratch_.append(value);
  return message(type, scratch_);
}

bool Writer::info(std::string_view key, std::string_view value) { return key_value('I', "", key, value); }
bool Writer::info_multiple(bool continued, std::string_view key, std::string_view value) {
  return key_value('M', std::string(1, continued ? '\1' : '\0'), key, value);
}
bool Writer::parameter(std::string_view key, std::string_view value) { return key_value('P', "", key, value); }
bool Writer::default_parameter(uint8_t default_types, std::string_view key, std::string_view value) {
  return key_value('Q', std::string(1, static_cast<char>(default_types)), key, value);
}

bool Writer::add_subscription(uint8_t multi_id, uint16_t msg_id, std::string_view name) {
  scratch_.assign(1, static_cast<char>(multi_id));
  scratch_ += le_bytes(msg_id);
  scratch_.append(name);
  return message('A', scratch_);
}

bool Writer::remove_subscription(uint16_t msg_id) { return message('R', le_bytes(msg_id)); }

bool Writer::data(uint16_t msg_id, std::string_view payload) {
  scratch_ = le_bytes(msg_id);
  scratch_.append(payload);
  return message('D', scratch_);
}

bool Writer::logging(uint8_t level, uint64_t timestamp_us, std::string_view text) {
  scratch_.assign(1, static_cast<char>(level));
  scratch_ += le_bytes(timestamp_us);
  scratch_.append(text);
  return message('L', scratch_);
}

bool Writer::tagged_logging(uint8_t level, uint16_t tag, uint64_t timestamp_us, std::string_view text) {
  scratch_.assign(1, static_cast<char>(level));
  scratch_ += le_bytes(tag);
  scratch_ += le_bytes(timestamp_us);
  scratch_.append(text);
  return message('C', scratch_);
}

bool Writer::sync() { return message('S', std::string_view(reinterpret_cast<const char*>(kSyncMagic), 8)); }

bool Writer::dropout(uint16_t duration_ms) { return message('O', le_bytes(duration_ms)); }

}  // namespace logscope::ulog
