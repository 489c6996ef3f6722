// Structure tree and hex spans for the web UI (record_view.cpp decodes a node); node ids in tree.h.
#include "rosbag/tree.h"

#include <algorithm>
#include <cstdlib>

#include "rosbag/inspector_impl.h"

namespace logscope::rosbag {

// Digits from `from` up to the end or a '/', strictly (no sign, no spaces, no overflow):
// node ids are "h", "r<i>", "x<i>", "c<i>", "c<i>/r<k>", "c<i>/i<k>".
bool parse_node_index(const std::string& text, size_t from, uint64_t* out) {
  size_t end = text.find('/', from);
  if (end == std::string::npos) end = text.size();
  if (from >= end) return false;
  uint64_t value = 0;
  for (size_t i = from; i < end; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *out = value;
  return true;
}

namespace {

constexpr size_t kMaxSpans = 2000;  // a hex view shows a few KB; never build spans for a whole file

std::string label_for(int op, const HeaderFields& fields, const Bag& bag) {
  std::string label = op_name(op);
  uint32_t conn = 0;
  if (fields.u32("conn", &conn)) {
    if (const Connection* c = bag.connection(conn)) label += " " + c->topic;
    else label += " conn " + std::to_string(conn);
  } else if (fields.has("topic")) {
    label += " " + fields.str("topic");
  }
  return label;
}

const char* kind_for(int op) {
  switch (op) {
    case kOpBagHeader: return "header";
    case kOpChunk: return "chunk";
    case kOpMessageData: return "data";
    case kOpConnection: case kOpMessageDefinition: return "connection";
    case kOpIndexData: case kOpChunkInfo: return "index";
  }
  return "record";
}

}  // namespace

const std::vector<size_t>& BagInspector::chunks_by_position() {
  if (chunk_order_.size() != bag_.chunks.size()) {
    chunk_order_.resize(bag_.chunks.size());
    for (size_t i = 0; i < chunk_order_.size(); ++i) chunk_order_[i] = i;
    std::sort(chunk_order_.begin(), chunk_order_.end(), [&](size_t a, size_t b) { return bag_.chunks[a].pos < bag_.chunks[b].pos; });
  }
  return chunk_order_;
}

std::vector<uint32_t> chunk_record_offsets(const LoadedChunk& chunk) {
  std::vector<uint32_t> offsets;
  RecordFrame frame;
  std::string_view header;
  std::string why;
  for (size_t pos = 0; pos < chunk.size;) {
    if (parse_record(chunk.data, chunk.size, pos, &frame, &header, &why) != FrameStatus::Ok) break;
    offsets.push_back(static_cast<uint32_t>(pos));
    pos = static_cast<size_t>(frame.end());
  }
  return offsets;
}

// The tree's children of chunk `index` among its index data records: those that start inside the
// chunk node. A damaged index_pos can put some in the index section, where they are its records.
std::vector<std::pair<uint64_t, uint64_t>> BagInspector::chunk_index_children(size_t index) {
  std::vector<std::pair<uint64_t, uint64_t>> records = chunk_index_records(source_, &bag_, index);
  uint64_t end = chunk_extent_end(index);
  while (!records.empty() && records.back().first >= end) records.pop_back();
  return records;
}

uint64_t record_length(ByteSource& source, uint64_t offset) {
  RecordFrame frame;
  std::string header, why;
  if (read_record(source, offset, &frame, &header, &why) != FrameStatus::Ok) return 0;
  return frame.end() - offset;
}

// Where chunk i's tree node ends. The node groups the chunk record and the index data records
// after it: it reaches the next chunk (or the index section, or the end of the file), and at
// least the end of the chunk record.
uint64_t BagInspector::chunk_extent_end(size_t i) {
  read_chunk_header(source_, &bag_, i);
  const Chunk& c = bag_.chunks[i];
  const std::vector<size_t>& order = chunks_by_position();
  auto next = std::upper_bound(order.begin(), order.end(), c.pos, [&](uint64_t o, size_t k) { return o < bag_.chunks[k].pos; });
  uint64_t extent_end = bag_.file_size;
  if (next != order.end()) extent_end = std::min(extent_end, bag_.chunks[*next].pos);
  if (bag_.index_pos > c.pos) extent_end = std::min(extent_end, bag_.index_pos);
  uint64_t record_end = c.header_ok ? std::min(c.record_end(), bag_.file_size) : c.pos;
  return std::max(extent_end, record_end);
}

TreeNode BagInspector::chunk_node(size_t i) {
  read_chunk_header(source_, &bag_, i);
  const Chunk& c = bag_.chunks[i];
  TreeNode node;
  node.id = "c" + std::to_string(i);
  node.kind = "chunk";
  node.offset = c.pos;
  node.length = chunk_extent_end(i) - c.pos;
  node.label = "chunk " + std::to_string(i) + " (" + (c.compression.empty() ? "?" : c.compression) + ", " +
               std::to_string(c.message_count()) + " messages, " + format_time(c.start) + " - " + format_time(c.end) + ")";
  // An estimate until the chunk is expanded: messages plus their index records.
  node.child_count = c.message_count() + c.counts.size();
  return node;
}

TreeNode BagInspector::record_node(const std::string& id, uint64_t offset) {
  TreeNode node;
  node.id = id;
  node.offset = offset;
  RecordFrame frame;
  std::string header, why;
  HeaderFields fields;
  if (bag_.version == 101) {
    node.kind = "data";
    node.label = "message";
    // V1.1 messages are not header_len framed: one reaches the next (or the end of the file).
    auto next = std::upper_bound(bag_.records.begin(), bag_.records.end(), offset);
    uint64_t end = next == bag_.records.end() ? bag_.file_size : *next;
    node.length = end > offset ? end - offset : 0;
    return node;
  }
  if (read_record(source_, offset, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header)) {
    node.kind = "record";
    node.label = "unreadable record: " + why;
    return node;
  }
  node.length = frame.end() - offset;
  node.kind = kind_for(fields.op());
  node.label = label_for(fields.op(), fields, bag_);
  return node;
}

// V1.x top-level records: those the scan found, or (indexed V1.2, opened from its index) the
// message records the index lists, sorted once on first use. Every reader goes through here, so
// the tree, locate and spans agree whatever is called first.
const std::vector<uint64_t>& BagInspector::top_records() {
  if (bag_.version == 200 || !bag_.records.empty()) return bag_.records;
  if (!v1_records_) {
    v1_records_.emplace();
    v1_records_->reserve(bag_.messages.size());
    for (const MessageRef& m : bag_.messages) v1_records_->push_back(m.offset);
    std::sort(v1_records_->begin(), v1_records_->end());
  }
  return *v1_records_;
}

uint64_t BagInspector::child_count(const std::string& id) {
  if (id.empty()) {
    uint64_t n = bag_.has_header ? 1 : 0;
    if (bag_.version == 200) return n + bag_.chunks.size() + bag_.index_records.size();
    return n + top_records().size() + bag_.index_records.size();
  }
  uint64_t i;
  if (id[0] == 'c' && id.find('/') == std::string::npos && parse_node_index(id, 1, &i) && i < bag_.chunks.size()) {
    const LoadedChunk* chunk = cached_chunk(i);
    return (chunk ? chunk_record_offsets(*chunk).size() : 0) + chunk_index_children(i).size();
  }
  return 0;
}

std::vector<TreeNode> BagInspector::children(const std::string& id, uint64_t first, uint64_t count) {
  std::vector<TreeNode> out;
  uint64_t total = child_count(id);
  // A page of chunk nodes reads each chunk's header: announced together, a remote file fetches
  // them in one window, not a round trip a chunk.
  std::vector<ByteRange> heads;
  if (id.empty() && bag_.version == 200) {
    uint64_t skip = bag_.has_header ? 1 : 0;
    for (uint64_t k = std::max(first, skip); k < total && k < first + count && k - skip < bag_.chunks.size(); ++k)
      plan_chunk_head(bag_, static_cast<size_t>(k - skip), &heads);
  }
  PlannedReads planned(source_, std::move(heads));
  for (uint64_t k = first; k < total && k < first + count; ++k) {
    if (id.empty()) {
      uint64_t j = k;
      if (bag_.has_header) {
        if (j == 0) {
          TreeNode h = record_node("h", bag_.header_offset);
          h.label = bag_.version == 200 ? "bag header" : "file header";
          out.push_back(h);
          continue;
        }
        --j;
      }
      uint64_t body = bag_.version == 200 ? bag_.chunks.size() : top_records().size();
      if (j < body) {
        out.push_back(bag_.version == 200 ? chunk_node(j) : record_node("r" + std::to_string(j), top_records()[j]));
      } else {
        j -= body;
        out.push_back(record_node("x" + std::to_string(j), bag_.index_records[j]));
      }
      continue;
    }
    uint64_t i = 0;
    parse_node_index(id, 1, &i);
    const LoadedChunk* chunk = cached_chunk(i);
    std::vector<uint32_t> inner = chunk ? chunk_record_offsets(*chunk) : std::vector<uint32_t>();
    if (k < inner.size()) {
      TreeNode node;
      node.id = id + "/r" + std::to_string(k);
      std::string_view header;
      RecordFrame frame;
      std::string why;
      parse_record(chunk->data, chunk->size, inner[k], &frame, &header, &why);
      HeaderFields fields;
      fields.parse(header);
      node.kind = kind_for(fields.op());
      node.label = label_for(fields.op(), fields, bag_);
      uint32_t sec = 0;
      Time t;
      if (fields.time("time", &t)) node.label += " @ " + format_time(t), (void)sec;
      const Chunk& c = bag_.chunks[i];
      // Inner records have file positions only in an uncompressed chunk.
      node.offset = c.compression == "none" ? c.data_offset() + inner[k] : c.pos;
      node.length = c.compression == "none" ? frame.end() - inner[k] : 0;
      out.push_back(node);
    } else {
      auto index = chunk_index_children(i);
      uint64_t j = k - inner.size();
      if (j < index.size()) {
        TreeNode node = record_node(id + "/i" + std::to_string(j), index[j].first);
        // Some early V2.0 writers declared index data longer than written (20-byte entries for
        // 12-byte ones), overlapping the next chunk: the node stops where the next one starts.
        TreeNode group = chunk_node(i);
        uint64_t group_end = group.offset + group.length;
        if (node.offset + node.length > group_end && node.offset < group_end) {
          node.label += " (declares " + std::to_string(node.offset + node.length - group_end) + " bytes more, overlapping the next record)";
          node.length = group_end - node.offset;
        }
        out.push_back(node);
      }
    }
  }
  return out;
}

std::vector<std::string> BagInspector::locate(uint64_t offset) {
  if (offset >= bag_.file_size) return {};
  // The version line is no node (spans() shows it): only the header record from its offset on.
  if (bag_.has_header && offset < bag_.first_record_offset) return offset >= bag_.header_offset ? std::vector<std::string>{"h"} : std::vector<std::string>{};
  for (size_t k = 0; k < bag_.index_records.size(); ++k)
    if (offset >= bag_.index_records[k] && offset - bag_.index_records[k] < record_length(source_, bag_.index_records[k]))
      return {"x" + std::to_string(k)};
  if (bag_.version != 200) {
    const std::vector<uint64_t>& records = top_records();
    auto it = std::upper_bound(records.begin(), records.end(), offset);
    if (it == records.begin()) return {};
    size_t k = static_cast<size_t>(it - records.begin() - 1);
    TreeNode node = record_node("r" + std::to_string(k), records[k]);
    if (offset - node.offset < node.length) return {node.id};
    return {};
  }
  const std::vector<size_t>& order = chunks_by_position();
  auto it = std::upper_bound(order.begin(), order.end(), offset, [&](uint64_t o, size_t c) { return o < bag_.chunks[c].pos; });
  if (it == order.begin()) return {};
  size_t i = *(it - 1);
  TreeNode group = chunk_node(i);  // reads the chunk header
  if (offset - group.offset >= group.length) return {};
  const Chunk& c = bag_.chunks[i];
  std::string id = group.id;
  if (c.header_ok && c.compression == "none" && offset >= c.data_offset() && offset < c.record_end()) {
    const LoadedChunk* chunk = cached_chunk(i);
    if (chunk) {
      auto inner = chunk_record_offsets(*chunk);
      uint64_t in_chunk = offset - c.data_offset();
      auto r = std::upper_bound(inner.begin(), inner.end(), static_cast<uint32_t>(in_chunk));
      if (r != inner.begin()) {
        // Only if that record reaches the offset: after a damaged record the rest belongs to the chunk.
        RecordFrame frame;
        std::string_view header;
        std::string why;
        parse_record(chunk->data, chunk->size, *(r - 1), &frame, &header, &why);
        if (in_chunk < frame.end()) return {id, id + "/r" + std::to_string(r - inner.begin() - 1)};
      }
    }
  }
  if (c.header_ok && offset >= c.record_end()) {
    auto index = chunk_index_children(i);
    for (size_t k = 0; k < index.size(); ++k)
      if (offset >= index[k].first && offset < index[k].first + index[k].second) return {id, id + "/i" + std::to_string(k)};
  }
  return {id};
}

std::vector<Span> BagInspector::spans(uint64_t offset, uint64_t length) {
  std::vector<Span> out;
  uint64_t end = offset + length;
  auto overlaps = [&](uint64_t o, uint64_t l) { return o < end && o + l > offset; };
  auto record_span = [&](uint64_t at, const std::string& name, const std::string& kind) {
    Span s{at, record_length(source_, at), name, kind, {}};
    RecordFrame frame;
    std::string header, why;
    if (read_record(source_, at, &frame, &header, &why) == FrameStatus::Ok) {
      s.children.push_back(Span{at, 4, "header_len", "length", {}});
      s.children.push_back(Span{at + 4, frame.header_len, "header", "header", {}});
      s.children.push_back(Span{at + 4 + frame.header_len, 4, "data_len", "length", {}});
      s.children.push_back(Span{frame.data_offset(), frame.data_len, "data", kind, {}});
    }
    return s;
  };
  uint64_t version_line = bag_.version == 200 ? kV20VersionLineLength : kV1VersionLineLength;
  if (overlaps(0, version_line)) out.push_back(Span{0, version_line, "version line", "magic", {}});
  if (bag_.has_header && overlaps(bag_.header_offset, bag_.first_record_offset - bag_.header_offset))
    out.push_back(record_span(bag_.header_offset, bag_.version == 200 ? "bag header" : "file header", "header"));
  if (bag_.version != 200) {
    auto it = std::upper_bound(top_records().begin(), top_records().end(), offset);
    if (it != top_records().begin()) --it;
    for (; it != top_records().end() && *it < end && out.size() < kMaxSpans; ++it) {
      if (bag_.version == 101) continue;
      Span s = record_span(*it, "record", "data");
      if (overlaps(s.offset, s.length)) out.push_back(std::move(s));
    }
  } else {
    const std::vector<size_t>& order = chunks_by_position();
    auto it = std::upper_bound(order.begin(), order.end(), offset, [&](uint64_t o, size_t c) { return o < bag_.chunks[c].pos; });
    if (it != order.begin()) --it;
    for (; it != order.end() && bag_.chunks[*it].pos < end && out.size() < kMaxSpans; ++it) {
      read_chunk_header(source_, &bag_, *it);
      const Chunk& c = bag_.chunks[*it];
      if (!c.header_ok) continue;
      if (overlaps(c.pos, c.record_end() - c.pos)) {
        Span s = record_span(c.pos, "chunk " + std::to_string(*it) + " (" + c.compression + ")", "chunk");
        if (c.compression == "none" && !s.children.empty()) {
          const LoadedChunk* chunk = cached_chunk(*it);
          for (uint32_t inner : chunk ? chunk_record_offsets(*chunk) : std::vector<uint32_t>()) {
            RecordFrame frame;
            std::string_view header;
            std::string why;
            parse_record(chunk->data, chunk->size, inner, &frame, &header, &why);
            uint64_t at = c.data_offset() + inner;
            if (!overlaps(at, frame.end() - inner)) continue;
            HeaderFields fields;
            fields.parse(header);
            s.children.back().children.push_back(Span{at, frame.end() - inner, label_for(fields.op(), fields, bag_), kind_for(fields.op()), {}});
            if (s.children.back().children.size() > kMaxSpans) break;
          }
        }
        out.push_back(std::move(s));
      }
      for (const auto& index : chunk_index_children(*it))
        if (overlaps(index.first, index.second)) out.push_back(record_span(index.first, "index data", "index"));
    }
    for (uint64_t at : bag_.index_records) {
      if (at >= end || out.size() >= kMaxSpans) break;
      Span s = record_span(at, "index section record", "index");
      if (overlaps(s.offset, s.length)) out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace logscope::rosbag
