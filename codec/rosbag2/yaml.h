// The YAML subset rosbag2 writes in metadata.yaml (yaml-cpp's emitter, block style):
// mappings `key: value`, sequences `- item` (also `- key: value` starting a mapping), scalars
// plain, "double-quoted" (escapes \n \t \" \\ \/ \uXXXX) or 'single-quoted' ('' for '), `~` and
// `null`, and the empty flow collections `[]` and `{}`; `#` comments on their own line.
// Not read: anchors and aliases, tags, multi-line plain or block scalars (| >), non-empty flow
// collections, several documents. Those give an error naming the line, never a guess.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace logscope::rosbag2 {

struct YamlNode {
  enum class Kind { Null, Scalar, Sequence, Mapping };
  Kind kind = Kind::Null;
  std::string scalar;
  bool quoted = false;  // a quoted scalar is text even when it looks like a number
  std::vector<YamlNode> items;                              // Sequence
  std::vector<std::pair<std::string, YamlNode>> entries;    // Mapping, in file order

  const YamlNode* get(const std::string& key) const;  // Mapping member, or null
  bool is_null() const { return kind == Kind::Null; }
};

// Parses `text`; false with `error` ("line 12: ...") when it is outside the subset.
bool parse_yaml(const std::string& text, YamlNode* root, std::string* error);

}  // namespace logscope::rosbag2
