// The BDDF structure tree (tree.h): one node per block in the file-order table ("b<position>"), its
// parts as children ("b<position>/<part>"), hex spans with descriptor fields, and one block decoded.
#include "bddf/tree.h"

#include <algorithm>
#include <cstdlib>

#include "bddf/blocks.h"
#include "bddf/decode.h"
#include "core/node_id.h"
#include "bddf/format.h"
#include "bddf/inspector_impl.h"
#include "bddf/wire.h"

namespace logscope::bddf {
namespace {

constexpr size_t kMaxSpanBlocks = 4096;  // blocks per spans() answer
constexpr size_t kMaxFieldSpans = 512;
constexpr size_t kMaxDescriptorSpanBytes = 1u << 20;  // field spans only for descriptors up to 1 MB

}  // namespace

std::string block_id(size_t position) { return "b" + std::to_string(position); }

bool parse_block_id(const std::string& id, size_t* position, std::string* part) {
  if (id.size() < 2 || id[0] != 'b') return false;
  size_t slash = id.find('/');
  // Strict digits (core/node_id.h): "b+1", "b 1", "b-1" or an overflow are no node.
  auto number = parse_node_number(id.substr(0, slash), 'b');
  if (!number || *number > SIZE_MAX) return false;
  *position = static_cast<size_t>(*number);
  part->clear();
  if (slash != std::string::npos) *part = id.substr(slash + 1);
  return true;
}

const char* body_kind(BlockKind kind) {
  switch (kind) {
    case BlockKind::SeriesBlockIndex:
    case BlockKind::FileIndex: return "index";
    case BlockKind::Data: return "data";
    case BlockKind::End: return "trailer";
    case BlockKind::Damaged: return "damaged";
    default: return "descriptor";
  }
}

BlockView view_block(ByteSource& source, const FileModel& model, const BlockRef& ref) {
  BlockView v;
  if (ref.kind == BlockKind::Magic) {
    v.ok = true;
    v.length = std::min<uint64_t>(4, model.size);
    return v;
  }
  if (ref.kind == BlockKind::Damaged) {
    v.ok = true;
    v.length = model.size - ref.offset;
    return v;
  }
  std::string why;
  if (read_frame(source, ref.offset, model.size, &v.frame, &why) != FrameStatus::Ok) {
    v.length = std::min<uint64_t>(8, model.size - std::min(model.size, ref.offset));
    return v;
  }
  v.ok = true;
  v.length = v.frame.length;
  const BlockFrame& f = v.frame;
  v.parts.push_back({"header", "block header: type " + std::to_string(f.type) + " (" + block_type_name(f.type) + "), size " +
                                   std::to_string(f.size_field), "header", f.offset, 8});
  if (f.type == kEndBlock) {
    v.parts.push_back({"index_offset", "index offset", "trailer", f.offset + 8, 8});
    v.parts.push_back({"sha1", "SHA1 of bytes [0, size-24)", "trailer", f.offset + 16, 20});
    v.parts.push_back({"end_magic", "end magic \"FDDB\"", "trailer", f.offset + 36, 4});
  } else if (f.type == kDataBlock) {
    v.parts.push_back({"descriptor_size", "descriptor length: " + std::to_string(f.descriptor_size), "header", f.offset + 8, 4});
    if (!f.descriptor_too_big) {
      v.parts.push_back({"descriptor", "DataDescriptor (" + std::to_string(f.descriptor_size) + " B)", "descriptor",
                         f.body_offset(), f.descriptor_size});
      v.parts.push_back({"payload", "payload (" + std::to_string(f.payload_size()) + " B)", "data", f.payload_offset(),
                         f.payload_size()});
    }
  } else {
    v.parts.push_back({"descriptor", std::string(block_kind_name(ref.kind)) + " (" + std::to_string(f.size_field) + " B)",
                       body_kind(ref.kind), f.body_offset(), f.size_field});
  }
  return v;
}

std::string block_label(const FileModel& model, const BlockRef& ref, const BlockView& view) {
  std::string label;
  switch (ref.kind) {
    case BlockKind::Magic: return "magic \"BDDF\"";
    case BlockKind::Damaged: return "damaged tail (" + std::to_string(view.length) + " B): " + model.recovery.ended;
    case BlockKind::FileDescriptor: label = "file descriptor"; break;
    case BlockKind::SeriesDescriptor:
      label = ref.series < model.series.size() ? "series descriptor " + std::to_string(ref.series) + " " + model.series[ref.series].channel()
                                                : "series descriptor";
      break;
    case BlockKind::SeriesBlockIndex:
      label = ref.series < model.series.size() ? "block index of series " + std::to_string(ref.series) : "series block index";
      break;
    case BlockKind::FileIndex: label = "file index"; break;
    case BlockKind::Descriptor: label = "descriptor block"; break;
    case BlockKind::End: return "END + trailer (index offset, SHA1, \"FDDB\")";
    case BlockKind::Data:
      if (ref.series < model.series.size()) {
        const Series& s = model.series[ref.series];
        label = "data " + s.channel() + " #" + std::to_string(ref.entry) + " @ " + short_time(s.entries[ref.entry].timestamp_ns);
      } else {
        label = "data block (unknown series)";
      }
      break;
  }
  if (!view.ok) return label + " (unreadable)";
  return label + " (" + std::to_string(view.length) + " B)";
}


uint64_t BddfInspector::child_count(const std::string& node_id) {
  if (node_id.empty()) return model_.blocks().size();
  size_t position;
  std::string part;
  if (!parse_block_id(node_id, &position, &part) || position >= model_.blocks().size() || !part.empty()) return 0;
  return view_block(source_, model_, model_.blocks()[position]).parts.size();
}

std::vector<TreeNode> BddfInspector::children(const std::string& node_id, uint64_t first, uint64_t count) {
  std::vector<TreeNode> out;
  if (node_id.empty()) {
    BlockList blocks = model_.blocks();
    uint64_t end = std::min<uint64_t>(blocks.size(), first + std::min<uint64_t>(count, 10000));
    for (BlockList::Cursor rows = blocks.cursor(static_cast<size_t>(std::min<uint64_t>(first, end))); rows.position() < end; rows.next()) {
      const BlockRef& ref = rows.ref();
      BlockView view = view_block(source_, model_, ref);
      out.push_back(TreeNode{block_id(rows.position()), block_label(model_, ref, view),
                             ref.kind == BlockKind::Magic ? "header" : body_kind(ref.kind), ref.offset, view.length,
                             view.parts.size()});
    }
    return out;
  }
  size_t position;
  std::string part;
  if (!parse_block_id(node_id, &position, &part) || position >= model_.blocks().size() || !part.empty()) return out;
  BlockView view = view_block(source_, model_, model_.blocks()[position]);
  for (uint64_t i = first; i < view.parts.size() && i < first + count; ++i) {
    const BlockPart& p = view.parts[i];
    out.push_back(TreeNode{node_id + "/" + p.name, p.label, p.kind, p.offset, p.length, 0});
  }
  return out;
}

std::vector<std::string> BddfInspector::locate(uint64_t offset) {
  std::vector<std::string> path;
  size_t position = model_.block_containing(offset);
  if (position == SIZE_MAX) return path;
  BlockRef ref = model_.blocks()[position];
  BlockView view = view_block(source_, model_, ref);
  if (offset >= ref.offset + view.length) return path;  // in a gap between known blocks
  path.push_back(block_id(position));
  for (const BlockPart& p : view.parts)
    if (offset >= p.offset && offset < p.offset + p.length) path.push_back(block_id(position) + "/" + p.name);
  return path;
}

std::vector<Span> BddfInspector::spans(uint64_t offset, uint64_t length) {
  std::vector<Span> out;
  BlockList blocks = model_.blocks();
  if (blocks.empty()) return out;
  uint64_t end = length > UINT64_MAX - offset ? UINT64_MAX : offset + length;
  size_t position = blocks.block_containing(offset);
  if (position == SIZE_MAX) position = 0;
  for (BlockList::Cursor rows = blocks.cursor(position); !rows.done() && rows.ref().offset < end && out.size() < kMaxSpanBlocks; rows.next()) {
    const BlockRef& ref = rows.ref();
    BlockView view = view_block(source_, model_, ref);
    if (ref.offset + view.length <= offset) continue;
    Span span{ref.offset, view.length, block_label(model_, ref, view), ref.kind == BlockKind::Magic ? "header" : body_kind(ref.kind), {}};
    for (const BlockPart& p : view.parts) {
      Span child{p.offset, p.length, p.label, p.kind, {}};
      bool overlaps = p.offset < end && p.offset + p.length > offset;
      if (overlaps && p.name == "descriptor" && p.length <= kMaxDescriptorSpanBytes) {
        std::vector<uint8_t> bytes = source_.read_vector(p.offset, static_cast<size_t>(p.length));
        const WireSchema* schema = ref.kind == BlockKind::Data ? &kDataDescriptorSchema : &kDescriptorBlockSchema;
        child.children = wire_spans(bytes.data(), bytes.size(), p.offset, 4, kMaxFieldSpans, schema);
      }
      span.children.push_back(std::move(child));
    }
    out.push_back(std::move(span));
  }
  return out;
}

Json BddfInspector::decode(const std::string& node_id) {
  size_t position;
  std::string part;
  if (!parse_block_id(node_id, &position, &part) || position >= model_.blocks().size()) {
    Json j = Json::object();
    j["error"] = "no node " + node_id;
    return j;
  }
  BlockRef ref = model_.blocks()[position];
  if (ref.kind == BlockKind::Damaged) {
    Json j = Json::object();
    j["offset"] = ref.offset;
    j["block_type"] = "damaged";
    j["length"] = model_.size - ref.offset;
    j["message"] = model_.recovery.ended;
    return with_units(std::move(j), block_units());
  }
  Json j = decode_block(source_, model_, ref.offset, kDecodeItems, schemas_.get());
  j["kind"] = block_kind_name(ref.kind);
  if (!part.empty()) j["part"] = part;
  return with_units(std::move(j), block_units());
}

}  // namespace logscope::bddf
