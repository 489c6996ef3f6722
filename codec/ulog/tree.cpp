// The ULog tree, locate, spans and decode (tree.h).
#include "ulog/tree.h"

#include <cstring>

#include "core/node_id.h"
#include "ulog/inspector_impl.h"
#include "ulog/values.h"

namespace logscope::ulog {

const char* message_kind(unsigned char type) {
  switch (type) {
    case 'D': return "data";
    case 'F': case 'A': case 'R': return "descriptor";
    case 'B': return "header";
    case 'S': case 'O': return "index";
    default: return "record";
  }
}

namespace {

std::string message_label(const RawMessage& msg) {
  std::string label = std::string(1, static_cast<char>(msg.type >= 32 && msg.type < 127 ? msg.type : '?')) + " " + type_name(msg.type);
  if ((msg.type == 'I' || msg.type == 'P') && msg.size >= 1) {
    size_t n = std::min<size_t>(msg.body[0], msg.size - 1u);
    label += ": " + std::string(reinterpret_cast<const char*>(msg.body + 1), n);
  } else if (msg.type == 'F') {
    const void* colon = std::memchr(msg.body, ':', msg.size);
    size_t n = colon ? static_cast<size_t>(static_cast<const uint8_t*>(colon) - msg.body) : std::min<size_t>(msg.size, 40);
    label += ": " + std::string(reinterpret_cast<const char*>(msg.body), std::min<size_t>(n, 80));
  } else if (msg.type == 'A' && msg.size > 3) {
    label += ": " + char_string(msg.body + 3, msg.size - 3u);
  }
  return label;
}

}  // namespace

TreeNode UlogInspector::message_node(uint64_t index, const RawMessage& msg) {
  TreeNode node;
  node.id = NodeId::one(kMessageTag, {index});
  node.label = message_label(msg);
  if (msg.type == 'D' && msg.size >= 2) {
    uint16_t id = static_cast<uint16_t>(msg.body[0] | (msg.body[1] << 8));
    if (const Subscription* s = subscription_for(id, msg.offset)) node.label += ": " + s->name + (s->multi_id ? "[" + std::to_string(s->multi_id) + "]" : "");
  }
  node.kind = message_kind(msg.type);
  node.offset = msg.offset;
  node.length = kMessageHeader + msg.size;
  return node;
}

uint64_t UlogInspector::child_count(const std::string& node_id) {
  if (node_id.empty()) return model_.header_ok ? 1 + model_.messages : 0;
  return 0;
}

std::vector<TreeNode> UlogInspector::children(const std::string& node_id, uint64_t first, uint64_t count) {
  std::vector<TreeNode> out;
  if (!node_id.empty() || !model_.header_ok || count == 0) return out;
  count = std::min<uint64_t>(count, 100000);
  if (first == 0) {
    out.push_back(TreeNode{kHeaderNode, "ULog header v" + std::to_string(model_.version), "header", 0, kHeaderSize, 0});
    --count;
  } else {
    --first;
  }
  if (count == 0) return out;
  walk_from(first, [&](uint64_t index, const RawMessage& msg) {
    out.push_back(message_node(index, msg));
    return --count > 0;
  });
  return out;
}

std::vector<std::string> UlogInspector::locate(uint64_t offset) {
  if (!model_.header_ok || offset >= model_.file_size) return {};
  if (offset < kHeaderSize) return {kHeaderNode};
  std::optional<uint64_t> index = message_at(offset);
  if (!index) return {};
  return {NodeId::one(kMessageTag, {*index})};
}

std::vector<Span> UlogInspector::spans(uint64_t offset, uint64_t length) {
  std::vector<Span> out;
  if (!model_.header_ok || length == 0 || offset >= model_.file_size) return out;
  uint64_t end = offset + std::min(length, model_.file_size - offset);
  if (offset < kHeaderSize)
    out.push_back(Span{0, kHeaderSize, "ULog header", "header",
                       {Span{0, kMagicSize, "magic", "header", {}}, Span{7, 1, "version", "header", {}}, Span{8, 8, "timestamp (µs)", "header", {}}}});
  if (end <= kHeaderSize) return out;
  std::optional<uint64_t> first = message_at(std::max<uint64_t>(offset, kHeaderSize));
  if (!first) {
    // Inside the bytes after a cut or between sections: start from the checkpoint before.
    const std::vector<Checkpoint>& cps = model_.checkpoints;
    auto it = std::upper_bound(cps.begin(), cps.end(), offset, [](uint64_t v, const Checkpoint& c) { return v < c.offset; });
    if (it == cps.begin()) return out;
    first = (it - 1)->index;
  }
  walk_from(*first, [&](uint64_t, const RawMessage& msg) {
    if (msg.offset >= end) return false;
    if (msg.end() <= offset) return true;
    Span span{msg.offset, kMessageHeader + msg.size, message_label(msg), message_kind(msg.type), {}};
    span.children.push_back(Span{msg.offset, 2, "msg_size", "header", {}});
    span.children.push_back(Span{msg.offset + 2, 1, "msg_type", "header", {}});
    if (msg.type == 'D' && msg.size >= 2) {
      span.children.push_back(Span{msg.offset + 3, 2, "msg_id", "header", {}});
      if (msg.size > 2) span.children.push_back(Span{msg.offset + 5, msg.size - 2u, "payload", "data", {}});
    } else if (msg.size) {
      span.children.push_back(Span{msg.offset + 3, msg.size, "body", message_kind(msg.type), {}});
    }
    out.push_back(std::move(span));
    return out.size() < 4096;
  });
  return out;
}

Json UlogInspector::message_json(const RawMessage& msg) {
  Json j = Json::object();
  j["type"] = std::string(1, static_cast<char>(msg.type));
  j["type_name"] = type_name(msg.type);
  j["offset"] = msg.offset;
  j["size"] = uint64_t{msg.size};
  const uint8_t* b = msg.body;
  auto text = [&](size_t from) { return std::string(reinterpret_cast<const char*>(b + from), msg.size - from); };
  auto u16 = [&](size_t at) { return static_cast<uint64_t>(b[at] | (b[at + 1] << 8)); };
  auto u64 = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, b + at, 8);
    return v;
  };
  switch (msg.type) {
    case 'F': j["format"] = text(0); break;
    case 'I': case 'P': case 'M': case 'Q': {
      size_t skip = (msg.type == 'M' || msg.type == 'Q') ? 1 : 0;
      if (msg.size < skip + 1 || skip + 1 + b[skip] > msg.size) break;
      if (msg.type == 'M') j["is_continued"] = b[0] != 0;
      if (msg.type == 'Q') j["default_types"] = uint64_t{b[0]};
      std::string key(reinterpret_cast<const char*>(b + skip + 1), b[skip]), type, name;
      j["key"] = key;
      if (split_key(key, &type, &name)) {
        size_t at = skip + 1 + b[skip];
        j["value"] = typed_value(type, b + at, msg.size - at);
      }
      break;
    }
    case 'A':
      if (msg.size >= 4) j["multi_id"] = uint64_t{b[0]}, j["msg_id"] = u16(1), j["message_name"] = char_string(b + 3, msg.size - 3u);
      break;
    case 'R':
      if (msg.size >= 2) j["msg_id"] = u16(0);
      break;
    case 'D': {
      if (msg.size < 2) break;
      uint16_t id = static_cast<uint16_t>(u16(0));
      j["msg_id"] = uint64_t{id};
      const Subscription* s = subscription_for(id, msg.offset);
      if (!s) {
        j["error"] = "no subscription declares this msg_id before this message";
        break;
      }
      j["topic"] = s->name;
      j["multi_id"] = uint64_t{s->multi_id};
      if (s->format >= 0) {
        const Format& f = model_.formats.formats[static_cast<size_t>(s->format)];
        if (f.resolved) j["message"] = decode_fields(model_.formats, f, b + 2, msg.size - 2u);
        if (f.resolved && msg.size - 2u < f.data_size) j["error"] = "the message is shorter than its format";
      }
      break;
    }
    case 'L': case 'C': {
      bool tagged = msg.type == 'C';
      size_t head = tagged ? 11 : 9;
      if (msg.size < head) break;
      j["log_level"] = uint64_t{b[0]};
      if (tagged) j["tag"] = u16(1);
      j["timestamp"] = u64(tagged ? 3 : 1);
      j["text"] = text(head);
      break;
    }
    case 'S': j["sync_magic_ok"] = msg.size >= 8 && std::memcmp(b, kSyncMagic, 8) == 0; break;
    case 'O':
      if (msg.size >= 2) j["duration_ms"] = u16(0);
      break;
    case 'B':
      if (msg.size >= kFlagBitsSize) {
        Json compat = Json::array(), incompat = Json::array(), offsets = Json::array();
        for (int i = 0; i < 8; ++i) compat.push_back(uint64_t{b[i]}), incompat.push_back(uint64_t{b[8 + i]});
        for (int i = 0; i < 3; ++i) offsets.push_back(u64(16 + 8 * static_cast<size_t>(i)));
        j["compat_flags"] = std::move(compat);
        j["incompat_flags"] = std::move(incompat);
        j["appended_offsets"] = std::move(offsets);
      }
      break;
    default: j["body_hex"] = hex_string(b, std::min<size_t>(msg.size, 256)); break;
  }
  return j;
}

Json UlogInspector::decode(const std::string& node_id) {
  if (node_id == kHeaderNode && model_.header_ok) {
    Json j = Json::object();
    j["magic"] = "ULog";
    j["version"] = uint64_t{model_.version};
    j["timestamp_us"] = model_.header_timestamp_us;
    return j;
  }
  std::optional<uint64_t> index = parse_node_number(node_id, kMessageTag);
  if (!index || *index >= model_.messages) return QueryArgs::error_json("no node " + node_id);
  Json out;
  walk_from(*index, [&](uint64_t, const RawMessage& msg) {
    out = message_json(msg);
    return false;
  });
  return out.is_null() ? QueryArgs::error_json("node " + node_id + " could not be read") : out;
}

}  // namespace logscope::ulog
