// Structure tree and hex spans. Node ids (core/node_id.h, parsed strictly):
//   "r<k>"         the k-th top-level record (the Header first, the Footer last)
//   "r<k>/m<j>"    the j-th record inside the chunk r<k> (decompressed)
#include <algorithm>

#include "core/node_id.h"
#include "mcap/inspector_impl.h"

namespace logscope::mcap {
namespace {

constexpr size_t kMaxSpans = 2000;  // a hex view shows a few KB; never build spans for a whole file

const char* kind_for(uint8_t op) {
  switch (op) {
    case kOpHeader: return "header";
    case kOpFooter: return "trailer";
    case kOpChunk: return "chunk";
    case kOpMessage: return "data";
    case kOpAttachment: return "payload";
    case kOpSchema: case kOpChannel: case kOpMetadata: return "record";
    case kOpMessageIndex: case kOpChunkIndex: case kOpAttachmentIndex: case kOpStatistics: case kOpMetadataIndex:
    case kOpSummaryOffset: case kOpDataEnd: return "index";
  }
  return "record";
}

struct NodeRef {
  size_t record = 0;
  bool inner = false;
  size_t index = 0;
};

std::optional<NodeRef> parse_ref(const std::string& id) {
  auto parsed = NodeId::parse(id);
  if (!parsed || parsed->segments.empty() || parsed->segments.size() > 2) return std::nullopt;
  if (parsed->segments[0].tag != 'r' || parsed->segments[0].numbers.size() != 1) return std::nullopt;
  NodeRef ref;
  ref.record = static_cast<size_t>(parsed->number(0));
  if (parsed->segments.size() == 2) {
    if (parsed->segments[1].tag != 'm' || parsed->segments[1].numbers.size() != 1) return std::nullopt;
    ref.inner = true;
    ref.index = static_cast<size_t>(parsed->number(1));
  }
  return ref;
}

}  // namespace

TreeNode McapInspector::record_node(size_t k) {
  const RecordFrame& f = records()[k];
  TreeNode node;
  node.id = NodeId::one('r', {k});
  node.kind = kind_for(f.op);
  node.offset = f.offset;
  node.length = std::min(f.end(), model_.file_size) - f.offset;
  node.label = op_name(f.op);
  // A few words from the index about what the record is, without reading it.
  if (f.op == kOpChunk) {
    auto it = std::lower_bound(model_.chunks.begin(), model_.chunks.end(), f.offset, [](const ChunkInfo& c, uint64_t o) { return c.offset < o; });
    if (it != model_.chunks.end() && it->offset == f.offset) {
      node.label += " (" + (it->compression.empty() ? std::string("uncompressed") : it->compression) + ", " + format_bytes(it->compressed_size) +
                    " -> " + format_bytes(it->uncompressed_size) + (it->counted ? ", " + std::to_string(it->message_count) + " messages" : "") + ")";
    }
    // An estimate until expanded (the chunk is decompressed on demand): its messages, when known.
    node.child_count = it != model_.chunks.end() && it->offset == f.offset && it->counted && it->message_count ? it->message_count : 1;
  } else if (f.op == kOpAttachment) {
    for (const AttachmentInfo& a : model_.attachments)
      if (a.offset == f.offset) node.label += " " + a.name + " (" + a.media_type + ")";
  } else if (f.op == kOpMetadata) {
    for (const MetadataInfo& d : model_.metadata)
      if (d.offset == f.offset) node.label += " " + d.name;
  }
  return node;
}

TreeNode McapInspector::inner_node(size_t k, size_t j) {
  const LoadedChunk* chunk = chunk_at(k);
  TreeNode node;
  node.id = NodeId::one('r', {k}) + "/" + NodeId::one('m', {j});
  if (!chunk || j >= chunk->inner.size()) return node;
  const RecordFrame& inner = chunk->inner[j];
  node.kind = kind_for(inner.op);
  node.label = op_name(inner.op);
  std::string_view content = chunk->bytes().substr(static_cast<size_t>(inner.content_offset()), static_cast<size_t>(inner.length));
  std::string why;
  if (inner.op == kOpMessage) {
    MessageHeader m;
    if (parse_message_header(content, &m, &why)) {
      const Channel* c = model_.channel(m.channel_id);
      node.label += " " + (c ? c->topic : "channel " + std::to_string(m.channel_id)) + " @ " + std::to_string(m.log_time);
    }
  } else if (inner.op == kOpChannel) {
    Channel c;
    if (parse_channel(content, &c, &why)) node.label += " " + std::to_string(c.id) + " " + c.topic;
  } else if (inner.op == kOpSchema) {
    Schema s;
    if (parse_schema(content, &s, &why)) node.label += " " + std::to_string(s.id) + " " + s.name;
  }
  // Inner records have file positions only in an uncompressed chunk.
  if (chunk->header_ok && chunk->header.compression.empty()) {
    node.offset = chunk->offset + kRecordPrefix + chunk->header.records_offset + inner.offset;
    node.length = inner.end() - inner.offset;
  } else {
    node.offset = chunk->offset;
    node.length = 0;
  }
  return node;
}

uint64_t McapInspector::child_count(const std::string& id) {
  read_whole_summary();
  if (id.empty()) return records().size();
  auto ref = parse_ref(id);
  if (!ref || ref->inner || ref->record >= records().size()) return 0;
  const LoadedChunk* chunk = chunk_at(ref->record);
  return chunk ? chunk->inner.size() : 0;
}

std::vector<TreeNode> McapInspector::children(const std::string& id, uint64_t first, uint64_t count) {
  read_whole_summary();
  std::vector<TreeNode> out;
  uint64_t total = child_count(id);
  if (first >= total) return out;
  uint64_t last = std::min(total, first + std::min<uint64_t>(count, 100000));
  if (id.empty()) {
    for (uint64_t k = first; k < last; ++k) {
      out.push_back(record_node(static_cast<size_t>(k)));
    }
    return out;
  }
  auto ref = parse_ref(id);
  for (uint64_t j = first; j < last; ++j) out.push_back(inner_node(ref->record, static_cast<size_t>(j)));
  return out;
}

std::vector<std::string> McapInspector::locate(uint64_t offset) {
  read_whole_summary();
  const std::vector<RecordFrame>& list = records();
  auto it = std::upper_bound(list.begin(), list.end(), offset, [](uint64_t o, const RecordFrame& f) { return o < f.offset; });
  if (it == list.begin()) return {};
  size_t k = static_cast<size_t>(it - list.begin() - 1);
  const RecordFrame& f = list[k];
  if (offset >= f.end()) return {};
  std::string id = NodeId::one('r', {k});
  if (f.op != kOpChunk) return {id};
  const LoadedChunk* chunk = chunk_at(k);
  if (!chunk || !chunk->header_ok || !chunk->header.compression.empty()) return {id};
  uint64_t records_at = f.content_offset() + chunk->header.records_offset;
  if (offset < records_at || offset - records_at >= chunk->bytes().size()) return {id};
  uint64_t in = offset - records_at;
  auto r = std::upper_bound(chunk->inner.begin(), chunk->inner.end(), in, [](uint64_t o, const RecordFrame& x) { return o < x.offset; });
  if (r == chunk->inner.begin() || in >= (r - 1)->end()) return {id};
  return {id, id + "/" + NodeId::one('m', {static_cast<uint64_t>(r - chunk->inner.begin() - 1)})};
}

std::vector<Span> McapInspector::spans(uint64_t offset, uint64_t length) {
  read_whole_summary();
  std::vector<Span> out;
  uint64_t end = length > UINT64_MAX - offset ? UINT64_MAX : offset + length;
  auto overlaps = [&](uint64_t o, uint64_t l) { return o < end && o + l > offset; };
  if (overlaps(0, model_.magic_size)) out.push_back(Span{0, model_.magic_size, "magic", "header", {}});
  if (model_.has_footer && overlaps(model_.file_size - kMagicSize, kMagicSize))
    out.push_back(Span{model_.file_size - kMagicSize, kMagicSize, "magic", "trailer", {}});
  const std::vector<RecordFrame>& list = records();
  auto it = std::upper_bound(list.begin(), list.end(), offset, [](uint64_t o, const RecordFrame& f) { return o < f.offset; });
  if (it != list.begin()) --it;
  for (; it != list.end() && it->offset < end && out.size() < kMaxSpans; ++it) {
    const RecordFrame& f = *it;
    uint64_t record_end = std::min(f.end(), model_.file_size);
    if (!overlaps(f.offset, record_end - f.offset)) continue;
    Span s{f.offset, record_end - f.offset, op_name(f.op), kind_for(f.op), {}};
    s.children.push_back(Span{f.offset, 1, "opcode", "header", {}});
    s.children.push_back(Span{f.offset + 1, 8, "length", "header", {}});
    Span body{f.content_offset(), record_end - std::min(record_end, f.content_offset()), "content", kind_for(f.op), {}};
    if (f.op == kOpChunk) {
      size_t k = static_cast<size_t>(it - list.begin());
      const LoadedChunk* chunk = chunk_at(k);
      if (chunk && chunk->header_ok) {
        uint64_t records_at = f.content_offset() + chunk->header.records_offset;
        body.children.push_back(Span{f.content_offset(), chunk->header.records_offset, "chunk fields", "header", {}});
        Span records{records_at, chunk->header.records_size, chunk->header.compression.empty() ? "records" : "records (" + chunk->header.compression + ")",
                     chunk->header.compression.empty() ? "record" : "compressed", {}};
        if (chunk->header.compression.empty())
          for (const RecordFrame& inner : chunk->inner) {
            if (records.children.size() >= kMaxSpans) break;
            uint64_t at = records_at + inner.offset;
            if (overlaps(at, inner.end() - inner.offset))
              records.children.push_back(Span{at, inner.end() - inner.offset, op_name(inner.op), kind_for(inner.op), {}});
          }
        body.children.push_back(std::move(records));
      }
    } else if (f.op == kOpMessage && f.length >= MessageHeader::kSize) {
      body.children.push_back(Span{f.content_offset(), MessageHeader::kSize, "message fields", "header", {}});
      body.children.push_back(Span{f.content_offset() + MessageHeader::kSize, f.length - MessageHeader::kSize, "data", "payload", {}});
    }
    s.children.push_back(std::move(body));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace logscope::mcap
