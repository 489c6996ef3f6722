// Tree node ids: "" (the root) or segments joined by '/', each a letter and numbers joined by
// '.': "f12", "p4096", "r4096.3", "c2/r17", "b5". Parsed strictly: digits only, no sign, no
// spaces, no overflow, so "fx" or "f-1" is no node at all (and never frame 0).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace logscope {

struct NodeSegment {
  char tag = 0;
  std::vector<uint64_t> numbers;
};

struct NodeId {
  std::vector<NodeSegment> segments;

  static std::optional<NodeId> parse(const std::string& text);
  std::string str() const;
  // The single-segment id `tag` + number(s), e.g. one('f', {12}) == "f12".
  static std::string one(char tag, std::initializer_list<uint64_t> numbers);
  // True when this id is exactly one segment with this tag and `count` numbers.
  bool is(char tag, size_t count = 1) const {
    return segments.size() == 1 && segments[0].tag == tag && segments[0].numbers.size() == count;
  }
  uint64_t number(size_t segment = 0, size_t index = 0) const { return segments[segment].numbers[index]; }
};

// Shorthand for the common case: the number of a one-segment id "<tag><digits>", or nothing.
std::optional<uint64_t> parse_node_number(const std::string& text, char tag);
// A number a user names a source by (a series position, an actor id): decimal digits only, no
// sign, space, 0x or overflow; nothing otherwise.
std::optional<uint64_t> parse_decimal(const std::string& text);

}  // namespace logscope
