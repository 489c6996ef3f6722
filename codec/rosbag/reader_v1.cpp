// V1.2 (indexed: per-topic INDEX_DATA ver 0 at index_pos; unindexed: scan) and V1.1 (plain stream).
// V1.x has no connection ids: a connection per topic, numbered in order of first appearance.
#include <algorithm>
#include <cstdio>

#include "rosbag/reader.h"
#include "rosbag/v1_walk.h"

namespace logscope::rosbag {
namespace {

std::string at(uint64_t offset) { return "at byte " + std::to_string(offset); }

// The connection of `topic`, created on first sight; flags a topic whose type or md5 changes.
uint32_t topic_connection(Bag* bag, const std::string& topic, const std::string& type, const std::string& md5, uint64_t offset) {
  for (const Connection& c : bag->connections) {
    if (c.topic != topic) continue;
    if ((!type.empty() && c.type != type) || (!md5.empty() && c.md5 != md5))
      bag->problem(Severity::Warning, offset, "rosbag.topic.conflicting_types",
                   "topic " + topic + " changes from " + c.type + " [" + c.md5 + "] to " + type + " [" + md5 + "] " + at(offset));
    return c.id;
  }
  Connection c;
  c.id = static_cast<uint32_t>(bag->connections.size());
  c.topic = topic;
  c.type = type;
  c.md5 = md5;
  c.record_offset = offset;
  c.has_connection_header = true;
  bag->add_connection(c);
  return c.id;
}

void finish_messages(Bag* bag) {
  std::stable_sort(bag->messages.begin(), bag->messages.end(),
                   [](const MessageRef& a, const MessageRef& b) { return a.time_ns < b.time_ns; });
}

void finish_recovery_message(Bag* bag) {
  Recovery& r = bag->recovery;
  r.recovered_messages = bag->messages.size();
  char buf[200];
  if (r.reason.empty())
    std::snprintf(buf, sizeof buf, "scanned every record: %zu messages", bag->messages.size());
  else
    std::snprintf(buf, sizeof buf, "recovered %zu messages; reading stopped at byte %llu", bag->messages.size(),
                  static_cast<unsigned long long>(r.ends_at));
  r.message = buf;
  if (!r.reason.empty() && !bag->cancelled)
    bag->problem(Severity::Error, r.ends_at, "rosbag.recovery.stopped",
                 r.reason + "; " + std::to_string(bag->file_size - r.ends_at) + " bytes after it are not read");
}

// The walk's end as the bag's recovery (the scan recovered what the walk delivered).
void note_walk_end(Bag* bag, const V1WalkEnd& end) {
  Recovery& r = bag->recovery;
  r.performed = true;
  r.ends_at = end.reason.empty() ? bag->file_size : end.ends_at;
  r.reason = end.reason;
  if (end.cancelled) bag->cancelled = true;
}

// V1.2 scan: MSG_DEF and MSG_DATA records one after the other (an index, if any, is skipped).
void scan_v12(ByteSource& source, Bag* bag, uint64_t from, const ProgressFn& progress) {
  V1WalkEnd end = walk_v12_records(source, from, [&](const V1Record& record) {
    uint64_t pos = record.offset;
    bag->records.push_back(pos);
    if (record.op == kOpMessageDefinition) {
      uint32_t id = topic_connection(bag, std::string(record.topic), std::string(record.type), std::string(record.md5), pos);
      Connection& c = bag->connections[bag->by_id[id]];
      if (c.definition.empty()) c.definition = std::string(record.definition);
    } else if (record.op == kOpMessageData) {
      if (!record.has_time)
        bag->problem(Severity::Error, pos, "rosbag.message.malformed", "message record " + at(pos) + " lacks sec/nsec");
      uint32_t id = topic_connection(bag, std::string(record.topic), std::string(record.type), std::string(record.md5), pos);
      Connection& c = bag->connections[bag->by_id[id]];
      if (c.callerid.empty()) c.callerid = std::string(record.callerid);
      if (record.latching) c.latching = true;
      bag->messages.push_back(MessageRef{record.time.ns(), pos, id});
    } else if (record.op != kOpIndexData && record.op != kOpBagHeader) {
      bag->problem(Severity::Warning, pos, "rosbag.record.unexpected",
                   std::string("unexpected ") + op_name(record.op) + " record (op " + std::to_string(record.op) + ") " + at(pos) + " skipped");
    }
    return true;
  }, progress);
  note_walk_end(bag, end);
  finish_messages(bag);
  finish_recovery_message(bag);
}

// Reads the MSG_DEF / MSG_DATA header at `offset` into `c` (type, md5, definition).
bool read_definition_at(ByteSource& source, uint64_t offset, Connection* c) {
  RecordFrame frame;
  std::string header, why;
  HeaderFields fields;
  if (read_record(source, offset, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header)) return false;
  int op = fields.op();
  if (op != kOpMessageDefinition && op != kOpMessageData) return false;
  c->type = fields.str("type");
  c->md5 = fields.str("md5");
  c->record_offset = offset;
  if (op == kOpMessageDefinition) c->definition = fields.str("def");
  return true;
}

void open_v12(ByteSource& source, Bag* bag, const ProgressFn& progress) {
  V12Start start = read_v12_start(source);
  bag->header_offset = start.header_offset;
  bag->has_header = start.has_header;
  bag->first_record_offset = start.first_record;
  bag->index_pos = start.index_pos;
  RecordFrame frame;
  std::string why;
  HeaderFields fields;
  uint64_t size = bag->file_size;
  if (!bag->has_header || bag->index_pos == 0) {
    if (bag->has_header)
      bag->problem(Severity::Warning, bag->header_offset, "rosbag.index.missing",
                   "index_pos is 0: the bag was never closed (a crashed recording); reading it by scanning every record");
    scan_v12(source, bag, bag->first_record_offset, progress);
    return;
  }
  if (bag->index_pos < bag->first_record_offset || bag->index_pos > size) {
    bag->problem(Severity::Error, bag->header_offset, "rosbag.index.bad_pos",
                 "index_pos " + std::to_string(bag->index_pos) + " lies outside the file; reading it by scanning every record");
    scan_v12(source, bag, bag->first_record_offset, progress);
    return;
  }
  std::vector<uint8_t> index = source.read_vector(bag->index_pos, static_cast<size_t>(size - bag->index_pos));
  bool usable = true;
  for (size_t pos = 0; pos < index.size();) {
    std::string_view hv;
    uint64_t offset = bag->index_pos + pos;
    if (parse_record(index.data(), index.size(), pos, &frame, &hv, &why) != FrameStatus::Ok || !fields.parse(hv) ||
        fields.op() != kOpIndexData) {
      bag->problem(Severity::Error, offset, "rosbag.index.malformed", "index record " + at(offset) + " is malformed" + (why.empty() ? "" : ": " + why));
      usable = false;
      break;
    }
    bag->index_records.push_back(offset);
    uint32_t ver = 1, count = 0;
    fields.u32("ver", &ver);
    fields.u32("count", &count);
    if (ver != 0) {
      bag->problem(Severity::Error, offset, "rosbag.index.version", "V1.2 index record " + at(offset) + " has version " + std::to_string(ver) + " (expected 0)");
      usable = false;
      break;
    }
    uint64_t fits = frame.data_len / 16;
    if (count > fits) {
      bag->problem(Severity::Error, offset, "rosbag.index.count_mismatch",
                   "index record " + at(offset) + " declares " + std::to_string(count) + " entries but holds " + std::to_string(fits));
      count = static_cast<uint32_t>(fits);
    }
    std::string topic = fields.str("topic");
    Connection c;
    c.id = static_cast<uint32_t>(bag->connections.size());
    c.topic = topic;
    c.type = fields.str("type");
    c.has_connection_header = true;
    const uint8_t* entries = index.data() + frame.data_offset();
    // Problems are placed where the bad entry lies, not where it points (possibly past the end).
    auto entry_at = [&](const uint8_t* e) { return bag->index_pos + static_cast<uint64_t>(e - index.data()); };
    if (count > 0 && !read_definition_at(source, load_u64(entries + 8), &c))
      bag->problem(Severity::Error, entry_at(entries), "rosbag.index.bad_offset",
                   "the first index entry of topic " + topic + " points at byte " + std::to_string(load_u64(entries + 8)) + ", which holds no message record");
    if (c.definition.empty())
      bag->problem(Severity::Warning, c.record_offset, "rosbag.connection.no_definition", "topic " + topic + " has no message definition record");
    for (uint32_t i = 0; i < count; ++i) {
      const uint8_t* e = entries + i * 16;
      uint64_t target = load_u64(e + 8);
      if (target < bag->first_record_offset || target >= bag->index_pos) {
        bag->problem(Severity::Error, entry_at(e), "rosbag.index.bad_offset",
                     "index entry " + at(entry_at(e)) + " of topic " + topic + " points at byte " + std::to_string(target) +
                         ", outside the message records; the entry is dropped");
        continue;
      }
      bag->messages.push_back(MessageRef{Time{load_u32(e), load_u32(e + 4)}.ns(), load_u64(e + 8), c.id});
    }
    bag->add_connection(std::move(c));
    pos = static_cast<size_t>(frame.end());
  }
  if (!usable) {
    bag->connections.clear();
    bag->by_id.clear();
    bag->messages.clear();
    scan_v12(source, bag, bag->first_record_offset, progress);
    return;
  }
  bag->indexed = true;
  bag->index_end = size;
  finish_messages(bag);
}

// V1.1: `topic\n md5\n type\n` then sec, nsec, len and the message bytes, repeated.
void scan_v11(ByteSource& source, Bag* bag, const ProgressFn& progress) {
  bag->first_record_offset = kV1VersionLineLength;
  V1WalkEnd end = walk_v11_messages(source, kV1VersionLineLength, [&](const V1Record& record) {
    bag->records.push_back(record.offset);
    uint32_t id = topic_connection(bag, std::string(record.topic), std::string(record.type), std::string(record.md5), record.offset);
    bag->messages.push_back(MessageRef{record.time.ns(), record.offset, id});
    return true;
  }, progress);
  note_walk_end(bag, end);
  finish_messages(bag);
  finish_recovery_message(bag);
}

}  // namespace

V1WalkEnd walk_v12_records(ByteSource& source, uint64_t from, const V1RecordFn& fn, const ProgressFn& progress) {
  V1WalkEnd end;
  uint64_t size = source.size();
  end.ends_at = size;
  ProgressTicker ticker(progress, size);
  std::string header, why;
  HeaderFields fields;
  for (uint64_t pos = from; pos < size;) {
    if (!ticker.update(pos)) {
      end.cancelled = true;
      end.ends_at = pos;
      end.reason = "cancelled";
      break;
    }
    RecordFrame frame;
    FrameStatus status = read_record(source, pos, &frame, &header, &why);
    if (status == FrameStatus::AtEnd) break;
    if (status != FrameStatus::Ok || !fields.parse(header)) {
      end.ends_at = pos;
      end.reason = "record " + at(pos) + " is incomplete or malformed: " + why;
      break;
    }
    V1Record record;
    record.offset = pos;
    record.end = frame.end();
    record.op = fields.op();
    record.data_offset = frame.data_offset();
    record.data_len = frame.data_len;
    auto view = [&](std::string_view name) {
      const std::string_view* v = fields.find(name);
      return v ? *v : std::string_view();
    };
    record.topic = view("topic");
    record.type = view("type");
    record.md5 = view("md5");
    if (record.op == kOpMessageDefinition) record.definition = view("def");
    if (record.op == kOpMessageData) {
      uint32_t sec = 0, nsec = 0;
      record.has_time = fields.u32("sec", &sec) && fields.u32("nsec", &nsec);
      record.time = Time{sec, nsec};
      record.callerid = view("callerid");
      record.latching = view("latching") == "1";
    }
    if (!fn(record)) {
      end.stopped = true;
      end.ends_at = record.end;
      break;
    }
    pos = frame.end();
  }
  return end;
}

V1WalkEnd walk_v11_messages(ByteSource& source, uint64_t from, const V1RecordFn& fn, const ProgressFn& progress) {
  V1WalkEnd end;
  uint64_t size = source.size();
  end.ends_at = size;
  ProgressTicker ticker(progress, size);
  std::vector<uint8_t> window;
  for (uint64_t pos = from; pos < size;) {
    if (!ticker.update(pos)) {
      end.cancelled = true;
      end.ends_at = pos;
      end.reason = "cancelled";
      break;
    }
    window = source.read_vector(pos, 4096);
    std::string_view text(reinterpret_cast<const char*>(window.data()), window.size());
    size_t nl1 = text.find('\n'), nl2 = nl1 == text.npos ? text.npos : text.find('\n', nl1 + 1),
           nl3 = nl2 == text.npos ? text.npos : text.find('\n', nl2 + 1);
    if (nl3 == text.npos || window.size() < nl3 + 1 + 12) {
      end.ends_at = pos;
      end.reason = "message " + at(pos) + " is incomplete (its topic, md5sum and type lines or its 12-byte time and length are cut off)";
      break;
    }
    const uint8_t* fixed = window.data() + nl3 + 1;
    uint32_t len = load_u32(fixed + 8);
    uint64_t data_at = pos + nl3 + 1 + 12;
    if (len > size - data_at) {
      end.ends_at = pos;
      end.reason = "message " + at(pos) + " declares " + std::to_string(len) + " bytes but only " + std::to_string(size - data_at) + " remain";
      break;
    }
    V1Record record;
    record.offset = pos;
    record.end = data_at + len;
    record.op = kOpMessageData;
    record.topic = text.substr(0, nl1);
    record.md5 = text.substr(nl1 + 1, nl2 - nl1 - 1);
    record.type = text.substr(nl2 + 1, nl3 - nl2 - 1);
    record.time = Time{load_u32(fixed), load_u32(fixed + 4)};
    record.has_time = true;
    record.data_offset = data_at;
    record.data_len = len;
    if (!fn(record)) {
      end.stopped = true;
      end.ends_at = record.end;
      break;
    }
    pos = record.end;
  }
  return end;
}

V12Start read_v12_start(ByteSource& source) {
  V12Start start;
  start.header_offset = kV1VersionLineLength;
  RecordFrame frame;
  std::string header, why;
  HeaderFields fields;
  FrameStatus status = read_record(source, start.header_offset, &frame, &header, &why);
  if (status == FrameStatus::Ok && fields.parse(header) && fields.op() == kOpBagHeader) {
    start.has_header = true;
    start.first_record = frame.end();
    fields.u64("index_pos", &start.index_pos);
  } else {
    start.first_record = start.header_offset;  // an old unindexed bag starts with messages
  }
  return start;
}

void open_v1(ByteSource& source, Bag* bag, const ProgressFn& progress) {
  if (bag->format == Format::RosbagV12) open_v12(source, bag, progress);
  else scan_v11(source, bag, progress);
}

}  // namespace logscope::rosbag
