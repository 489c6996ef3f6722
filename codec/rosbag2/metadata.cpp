// metadata.yaml through yaml-cpp. Every field is read on its own, so one of the wrong type or
// missing costs that field only, with a problem naming its line (yaml-cpp's Mark). yaml-cpp throws
// on YAML it cannot parse: caught here, never past this file (in wasm this file and yaml-cpp are
// built with exception catching, CMakeLists.txt).
#include "rosbag2/metadata.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <exception>

namespace logscope::rosbag2 {
namespace {

constexpr int kMaxAttempts = 8;       // parses of ever shorter heads of a yaml that breaks off
constexpr size_t kMaxProblems = 40;   // then one line says how many more
constexpr size_t kMaxQosText = 64 * 1024;

uint64_t line_of(const YAML::Node& node) {
  YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? static_cast<uint64_t>(mark.line) + 1 : 0;
}

std::string kind_of(const YAML::Node& node) {
  if (node.IsNull()) return "nothing (null)";
  if (node.IsSequence()) return "a sequence";
  if (node.IsMap()) return "a mapping";
  std::string text = node.Scalar();
  if (text.size() > 40) text = text.substr(0, 40) + "...";
  return "\"" + text + "\"";
}

// The value of `key` in `map` (its first occurrence), or none.
std::optional<YAML::Node> get(const YAML::Node& map, const std::string& key) {
  if (!map.IsMap()) return std::nullopt;
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  return std::nullopt;
}

struct Reader {
  std::vector<std::string>* problems;
  size_t more = 0;
  bool complete = true;

  void problem(uint64_t line, const std::string& what) {
    complete = false;
    if (problems->size() >= kMaxProblems) {
      ++more;
      return;
    }
    problems->push_back((line ? "line " + std::to_string(line) + ": " : std::string()) + what);
  }
  // `key` of the mapping `map` (named `where` in messages); a problem when required and absent.
  std::optional<YAML::Node> field(const YAML::Node& map, const std::string& key, const std::string& where, bool required) {
    std::optional<YAML::Node> node = get(map, key);
    if (!node && required) problem(line_of(map), where + " has no " + key);
    return node;
  }
  bool is_map(const std::optional<YAML::Node>& node, const std::string& what) {
    if (!node) return false;
    if (node->IsMap()) return true;
    problem(line_of(*node), what + ": expected a mapping, got " + kind_of(*node));
    return false;
  }
  bool is_sequence(const std::optional<YAML::Node>& node, const std::string& what) {
    if (!node) return false;
    // `key: []` and `key:` with nothing (yaml-cpp's emitter writes the first for an empty list).
    if (node->IsSequence() || node->IsNull()) return node->IsSequence();
    problem(line_of(*node), what + ": expected a sequence, got " + kind_of(*node));
    return false;
  }
  std::string text(const std::optional<YAML::Node>& node, const std::string& what) {
    if (!node || node->IsNull()) return "";
    if (node->IsScalar()) return node->Scalar();
    problem(line_of(*node), what + ": expected text, got " + kind_of(*node));
    return "";
  }
  // A decimal whole number, optionally negative, that fits; quoted or plain (rosbag2 reads both).
  std::optional<int64_t> whole(const std::optional<YAML::Node>& node, const std::string& what, bool allow_negative,
                               uint64_t* magnitude) {
    if (!node) return std::nullopt;
    const std::string t = node->IsScalar() ? node->Scalar() : std::string();
    bool negative = !t.empty() && t[0] == '-';
    size_t first = negative ? 1 : 0;
    bool ok = node->IsScalar() && t.size() > first && t.size() - first <= 20 && (allow_negative || !negative);
    uint64_t v = 0;
    for (size_t i = first; ok && i < t.size(); ++i) {
      if (t[i] < '0' || t[i] > '9' || v > (UINT64_MAX - static_cast<uint64_t>(t[i] - '0')) / 10) ok = false;
      else v = v * 10 + static_cast<uint64_t>(t[i] - '0');
    }
    if (ok && allow_negative && v > (negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX))) ok = false;
    if (!ok) {
      problem(line_of(*node), what + ": expected a whole number" + std::string(allow_negative ? "" : " of 0 or more") +
                                  ", got " + kind_of(*node));
      return std::nullopt;
    }
    *magnitude = v;
    return negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  }
  std::optional<uint64_t> u64(const std::optional<YAML::Node>& node, const std::string& what) {
    uint64_t v = 0;
    return whole(node, what, false, &v) ? std::optional<uint64_t>(v) : std::nullopt;
  }
  std::optional<int64_t> i64(const std::optional<YAML::Node>& node, const std::string& what) {
    uint64_t v = 0;
    return whole(node, what, true, &v);
  }
  // `key: {inner: N}` (duration.nanoseconds, starting_time.nanoseconds_since_epoch).
  std::optional<int64_t> nested(const YAML::Node& map, const std::string& key, const std::string& inner, const std::string& where,
                                bool required, uint64_t* line) {
    std::optional<YAML::Node> outer = field(map, key, where, required);
    if (!is_map(outer, key)) return std::nullopt;
    std::optional<YAML::Node> value = field(*outer, inner, key, true);
    if (value && line) *line = line_of(*value);
    return i64(value, key + "." + inner);
  }
};

// v9 writes offered_qos_profiles as a YAML list; earlier versions as a string. Either way the
// text the user reads: the list as yaml-cpp's emitter writes it.
std::string qos_text(const YAML::Node& node) {
  if (node.IsNull()) return "";
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out << node;
  std::string text = out.good() ? std::string(out.c_str(), out.size()) : std::string();
  if (text.size() > kMaxQosText) text = text.substr(0, kMaxQosText) + "...";
  return text;
}

// The document, or its longest head that parses when it breaks off: yaml-cpp names the line it
// stopped at, and the text before that line is tried again (a cut or damaged yaml).
bool load(const std::string& text, YAML::Node* root, std::vector<std::string>* problems) {
  std::string head = text;
  std::string first_error;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    try {
      *root = YAML::Load(head);
      if (!first_error.empty())
        problems->push_back(first_error + " (read up to line " + std::to_string(std::count(head.begin(), head.end(), '\n')) + ")");
      return true;
    } catch (const YAML::Exception& e) {
      if (first_error.empty()) {
        // yaml-cpp marks the end of the input one line past the last: name the last line then.
        long long lines = std::count(text.begin(), text.end(), '\n') + (text.empty() || text.back() == '\n' ? 0 : 1);
        long long line = std::min<long long>(e.mark.line + 1, std::max(lines, 1LL));
        first_error = (e.mark.line >= 0 ? "line " + std::to_string(line) + ": " : std::string()) + "not YAML: " + e.msg;
      }
      if (e.mark.line <= 0) break;
      // Cut before the line yaml-cpp stopped on.
      size_t end = 0;
      for (int line = 0; line < e.mark.line && end != std::string::npos; ++line) {
        end = head.find('\n', end);
        if (end != std::string::npos) ++end;
      }
      if (end == std::string::npos || end == 0 || end >= head.size()) {
        if (head.empty()) break;
        // The break is on the last line: drop it.
        size_t last = head.find_last_of('\n', head.size() >= 2 ? head.size() - 2 : 0);
        end = last == std::string::npos ? 0 : last + 1;
        if (end == 0) break;
      }
      head.resize(end);
    }
  }
  problems->push_back(first_error.empty() ? "not YAML" : first_error);
  return false;
}

bool read(const std::string& text, BagMetadata* out, std::vector<std::string>* problems) {
  YAML::Node root;
  if (!load(text, &root, problems)) return false;
  std::optional<YAML::Node> info = get(root, "rosbag2_bagfile_information");
  if (!info || !info->IsMap()) {
    uint64_t line = info ? line_of(*info) : root.IsDefined() && !root.IsNull() ? line_of(root) : 0;
    problems->push_back("line " + std::to_string(line ? line : 1) + ": no rosbag2_bagfile_information mapping");
    return false;
  }
  Reader r{problems};
  if (problems->size()) r.complete = false;  // read in part (load's first problem)
  const std::string top = "rosbag2_bagfile_information";
  BagMetadata m;
  m.version = r.u64(r.field(*info, "version", top, true), "version").value_or(0);
  std::optional<YAML::Node> storage = r.field(*info, "storage_identifier", top, true);
  m.storage_identifier = r.text(storage, "storage_identifier");
  if (storage) m.storage_line = line_of(*storage);
  std::optional<YAML::Node> paths = r.field(*info, "relative_file_paths", top, true);
  if (r.is_sequence(paths, "relative_file_paths"))
    for (const YAML::Node& p : *paths) {
      m.relative_file_paths.push_back(r.text(p, "relative_file_paths item"));
      m.relative_file_path_lines.push_back(line_of(p));
    }
  m.duration_ns = r.nested(*info, "duration", "nanoseconds", top, true, nullptr);
  m.starting_time_ns = r.nested(*info, "starting_time", "nanoseconds_since_epoch", top, true, &m.starting_time_line);
  std::optional<YAML::Node> count = r.field(*info, "message_count", top, true);
  m.message_count = r.u64(count, "message_count");
  if (count) m.message_count_line = line_of(*count);
  std::optional<YAML::Node> topics = r.field(*info, "topics_with_message_count", top, true);
  if (r.is_sequence(topics, "topics_with_message_count")) {
    for (const YAML::Node& t : *topics) {
      if (!r.is_map(t, "topics_with_message_count item")) continue;
      YamlTopic topic;
      std::optional<YAML::Node> meta = r.field(t, "topic_metadata", "topics_with_message_count item", true);
      if (r.is_map(meta, "topic_metadata")) {
        topic.name = r.text(r.field(*meta, "name", "topic_metadata", true), "topic_metadata.name");
        std::string where = topic.name.empty() ? std::string("topic_metadata") : "topic " + topic.name;
        topic.type = r.text(r.field(*meta, "type", where, true), where + ": type");
        topic.serialization_format = r.text(r.field(*meta, "serialization_format", where, true), where + ": serialization_format");
        if (std::optional<YAML::Node> qos = r.field(*meta, "offered_qos_profiles", where, m.version >= 4)) topic.offered_qos_profiles = qos_text(*qos);
        topic.type_description_hash = r.text(r.field(*meta, "type_description_hash", where, m.version >= 7), where + ": type_description_hash");
      }
      std::string where = topic.name.empty() ? std::string("topics_with_message_count item") : "topic " + topic.name;
      std::optional<YAML::Node> n = r.field(t, "message_count", where, true);
      topic.message_count = r.u64(n, where + ": message_count").value_or(0);
      topic.line = n ? line_of(*n) : line_of(t);
      m.topics.push_back(std::move(topic));
    }
  }
  m.compression_format = r.text(r.field(*info, "compression_format", top, m.version >= 3), "compression_format");
  m.compression_mode = r.text(r.field(*info, "compression_mode", top, m.version >= 3), "compression_mode");
  std::optional<YAML::Node> files = r.field(*info, "files", top, m.version >= 5);
  if (r.is_sequence(files, "files")) {
    for (const YAML::Node& f : *files) {
      if (!r.is_map(f, "files item")) continue;
      YamlFile file;
      file.path = r.text(r.field(f, "path", "files item", true), "files item: path");
      std::string where = file.path.empty() ? std::string("files item") : "file " + file.path;
      file.starting_time_ns = r.nested(f, "starting_time", "nanoseconds_since_epoch", where, true, nullptr);
      file.duration_ns = r.nested(f, "duration", "nanoseconds", where, true, nullptr);
      std::optional<YAML::Node> n = r.field(f, "message_count", where, true);
      file.message_count = r.u64(n, where + ": message_count");
      file.line = n ? line_of(*n) : line_of(f);
      m.files.push_back(std::move(file));
    }
  }
  m.ros_distro = r.text(r.field(*info, "ros_distro", top, m.version >= 8), "ros_distro");
  if (r.more) problems->push_back(std::to_string(r.more) + " more problems");
  m.complete = r.complete;
  *out = std::move(m);
  return true;
}

}  // namespace

bool parse_metadata(const std::string& text, BagMetadata* out, std::vector<std::string>* problems) {
  std::vector<std::string> own;
  std::vector<std::string>* list = problems ? problems : &own;
  list->clear();
  try {
    return read(text, out, list);
  } catch (const std::exception& e) {
    // Not expected (every access above is checked): yaml-cpp's or the allocator's.
    list->push_back(std::string("metadata.yaml could not be read: ") + e.what());
    return false;
  }
}

}  // namespace logscope::rosbag2
