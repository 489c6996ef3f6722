#include "mcap/format.h"

#include "mcap/records.h"

namespace logscope::mcap {

bool looks_like_mcap(std::string_view head) {
  std::string_view magic(kMagic, kMagicSize);
  if (head.substr(0, kMagicSize) == magic) return true;
  // "\x89MCAP0\n" then a Header opcode: the magic after "\r\n" -> "\n".
  return head.size() >= kMagicSize && head.substr(0, 6) == magic.substr(0, 6) && head[6] == '\n' && head[7] == '\x01';
}

std::string diagnose_mcap_head(std::string_view head, unsigned long long file_size) {
  std::string_view magic(kMagic, kMagicSize);
  if (head.empty() || head.size() >= kMagicSize || file_size >= kMagicSize || magic.substr(0, head.size()) != head) return "";
  return "This looks like an MCAP file cut off inside its 8-byte magic (only " + std::to_string(file_size) + " bytes).";
}

}  // namespace logscope::mcap
