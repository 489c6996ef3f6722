// The metadata.yaml subset parser (yaml.h): lines are read with their indent; a block is the run
// of lines indented deeper than its parent's key or dash.
#include "rosbag2/yaml.h"

#include <cstdint>

namespace logscope::rosbag2 {

const YamlNode* YamlNode::get(const std::string& key) const {
  if (kind != Kind::Mapping) return nullptr;
  for (const auto& entry : entries)
    if (entry.first == key) return &entry.second;
  return nullptr;
}

namespace {

struct Line {
  size_t number;  // 1-based
  size_t indent;
  std::string text;  // without indent and trailing spaces
};

constexpr size_t kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(std::vector<Line> lines) : lines_(std::move(lines)) {}

  bool parse(YamlNode* root, std::string* error) {
    if (lines_.empty()) {
      *root = YamlNode();
      return true;
    }
    if (!block(lines_[0].indent, root, 0)) return fail_out(error);
    if (pos_ < lines_.size()) {
      error_at(lines_[pos_], "unexpected indentation");
      return fail_out(error);
    }
    return true;
  }

 private:
  bool fail_out(std::string* error) {
    if (error) *error = error_;
    return false;
  }
  bool error_at(const Line& line, const std::string& why) {
    if (error_.empty()) error_ = "line " + std::to_string(line.number) + ": " + why;
    return false;
  }

  // A sequence or mapping whose lines start at exactly `indent`.
  bool block(size_t indent, YamlNode* out, size_t depth) {
    if (depth > kMaxDepth) return error_at(lines_[pos_], "nested too deep");
    const Line& first = lines_[pos_];
    if (first.text.rfind("- ", 0) == 0 || first.text == "-") return sequence(indent, out, depth);
    return mapping(indent, out, depth);
  }

  bool sequence(size_t indent, YamlNode* out, size_t depth) {
    out->kind = YamlNode::Kind::Sequence;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent &&
           (lines_[pos_].text.rfind("- ", 0) == 0 || lines_[pos_].text == "-")) {
      Line& line = lines_[pos_];
      YamlNode item;
      std::string rest = line.text == "-" ? "" : line.text.substr(2);
      size_t skip = rest.find_first_not_of(' ');
      if (skip == std::string::npos) {
        ++pos_;
        if (pos_ < lines_.size() && lines_[pos_].indent > indent) {
          if (!block(lines_[pos_].indent, &item, depth + 1)) return false;
        }
      } else if (looks_like_key(rest.substr(skip))) {
        // "- key: value": a mapping whose first line sits after the dash.
        line.indent = indent + 2 + skip;
        line.text = rest.substr(skip);
        if (!mapping(line.indent, &item, depth + 1)) return false;
      } else {
        if (!scalar(rest.substr(skip), line, &item)) return false;
        ++pos_;
      }
      out->items.push_back(std::move(item));
    }
    return true;
  }

  static bool looks_like_key(const std::string& text) {
    if (text.empty() || text[0] == '"' || text[0] == '\'') return false;
    size_t colon = text.find(": ");
    if (colon != std::string::npos) return true;
    return text.back() == ':';
  }

  bool mapping(size_t indent, YamlNode* out, size_t depth) {
    out->kind = YamlNode::Kind::Mapping;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent) {
      const Line& line = lines_[pos_];
      if (line.text.rfind("- ", 0) == 0) return error_at(line, "a sequence item where a key was expected");
      size_t colon = line.text.find(": ");
      std::string key, value;
      if (colon == std::string::npos) {
        if (line.text.back() != ':') return error_at(line, "expected \"key: value\"");
        key = line.text.substr(0, line.text.size() - 1);
      } else {
        key = line.text.substr(0, colon);
        value = line.text.substr(colon + 2);
        size_t skip = value.find_first_not_of(' ');
        value = skip == std::string::npos ? "" : value.substr(skip);
      }
      if (key.empty() || key[0] == '"' || key[0] == '\'' || key[0] == '?' || key[0] == '&' || key[0] == '*')
        return error_at(line, "keys other than plain words are not read");
      YamlNode node;
      if (value.empty()) {
        ++pos_;
        // A nested block, or a sequence at the same indent as its key (yaml-cpp writes those).
        if (pos_ < lines_.size() && (lines_[pos_].indent > indent ||
                                     (lines_[pos_].indent == indent && lines_[pos_].text.rfind("- ", 0) == 0))) {
          if (lines_[pos_].indent == indent) {
            if (!sequence(indent, &node, depth + 1)) return false;
          } else if (!block(lines_[pos_].indent, &node, depth + 1)) {
            return false;
          }
        }
      } else {
        if (!scalar(value, line, &node)) return false;
        ++pos_;
      }
      out->entries.emplace_back(key, std::move(node));
    }
    return true;
  }

  bool scalar(const std::string& text, const Line& line, YamlNode* out) {
    if (text == "~" || text == "null") {
      out->kind = YamlNode::Kind::Null;
      return true;
    }
    if (text == "[]") {
      out->kind = YamlNode::Kind::Sequence;
      return true;
    }
    if (text == "{}") {
      out->kind = YamlNode::Kind::Mapping;
      return true;
    }
    out->kind = YamlNode::Kind::Scalar;
    char first = text[0];
    if (first == '"') return double_quoted(text, line, out);
    if (first == '\'') {
      std::string value;
      size_t i = 1;
      for (; i < text.size(); ++i) {
        if (text[i] == '\'') {
          if (i + 1 < text.size() && text[i + 1] == '\'') {
            value += '\'';
            ++i;
            continue;
          }
          break;
        }
        value += text[i];
      }
      if (i >= text.size() || i + 1 != text.size()) return error_at(line, "a single-quoted scalar that does not end on its line");
      out->scalar = value;
      out->quoted = true;
      return true;
    }
    if (first == '[' || first == '{' || first == '&' || first == '*' || first == '!' || first == '|' || first == '>')
      return error_at(line, std::string("'") + first + "' (flow collections, anchors, tags, block scalars) is outside the subset read");
    out->scalar = text;
    return true;
  }

  bool double_quoted(const std::string& text, const Line& line, YamlNode* out) {
    std::string value;
    size_t i = 1;
    for (; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] != '\\') {
        value += text[i];
        continue;
      }
      if (++i >= text.size()) break;
      switch (text[i]) {
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case '0': value += '\0'; break;
        case '"': value += '"'; break;
        case '\\': value += '\\'; break;
        case '/': value += '/'; break;
        case ' ': value += ' '; break;
        case 'x': case 'u': {
          size_t digits = text[i] == 'x' ? 2 : 4;
          if (i + digits >= text.size()) return error_at(line, "a cut escape");
          uint32_t code = 0;
          for (size_t k = 1; k <= digits; ++k) {
            char c = text[i + k];
            int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
            if (d < 0) return error_at(line, "a bad escape");
            code = code * 16 + static_cast<uint32_t>(d);
          }
          i += digits;
          if (code < 0x80) {
            value += static_cast<char>(code);
          } else if (code < 0x800) {
            value += static_cast<char>(0xC0 | (code >> 6));
            value += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            value += static_cast<char>(0xE0 | (code >> 12));
            value += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            value += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: return error_at(line, std::string("the escape \\") + text[i] + " is not read");
      }
    }
    if (i >= text.size() || i + 1 != text.size()) return error_at(line, "a double-quoted scalar that does not end on its line");
    out->scalar = value;
    out->quoted = true;
    return true;
  }

  std::vector<Line> lines_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

bool parse_yaml(const std::string& text, YamlNode* root, std::string* error) {
  std::vector<Line> lines;
  size_t number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string raw = text.substr(start, end - start);
    ++number;
    start = end + 1;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (raw.find('\t') != std::string::npos && raw.find_first_not_of(" \t") < raw.size() &&
        raw.find('\t') < raw.find_first_not_of(" \t")) {
      if (error) *error = "line " + std::to_string(number) + ": a tab in the indentation";
      return false;
    }
    size_t indent = raw.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    std::string body = raw.substr(indent);
    while (!body.empty() && body.back() == ' ') body.pop_back();
    if (body[0] == '#' || body == "---" || body == "...") continue;
    lines.push_back(Line{number, indent, body});
    if (end == text.size()) break;
  }
  return Parser(std::move(lines)).parse(root, error);
}

}  // namespace logscope::rosbag2
