#include "rosbag2/metadata.h"

#include <cerrno>
#include <cstdlib>

#include "rosbag2/yaml.h"

namespace logscope::rosbag2 {
namespace {

struct Reader {
  std::string error;

  std::string text(const YamlNode* node, const std::string& what) {
    if (!node || node->is_null()) return "";
    if (node->kind != YamlNode::Kind::Scalar) {
      fail(what + " is not a scalar");
      return "";
    }
    return node->scalar;
  }
  std::optional<int64_t> i64(const YamlNode* node, const std::string& what) {
    std::string t = text(node, what);
    if (t.empty()) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 10);
    if (errno || *end != '\0') {
      fail(what + " is not a whole number: \"" + t + "\"");
      return std::nullopt;
    }
    return static_cast<int64_t>(v);
  }
  std::optional<uint64_t> u64(const YamlNode* node, const std::string& what) {
    std::string t = text(node, what);
    if (t.empty()) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    if (t[0] == '-') {
      fail(what + " is negative: \"" + t + "\"");
      return std::nullopt;
    }
    unsigned long long v = std::strtoull(t.c_str(), &end, 10);
    if (errno || *end != '\0') {
      fail(what + " is not a whole number: \"" + t + "\"");
      return std::nullopt;
    }
    return static_cast<uint64_t>(v);
  }
  void fail(const std::string& why) {
    if (error.empty()) error = why;
  }
};

// v9 writes offered_qos_profiles as a YAML list; earlier versions as a string. Either way the
// text the user reads.
std::string node_text(const YamlNode& node, const std::string& indent) {
  switch (node.kind) {
    case YamlNode::Kind::Null: return "~";
    case YamlNode::Kind::Scalar: return node.scalar;
    case YamlNode::Kind::Sequence: {
      std::string out;
      for (const YamlNode& item : node.items) out += indent + "- " + node_text(item, indent + "  ") + "\n";
      return out.empty() ? "[]" : out;
    }
    case YamlNode::Kind::Mapping: {
      std::string out;
      for (const auto& e : node.entries) {
        bool nested = e.second.kind == YamlNode::Kind::Mapping || e.second.kind == YamlNode::Kind::Sequence;
        out += (out.empty() ? "" : indent) + e.first + ":" + (nested ? "\n" + indent + "  " : " ") +
               node_text(e.second, indent + "  ") + (nested ? "" : "\n");
      }
      return out;
    }
  }
  return "";
}

}  // namespace

bool parse_metadata(const std::string& text, BagMetadata* out, std::string* error) {
  YamlNode root;
  std::string why;
  if (!parse_yaml(text, &root, &why)) {
    if (error) *error = "metadata.yaml: " + why;
    return false;
  }
  const YamlNode* info = root.get("rosbag2_bagfile_information");
  if (!info || info->kind != YamlNode::Kind::Mapping) {
    if (error) *error = "metadata.yaml has no rosbag2_bagfile_information";
    return false;
  }
  Reader r;
  BagMetadata m;
  m.version = r.u64(info->get("version"), "version").value_or(0);
  m.storage_identifier = r.text(info->get("storage_identifier"), "storage_identifier");
  if (const YamlNode* paths = info->get("relative_file_paths"); paths && paths->kind == YamlNode::Kind::Sequence)
    for (const YamlNode& p : paths->items) m.relative_file_paths.push_back(r.text(&p, "relative_file_paths"));
  if (const YamlNode* d = info->get("duration")) m.duration_ns = r.i64(d->get("nanoseconds"), "duration.nanoseconds");
  if (const YamlNode* s = info->get("starting_time"))
    m.starting_time_ns = r.i64(s->get("nanoseconds_since_epoch"), "starting_time.nanoseconds_since_epoch");
  m.message_count = r.u64(info->get("message_count"), "message_count");
  if (const YamlNode* topics = info->get("topics_with_message_count"); topics && topics->kind == YamlNode::Kind::Sequence) {
    for (const YamlNode& t : topics->items) {
      YamlTopic topic;
      const YamlNode* meta = t.get("topic_metadata");
      if (meta) {
        topic.name = r.text(meta->get("name"), "topic name");
        topic.type = r.text(meta->get("type"), "topic type");
        topic.serialization_format = r.text(meta->get("serialization_format"), "serialization_format");
        if (const YamlNode* qos = meta->get("offered_qos_profiles")) topic.offered_qos_profiles = node_text(*qos, "");
        topic.type_description_hash = r.text(meta->get("type_description_hash"), "type_description_hash");
      }
      topic.message_count = r.u64(t.get("message_count"), "topic message_count").value_or(0);
      m.topics.push_back(std::move(topic));
    }
  }
  m.compression_format = r.text(info->get("compression_format"), "compression_format");
  m.compression_mode = r.text(info->get("compression_mode"), "compression_mode");
  if (const YamlNode* files = info->get("files"); files && files->kind == YamlNode::Kind::Sequence) {
    for (const YamlNode& f : files->items) {
      YamlFile file;
      file.path = r.text(f.get("path"), "files.path");
      if (const YamlNode* s = f.get("starting_time"))
        file.starting_time_ns = r.i64(s->get("nanoseconds_since_epoch"), "files.starting_time");
      if (const YamlNode* d = f.get("duration")) file.duration_ns = r.i64(d->get("nanoseconds"), "files.duration");
      file.message_count = r.u64(f.get("message_count"), "files.message_count");
      m.files.push_back(std::move(file));
    }
  }
  m.ros_distro = r.text(info->get("ros_distro"), "ros_distro");
  if (!r.error.empty()) {
    if (error) *error = "metadata.yaml: " + r.error;
    return false;
  }
  *out = std::move(m);
  return true;
}

}  // namespace logscope::rosbag2
