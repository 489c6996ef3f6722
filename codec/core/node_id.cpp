#include "core/node_id.h"

namespace logscope {

std::optional<NodeId> NodeId::parse(const std::string& text) {
  NodeId id;
  if (text.empty()) return id;
  size_t i = 0;
  while (true) {
    NodeSegment segment;
    char tag = i < text.size() ? text[i] : 0;
    if (!((tag >= 'a' && tag <= 'z') || (tag >= 'A' && tag <= 'Z'))) return std::nullopt;
    segment.tag = tag;
    ++i;
    while (true) {
      size_t start = i;
      uint64_t value = 0;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        uint64_t digit = static_cast<uint64_t>(text[i] - '0');
        if (value > (UINT64_MAX - digit) / 10) return std::nullopt;  // overflow
        value = value * 10 + digit;
        ++i;
      }
      if (i == start) return std::nullopt;
      segment.numbers.push_back(value);
      if (i < text.size() && text[i] == '.') {
        ++i;
        continue;
      }
      break;
    }
    id.segments.push_back(std::move(segment));
    if (i == text.size()) return id;
    if (text[i] != '/') return std::nullopt;
    ++i;
  }
}

std::string NodeId::str() const {
  std::string out;
  for (size_t s = 0; s < segments.size(); ++s) {
    if (s) out += '/';
    out += segments[s].tag;
    for (size_t n = 0; n < segments[s].numbers.size(); ++n) {
      if (n) out += '.';
      out += std::to_string(segments[s].numbers[n]);
    }
  }
  return out;
}

std::string NodeId::one(char tag, std::initializer_list<uint64_t> numbers) {
  NodeId id;
  id.segments.push_back(NodeSegment{tag, numbers});
  return id.str();
}

std::optional<uint64_t> parse_node_number(const std::string& text, char tag) {
  auto id = NodeId::parse(text);
  if (!id || !id->is(tag)) return std::nullopt;
  return id->number();
}

std::optional<uint64_t> parse_decimal(const std::string& text) {
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;  // overflow
    value = value * 10 + digit;
  }
  return value;
}

}  // namespace logscope
